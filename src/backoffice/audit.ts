import type { Request, Response } from 'express';
import { recordAudit, type AuditedChange } from '../audit/audit.service.ts';
import { callerOf } from '../http/backofficeAccess.ts';
import type { Deps } from '../platform/deps.ts';

/**
 * Writes the audit entry of a back-office action that just succeeded: who (the signed-in operator or the
 * automation token), what, on which target, before and after (as the back office shows them; never a
 * secret), with the request's id and address.
 */
export function audited(deps: Deps, req: Request, res: Response, change: AuditedChange): Promise<void> {
  const { actor } = callerOf(res);
  return recordAudit(deps, { actor, requestId: req.get('x-request-id') ?? undefined, ip: req.ip }, change);
}
