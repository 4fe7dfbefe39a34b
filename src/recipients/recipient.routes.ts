import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { eventuallyConsistent } from '../platform/readRouting.ts';
import { listActiveRecipients, registerRecipient } from './recipient.service.ts';

/** POST /v1/recipients and GET /v1/recipients, on the merchant router. */
export function recipientRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);
  api.post('/v1/recipients', async (req, res) => {
    const outcome = await registerRecipient(deps, authOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });
  api.get('/v1/recipients', async (_req, res) => {
    res.json(await eventuallyConsistent(deps, (d) => listActiveRecipients(d, authOf(res).accountId)));
  });
}
