import { DomainError } from '../platform/domainError.ts';

/** The transaction is a withdrawal: only charges are refunded. */
export class RefundNotCharge extends DomainError {}

/** The charge is not `paid` / `partially_refunded`. */
export class RefundChargeNotPaid extends DomainError {
  readonly status: string;
  constructor(status: string) {
    super();
    this.status = status;
  }
}

/** More than what is still refundable (the amount less refunds processing or refunded, and chargebacks). */
export class RefundAboveRefundable extends DomainError {
  readonly remainingCents: number;
  constructor(remainingCents: number) {
    super();
    this.remainingCents = remainingCents;
  }
}

/** More than 90 days since the charge was paid. */
export class RefundWindowExpired extends DomainError {}

/** The withdrawable balance (available less holds) does not cover the refund. */
export class RefundInsufficientBalance extends DomainError {}

export class RefundRateLimited extends DomainError {}

/** The provider failed or refused before accepting: nothing debited, externalRef freed. */
export class RefundProviderFailure extends DomainError {}

/** Sandbox: the provider does not take this action on the refund in its present state. */
export class RefundActionRefused extends DomainError {
  readonly status: string;
  constructor(status: string) {
    super();
    this.status = status;
  }
}

/** Sandbox: no refund with this id (or the provider was never told about it). */
export class RefundNotFound extends DomainError {}
