import { auditStep, notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import { randomBytes } from 'node:crypto';
import type { OperatorRole, OperatorRow, OperatorSessionRow, SessionStage } from '../db/schema.ts';
import { decoyHash, hashPassword, verifyPassword } from '../identity/passwords.ts';
import { open, seal } from '../identity/secretBox.ts';
import { CurrentPasswordWrong, OperatorTemporaryPasswordExpired, PasswordUnchanged } from '../identity/identity.errors.ts';
import { requireStrongPassword } from '../identity/passwordPolicy.ts';
import { operatorContext, recordSignIn, type RequestSource } from '../identity/securityAudit.ts';
import { beginSignInAttempt } from '../identity/signInThrottle.ts';
import { csrfTokenFor, hashToken, newToken } from '../identity/tokens.ts';
import { acceptedTotpStep, newTotpSecret, otpauthQrSvg, otpauthUri } from '../identity/totp.ts';
import type { Deps } from '../platform/deps.ts';
import { newId } from '../primitives/ids.ts';
import {
  OperatorCannotChangeSelf,
  OperatorEmailTaken,
  OperatorInvalidCredentials,
  OperatorInvalidTotpCode,
  OperatorNotFound,
  OperatorSecondFactorRequired,
  OperatorSessionRequired,
  OperatorSignInThrottled,
} from './operator.errors.ts';
import {
  advanceOperatorTotpStep,
  countOperators,
  deleteOperatorSession,
  deleteOtherOperatorSessions,
  deleteSessionsOfOperator,
  findLiveOperatorSession,
  findOperator,
  findOperatorByEmail,
  insertOperator,
  insertOperatorSession,
  listOperators,
  updateOperator,
  updateOperatorSession,
} from './operator.repository.ts';

/**
 * The service team's individual sign-in to the console: password, then TOTP, which is mandatory (an
 * operator without it enrols at the first sign-in, before anything else). Sessions last 15 minutes from
 * the last request, at most 8 hours.
 */
export const OPERATOR_ROLES: readonly OperatorRole[] = ['support', 'compliance', 'finance', 'admin'];
const IDLE_MS = 15 * 60_000;
const MAX_MS = 8 * 3_600_000;
const STEP_WINDOW_MS = 10 * 60_000;
const TOUCH_EVERY_MS = 60_000;

export interface OperatorPrincipal {
  token: string;
  session: OperatorSessionRow;
  operator: OperatorRow;
}

const expiryOf = (createdAtMs: number, nowMs: number) => new Date(Math.min(createdAtMs + MAX_MS, nowMs + IDLE_MS));

/**
 * A temporary password (chosen by the server, seen by whoever created or reset the operator) must be
 * changed at the first sign-in and stops working 24 hours after it was set if unused: long enough for a
 * colleague in another shift, short enough that a password left in a chat or a terminal's scrollback dies.
 */
export const TEMPORARY_PASSWORD_LIFETIME_MS = 24 * 3_600_000;

/** A temporary password shown once to whoever creates or resets an operator (24 base64url characters). */
function temporaryPassword(): string {
  return randomBytes(18).toString('base64url');
}

export async function createOperator(
  deps: Deps,
  input: { email: string; name: string; roles: OperatorRole[] },
  audit: AuditStep<OperatorRow> = notAudited,
): Promise<{ operator: OperatorRow; temporaryPassword: string }> {
  const email = input.email.trim().toLowerCase();
  if (await findOperatorByEmail(deps.db, email)) throw new OperatorEmailTaken();
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password, deps.config.passwordHashLog2N);
  const now = new Date(deps.clock.now());
  try {
    const operator = await withAudit(deps.db, audit, (trx) => insertOperator(trx, {
      id: newId('op'),
      email,
      name: input.name.trim(),
      roles: JSON.stringify([...new Set(input.roles)]),
      password_hash: passwordHash,
      totp_secret_sealed: null,
      totp_enabled_at: null,
      totp_last_step: null,
      created_at: now,
      updated_at: now,
      disabled_at: null,
      password_temporary_until: new Date(now.getTime() + TEMPORARY_PASSWORD_LIFETIME_MS),
    }));
    return { operator, temporaryPassword: password };
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === '23505') throw new OperatorEmailTaken();
    throw error;
  }
}

