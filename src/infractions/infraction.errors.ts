import { DomainError } from '../platform/domainError.ts';

/** No infraction with this id (or another merchant's). */
export class InfractionNotFound extends DomainError {}

/** The infraction takes no defence: its case is closed, or a defence was sent already. */
export class InfractionClosed extends DomainError {
  readonly status: string;
  readonly defended: boolean;
  constructor(status: string, defended: boolean) {
    super();
    this.status = status;
    this.defended = defended;
  }
}

/** The provider's deadline for the defence has passed: it would refuse it. */
export class InfractionDeadlinePassed extends DomainError {}

/** The provider could not be reached or failed: the defence was not sent (try again). */
export class InfractionDefenceFailed extends DomainError {}
