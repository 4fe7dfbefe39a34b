import { DomainError } from '../platform/domainError.ts';

/** Console sign-in: wrong e-mail or password (also for an unknown or deactivated operator). */
export class OperatorInvalidCredentials extends DomainError {}

/** No console session, or an expired one. */
export class OperatorSessionRequired extends DomainError {}

/** The console session is still at the password or enrolment step. */
export class OperatorSecondFactorRequired extends DomainError {}

export class OperatorInvalidTotpCode extends DomainError {}

/** The operator's roles do not include one the operation needs. */
export class OperatorRoleNotAllowed extends DomainError {
  readonly needed: readonly string[];
  constructor(needed: readonly string[]) {
    super();
    this.needed = needed;
  }
}

export class OperatorNotFound extends DomainError {}

export class OperatorEmailTaken extends DomainError {}

/** Too many failed console sign-ins for this e-mail or address in the current 15 minutes. */
export class OperatorSignInThrottled extends DomainError {}

/** An operator cannot deactivate or demote themselves (the console would lose its last admin by accident). */
export class OperatorCannotChangeSelf extends DomainError {}

/** A state-changing console request without the session's CSRF token. */
export class OperatorCsrfTokenInvalid extends DomainError {}