export function operatorsList(deps: Pick<Deps, 'db'>): Promise<OperatorRow[]> {
  return listOperators(deps.db);
}

export function hasOperators(deps: Pick<Deps, 'db'>): Promise<boolean> {
  return countOperators(deps.db).then((count) => count > 0);
}

async function requireOperator(deps: Pick<Deps, 'db'>, id: string): Promise<OperatorRow> {
  const operator = await findOperator(deps.db, id);
  if (!operator) throw new OperatorNotFound();
  return operator;
}

/** Changes an operator's roles or deactivates them (an admin, never on themselves); sessions end on deactivation. */
export async function changeOperator(
  deps: Deps,
  actorId: string | null,
  id: string,
  changes: { roles?: OperatorRole[] | undefined; active?: boolean | undefined; name?: string | undefined },
  audit: AuditStep<{ before: OperatorRow; after: OperatorRow }> = notAudited,
): Promise<{ before: OperatorRow; after: OperatorRow }> {
  if (actorId === id && (changes.active === false || (changes.roles !== undefined && !changes.roles.includes('admin')))) {
    throw new OperatorCannotChangeSelf();
  }
  const now = new Date(deps.clock.now());
  return withAudit(deps.db, audit, async (trx) => {
    const before = await requireOperator({ db: trx }, id);
    const after = await updateOperator(trx, id, {
      ...(changes.roles !== undefined ? { roles: JSON.stringify([...new Set(changes.roles)]) } : {}),
      ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
      ...(changes.active !== undefined ? { disabled_at: changes.active ? null : now } : {}),
      updated_at: now,
    });
    if (changes.active === false) await deleteSessionsOfOperator(trx, id);
    return { before, after };
  });
}

/** A new temporary password, and TOTP cleared (the operator enrols again): for a lost phone or password. */
export async function resetOperatorCredentials(
  deps: Deps,
  id: string,
  audit: AuditStep<{ before: OperatorRow; operator: OperatorRow }> = notAudited,
): Promise<{ before: OperatorRow; operator: OperatorRow; temporaryPassword: string }> {
  await requireOperator(deps, id);
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password, deps.config.passwordHashLog2N);
  const changed = await withAudit(deps.db, audit, async (trx) => {
    const before = await requireOperator({ db: trx }, id);
    const operator = await updateOperator(trx, id, {
      password_hash: passwordHash,
      totp_secret_sealed: null,
      totp_enabled_at: null,
      totp_last_step: null,
      updated_at: new Date(deps.clock.now()),
      password_temporary_until: new Date(deps.clock.now() + TEMPORARY_PASSWORD_LIFETIME_MS),
    });
    await deleteSessionsOfOperator(trx, id);
    return { before, operator };
  });
  return { ...changed, temporaryPassword: password };
}

