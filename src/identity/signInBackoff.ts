import type { Deps } from '../platform/deps.ts';
import { readDeviceCookie, type TrustedDevice } from './deviceCookie.ts';
import { blockedUntil, claimNotice, clearFailures, countFailure, purgeSignInFailures, uncountFailure, type BackoffPolicy } from './signInFailures.repository.ts';
import { clientAddress, subjectKey } from './throttle.ts';

/**
 * The dashboard's sign-in throttle (issue 38, defect 3; docs/decisions.md "Sign-in throttling"). The old
 * one locked an e-mail for 15 minutes after 5 wrong passwords from anyone, a fixed window that anybody could
 * renew forever, and it also refused the signed-in owner's password change. Now every attempt is counted
 * (before it is judged, so parallel guesses cannot slip past a count) on the subjects that apply, and each
 * subject past its free failures waits a time that doubles with each further failure, up to a cap:
 *
 * - an e-mail tried from a browser that never signed in as its user (`ACCOUNT`): 5 free, then 1, 2, 4,
 *   8 minutes, at most 15, forgotten after a day without failures;
 * - the client address (`ADDRESS`, an IPv6 client by its /64): 30 free, then 30 s doubling to 15 minutes,
 *   forgotten after an hour, so one address cannot spray many e-mails;
 * - a browser that signed in as that user before (`DEVICE`, its signed cookie): its own counter, like the
 *   e-mail's, and no other: failures sent by others for the e-mail, or from the same network, never keep
 *   the owner out of the browsers she uses;
 * - the second factor of a user (`SECOND_FACTOR`) and the password check of a signed-in session that
 *   changes its password (`PASSWORD_CHANGE`): their own counters, so nobody without the password can lock
 *   them, and a stolen session cannot guess the password.
 *
 * A right password gives the attempt back (the e-mail's or the browser's failures are forgotten); a
 * password reset forgets the e-mail's too and trusts the browser that made it. At 5 failures of an e-mail
 * its user is told by e-mail (at most once a day). An attacker then has about 100 guesses a day on an
 * e-mail, far below what a password the strength rule accepts needs (about 10^8).
 */
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export const ACCOUNT: BackoffPolicy = { free: 5, baseMs: MINUTE_MS, capMs: 15 * MINUTE_MS, forgetAfterMs: DAY_MS };
export const DEVICE: BackoffPolicy = ACCOUNT;
export const ADDRESS: BackoffPolicy = { free: 30, baseMs: 30_000, capMs: 15 * MINUTE_MS, forgetAfterMs: HOUR_MS };
export const SECOND_FACTOR: BackoffPolicy = ACCOUNT;
export const PASSWORD_CHANGE: BackoffPolicy = ACCOUNT;
/** The user is told of failed sign-ins at this many, at most once a day. */
export const NOTIFY_AT_FAILURES = ACCOUNT.free;
const NOTIFY_EVERY_MS = DAY_MS;

/** Which limit made an attempt wait: the texts differ (src/messages/merchant.ts). */
export type ThrottleReason = 'account' | 'device' | 'address' | 'secondFactor' | 'passwordChange';

interface Subject {
  key: string;
  policy: BackoffPolicy;
  reason: ThrottleReason;
  /** Whether a right answer forgets its failures (else it only gives this attempt back). */
  clearOnSuccess: boolean;
}

export interface CountedAttempt {
  /** The answer was right: the attempt is given back (and the e-mail's or browser's failures forgotten). */
  succeeded(): Promise<void>;
  /** How many failures the e-mail (or browser, code, session) has now, this one included. */
  failures: number;
}

export type AttemptOutcome = { ok: true; attempt: CountedAttempt } | { ok: false; reason: ThrottleReason; retryAfterMs: number };

