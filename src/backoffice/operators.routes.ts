import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { auditTrail } from '../audit/audit.service.ts';
import { callerOf } from '../http/backofficeAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import { changeOperator, createOperator, operatorsList, resetOperatorCredentials } from '../operators/operator.service.ts';
import type { OperatorRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { auditing } from './audit.ts';
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
    const { operator, temporaryPassword } = await createOperator(
      deps,
      req.body,
      auditing(deps, req, res, (created: OperatorRow) => ({ action: 'operator.create', target: { type: 'operator', id: created.id }, after: toAdminOperator(created) })),
    );
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ operator: toAdminOperator(operator), temporaryPassword });
  });

  api.patch('/admin/v1/operators/{operatorId}', async (req, res) => {
    const { after } = await changeOperator(
      deps,
      callerOf(res).actor.id,
      req.params.operatorId,
      req.body,
      auditing(deps, req, res, (change: { before: OperatorRow; after: OperatorRow }) => ({
        action: 'operator.update',
        target: { type: 'operator', id: change.after.id },
        before: toAdminOperator(change.before),
        after: toAdminOperator(change.after),
      })),
    );
    res.json(toAdminOperator(after));
  });

  api.post('/admin/v1/operators/{operatorId}/reset-credentials', async (req, res) => {
    const { operator, temporaryPassword } = await resetOperatorCredentials(
      deps,
      req.params.operatorId,
      auditing(deps, req, res, (change: { before: OperatorRow; operator: OperatorRow }) => ({
        action: 'operator.resetCredentials',
        target: { type: 'operator', id: change.operator.id },
        before: toAdminOperator(change.before),
        after: toAdminOperator(change.operator),
      })),
    );
    res.setHeader('Cache-Control', 'no-store');
    res.json({ operator: toAdminOperator(operator), temporaryPassword });
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
