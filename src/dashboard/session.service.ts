import { requireAccount } from '../accounts/account.service.ts';
import type { AccountRow, DashboardSessionRow, DashboardUserRow } from '../db/schema.ts';
import { decoyHash, verifyPassword } from '../identity/passwords.ts';
import { open } from '../identity/secretBox.ts';
import { beginSignInAttempt } from '../identity/signInThrottle.ts';
import { csrfTokenFor, hashToken, newToken, normalizeRecoveryCode } from '../identity/tokens.ts';
import { acceptedTotpStep } from '../identity/totp.ts';
import type { Deps } from '../platform/deps.ts';
import { InvalidCredentials, InvalidTotpCode, SecondFactorRequired, SessionRequired, SignInThrottled } from './dashboard.errors.ts';
import { deleteSession, findLiveSession, insertSession, updateSession } from './session.repository.ts';
import { advanceTotpStep, findUser, findUserByEmail, useRecoveryCode } from './user.repository.ts';

/**
 * Dashboard sessions: a random token in an HttpOnly cookie, only its SHA-256 in the database. A session
 * lasts 30 minutes from the last request, at most 12 hours from sign-in; a session waiting for its second
 * factor lasts 10 minutes and opens nothing else.
 */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_MAX_MS = 12 * 3_600_000;
const SECOND_FACTOR_WINDOW_MS = 10 * 60_000;
/** `last_seen_at` is written at most once a minute (not on every request). */
const TOUCH_EVERY_MS = 60_000;

export interface DashboardPrincipal {
  token: string;
  session: DashboardSessionRow;
  user: DashboardUserRow;
  account: AccountRow;
}

function expiryOf(createdAtMs: number, nowMs: number): Date {
  return new Date(Math.min(createdAtMs + SESSION_MAX_MS, nowMs + SESSION_IDLE_MS));
}

/**
 * Signs in with e-mail and password. A user with two-factor turned on gets a session at stage `password`
 * (the code is due); the others are signed in. The answer for an unknown e-mail, a disabled user and a
 * wrong password is the same, and takes the same time (a decoy hash is checked).
 */
export async function signIn(
  deps: Deps,
  input: { email: string; password: string; ip: string; userAgent: string | undefined },
): Promise<{ token: string; stage: 'password' | 'complete'; user: DashboardUserRow }> {
  const email = input.email.trim().toLowerCase();
  const attempt = await beginSignInAttempt(deps, 'dashboard', email, input.ip);
  if (!attempt) throw new SignInThrottled();
  const user = await findUserByEmail(deps.db, email);
  const hash = user?.password_hash ?? (await decoyHash());
  const passwordOk = await verifyPassword(input.password, hash);
  if (!user || !user.password_hash || user.disabled_at || !passwordOk) throw new InvalidCredentials();
  const stage = user.totp_enabled_at ? 'password' : 'complete';
  // The password was right: its slots are given back at either stage. The second factor takes its own
  // slot per code, so wrong codes are throttled there; keeping this one would lock out a user with
  // two-factor after 5 correct sign-ins in a window (and an address after 50).
  await attempt.succeeded();
  const nowMs = deps.clock.now();
  const token = newToken();
  await insertSession(deps.db, {
    token_hash: hashToken(token),
    user_id: user.id,
    stage,
    created_at: new Date(nowMs),
    last_seen_at: new Date(nowMs),
    expires_at: stage === 'complete' ? expiryOf(nowMs, nowMs) : new Date(nowMs + SECOND_FACTOR_WINDOW_MS),
    ip: input.ip,
    user_agent: input.userAgent?.slice(0, 300) ?? null,
  });
  return { token, stage, user };
}

/**
 * The second step: a code of the authenticator app, or one of the recovery codes (each works once). Wrong
 * codes count as failed sign-ins (5 per 15 minutes).
 */
export async function completeSecondFactor(
  deps: Deps,
  principal: DashboardPrincipal,
  input: { totpCode?: string | undefined; recoveryCode?: string | undefined; ip: string },
): Promise<void> {
  const { user, session } = principal;
  if (session.stage !== 'password' || !user.totp_secret_sealed || !user.totp_enabled_at) throw new SessionRequired();
  const attempt = await beginSignInAttempt(deps, 'dashboard', user.email, input.ip);
  if (!attempt) throw new SignInThrottled();
  const nowMs = deps.clock.now();
  let accepted = false;
  if (input.totpCode !== undefined) {
    const step = acceptedTotpStep(open(user.totp_secret_sealed, deps.secretsKey), input.totpCode, nowMs, user.totp_last_step);
    accepted = step !== undefined && (await advanceTotpStep(deps.db, user.id, step));
  } else if (input.recoveryCode !== undefined) {
    accepted = await useRecoveryCode(deps.db, user.id, hashToken(normalizeRecoveryCode(input.recoveryCode)), new Date(nowMs));
  }
  if (!accepted) throw new InvalidTotpCode(input.recoveryCode !== undefined ? 'recoveryCode' : 'totpCode');
  await attempt.succeeded();
  await updateSession(deps.db, session.token_hash, { stage: 'complete', last_seen_at: new Date(nowMs), expires_at: expiryOf(nowMs, nowMs) });
}

/**
 * The session a cookie names, with its user and account, or SessionRequired. A session of a disabled user
 * ends. Each request extends an idle session (writing at most once a minute).
 */
export async function resolveSession(deps: Deps, token: string | undefined, options: { allowSecondFactorPending?: boolean } = {}): Promise<DashboardPrincipal> {
  if (!token) throw new SessionRequired();
  const nowMs = deps.clock.now();
  const session = await findLiveSession(deps.db, hashToken(token), new Date(nowMs));
  if (!session) throw new SessionRequired();
  const user = await findUser(deps.db, session.user_id);
  if (!user || user.disabled_at) {
    await deleteSession(deps.db, session.token_hash);
    throw new SessionRequired();
  }
  if (session.stage !== 'complete' && !options.allowSecondFactorPending) throw new SecondFactorRequired();
  if (session.stage === 'complete' && nowMs - session.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
    const expiresAt = expiryOf(session.created_at.getTime(), nowMs);
    await updateSession(deps.db, session.token_hash, { last_seen_at: new Date(nowMs), expires_at: expiresAt });
    session.last_seen_at = new Date(nowMs);
    session.expires_at = expiresAt;
  }
  return { token, session, user, account: await requireAccount(deps, user.account_id) };
}

export function csrfTokenOf(deps: Pick<Deps, 'secretsKey'>, principal: { token: string }): string {
  return csrfTokenFor(principal.token, deps.secretsKey);
}

export async function signOut(deps: Pick<Deps, 'db'>, token: string | undefined): Promise<void> {
  if (token) await deleteSession(deps.db, hashToken(token));
}
