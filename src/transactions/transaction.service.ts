import type { TransactionRow, TransactionType } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { TransactionNotFound } from './transaction.errors.ts';
import { findTransaction, findTransactionById, listTransactions } from './transaction.repository.ts';

/** GET /v1/transactions: newest first, internal states left out. */
export function listAccountTransactions(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  options: { type?: TransactionType | undefined; limit: number },
): Promise<TransactionRow[]> {
  return listTransactions(deps.db, accountId, options);
}

/** GET /v1/transactions/{id}: another merchant's transaction is answered exactly like an unknown one. */
export async function getAccountTransaction(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<TransactionRow> {
  const row = await findTransaction(deps.db, accountId, id);
  if (!row) throw new TransactionNotFound();
  return row;
}

/** A transaction of any account, or undefined: the back office's view of it before an action (audit log). */
export function findAnyTransaction(deps: Pick<Deps, 'db'>, id: string): Promise<TransactionRow | undefined> {
  return findTransactionById(deps.db, id);
}
