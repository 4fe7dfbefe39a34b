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
