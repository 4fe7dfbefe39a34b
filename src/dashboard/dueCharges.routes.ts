import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { pageLimit } from '../transactions/listPage.ts';
import { cancelDashboardDueCharge, dashboardDueCharge, dashboardDueChargeOf, dashboardDueCharges } from './dueCharges.service.ts';

/** Dashboard, openapi/dashboard/paths/due-charges: charges with a due date from the page (the /v1/due-charges service). */
export function dueChargeRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/dashboard/api/v1/due-charges', async (req, res) => {
    const outcome = await dashboardDueCharge(deps, principalOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.get('/dashboard/api/v1/due-charges', async (req, res) => {
    // Validated by the document: limit an integer 1..100, status one of the list, the dates `format: date`.
    const query = req.query;
    res.json(
      await dashboardDueCharges(deps, principalOf(res).account.id, {
        limit: pageLimit(query.limit),
        cursor: query.cursor,
        status: query.status,
        dueFrom: query.dueFrom,
        dueTo: query.dueTo,
      }),
    );
  });

  api.get('/dashboard/api/v1/due-charges/{transactionId}', async (req, res) => {
    res.json(await dashboardDueChargeOf(deps, principalOf(res).account.id, req.params.transactionId));
  });

  api.post('/dashboard/api/v1/due-charges/{transactionId}/cancel', async (req, res) => {
    res.json(await cancelDashboardDueCharge(deps, principalOf(res), req.params.transactionId));
  });
}