/** Counts the attempt on each subject in order; when one must wait, the others are given back. */
async function countOn(deps: Pick<Deps, 'db' | 'clock'>, subjects: readonly Subject[]): Promise<AttemptOutcome> {
  const nowMs = deps.clock.now();
  const counted: Subject[] = [];
  let failures = 0;
  for (const subject of subjects) {
    const count = await countFailure(deps.db, subject.key, subject.policy, nowMs);
    if (count === undefined) {
      for (const taken of counted) await uncountFailure(deps.db, taken.key);
      const until = (await blockedUntil(deps.db, subject.key, nowMs)) ?? nowMs + 1_000;
      return { ok: false, reason: subject.reason, retryAfterMs: until - nowMs };
    }
    counted.push(subject);
    failures = count;
  }
  return {
    ok: true,
    attempt: {
      failures,
      succeeded: async () => {
        for (const subject of counted) await (subject.clearOnSuccess ? clearFailures(deps.db, subject.key) : uncountFailure(deps.db, subject.key));
      },
    },
  };
}

const emailKey = (email: string) => subjectKey('signin-dashboard-email', email.trim().toLowerCase());

/**
 * A password sign-in of the dashboard. `device` is the browser's trusted-device cookie when it names the
 * user of `email` (checked by the caller against the user it found): then only that browser's counter
 * applies. Otherwise the client address and the e-mail are counted, whether or not the e-mail has a user.
 */
export function beginPasswordSignIn(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { email: string; ip: string; device: TrustedDevice | undefined },
): Promise<AttemptOutcome> {
  if (input.device) {
    return countOn(deps, [{ key: subjectKey('signin-dashboard-device', input.device.deviceId), policy: DEVICE, reason: 'device', clearOnSuccess: true }]);
  }
  return countOn(deps, [
    { key: subjectKey('signin-dashboard-address', clientAddress(input.ip)), policy: ADDRESS, reason: 'address', clearOnSuccess: false },
    { key: emailKey(input.email), policy: ACCOUNT, reason: 'account', clearOnSuccess: true },
  ]);
}

/** A code of the authenticator app (or a recovery code) at sign-in: the user's own counter. */
export function beginSecondFactor(deps: Pick<Deps, 'db' | 'clock'>, userId: string): Promise<AttemptOutcome> {
  return countOn(deps, [{ key: subjectKey('signin-dashboard-totp', userId), policy: SECOND_FACTOR, reason: 'secondFactor', clearOnSuccess: true }]);
}

/** The current password typed to change it, in a signed-in session: the session's own counter. */
export function beginPasswordChange(deps: Pick<Deps, 'db' | 'clock'>, sessionId: string): Promise<AttemptOutcome> {
  return countOn(deps, [{ key: subjectKey('password-change-session', sessionId), policy: PASSWORD_CHANGE, reason: 'passwordChange', clearOnSuccess: true }]);
}

/** After a password reset (the link proved the mailbox): the e-mail's failures are forgotten. */
export function forgetEmailFailures(deps: Pick<Deps, 'db'>, email: string): Promise<void> {
  return clearFailures(deps.db, emailKey(email));
}

/** True once a day at most, when the e-mail has reached the failures its user is told about. */
export function claimFailureNotice(deps: Pick<Deps, 'db' | 'clock'>, email: string): Promise<boolean> {
  return claimNotice(deps.db, emailKey(email), NOTIFY_AT_FAILURES, NOTIFY_EVERY_MS, deps.clock.now());
}

/** The browser's trusted-device cookie, when it is valid and names `userId`. */
export function trustedDeviceOf(deps: Pick<Deps, 'secretsKey' | 'clock'>, cookie: string | undefined, userId: string | undefined): TrustedDevice | undefined {
  const device = readDeviceCookie(cookie, deps.secretsKey, deps.clock.now());
  return device && userId !== undefined && device.userId === userId ? device : undefined;
}

/** Job: the counters every policy has forgotten (no failure for a day). */
export async function purgeForgottenFailures(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  return purgeSignInFailures(deps.db, new Date(deps.clock.now() - Math.max(ACCOUNT.forgetAfterMs, ADDRESS.forgetAfterMs)));
}
