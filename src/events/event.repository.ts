/** Owner of `outbox_events`: every webhook event, written in the transaction of the change that caused it. */
import type { Transaction } from 'kysely';
import type { Database, Db, OutboxEventRow } from '../db/schema.ts';
import type { EventName } from './catalog.ts';

/**
 * Writes one outbox row. `transactionId` is the transaction the event is about (a `transaction.*` or
 * `transfer.*` event, a recurrence cycle's event: its charge), null for an event about no transaction (the
 * `recurrence.<status>` events); `payload` is the body as JSON text, delivered byte for byte.
 */
export async function insertEvent(
  trx: Transaction<Database>,
  event: { id: string; name: EventName; accountId: string; transactionId: string | null; payload: string; at: Date },
): Promise<void> {
  await trx
    .insertInto('outbox_events')
    .values({
      id: event.id,
      account_id: event.accountId,
      event: event.name,
      transaction_id: event.transactionId,
      payload: event.payload,
      created_at: event.at,
    })
    .execute();
}

/** Up to `limit` events not fanned out yet, oldest first, locked (SKIP LOCKED: workers share the work). */
export function lockEventsToFanOut(trx: Transaction<Database>, limit: number): Promise<Pick<OutboxEventRow, 'id' | 'account_id' | 'event' | 'created_at'>[]> {
  return trx
    .selectFrom('outbox_events')
    .select(['id', 'account_id', 'event', 'created_at'])
    .where('fanned_out', '=', false)
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Events committed and not fanned out yet: how many, and since when the oldest waits. */
export async function fanOutBacklog(db: Db): Promise<{ waiting: number; oldestAt: Date | null }> {
  const row = await db
    .selectFrom('outbox_events')
    .select((eb) => [eb.fn.countAll<number>().as('waiting'), eb.fn.min('created_at').as('oldest')])
    .where('fanned_out', '=', false)
    .executeTakeFirst();
  return { waiting: Number(row?.waiting ?? 0), oldestAt: row?.oldest ? new Date(row.oldest) : null };
}

export async function markFannedOut(trx: Transaction<Database>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('outbox_events').set({ fanned_out: true }).where('id', 'in', ids).execute();
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
