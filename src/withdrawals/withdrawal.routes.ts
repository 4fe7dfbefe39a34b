import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { createWithdrawal } from './withdrawal.service.ts';

const STATUS_OF = { created: 201, replayed: 200, indeterminate: 202 } as const;

/** POST /v1/withdraw, on the merchant router. */
export function withdrawalRoutes(router: Router, deps: Deps): void {
  typedRoutes<paths>(router).post('/v1/withdraw', async (req, res) => {
    const outcome = await createWithdrawal(deps, authOf(res), req.body);
    res.status(STATUS_OF[outcome.kind]).json(outcome.body);
  });
}
