import { DomainError, type DocumentProblem } from '../platform/domainError.ts';

/** Below the account's configured minimum. */
export class AmountBelowMinimum extends DomainError {
  readonly minimumCents: number;
  constructor(minimumCents: number) {
    super();
    this.minimumCents = minimumCents;
  }
}

/** Too small to leave at least 1 cent after the account's fixed fee. */
export class AmountBelowPermitted extends DomainError {
  readonly minimumCents: number;
  constructor(minimumCents: number) {
    super();
    this.minimumCents = minimumCents;
  }
}

/** Above the account's configured maximum. */
export class AmountAboveMaximum extends DomainError {
  readonly maximumCents: number;
  constructor(maximumCents: number) {
    super();
    this.maximumCents = maximumCents;
  }
}

/** Above the platform ceiling per charge, which no account range lifts. */
export class AmountAbovePermitted extends DomainError {
  readonly maximumCents: number;
  constructor(maximumCents: number) {
    super();
    this.maximumCents = maximumCents;
  }
}

/** `customer.document.type` that is neither cpf nor cnpj after normalisation. */
export class InvalidCustomerDocumentType extends DomainError {
  readonly received: unknown;
  constructor(received: unknown) {
    super();
    this.received = received;
  }
}

/** `customer.document.number` that is not a valid document of its declared type. */
export class InvalidCustomerDocument extends DomainError {
  readonly documentType: 'cpf' | 'cnpj';
  readonly problem: DocumentProblem;
  /** Digits received (after stripping the formatting), for the length texts. */
  readonly digits: number;
  constructor(documentType: 'cpf' | 'cnpj', problem: DocumentProblem, digits: number) {
    super();
    this.documentType = documentType;
    this.problem = problem;
    this.digits = digits;
  }
}

/** The account used its charges of this UTC hour (200 by default). */
export class ChargeRateLimited extends DomainError {}

/** The PSP could not register the charge (transient): nothing was created, retry with the externalRef. */
export class ProviderUnavailable extends DomainError {}

export class ChargeNotFound extends DomainError {}

/** A sandbox or PSP action that needs another charge status. */
export class ChargeInWrongStatus extends DomainError {
  readonly action: 'pay' | 'end' | 'refund';
  readonly status: string;
  constructor(action: 'pay' | 'end' | 'refund', status: string) {
    super();
    this.action = action;
    this.status = status;
  }
}

/** A refund larger than what is left of the charge. */
export class RefundExceedsCharge extends DomainError {}

/** The withdrawable balance does not cover a refund. */
export class RefundNotCovered extends DomainError {}

/** No unmatched received Pix has this end-to-end id. */
export class UnmatchedPixNotFound extends DomainError {}

/** The unmatched received Pix was resolved already. */
export class UnmatchedPixAlreadyResolved extends DomainError {}
