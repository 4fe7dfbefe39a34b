import type { Kysely, Transaction } from 'kysely';
import type { Database, NewTransaction, TransactionRow, TransactionType } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export function insertTransaction(db: Db, row: NewTransaction): Promise<TransactionRow> {
  return db.insertInto('transactions').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Internal states the merchant never sees (a withdrawal in flight to the provider, or aborted by it). */
const HIDDEN_STATUSES = ['initiating', 'aborted'] as const;

/** Scoped by account: another merchant's id is simply not found; so is a row in an internal state. */
export function findTransaction(db: Db, accountId: string, id: string): Promise<TransactionRow | undefined> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', 'not in', HIDDEN_STATUSES)
    .executeTakeFirst();
}

export function findTransactionById(db: Db, id: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks the row for a state change; the caller holds the database transaction. */
export function lockTransaction(trx: Transaction<Database>, id: string): Promise<TransactionRow | undefined> {
  return trx.selectFrom('transactions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function listTransactions(
  db: Db,
  accountId: string,
  options: { type?: TransactionType | undefined; limit: number },
): Promise<TransactionRow[]> {
  let query = db
    .selectFrom('transactions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('status', 'not in', HIDDEN_STATUSES);
  if (options.type) query = query.where('type', '=', options.type);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

export type TransactionChanges = Partial<Omit<NewTransaction, 'id' | 'account_id' | 'type'>>;

export function updateTransaction(
  trx: Transaction<Database>,
  id: string,
  changes: TransactionChanges,
): Promise<TransactionRow> {
  return trx.updateTable('transactions').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
