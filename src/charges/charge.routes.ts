import type { Router } from 'express';
import type { components } from '../../generated/api-types.ts';
import type { Deps } from '../deps.ts';
import { authOf } from '../http/merchantApi.ts';
import { createCharge } from './charge.service.ts';

type CreateChargeRequest = components['schemas']['CreateChargeRequest'];

/** Registers the operation's routes on the merchant router (one router: no per-feature layer to cross). */
export function chargeRoutes(router: Router, deps: Deps): void {
  router.post('/v1/pix', async (req, res) => {
    const outcome = await createCharge(deps, authOf(res), req.body as CreateChargeRequest);
    res.status(outcome.status).json(outcome.body);
  });
}
