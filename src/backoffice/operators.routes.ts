import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { auditTrail } from '../audit/audit.service.ts';
import { callerOf } from '../http/backofficeAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import { changeOperator, createOperator, operatorsList, resetOperatorCredentials } from '../operators/operator.service.ts';
import type { Deps } from '../platform/deps.ts';
import { audited } from './audit.ts';
import { toAdminOperator, toAuditEntry } from './operators.mapper.ts';

const DEFAULT_LIMIT = 50;

/** Back office, openapi/admin/paths/operators and audit: the service team's people and what they did. */
export function operatorRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/admin/v1/operators', async (_req, res) => {
    const operators = await operatorsList(deps);
    res.json({ operators: operators.map(toAdminOperator), count: operators.length });
  });

  api.post('/admin/v1/operators', async (req, res) => {
    const { operator, temporaryPassword } = await createOperator(deps, req.body);
    const after = toAdminOperator(operator);
    await audited(deps, req, res, { action: 'operator.create', target: { type: 'operator', id: operator.id }, after });
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ operator: after, temporaryPassword });
  });

  api.patch('/admin/v1/operators/{operatorId}', async (req, res) => {
    const { before, after } = await changeOperator(deps, callerOf(res).actor.id, req.params.operatorId, req.body);
    const shown = toAdminOperator(after);
    await audited(deps, req, res, { action: 'operator.update', target: { type: 'operator', id: after.id }, before: toAdminOperator(before), after: shown });
    res.json(shown);
  });

  api.post('/admin/v1/operators/{operatorId}/reset-credentials', async (req, res) => {
    const { before, operator, temporaryPassword } = await resetOperatorCredentials(deps, req.params.operatorId);
    const after = toAdminOperator(operator);
    await audited(deps, req, res, { action: 'operator.resetCredentials', target: { type: 'operator', id: operator.id }, before: toAdminOperator(before), after });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ operator: after, temporaryPassword });
  });

  api.get('/admin/v1/audit-log', async (req, res) => {
    const { actorId, accountId, action, targetId, from, to, beforeId, limit } = req.query;
    const entries = await auditTrail(deps, {
      actorId,
      accountId,
      action,
      targetId,
      from: from === undefined ? undefined : new Date(Number(from)),
      to: to === undefined ? undefined : new Date(Number(to)),
      beforeId: beforeId === undefined ? undefined : Number(beforeId),
      limit: limit === undefined ? DEFAULT_LIMIT : Number(limit),
    });
    res.json({ entries: entries.map(toAuditEntry), count: entries.length });
  });
}
