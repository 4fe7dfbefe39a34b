import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { eventuallyConsistent } from '../platform/readRouting.ts';
import { toDashboardRecipient } from './dashboard.mapper.ts';
import { dashboardRefund, dashboardRegisterRecipient, dashboardWithdrawal, recipientsOf } from './moneyOut.service.ts';

const WITHDRAWAL_STATUS = { created: 201, replayed: 200, indeterminate: 202 } as const;

/** Dashboard, openapi/dashboard/paths/recipients, withdrawals and refunds: the merchant API's own operations, from the page. */
export function moneyOutRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/dashboard/api/v1/recipients', async (_req, res) => {
    const rows = await eventuallyConsistent(deps, (d) => recipientsOf(d, principalOf(res).account.id));
    res.json({ recipients: rows.map(toDashboardRecipient), count: rows.length });
  });

  api.post('/dashboard/api/v1/recipients', async (req, res) => {
    const outcome = await dashboardRegisterRecipient(deps, principalOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.post('/dashboard/api/v1/withdrawals', async (req, res) => {
    const outcome = await dashboardWithdrawal(deps, principalOf(res), req.body);
    res.status(WITHDRAWAL_STATUS[outcome.kind]).json(outcome.body);
  });

  api.post('/dashboard/api/v1/transactions/{transactionId}/refunds', async (req, res) => {
    const outcome = await dashboardRefund(deps, principalOf(res), req.params.transactionId, req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });
}
