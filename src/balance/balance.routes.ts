import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { eventuallyConsistent } from '../platform/readRouting.ts';
import { merchantBalance } from './balance.service.ts';
import { listBalanceEntries } from './statement.service.ts';

const DEFAULT_LIMIT = 50;

/** GET /v1/balance and GET /v1/balance/entries, on the merchant router. */
export function balanceRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);
  api.get('/v1/balance', async (_req, res) => {
    res.json(await eventuallyConsistent(deps, (d) => merchantBalance(d, authOf(res).accountId)));
  });

  api.get('/v1/balance/entries', async (req, res) => {
    // Validated by the spec: the integers are checked and coerced before this runs.
    const query = req.query;
    const { entries, nextCursor } = await eventuallyConsistent(deps, (d) => listBalanceEntries(d, authOf(res).accountId, {
      createdFrom: query.createdFrom === undefined ? undefined : Number(query.createdFrom),
      createdTo: query.createdTo === undefined ? undefined : Number(query.createdTo),
      cursor: query.cursor,
      limit: query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit),
    }));
    res.json({ entries, count: entries.length, ...(nextCursor ? { nextCursor } : {}) });
  });
}
