/** Owner of `outbox_events`: every webhook event, written in the transaction of the change that caused it. */
import type { Kysely, Transaction } from 'kysely';
import type { Database, OutboxEventRow } from '../db/schema.ts';
import type { EventEnvelope } from './event.types.ts';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertEvent(
  trx: Transaction<Database>,
  event: { id: string; accountId: string; transactionId: string; payload: EventEnvelope; at: Date },
): Promise<void> {
  await trx
    .insertInto('outbox_events')
    .values({
      id: event.id,
      account_id: event.accountId,
      event: event.payload.event,
      transaction_id: event.transactionId,
      payload: JSON.stringify(event.payload),
      created_at: event.at,
    })
    .execute();
}

export function findAccountEvent(db: Db, accountId: string, eventId: string): Promise<OutboxEventRow | undefined> {
  return db.selectFrom('outbox_events').selectAll().where('account_id', '=', accountId).where('id', '=', eventId).executeTakeFirst();
}

/** The events of one transaction of the account, newest first. */
export function listTransactionEvents(db: Db, accountId: string, transactionId: string): Promise<OutboxEventRow[]> {
  return db
    .selectFrom('outbox_events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('transaction_id', '=', transactionId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** An account's events, newest first. */
export function listAccountEvents(db: Db, accountId: string, limit: number): Promise<OutboxEventRow[]> {
  return db
    .selectFrom('outbox_events')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
