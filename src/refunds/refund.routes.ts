import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { createRefund } from './refund.service.ts';

const STATUS_OF = { created: 201, replayed: 200 } as const;

/** POST /v1/transactions/{id}/refunds, on the merchant router. */
export function refundRoutes(router: Router, deps: Deps): void {
  typedRoutes<paths>(router).post('/v1/transactions/{id}/refunds', async (req, res) => {
    const outcome = await createRefund(deps, authOf(res), req.params.id, req.body);
    res.status(STATUS_OF[outcome.kind]).json(outcome.body);
  });
}
