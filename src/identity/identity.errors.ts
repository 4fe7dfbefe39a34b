import { DomainError } from '../platform/domainError.ts';

/**
 * A password the strength rule refuses as easy to guess (src/identity/passwordPolicy.ts), with the
 * estimator's Portuguese warning and first suggestion when it has them. `field` is the request field of
 * the password (`password`, `newPassword`).
 */
export class GuessablePassword extends DomainError {
  readonly field: string;
  readonly warning: string | undefined;
  readonly suggestion: string | undefined;
  constructor(field: string, hint: { warning: string | undefined; suggestion: string | undefined }) {
    super();
    this.field = field;
    this.warning = hint.warning;
    this.suggestion = hint.suggestion;
  }
}

/** A password outside 10..128 characters, or equal to the e-mail, where the field is not `password`. */
export class PasswordLength extends DomainError {
  readonly field: string;
  constructor(field: string) {
    super();
    this.field = field;
  }
}

/** A password change whose current password is wrong. */
export class CurrentPasswordWrong extends DomainError {
  readonly field = 'currentPassword';
}

/** A password change that gives the current password as the new one. */
export class PasswordUnchanged extends DomainError {
  readonly field = 'newPassword';
}

/** An operator signed in with a temporary password: nothing else opens until it is changed. */
export class OperatorPasswordChangeRequired extends DomainError {}

/** An operator's temporary password was not used in time (24 h): an admin sets a new one. */
export class OperatorTemporaryPasswordExpired extends DomainError {}

/** The account requires two-factor for everyone, and this user has not enrolled yet. */
export class TeamTwoFactorRequired extends DomainError {}

/** Turning the team requirement on while the owner turning it on has no two-factor of their own. */
export class TeamTwoFactorNeedsOwnTotp extends DomainError {}

/** A session of the user that does not exist (or is of someone else: answered the same). */
export class SessionNotFound extends DomainError {}
