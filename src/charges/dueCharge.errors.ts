import { DomainError } from '../platform/domainError.ts';

/** Not a charge with a due date of this account (or no such transaction). */
export class DueChargeNotFound extends DomainError {}

/** A due date before today (São Paulo). */
export class DueDateInPast extends DomainError {
  readonly today: string;
  constructor(today: string) {
    super();
    this.today = today;
  }
}

/** A due date beyond the last one accepted (five years ahead). */
export class DueDateTooFar extends DomainError {
  readonly last: string;
  constructor(last: string) {
    super();
    this.last = last;
  }
}

/** Which term is malformed: its mode takes another field (or none) than the one sent. */
export type DueTerm = 'fine' | 'interest' | 'discount' | 'rebate';

/** A term whose fields do not fit its mode (an amount where a percentage goes, dates on a per-day mode). */
export class DueTermMalformed extends DomainError {
  readonly term: DueTerm;
  constructor(term: DueTerm) {
    super();
    this.term = term;
  }
}

/** Terms that contradict each other or the amount (API Pix's `CobVOperacaoInvalida` violations). */
export class DueTermsContradict extends DomainError {
  readonly problem: 'discount_date_after_due' | 'duplicate_discount_date' | 'discount_not_below_amount' | 'rebate_not_below_amount';
  readonly date: string | undefined;
  constructor(problem: DueTermsContradict['problem'], date?: string) {
    super();
    this.problem = problem;
    this.date = date;
  }
}

/** The smallest amount the terms can come to (the largest discount, less the rebate) does not cover the fee. */
export class DueAmountBelowPermitted extends DomainError {
  readonly minimumCents: number;
  constructor(minimumCents: number) {
    super();
    this.minimumCents = minimumCents;
  }
}

/** A PATCH with nothing in it. */
export class NothingToChange extends DomainError {}

/** A change or a cancellation of a charge that is no longer pending. */
export class DueChargeNotPending extends DomainError {
  readonly action: 'change' | 'cancel';
  readonly status: string;
  constructor(action: 'change' | 'cancel', status: string) {
    super();
    this.action = action;
    this.status = status;
  }
}

/** `dueTo` before `dueFrom` in a list. */
export class EmptyDueRange extends DomainError {}

/** Over the hourly number of batches (POST /v1/due-charge-batches). */
export class BatchRateLimited extends DomainError {}

/** No such batch of this account. */
export class DueChargeBatchNotFound extends DomainError {}

/** A date of the right shape that no calendar has (`2027-02-30`): the schema's `format: date` checks the shape only. */
export class ImpossibleDate extends DomainError {
  readonly field: 'dueDate' | 'discount' | 'date' | 'dueFrom' | 'dueTo' | 'startDate' | 'endDate';
  readonly value: string;
  constructor(field: ImpossibleDate['field'], value: string) {
    super();
    this.field = field;
    this.value = value;
  }
}

/** GET /v1/due-charges/{id}?date= outside 2000-01-01..2099-12-31 (the holiday table's calendar). */
export class AmountDueDateOutOfRange extends DomainError {
  readonly value: string;
  constructor(value: string) {
    super();
    this.value = value;
  }
}
