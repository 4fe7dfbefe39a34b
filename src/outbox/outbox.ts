import type { Transaction } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import { categoryOf, type EventName } from '../events/catalog.ts';
import { newId } from '../pix/ids.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { fanOut } from '../webhooks/endpoints.ts';

/**
 * Writes an event to the outbox in the caller's database transaction, so an event exists if and only if
 * the state change that caused it was committed, together with one delivery per webhook URL that takes it
 * (src/webhooks): the delivery worker then sends them, at least once.
 */
export async function enqueueEvent(
  trx: Transaction<Database>,
  event: EventName,
  transaction: TransactionRow,
  at: Date,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const eventId = newId('evt');
  const payload: Record<string, unknown> = {
    eventId,
    event,
    category: categoryOf(event),
    occurredAt: at.getTime(),
    ...toApiTransaction(transaction, 'event'),
    ...extra,
  };
  // transfer.created announces the withdrawal; a refusal reason comes with the transfer.failed that follows.
  if (event === 'transfer.created') {
    delete payload.refusedCode;
    delete payload.refusedReason;
  }
  await trx
    .insertInto('outbox_events')
    .values({
      id: eventId,
      account_id: transaction.account_id,
      event,
      transaction_id: transaction.id,
      payload: JSON.stringify(payload),
      created_at: at,
    })
    .execute();
  await fanOut(trx, { id: eventId, accountId: transaction.account_id, name: event, at });
  return eventId;
}
