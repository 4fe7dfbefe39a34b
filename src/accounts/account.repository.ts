import type { Kysely, Transaction } from 'kysely';
import type { AccountRow, AccountUpdate, ApiKeyRow, Database, NewAccount } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertAccount(trx: Transaction<Database>, account: NewAccount): Promise<AccountRow> {
  const row = await trx.insertInto('accounts').values(account).returningAll().executeTakeFirstOrThrow();
  await trx
    .insertInto('balances')
    .values({ account_id: row.id, available_cents: 0, held_cents: 0, updated_at: account.created_at as Date })
    .execute();
  return row;
}

export function findAccount(db: Db, accountId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
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

export interface KeyWithAccount {
  key: ApiKeyRow;
  account: AccountRow;
}

/** One round trip per authentication: the key and its account together. */
export async function findActiveKeyByHash(db: Db, keyHash: string): Promise<KeyWithAccount | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .selectAll('a')
    .select([
      'k.id as key_id',
      'k.public_prefix as key_public_prefix',
      'k.key_hash as key_key_hash',
      'k.label as key_label',
      'k.created_at as key_created_at',
      'k.revoked_at as key_revoked_at',
    ])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { key_id, key_public_prefix, key_key_hash, key_label, key_created_at, key_revoked_at, ...account } = row;
  return {
    key: {
      id: key_id,
      account_id: account.id,
      public_prefix: key_public_prefix,
      key_hash: key_key_hash,
      label: key_label,
      created_at: key_created_at,
      revoked_at: key_revoked_at,
    },
    account,
  };
}

export function insertApiKey(db: Db, key: ApiKeyRow): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(key).returningAll().executeTakeFirstOrThrow();
}

export function listApiKeys(db: Db, accountId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at').execute();
}

export function revokeApiKey(db: Db, accountId: string, keyId: string, at: Date): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('account_id', '=', accountId)
    .where('id', '=', keyId)
    .returningAll()
    .executeTakeFirst();
}
