import type { Router } from 'express';
import type { Deps } from '../deps.ts';
import { authOf } from '../http/merchantApi.ts';
import { readBalance } from '../ledger/ledger.ts';

/** Registers the operation's routes on the merchant router (one router: no per-feature layer to cross). */
export function balanceRoutes(router: Router, deps: Deps): void {
  router.get('/v1/balance', async (_req, res) => {
    const balance = await readBalance(deps.db, authOf(res).accountId);
    res.json({
      available: balance.availableCents,
      pending: 0,
      currency: 'BRL',
      updatedAt: deps.clock.now(),
    });
  });
}
