import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { merchantBalance } from './balance.service.ts';

/** GET /v1/balance, on the merchant router. */
export function balanceRoutes(router: Router, deps: Deps): void {
  typedRoutes<paths>(router).get('/v1/balance', async (_req, res) => {
    res.json(await merchantBalance(deps, authOf(res).accountId));
  });
}
