import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { eventuallyConsistent } from '../platform/readRouting.ts';
import { toDashboardInfraction } from './dashboard.mapper.ts';
import { accountInfractions, dashboardDefendInfraction } from './infractions.service.ts';

/** Dashboard, openapi/dashboard/paths/infractions: the account's MED infractions and the merchant's defence. */
export function infractionRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/dashboard/api/v1/infractions', async (_req, res) => {
    const rows = await eventuallyConsistent(deps, (d) => accountInfractions(d, principalOf(res).account.id));
    const nowMs = deps.clock.now();
    res.json({ infractions: rows.map((row) => toDashboardInfraction(row, nowMs)), count: rows.length });
  });

  api.post('/dashboard/api/v1/infractions/{infractionId}/defence', async (req, res) => {
    const row = await dashboardDefendInfraction(deps, principalOf(res), req.params.infractionId, req.body);
    res.json(toDashboardInfraction(row, deps.clock.now()));
  });
}
