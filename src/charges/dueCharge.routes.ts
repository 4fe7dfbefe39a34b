import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { cancelDueCharge, createDueCharge, getDueCharge, listDueChargePage, updateDueCharge } from './dueCharge.service.ts';

const DEFAULT_LIMIT = 50;

/** /v1/due-charges: charges with a due date (API Pix `cobv`), on the merchant router. */
export function dueChargeRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/v1/due-charges', async (req, res) => {
    const outcome = await createDueCharge(deps, authOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.get('/v1/due-charges', async (req, res) => {
    // Validated by the spec: limit is an integer 1..100, status one of the enum, the dates `format: date`.
    const query = req.query;
    res.json(
      await listDueChargePage(deps, authOf(res).accountId, {
        limit: query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit),
        cursor: query.cursor,
        status: query.status,
        dueFrom: query.dueFrom,
        dueTo: query.dueTo,
      }),
    );
  });

  api.get('/v1/due-charges/{id}', async (req, res) => {
    res.json(await getDueCharge(deps, authOf(res).accountId, req.params.id, req.query.date));
  });

  api.patch('/v1/due-charges/{id}', async (req, res) => {
    res.json(await updateDueCharge(deps, authOf(res), req.params.id, req.body));
  });

  api.post('/v1/due-charges/{id}/cancel', async (req, res) => {
    res.json(await cancelDueCharge(deps, authOf(res).accountId, req.params.id));
  });
}
