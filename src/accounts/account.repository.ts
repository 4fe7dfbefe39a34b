/** Owner of the `accounts` table. */
import type { Kysely, Transaction } from 'kysely';
import type { AccountRow, AccountUpdate, Database, NewAccount } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export function insertAccount(trx: Transaction<Database>, account: NewAccount): Promise<AccountRow> {
  return trx.insertInto('accounts').values(account).returningAll().executeTakeFirstOrThrow();
}

export function findAccount(db: Db, accountId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
}

export async function accountExists(db: Db, accountId: string): Promise<boolean> {
  return (await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst()) !== undefined;
}

/** Locks the account row: one recipient registration or webhook URL change at a time per account. */
export async function lockAccount(trx: Transaction<Database>, accountId: string): Promise<void> {
  await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}

export function listAccounts(db: Db): Promise<AccountRow[]> {
  return db.selectFrom('accounts').selectAll().orderBy('created_at', 'asc').execute();
}

export function updateAccount(db: Db, accountId: string, changes: AccountUpdate): Promise<AccountRow | undefined> {
  return db.updateTable('accounts').set(changes).where('id', '=', accountId).returningAll().executeTakeFirst();
}

export async function countAccounts(db: Db): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
