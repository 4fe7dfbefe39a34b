import { DomainError } from '../platform/domainError.ts';

/** A filter entry that is no canonical event name, legacy name or category. */
export class UnknownEventFilter extends DomainError {
  readonly entry: string;
  constructor(entry: string) {
    super();
    this.entry = entry;
  }
}

/** Why a webhook URL is refused. */
export type UnsafeUrlReason = 'invalid' | 'notHttps' | 'unresolvable' | 'privateAddress';

/** A webhook URL that is malformed or, in production, not HTTPS or not a public address. */
export class UnsafeWebhookUrl extends DomainError {
  readonly reason: UnsafeUrlReason;
  constructor(reason: UnsafeUrlReason) {
    super(reason);
    this.reason = reason;
  }
}

/** The account already has its 6 webhook URLs. */
export class WebhookUrlLimitReached extends DomainError {
  readonly max: number;
  constructor(max: number) {
    super();
    this.max = max;
  }
}

export class WebhookUrlNotFound extends DomainError {}

export class EventNotFound extends DomainError {}

/** A resend with no enabled URL whose filter takes the event. */
export class NoWebhookUrlForEvent extends DomainError {}

/** Manual resends are limited to 10 per UTC hour per account. */
export class ResendQuotaExhausted extends DomainError {
  readonly limit: number;
  constructor(limit: number) {
    super();
    this.limit = limit;
  }
}
