import type { TransactionRow, TransactionType } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { TransactionNotFound } from './transaction.errors.ts';
import { findTransaction, listTransactions } from './transaction.repository.ts';

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
