import type { Request, Response } from 'express';
import { auditStep, recordAudit, type AuditContext, type AuditedChange, type AuditStep } from '../audit/audit.service.ts';
import { callerOf } from '../http/backofficeAccess.ts';
import type { Deps } from '../platform/deps.ts';

/** Who is acting: the signed-in operator or the automation token, with the request's id and address. */
function contextOf(req: Request, res: Response): AuditContext {
  return { actor: callerOf(res).actor, requestId: req.get('x-request-id') ?? undefined, ip: req.ip };
}

/**
 * The audit step of a back-office action, handed to the service that performs it: the entry is written in
 * the action's own database transaction, from what it decided (`describe`: what, on which target, before
 * and after as the back office shows them; never a secret).
 */
export function auditing<R>(deps: Deps, req: Request, res: Response, describe: (result: R) => AuditedChange): AuditStep<R> {
  return auditStep(deps, contextOf(req, res), describe);
}

/**
 * Writes the audit entry of a back-office action that is not one database transaction (a worker run, the
 * sandbox provider's queue), after it succeeded, with what it did.
 */
export function audited(deps: Deps, req: Request, res: Response, change: AuditedChange): Promise<void> {
  return recordAudit(deps, contextOf(req, res), change);
}
