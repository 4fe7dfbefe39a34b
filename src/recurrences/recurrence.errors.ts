import { DomainError } from '../platform/domainError.ts';
import type { RecurrenceStatus } from '../db/schema.ts';

/** Not a recurrence of this account (or no such recurrence). */
export class RecurrenceNotFound extends DomainError {}

/** A start date before the first one a cycle's charge can still reach the payer's bank in time, or too far ahead. */
export class RecurrenceStartDate extends DomainError {
  readonly problem: 'too_early' | 'too_far';
  readonly limit: string;
  constructor(problem: RecurrenceStartDate['problem'], limit: string) {
    super();
    this.problem = problem;
    this.limit = limit;
  }
}

/** An end date before the start date. */
export class RecurrenceEndBeforeStart extends DomainError {}

/** Both a fixed amount and a floor for a variable one. */
export class RecurrenceAmountBoth extends DomainError {}

/** The payer's document (its type, or its number) is not a valid CPF or CNPJ. */
export class RecurrencePayerDocument extends DomainError {
  readonly problem: 'type' | 'characters' | 'length' | 'checkDigits';
  readonly documentType: 'cpf' | 'cnpj';
  readonly digits: number;
  readonly received: string;
  constructor(problem: RecurrencePayerDocument['problem'], documentType: 'cpf' | 'cnpj', digits: number, received: string) {
    super();
    this.problem = problem;
    this.documentType = documentType;
    this.digits = digits;
    this.received = received;
  }
}

/** A consent field the journey needs is missing, or one it does not take was sent. */
export class ConsentField extends DomainError {
  readonly field: 'payerAccount' | 'expiresInDays' | 'firstPaymentCents';
  readonly journey: string;
  readonly problem: 'missing' | 'not_for_journey';
  constructor(field: ConsentField['field'], journey: string, problem: ConsentField['problem']) {
    super();
    this.field = field;
    this.journey = journey;
    this.problem = problem;
  }
}

/** The recurrence ended otherwise (rejected, expired): it cannot be cancelled. */
export class RecurrenceNotCancellable extends DomainError {
  readonly status: RecurrenceStatus;
  constructor(status: RecurrenceStatus) {
    super();
    this.status = status;
  }
}

/** The installation's provider offers no Pix Automático. Nothing was created. */
export class RecurrencesUnavailable extends DomainError {}

/** A sandbox action the recurrence's or the cycle's state does not allow now (the payer's bank refused it). */
export class RecurrenceSandboxRefused extends DomainError {
  readonly status: string;
  constructor(status: string) {
    super();
    this.status = status;
  }
}

/** Not a cycle of a recurrence (or no such transaction). */
export class RecurrenceCycleNotFound extends DomainError {}

/** POST /v1/recurrences/{id}/cycles on a recurrence that cannot send one now. */
export class CycleNotSendable extends DomainError {
  readonly problem: 'fixed_amount' | 'not_approved' | 'no_cycle_left' | 'too_early';
  readonly status: string;
  readonly date: string;
  constructor(problem: CycleNotSendable['problem'], status = '', date = '') {
    super();
    this.problem = problem;
    this.status = status;
    this.date = date;
  }
}

/** A variable cycle's amount outside what the payer accepted (their maximum) or the recurrence's floor. */
export class CycleAmountOutOfRange extends DomainError {
  readonly limit: 'payer_maximum' | 'minimum';
  readonly cents: number;
  constructor(limit: CycleAmountOutOfRange['limit'], cents: number) {
    super();
    this.limit = limit;
    this.cents = cents;
  }
}
