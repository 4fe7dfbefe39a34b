import { Router } from 'express';
import type { components } from '../../generated/api-types.ts';
import type { Deps } from '../deps.ts';
import { authOf } from '../http/merchantApi.ts';
import { listActiveRecipients, registerRecipient } from './recipient.service.ts';

type CreateRecipientRequest = components['schemas']['CreateRecipientRequest'];

export function recipientRoutes(deps: Deps): Router {
  const router = Router();
  router.post('/v1/recipients', async (req, res) => {
    const outcome = await registerRecipient(deps, authOf(res), req.body as CreateRecipientRequest);
    res.status(outcome.status).json(outcome.body);
  });
  router.get('/v1/recipients', async (_req, res) => {
    res.json(await listActiveRecipients(deps, authOf(res).accountId));
  });
  return router;
}
