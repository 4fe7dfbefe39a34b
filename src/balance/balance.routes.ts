import { Router } from 'express';
import type { Deps } from '../deps.ts';
import { authOf } from '../http/merchantApi.ts';
import { readBalance } from '../ledger/ledger.ts';

export function balanceRoutes(deps: Deps): Router {
  const router = Router();
  router.get('/v1/balance', async (_req, res) => {
    const balance = await readBalance(deps.db, authOf(res).accountId);
    res.json({
      available: balance.availableCents,
      pending: 0,
      currency: 'BRL',
      updatedAt: deps.clock.now(),
    });
  });
  return router;
}
