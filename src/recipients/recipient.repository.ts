import type { Kysely, Transaction } from 'kysely';
import type { Database, RecipientRow } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export function findRecipient(db: Db, accountId: string, recipientId: string): Promise<RecipientRow | undefined> {
  return db
    .selectFrom('recipients')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', recipientId)
    .executeTakeFirst();
}

/**
 * A recipient's status read under a share lock, inside the caller's database transaction: a concurrent
 * review (deactivation) waits for the caller to commit, or the caller sees the review's outcome.
 */
export async function lockRecipientStatus(
  trx: Transaction<Database>,
  accountId: string,
  recipientId: string,
): Promise<RecipientRow['status'] | undefined> {
  const row = await trx
    .selectFrom('recipients')
    .select('status')
    .where('account_id', '=', accountId)
    .where('id', '=', recipientId)
    .forShare()
    .executeTakeFirst();
  return row?.status;
}
