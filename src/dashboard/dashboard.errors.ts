import { DomainError } from '../platform/domainError.ts';

/*
 * What can go wrong for a person using the dashboard. Forms show each message beside its field: errors
 * that belong to one field name it (`field`), and src/http/errorMapping.ts sends it with the message.
 */

/** Wrong e-mail or password (also for an unknown or disabled user: the answer never tells which). */
export class InvalidCredentials extends DomainError {}

/**
 * A sign-in (or second factor, or current password of a change) that must wait: too many failures on one
 * of its counters (src/identity/signInBackoff.ts). Says which, and for how long.
 */
export class SignInThrottled extends DomainError {
  readonly reason: 'account' | 'device' | 'address' | 'secondFactor' | 'passwordChange';
  readonly retryAfterMs: number;
  constructor(reason: SignInThrottled['reason'], retryAfterMs: number) {
    super();
    this.reason = reason;
    this.retryAfterMs = retryAfterMs;
  }
}

/** No session, or an expired one: sign in again. */
export class SessionRequired extends DomainError {}

/** The password was right; the code of the authenticator app (or a recovery code) is still due. */
export class SecondFactorRequired extends DomainError {}

/** A state-changing request without the session's CSRF token. */
export class CsrfTokenInvalid extends DomainError {}

/** A code of the authenticator app that is wrong, expired or already used. */
export class InvalidTotpCode extends DomainError {
  readonly field: string;
  constructor(field = 'totpCode') {
    super();
    this.field = field;
  }
}

/** Dashboard withdrawals (and disabling two-factor) need two-factor authentication turned on. */
export class TotpNotEnabled extends DomainError {}

export class TotpAlreadyEnabled extends DomainError {}

/** A password outside 10..128 characters, or equal to the e-mail. */
export class WeakPassword extends DomainError {
  readonly field = 'password';
}

/** An e-mail link that is unknown, expired, already used or of another purpose. */
export class InvalidEmailLink extends DomainError {}

/**
 * The e-mail already belongs to a user of the inviting account (the inviter sees them in the list). An
 * e-mail of another account's user is never answered so (docs/dashboard.md, "Invitations").
 */
export class EmailAlreadyRegistered extends DomainError {
  readonly field = 'email';
}

/** A form's free text that is empty, too short or holds control characters once normalised (src/dashboard/text.ts). */
export class InvalidText extends DomainError {
  readonly field: string;
  readonly problem: 'required' | 'tooShort' | 'invalid';
  readonly minLength: number;
  constructor(field: string, problem: 'required' | 'tooShort' | 'invalid', minLength: number) {
    super();
    this.field = field;
    this.problem = problem;
    this.minLength = minLength;
  }
}

/** Too many sign-ups or password-reset requests for this e-mail or from this address in the current hour. */
export class EmailActionThrottled extends DomainError {
  readonly action: 'signUp' | 'passwordReset';
  constructor(action: 'signUp' | 'passwordReset') {
    super();
    this.action = action;
  }
}

/** API keys are generated only with a verified e-mail (contract, Authentication item 3). */
export class EmailNotVerified extends DomainError {}

/** API keys are generated only for an account with approved KYC (contract, Authentication item 3). */
export class KycNotApproved extends DomainError {}

/** The user's role does not allow the action. */
export class RoleNotAllowed extends DomainError {}

export class UserNotFound extends DomainError {}

/** The account must keep at least one owner. */
export class LastOwner extends DomainError {}

/** A sandbox action outside the sandbox (production). */
export class SandboxUnavailable extends DomainError {}

/** A document (CPF/CNPJ) given at sign-up that is not valid. */
export class InvalidSignUpDocument extends DomainError {
  readonly field: 'responsibleCpf' | 'companyCnpj';
  constructor(field: 'responsibleCpf' | 'companyCnpj') {
    super();
    this.field = field;
  }
}

/** An export's `from` or `to` that is not a calendar date `YYYY-MM-DD`. */
export class ExportDateInvalid extends DomainError {
  readonly field: 'from' | 'to';
  constructor(field: 'from' | 'to') {
    super();
    this.field = field;
  }
}

/** An export whose last day comes before its first, or more than 366 days after it. */
export class ExportPeriodInvalid extends DomainError {}

/**
 * The merchant's city (issue 38): `state` is not one of the 27 UFs, or `city` is no municipality of that UF
 * (with up to three names of the UF that start with or contain what was typed).
 */
export class InvalidMerchantCity extends DomainError {
  readonly field: 'city' | 'state';
  readonly typed: string;
  readonly state: string | undefined;
  readonly suggestions: readonly string[];
  constructor(field: 'city' | 'state', details: { typed: string; state?: string; suggestions?: readonly string[] }) {
    super();
    this.field = field;
    this.typed = details.typed;
    this.state = details.state;
    this.suggestions = details.suggestions ?? [];
  }
}
