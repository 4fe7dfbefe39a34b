import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { RecurrenceStatus } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { pageLimit } from '../transactions/listPage.ts';
import { createRecurrence, getRecurrence, listCyclePage, listRecurrencePage, recurrenceJson, sendCycle } from './recurrence.service.ts';
import { cancelRecurrenceForMerchant } from './recurrence.sync.ts';

/** /v1/recurrences: Pix Automático, on the merchant router. */
export function recurrenceRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/v1/recurrences', async (req, res) => {
    const outcome = await createRecurrence(deps, authOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.get('/v1/recurrences', async (req, res) => {
    // Validated by the spec: limit is an integer 1..100, status one of the enum.
    const query = req.query;
    res.json(await listRecurrencePage(deps, authOf(res).accountId, { limit: pageLimit(query.limit), cursor: query.cursor, status: query.status as RecurrenceStatus | undefined }));
  });

  api.get('/v1/recurrences/{id}', async (req, res) => {
    res.json(await getRecurrence(deps, authOf(res).accountId, req.params.id));
  });

  api.post('/v1/recurrences/{id}/cancel', async (req, res) => {
    res.json(await recurrenceJson(deps, await cancelRecurrenceForMerchant(deps, authOf(res).accountId, req.params.id)));
  });

  api.post('/v1/recurrences/{id}/cycles', async (req, res) => {
    res.status(201).json(await sendCycle(deps, authOf(res).accountId, req.params.id, req.body.amountCents));
  });

  api.get('/v1/recurrences/{id}/cycles', async (req, res) => {
    const query = req.query;
    res.json(await listCyclePage(deps, authOf(res).accountId, req.params.id, { limit: pageLimit(query.limit), cursor: query.cursor }));
  });
}
