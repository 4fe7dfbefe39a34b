import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { pageLimit } from '../transactions/listPage.ts';
import { cancelDueCharge, createDueCharge, getDueCharge, listDueChargePage, updateDueCharge } from './dueCharge.service.ts';
import { createDueChargeBatch, getDueChargeBatch } from './dueChargeBatch.service.ts';
import { answerFor } from '../http/errorMapping.ts';
import type { DomainError } from '../platform/domainError.ts';

/** An item's refusal in the merchant's words (the contract's message of the same refusal on POST /v1/due-charges). */
const describeRefusal = (error: DomainError): string => answerFor(error, 'merchant')?.message ?? error.constructor.name;

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
        limit: pageLimit(query.limit),
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

  api.post('/v1/due-charge-batches', async (req, res) => {
    res.status(202).json(await createDueChargeBatch(deps, authOf(res), req.body, describeRefusal));
  });

  api.get('/v1/due-charge-batches/{batchId}', async (req, res) => {
    res.json(await getDueChargeBatch(deps, authOf(res).accountId, req.params.batchId));
  });

  api.post('/v1/due-charges/{id}/cancel', async (req, res) => {
    res.json(await cancelDueCharge(deps, authOf(res).accountId, req.params.id));
  });
}
