import { requireAccount } from '../accounts/account.service.ts';
import type { AccountRow, DashboardSessionRow, DashboardUserRow } from '../db/schema.ts';
import { decoyHash, verifyPassword } from '../identity/passwords.ts';
import { open } from '../identity/secretBox.ts';
import { issueDeviceCookie, newDeviceId } from '../identity/deviceCookie.ts';
import { beginPasswordSignIn, beginSecondFactor, claimFailureNotice, trustedDeviceOf } from '../identity/signInBackoff.ts';
import { mailTexts } from '../messages/mail.ts';
import { csrfTokenFor, hashToken, newToken, normalizeRecoveryCode } from '../identity/tokens.ts';
import { acceptedTotpStep } from '../identity/totp.ts';
import type { Deps } from '../platform/deps.ts';
import { SessionNotFound, TeamTwoFactorRequired } from '../identity/identity.errors.ts';
import { recordSignIn, recordUserAction, type RequestSource } from '../identity/securityAudit.ts';
import { summariseUserAgent } from '../identity/userAgent.ts';
import { InvalidCredentials, InvalidTotpCode, SecondFactorRequired, SessionRequired, SignInThrottled } from './dashboard.errors.ts';
import {
  deleteOtherUserSessions,
  deleteSession,
  deleteUserSessionById,
  findLiveSession,
  insertSession,
  listLiveUserSessions,
  updateSession,
} from './session.repository.ts';
import { advanceTotpStep, findUser, findUserByEmail, useRecoveryCode } from './user.repository.ts';
import { dashboardBaseUrl } from './user.service.ts';

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
 * wrong password is the same, and takes the same time (a decoy hash is checked). Throttled by
 * src/identity/signInBackoff.ts: `deviceCookie` is the browser's trusted-device cookie, which, when it names
 * this e-mail's user, puts the attempt on that browser's counter instead of the e-mail's and the
 * address's. A complete sign-in answers the cookie the browser keeps (`device`).
 */
export async function signIn(
  deps: Deps,
  input: { email: string; password: string; ip: string; userAgent: string | undefined; requestId?: string | undefined; deviceCookie?: string | undefined },
): Promise<{ token: string; stage: 'password' | 'complete'; user: DashboardUserRow; device: string | undefined }> {
  const email = input.email.trim().toLowerCase();
  const user = await findUserByEmail(deps.db, email);
  const trusted = trustedDeviceOf(deps, input.deviceCookie, user?.id);
  const counted = await beginPasswordSignIn(deps, { email, ip: input.ip, device: trusted });
  if (!counted.ok) throw new SignInThrottled(counted.reason, counted.retryAfterMs);
  const hash = user?.password_hash ?? (await decoyHash(deps.config.passwordHashLog2N));
  const passwordOk = await verifyPassword(input.password, hash);
  const source = { ip: input.ip, requestId: input.requestId };
  if (!user || !user.password_hash || user.disabled_at || !passwordOk) {
    const reason = !user ? 'unknown_email' : user.disabled_at ? 'user_removed' : !user.password_hash ? 'invitation_pending' : 'wrong_password';
    const known = user ? { id: user.id, name: user.name, accountId: user.account_id } : undefined;
    await recordSignIn(deps, { who: 'user', succeeded: false, email, known, reason, source });
    // Failures from browsers the user never signed in from are the user's to know about (once a day).
    if (!trusted && user && !user.disabled_at && user.password_hash && (await claimFailureNotice(deps, email))) {
      tellOfFailedSignIns(deps, user, counted.attempt.failures, input.ip);
    }
    throw new InvalidCredentials();
  }
  const stage = user.totp_enabled_at ? 'password' : 'complete';
  // The password was right: the attempt is given back and the e-mail's (or browser's) failures forgotten.
  // The second factor counts its codes on its own counter.
  await counted.attempt.succeeded();
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
  await recordSignIn(deps, {
    who: 'user',
    succeeded: true,
    email,
    known: { id: user.id, name: user.name, accountId: user.account_id },
    reason: stage === 'password' ? 'second_factor_due' : undefined,
    source,
  });
  return { token, stage, user, device: stage === 'complete' ? deviceCookieFor(deps, user.id, input.deviceCookie) : undefined };
}

/** The trusted-device cookie a browser keeps after a complete sign-in: its own device id again, or a new one. */
export function deviceCookieFor(deps: Pick<Deps, 'secretsKey' | 'clock'>, userId: string, current: string | undefined): string {
  const known = trustedDeviceOf(deps, current, userId);
  return issueDeviceCookie({ userId, deviceId: known?.deviceId ?? newDeviceId() }, deps.secretsKey, deps.clock.now());
}

/** The notice of failed sign-ins, not awaited: the answer takes as long whether or not the e-mail has a user. */
function tellOfFailedSignIns(deps: Deps, user: DashboardUserRow, failures: number, ip: string): void {
  const reset = `${dashboardBaseUrl(deps)}#/esqueci-a-senha`;
  deps.mailer
    .send({ to: user.email, ...mailTexts.failedSignIns(user.name, failures, ip || 'desconhecido', reset) })
    .catch((error: unknown) => deps.logger.error('failed sign-in notice not sent', { userId: user.id, error: error instanceof Error ? error.message : String(error) }));
}

/**
 * The second step: a code of the authenticator app, or one of the recovery codes (each works once). Wrong
 * codes count on the user's own second-factor counter (5 free, then a doubling wait). A right one completes
 * the sign-in and answers the trusted-device cookie of the browser.
 */
