import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { createCharge } from './charge.service.ts';

/** POST /v1/pix, on the merchant router. */
export function chargeRoutes(router: Router, deps: Deps): void {
  typedRoutes<paths>(router).post('/v1/pix', async (req, res) => {
    const outcome = await createCharge(deps, authOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });
}
