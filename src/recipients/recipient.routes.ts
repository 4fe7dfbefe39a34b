import type { Router } from 'express';
import type { components } from '../../generated/api-types.ts';
import type { Deps } from '../deps.ts';
import { authOf } from '../http/merchantApi.ts';
import { listActiveRecipients, registerRecipient } from './recipient.service.ts';

type CreateRecipientRequest = components['schemas']['CreateRecipientRequest'];

/** Registers the operation's routes on the merchant router (one router: no per-feature layer to cross). */
export function recipientRoutes(router: Router, deps: Deps): void {
  router.post('/v1/recipients', async (req, res) => {
    const outcome = await registerRecipient(deps, authOf(res), req.body as CreateRecipientRequest);
    res.status(outcome.status).json(outcome.body);
  });
  router.get('/v1/recipients', async (_req, res) => {
    res.json(await listActiveRecipients(deps, authOf(res).accountId));
  });
}
