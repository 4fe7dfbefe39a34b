import type { Router } from 'express';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { authOf } from '../http/merchantApi.ts';
import { messages } from '../http/messages.ts';
import type { TransactionType } from '../db/schema.ts';
import { toApiTransaction } from './transaction.mapper.ts';
import { findTransaction, listTransactions } from './transaction.repository.ts';

const DEFAULT_LIMIT = 50;

/** Registers the operation's routes on the merchant router (one router: no per-feature layer to cross). */
export function transactionRoutes(router: Router, deps: Deps): void {

  router.get('/v1/transactions', async (req, res) => {
    // Validated by the spec: type is pix_in|withdrawal, limit an integer 1..100 (coerced).
    const type = req.query.type as TransactionType | undefined;
    const limit = req.query.limit === undefined ? DEFAULT_LIMIT : Number(req.query.limit);
    const rows = await listTransactions(deps.db, authOf(res).accountId, { type, limit });
    res.json({ transactions: rows.map((row) => toApiTransaction(row, 'list')), count: rows.length });
  });

  router.get('/v1/transactions/:id', async (req, res) => {
    // Another merchant's transaction is answered exactly like an unknown one: existence is not leaked.
    const row = await findTransaction(deps.db, authOf(res).accountId, req.params.id);
    if (!row) throw notFound(messages.transactionNotFound);
    res.json(toApiTransaction(row, 'single'));
  });

}