export async function operatorSignIn(
  deps: Deps,
  input: { email: string; password: string; ip: string; userAgent: string | undefined; requestId?: string | undefined },
): Promise<{ token: string; stage: SessionStage; operator: OperatorRow }> {
  const email = input.email.trim().toLowerCase();
  const attempt = await beginSignInAttempt(deps, 'console', email, input.ip);
  if (!attempt) throw new OperatorSignInThrottled();
  const operator = await findOperatorByEmail(deps.db, email);
  const passwordOk = await verifyPassword(input.password, operator?.password_hash ?? (await decoyHash(deps.config.passwordHashLog2N)));
  const source = { ip: input.ip, requestId: input.requestId };
  const known = operator ? { id: operator.id, name: operator.name } : undefined;
  if (!operator || operator.disabled_at || !passwordOk) {
    const reason = !operator ? 'unknown_email' : operator.disabled_at ? 'operator_deactivated' : 'wrong_password';
    await recordSignIn(deps, { who: 'operator', succeeded: false, email, known, reason, source });
    throw new OperatorInvalidCredentials();
  }
  // Only someone who knows the temporary password learns that it expired (no hint for a wrong one).
  if (operator.password_temporary_until !== null && operator.password_temporary_until.getTime() <= deps.clock.now()) {
    await attempt.succeeded();
    await recordSignIn(deps, { who: 'operator', succeeded: false, email, known, reason: 'temporary_password_expired', source });
    throw new OperatorTemporaryPasswordExpired();
  }
  // The password was right: its slots are given back (each code then takes its own, in operatorSecondFactor).
  await attempt.succeeded();
  const stage: SessionStage = operator.totp_enabled_at ? 'password' : 'enrol';
  const nowMs = deps.clock.now();
  const token = newToken();
  await insertOperatorSession(deps.db, {
    token_hash: hashToken(token),
    operator_id: operator.id,
    stage,
    created_at: new Date(nowMs),
    last_seen_at: new Date(nowMs),
    expires_at: new Date(nowMs + STEP_WINDOW_MS),
    ip: input.ip,
    user_agent: input.userAgent?.slice(0, 300) ?? null,
  });
  await recordSignIn(deps, { who: 'operator', succeeded: true, email, known, reason: stage === 'enrol' ? 'totp_enrolment_due' : 'second_factor_due', source });
  return { token, stage, operator };
}

/** The console session of a cookie (any stage when `stages` allows it), or OperatorSessionRequired. */
export async function resolveOperatorSession(
  deps: Deps,
  token: string | undefined,
  stages: readonly SessionStage[] = ['complete'],
): Promise<OperatorPrincipal> {
  if (!token) throw new OperatorSessionRequired();
  const nowMs = deps.clock.now();
  const session = await findLiveOperatorSession(deps.db, hashToken(token), new Date(nowMs));
  if (!session) throw new OperatorSessionRequired();
  const operator = await findOperator(deps.db, session.operator_id);
  if (!operator || operator.disabled_at) {
    await deleteOperatorSession(deps.db, session.token_hash);
    throw new OperatorSessionRequired();
  }
  if (!stages.includes(session.stage)) throw new OperatorSecondFactorRequired();
  if (session.stage === 'complete' && nowMs - session.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
    const expiresAt = expiryOf(session.created_at.getTime(), nowMs);
    await updateOperatorSession(deps.db, session.token_hash, { last_seen_at: new Date(nowMs), expires_at: expiresAt });
    session.expires_at = expiresAt;
  }
  return { token, session, operator };
}

/** Enrolment at the first sign-in: a new seed, shown as a QR code and as text. */
export async function startOperatorEnrolment(deps: Deps, principal: OperatorPrincipal) {
  const secret = newTotpSecret();
  await updateOperator(deps.db, principal.operator.id, { totp_secret_sealed: seal(secret, deps.secretsKey), totp_last_step: null, updated_at: new Date(deps.clock.now()) });
  const uri = otpauthUri(secret, principal.operator.email);
  return { otpauthUri: uri, qrSvg: await otpauthQrSvg(uri), secret };
}

