import { DomainError } from '../platform/domainError.ts';

/** `recipientId` that is not 24 hexadecimal characters. */
export class InvalidRecipientId extends DomainError {}

/** An e-mail, phone or EVP key without a recipientId (Mode 1 pays only the holder's CPF/CNPJ). */
export class ThirdPartyKeyNeedsRecipient extends DomainError {}

/** The service team did not allow this key type for the account. */
export class PixKeyTypeNotAllowed extends DomainError {
  readonly keyType: string;
  constructor(keyType: string) {
    super();
    this.keyType = keyType;
  }
}

/** Mode 1: a CPF key that is not the responsible party's, or a CNPJ key that is not the company's. */
export class KeyNotHolderDocument extends DomainError {
  readonly keyType: 'cpf' | 'cnpj';
  constructor(keyType: 'cpf' | 'cnpj') {
    super();
    this.keyType = keyType;
  }
}

/** Mode 2: a CPF/CNPJ key whose type is not the recipient's document type. */
export class RecipientKeyTypeMismatch extends DomainError {}

/** Mode 2: a CPF/CNPJ key that is not the approved recipient's document. */
export class RecipientKeyMismatch extends DomainError {}

/** Above the account's maximum per withdrawal. */
export class WithdrawalAboveMaximum extends DomainError {
  readonly maximumCents: number;
  constructor(maximumCents: number) {
    super();
    this.maximumCents = maximumCents;
  }
}

/** One of the account's withdrawal windows (1/s, 2/min, 10/h by default) is full. */
export class WithdrawalRateLimited extends DomainError {
  readonly window: 'second' | 'minute' | 'hour';
  /** The UTC hour ends within 10 minutes: the honest advice is to wait a few minutes. */
  readonly hourEndingSoon: boolean;
  constructor(window: 'second' | 'minute' | 'hour', hourEndingSoon: boolean) {
    super();
    this.window = window;
    this.hourEndingSoon = hourEndingSoon;
  }
}

/** Amount plus fee exceeds the withdrawable balance (available − holds − reservations). */
export class InsufficientBalance extends DomainError {}

/** The PSP refused the withdrawal synchronously: rolled back, nothing debited, safe to retry. */
export class WithdrawalProviderFailure extends DomainError {}

/** The configured provider has no send API (PSP=apipix): refused before anything is reserved or sent. */
export class WithdrawalsUnavailable extends DomainError {}

/** The PSP took the withdrawal but its confirmation was cut: done, the merchant must read it, not resend. */
export class WithdrawalConfirmationLost extends DomainError {
  readonly transactionId: string;
  constructor(transactionId: string) {
    super();
    this.transactionId = transactionId;
  }
}

export class WithdrawalNotFound extends DomainError {}

/** An approval, rejection or cancellation of a withdrawal that is no longer waiting for approval. */
export class WithdrawalNotPendingApproval extends DomainError {
  readonly status: string;
  constructor(status: string) {
    super();
    this.status = status;
  }
}

/** A sandbox action the simulated PSP cannot apply to the withdrawal in its current state. */
export class ProviderActionRefused extends DomainError {
  readonly status: string;
  constructor(status: string) {
    super();
    this.status = status;
  }
}

/** A resolution asked for a withdrawal that is not `failed_unknown` (already final, or never indeterminate). */
export class WithdrawalNotIndeterminate extends DomainError {
  readonly status: string;
  constructor(status: string) {
    super();
    this.status = status;
  }
}

/** A resolution asked before the contract's 24 h: reconciliation is still working on it. */
export class WithdrawalNotOverdue extends DomainError {
  readonly overdueAtMs: number;
  constructor(overdueAtMs: number) {
    super();
    this.overdueAtMs = overdueAtMs;
  }
}

/** An operator resolving to `paid` without the PSP's settlement data (end-to-end id, receiving account). */
export class ResolutionNeedsSettlement extends DomainError {}
