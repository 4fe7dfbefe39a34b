import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import type { TransactionType } from '../db/schema.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { eventuallyConsistent } from '../platform/readRouting.ts';
import { listRefunds, mayHaveRefunds } from '../refunds/refund.service.ts';
import { toApiTransactionDetail } from './transaction.mapper.ts';
import { getAccountTransaction, listAccountTransactionsJson } from './transaction.service.ts';

const DEFAULT_LIMIT = 50;

/** GET /v1/transactions and GET /v1/transactions/{id}, on the merchant router. */
export function transactionRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);
  api.get('/v1/transactions', async (req, res) => {
    // Validated by the spec: type, status and the integers are checked and coerced before this runs.
    const query = req.query;
    const { items, nextCursor } = await eventuallyConsistent(deps, (d) => listAccountTransactionsJson(d, authOf(res).accountId, {
      type: query.type as TransactionType | undefined,
      status: query.status,
      createdFrom: query.createdFrom === undefined ? undefined : Number(query.createdFrom),
      createdTo: query.createdTo === undefined ? undefined : Number(query.createdTo),
      externalRef: query.externalRef,
      staticQrCodeId: query.staticQrCodeId,
      paymentLinkId: query.paymentLinkId,
      recurrenceId: query.recurrenceId,
      cursor: query.cursor,
      limit: query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit),
    }));
    // The items are JSON already (built by the database, see listTransactionsJson): written as they are.
    const next = nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(nextCursor)}`;
    const body = `{"transactions":[${items.join(',')}],"count":${items.length}${next}}`;
    res.type('application/json').setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  });

  api.get('/v1/transactions/{id}', async (req, res) => {
    const row = await getAccountTransaction(deps, authOf(res).accountId, req.params.id);
    const refunds = mayHaveRefunds(row) ? await listRefunds(deps, row.account_id, row.id) : [];
    res.json({ ...toApiTransactionDetail(row), ...(refunds.length > 0 ? { refunds } : {}) });
  });
}
