import type { Router } from 'express';
import type { components } from '../../generated/api-types.ts';
import type { Deps } from '../deps.ts';
import { authOf } from '../http/merchantApi.ts';
import { createWithdrawal } from './withdrawal.service.ts';

type CreateWithdrawalRequest = components['schemas']['CreateWithdrawalRequest'];

/** Registers the operation's routes on the merchant router (one router: no per-feature layer to cross). */
export function withdrawalRoutes(router: Router, deps: Deps): void {
  router.post('/v1/withdraw', async (req, res) => {
    const outcome = await createWithdrawal(deps, authOf(res), req.body as CreateWithdrawalRequest);
    res.status(outcome.status).json(outcome.body);
  });
}