/** A code of the operator's app: confirms the enrolment (stage `enrol`) or completes the sign-in (stage `password`). */
export async function operatorSecondFactor(
  deps: Deps,
  principal: OperatorPrincipal,
  code: string,
  ip: string,
  enrolmentAudit: AuditStep<OperatorRow> = notAudited,
): Promise<void> {
  const { operator, session } = principal;
  const fresh = await requireOperator(deps, operator.id);
  if (!fresh.totp_secret_sealed) throw new OperatorInvalidTotpCode();
  const attempt = await beginSignInAttempt(deps, 'console', operator.email, ip);
  if (!attempt) throw new OperatorSignInThrottled();
  const nowMs = deps.clock.now();
  const step = acceptedTotpStep(open(fresh.totp_secret_sealed, deps.secretsKey), code, nowMs, fresh.totp_last_step);
  if (step === undefined || !(await advanceOperatorTotpStep(deps.db, operator.id, step))) {
    const known = { id: operator.id, name: operator.name };
    await recordSignIn(deps, { who: 'operator', succeeded: false, email: operator.email, known, reason: 'wrong_second_factor', source: { ip } });
    throw new OperatorInvalidTotpCode();
  }
  await attempt.succeeded();
  const complete = { stage: 'complete' as const, last_seen_at: new Date(nowMs), expires_at: expiryOf(nowMs, nowMs) };
  if (session.stage !== 'enrol') return updateOperatorSession(deps.db, session.token_hash, complete);
  // The enrolment, the session it completes and its audit entry commit together.
  await withAudit(deps.db, enrolmentAudit, async (trx) => {
    const enrolled = await updateOperator(trx, operator.id, { totp_enabled_at: new Date(nowMs), updated_at: new Date(nowMs) });
    await updateOperatorSession(trx, session.token_hash, complete);
    return enrolled;
  });
}

export function operatorCsrfToken(deps: Pick<Deps, 'secretsKey'>, principal: { token: string }): string {
  return csrfTokenFor(`console:${principal.token}`, deps.secretsKey);
}

export async function operatorSignOut(deps: Pick<Deps, 'db'>, token: string | undefined): Promise<void> {
  if (token) await deleteOperatorSession(deps.db, hashToken(token));
}

/** True while the operator's password is a temporary one: nothing but the change opens. */
export function passwordChangeRequired(operator: OperatorRow): boolean {
  return operator.password_temporary_until !== null;
}

/**
 * The signed-in operator changes their own password (a temporary one, or any time): the current one (a
 * wrong one counts as a failed sign-in), a new one that passes the strength rule. The temporary mark is
 * cleared and every other console session of the operator ends.
 */
export async function changeOperatorPassword(
  deps: Deps,
  principal: OperatorPrincipal,
  input: { currentPassword: string; newPassword: string },
  source: RequestSource,
): Promise<void> {
  const { operator } = principal;
  const attempt = await beginSignInAttempt(deps, 'console', operator.email, source.ip ?? '');
  if (!attempt) throw new OperatorSignInThrottled();
  if (!(await verifyPassword(input.currentPassword, operator.password_hash))) throw new CurrentPasswordWrong();
  await attempt.succeeded();
  if (input.newPassword.normalize('NFKC') === input.currentPassword.normalize('NFKC')) throw new PasswordUnchanged();
  await requireStrongPassword(input.newPassword, [operator.email, operator.name, 'pixgate'], 'newPassword');
  const passwordHash = await hashPassword(input.newPassword, deps.config.passwordHashLog2N);
  const wasTemporary = passwordChangeRequired(operator);
  const audit = auditStep(deps, operatorContext(operator, source), () => ({
    action: 'operator.password_changed',
    target: { type: 'operator', id: operator.id },
    after: { temporaryReplaced: wasTemporary },
  }));
  await withAudit(deps.db, audit, async (trx) => {
    await updateOperator(trx, operator.id, { password_hash: passwordHash, password_temporary_until: null, updated_at: new Date(deps.clock.now()) });
    await deleteOtherOperatorSessions(trx, operator.id, principal.session.token_hash);
  });
}

/**
 * Outside production, at start: the first operator (seeded by `npm start`) whose temporary password
 * expired unused gets a new one, printed again; the answer is undefined when there is nothing to renew.
 */
export async function renewExpiredTemporaryPassword(deps: Deps, email: string): Promise<{ operator: OperatorRow; temporaryPassword: string } | undefined> {
  const operator = await findOperatorByEmail(deps.db, email);
  if (!operator || operator.disabled_at || operator.password_temporary_until === null) return undefined;
  if (operator.password_temporary_until.getTime() > deps.clock.now()) return undefined;
  const { operator: renewed, temporaryPassword } = await resetOperatorCredentials(deps, operator.id);
  return { operator: renewed, temporaryPassword };
}