export async function completeSecondFactor(
  deps: Deps,
  principal: DashboardPrincipal,
  input: { totpCode?: string | undefined; recoveryCode?: string | undefined; ip: string; deviceCookie?: string | undefined },
): Promise<{ device: string }> {
  const { user, session } = principal;
  if (session.stage !== 'password' || !user.totp_secret_sealed || !user.totp_enabled_at) throw new SessionRequired();
  const counted = await beginSecondFactor(deps, user.id);
  if (!counted.ok) throw new SignInThrottled(counted.reason, counted.retryAfterMs);
  const nowMs = deps.clock.now();
  let accepted = false;
  if (input.totpCode !== undefined) {
    const step = acceptedTotpStep(open(user.totp_secret_sealed, deps.secretsKey), input.totpCode, nowMs, user.totp_last_step);
    accepted = step !== undefined && (await advanceTotpStep(deps.db, user.id, step));
  } else if (input.recoveryCode !== undefined) {
    accepted = await useRecoveryCode(deps.db, user.id, hashToken(normalizeRecoveryCode(input.recoveryCode)), new Date(nowMs));
  }
  if (!accepted) {
    const known = { id: user.id, name: user.name, accountId: user.account_id };
    await recordSignIn(deps, { who: 'user', succeeded: false, email: user.email, known, reason: 'wrong_second_factor', source: { ip: input.ip } });
    throw new InvalidTotpCode(input.recoveryCode !== undefined ? 'recoveryCode' : 'totpCode');
  }
  await counted.attempt.succeeded();
  await updateSession(deps.db, session.token_hash, { stage: 'complete', last_seen_at: new Date(nowMs), expires_at: expiryOf(nowMs, nowMs) });
  return { device: deviceCookieFor(deps, user.id, input.deviceCookie) };
}

/**
 * The session a cookie names, with its user and account, or SessionRequired. A session of a disabled user
 * ends. Each request extends an idle session (writing at most once a minute).
 */
export async function resolveSession(
  deps: Deps,
  token: string | undefined,
  options: { allowSecondFactorPending?: boolean; operationId?: string | undefined } = {},
): Promise<DashboardPrincipal> {
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
  const account = await requireAccount(deps, user.account_id);
  if (options.operationId !== undefined && mustEnrolFirst({ user, account }) && !WHILE_ENROLMENT_DUE.has(options.operationId)) throw new TeamTwoFactorRequired();
  return { token, session, user, account };
}

/**
 * What a user who must still enrol two-factor (the account requires it of the whole team) may call: the
 * session, signing out, the enrolment itself, and their own password and sessions.
 */
const WHILE_ENROLMENT_DUE: ReadonlySet<string> = new Set([
  'getSession',
  'signOut',
  'startTwoFactor',
  'confirmTwoFactor',
  'resendVerification',
  'changePassword',
  'listSessions',
  'endSession',
  'endOtherSessions',
]);

/** True when the account requires two-factor of everyone and this user has not enrolled. */
export function mustEnrolFirst(principal: { user: DashboardUserRow; account: AccountRow }): boolean {
  return principal.account.team_two_factor_required && principal.user.totp_enabled_at === null;
}

export interface SessionView {
  sessionId: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  ip: string | null;
  userAgent: string | null;
  browser: string;
  os: string;
  current: boolean;
  secondFactorDone: boolean;
}

/** The user's live sessions (devices), newest first, the current one marked. */
export async function sessionsOf(deps: Pick<Deps, 'db' | 'clock'>, principal: DashboardPrincipal): Promise<SessionView[]> {
  const rows = await listLiveUserSessions(deps.db, principal.user.id, new Date(deps.clock.now()));
  return rows.map((row) => ({
    sessionId: row.id,
    createdAt: row.created_at.getTime(),
    lastSeenAt: row.last_seen_at.getTime(),
    expiresAt: row.expires_at.getTime(),
    ip: row.ip,
    userAgent: row.user_agent,
    ...summariseUserAgent(row.user_agent),
    current: row.token_hash === principal.session.token_hash,
    secondFactorDone: row.stage === 'complete',
  }));
}

/** Ends one session of the user (another device, or this one). */
export async function endSession(deps: Pick<Deps, 'db' | 'clock'>, principal: DashboardPrincipal, sessionId: string, source: RequestSource): Promise<void> {
  if (!(await deleteUserSessionById(deps.db, principal.user.id, sessionId))) throw new SessionNotFound();
  await recordUserAction(deps, principal.user, source, {
    action: 'user.sessions_revoked',
    target: { type: 'user', id: principal.user.id },
    accountId: principal.user.account_id,
    after: { sessionId, current: sessionId === principal.session.id, ended: 1 },
  });
}

/** "Sair de todos os outros dispositivos": every session of the user but this one ends. */
export async function endOtherSessions(deps: Pick<Deps, 'db' | 'clock'>, principal: DashboardPrincipal, source: RequestSource): Promise<number> {
  const ended = await deleteOtherUserSessions(deps.db, principal.user.id, principal.session.token_hash);
  await recordUserAction(deps, principal.user, source, {
    action: 'user.sessions_revoked',
    target: { type: 'user', id: principal.user.id },
    accountId: principal.user.account_id,
    after: { allOthers: true, ended },
  });
  return ended;
}

export function csrfTokenOf(deps: Pick<Deps, 'secretsKey'>, principal: { token: string }): string {
  return csrfTokenFor(principal.token, deps.secretsKey);
}

export async function signOut(deps: Pick<Deps, 'db'>, token: string | undefined): Promise<void> {
  if (token) await deleteSession(deps.db, hashToken(token));
}
