import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import type { ReconciliationBreakRow } from '../db/schema.ts';
import { callerOf } from '../http/backofficeAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { breaks, reconcileOnDemand, resolveBreak, runs } from '../reconciliation/reconciliation.service.ts';
import { audited, auditing } from './audit.ts';
import { toAdminBreak, toAdminRun } from './infractions.mapper.ts';

const DEFAULT_LIMIT = 50;
const limitOf = (raw: string | undefined) => (raw === undefined ? DEFAULT_LIMIT : Number(raw));

/** Back office, openapi/admin/paths/reconciliation: the books against the provider's, and their breaks. */
export function reconciliationRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/admin/v1/reconciliation/runs', async (req, res) => {
    const report = await reconcileOnDemand(deps, { day: req.body?.day, trigger: 'operator' });
    const body = { run: toAdminRun(report.run), breaks: report.breaks.map(toAdminBreak) };
    await audited(deps, req, res, { action: 'reconciliation.run', target: { type: 'reconciliation', id: String(report.run.id) }, after: body.run });
    res.json(body);
  });

  api.get('/admin/v1/reconciliation/runs', async (req, res) => {
    const rows = await runs(deps, limitOf(req.query.limit));
    res.json({ runs: rows.map(toAdminRun), count: rows.length });
  });

  api.get('/admin/v1/reconciliation/breaks', async (req, res) => {
    const rows = await breaks(deps, {
      // Validated by the spec.
      status: req.query.status as ReconciliationBreakRow['status'] | undefined,
      kind: req.query.kind as ReconciliationBreakRow['kind'] | undefined,
      limit: limitOf(req.query.limit),
    });
    res.json({ breaks: rows.map(toAdminBreak), count: rows.length });
  });

  api.post('/admin/v1/reconciliation/breaks/{breakId}/resolve', async (req, res) => {
    const resolved = await resolveBreak(
      deps,
      req.params.breakId,
      { by: callerOf(res).actor.name, note: req.body.note.trim(), settlement: req.body.settlement },
      auditing(deps, req, res, ({ before, after }: { before: ReconciliationBreakRow; after: ReconciliationBreakRow }) => ({
        action: 'reconciliation.break.resolve',
        target: { type: 'reconciliation_break', id: after.id },
        accountId: after.account_id,
        before: toAdminBreak(before),
        after: toAdminBreak(after),
      })),
    );
    res.json(toAdminBreak(resolved.after));
  });
}
