import { auditStep, recordAudit, type AuditContext, type AuditedChange, type AuditStep } from '../audit/audit.service.ts';
import type { DashboardUserRow, OperatorRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';

/**
 * Audit entries of sign-ins and of the security settings people change themselves (issue 22), in the
 * audit log the console shows. Never a secret: no password, code, token or its hash; a failed sign-in
 * names the e-mail typed (normalised, at most 254 characters), the address and, when the e-mail is known,
 * the user or operator.
 *
 * Actions: `user.signed_in`, `user.sign_in_failed`, `user.password_changed`, `user.sessions_revoked`,
 * `account.team_two_factor_changed`, `operator.signed_in`, `operator.sign_in_failed`,
 * `operator.password_changed`.
 */
export interface RequestSource {
  ip?: string | undefined;
  requestId?: string | undefined;
}

const EMAIL_MAX = 254;

export function userContext(user: Pick<DashboardUserRow, 'id' | 'name'>, source: RequestSource): AuditContext {
  return { actor: { type: 'user', id: user.id, name: user.name }, requestId: source.requestId, ip: source.ip };
}

export function operatorContext(operator: Pick<OperatorRow, 'id' | 'name'>, source: RequestSource): AuditContext {
  return { actor: { type: 'operator', id: operator.id, name: operator.name }, requestId: source.requestId, ip: source.ip };
}

/** The audit step of a user's own change, written in the change's transaction. */
export function userAuditStep<R>(deps: Pick<Deps, 'clock'>, user: DashboardUserRow, source: RequestSource, describe: (result: R) => AuditedChange): AuditStep<R> {
  return auditStep(deps, userContext(user, source), describe);
}

export function recordUserAction(deps: Pick<Deps, 'db' | 'clock'>, user: DashboardUserRow, source: RequestSource, change: AuditedChange): Promise<void> {
  return recordAudit(deps, userContext(user, source), change);
}

/** A sign-in of the dashboard or the console, right or wrong. */
export function recordSignIn(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: {
    who: 'user' | 'operator';
    succeeded: boolean;
    email: string;
    known: { id: string; name: string; accountId?: string | null } | undefined;
    reason?: string | undefined;
    source: RequestSource;
  },
): Promise<void> {
  const email = input.email.trim().toLowerCase().slice(0, EMAIL_MAX);
  const actor = { type: input.who, id: input.known?.id ?? null, name: input.known?.name ?? email };
  return recordAudit(deps, { actor, requestId: input.source.requestId, ip: input.source.ip }, {
    action: `${input.who}.${input.succeeded ? 'signed_in' : 'sign_in_failed'}`,
    target: { type: input.who, id: input.known?.id ?? null },
    accountId: input.known?.accountId ?? null,
    after: { email, ...(input.reason ? { reason: input.reason } : {}) },
  });
}
