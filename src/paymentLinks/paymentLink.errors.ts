import { DomainError } from '../platform/domainError.ts';

/** Not a payment link of this account (or no such link). */
export class PaymentLinkNotFound extends DomainError {}
