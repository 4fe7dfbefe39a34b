/** Owner of the `api_keys` table (only SHA-256 hashes of keys are stored, with the public prefix). */
import type { Insertable } from 'kysely';
import type { AccountRow, ApiKeyRow, ApiKeysTable, Db } from '../db/schema.ts';

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
      'k.last_used_at as key_last_used_at',
      'k.created_by as key_created_by',
    ])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { key_id, key_public_prefix, key_key_hash, key_label, key_created_at, key_revoked_at, key_last_used_at, key_created_by, ...account } = row;
  return {
    key: {
      id: key_id,
      account_id: account.id,
      public_prefix: key_public_prefix,
      key_hash: key_key_hash,
      label: key_label,
      created_at: key_created_at,
      revoked_at: key_revoked_at,
      last_used_at: key_last_used_at,
      created_by: key_created_by,
    },
    account,
  };
}

export function insertApiKey(db: Db, key: Insertable<ApiKeysTable>): Promise<ApiKeyRow> {
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

/** Records that a key was used; a no-op when it was recorded less than `minIntervalMs` ago. */
export async function touchApiKey(db: Db, keyId: string, at: Date, minIntervalMs: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(at.getTime() - minIntervalMs))]))
    .execute();
}
