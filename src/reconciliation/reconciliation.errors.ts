import { DomainError } from '../platform/domainError.ts';

export class BreakNotFound extends DomainError {}

export class BreakAlreadyResolved extends DomainError {}

/** The break holds money (in suspense, or a difference in what the provider holds): its resolution must say who takes it. */
export class BreakNeedsSettlement extends DomainError {}

/** The settlement cannot be booked: the merchant's balance does not cover it, there is no merchant, or it does not fit the break. */
export class BreakSettlementRefused extends DomainError {}

/** A day that is not `YYYY-MM-DD`, or has not ended in São Paulo yet. */
export class ReconciliationDayInvalid extends DomainError {}
