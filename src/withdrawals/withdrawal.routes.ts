import { Router } from 'express';
import type { components } from '../../generated/api-types.ts';
import type { Deps } from '../deps.ts';
import { authOf } from '../http/merchantApi.ts';
import { createWithdrawal } from './withdrawal.service.ts';

type CreateWithdrawalRequest = components['schemas']['CreateWithdrawalRequest'];

export function withdrawalRoutes(deps: Deps): Router {
  const router = Router();
  router.post('/v1/withdraw', async (req, res) => {
    const outcome = await createWithdrawal(deps, authOf(res), req.body as CreateWithdrawalRequest);
    res.status(outcome.status).json(outcome.body);
  });
  return router;
}
