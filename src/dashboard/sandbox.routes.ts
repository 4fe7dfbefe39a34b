import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { toOutboxMail } from './dashboard.mapper.ts';
import { SandboxUnavailable } from './dashboard.errors.ts';
import { outboxAvailable, sandboxCharge, sandboxWithdrawal } from './sandbox.service.ts';

const DEFAULT_OUTBOX_LIMIT = 20;

/** Dashboard, openapi/dashboard/paths/sandbox and dev: outside production only. */
export function sandboxRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', async (req, res) => {
    const row = await sandboxCharge(deps, principalOf(res).account.id, req.params.transactionId, req.params.action);
    res.json(toApiTransaction(row, 'list'));
  });

  api.post('/dashboard/api/v1/sandbox/withdrawals/{transactionId}/{action}', async (req, res) => {
    const row = await sandboxWithdrawal(deps, principalOf(res).account.id, req.params.transactionId, req.params.action);
    res.json(toApiTransaction(row, 'list'));
  });

  api.get('/dashboard/api/v1/dev/outbox', async (req, res) => {
    if (!outboxAvailable(deps)) throw new SandboxUnavailable();
    const mails = await deps.mailer.recent({ limit: req.query.limit === undefined ? DEFAULT_OUTBOX_LIMIT : Number(req.query.limit) });
    res.json({ mails: mails.map(toOutboxMail), count: mails.length });
  });
}
