import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import type { TransactionType } from '../db/schema.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { listRefunds, mayHaveRefunds } from '../refunds/refund.service.ts';
import { toApiTransaction, toApiTransactionDetail } from './transaction.mapper.ts';
import { getAccountTransaction, listAccountTransactions } from './transaction.service.ts';

const DEFAULT_LIMIT = 50;

/** GET /v1/transactions and GET /v1/transactions/{id}, on the merchant router. */
export function transactionRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);
  api.get('/v1/transactions', async (req, res) => {
    // Validated by the spec: type is pix_in|withdrawal, limit an integer 1..100.
    const type = req.query.type as TransactionType | undefined;
    const limit = req.query.limit === undefined ? DEFAULT_LIMIT : Number(req.query.limit);
    const rows = await listAccountTransactions(deps, authOf(res).accountId, { type, limit });
    res.json({ transactions: rows.map((row) => toApiTransaction(row, 'list')), count: rows.length });
  });

  api.get('/v1/transactions/{id}', async (req, res) => {
    const row = await getAccountTransaction(deps, authOf(res).accountId, req.params.id);
    const refunds = mayHaveRefunds(row) ? await listRefunds(deps, row.account_id, row.id) : [];
    res.json({ ...toApiTransactionDetail(row), ...(refunds.length > 0 ? { refunds } : {}) });
  });
}
