import type { Request, Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { changeMerchantCity } from './account.service.ts';
import { toDashboardAccount } from './dashboard.mapper.ts';

/** Dashboard, openapi/dashboard/paths/account: the settings a merchant changes (the city of its BR Codes). */
export function accountRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);
  const source = (req: Request) => ({ ip: req.ip, requestId: req.get('x-request-id') ?? undefined });

  api.patch('/dashboard/api/v1/account', async (req, res) => {
    const row = await changeMerchantCity(deps, principalOf(res), req.body, source(req));
    res.json(toDashboardAccount(row));
  });
}
