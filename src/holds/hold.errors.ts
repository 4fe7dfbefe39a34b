import { DomainError } from '../platform/domainError.ts';

export class HoldNotFound extends DomainError {}

/** A hold on a transaction needs a paid (or partially refunded) charge. */
export class HoldNeedsPaidCharge extends DomainError {
  readonly type: string;
  readonly status: string;
  constructor(type: string, status: string) {
    super();
    this.type = type;
    this.status = status;
  }
}

export class HoldExceedsCharge extends DomainError {}

export class HoldAlreadyReleased extends DomainError {}

/** A chargeback needs a hold placed on a charge. */
export class HoldNotOnCharge extends DomainError {}

/** The held charge is no longer in a status that can be charged back. */
export class ChargeNotChargeable extends DomainError {}

export class ChargebackExceedsHold extends DomainError {}

/** The available balance not reserved for withdrawals does not cover the chargeback. */
export class ChargebackNotCovered extends DomainError {}

/** A chargeback the charge has no room for: its confirmed returns and returns in flight leave `remainingCents`. */
export class ChargebackExceedsRefundable extends DomainError {
  readonly remainingCents: number;
  constructor(remainingCents: number) {
    super();
    this.remainingCents = remainingCents;
  }
}

/** A chargeback of this hold is being asked of the provider right now. */
export class ChargebackInProgress extends DomainError {}

/** Real rails: the provider has made no MED devolução of the charge that PixGate has not booked. */
export class ChargebackNeedsProviderDevolucao extends DomainError {}
