import type { Transaction } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import { newId } from '../primitives/ids.ts';
import { toEventTransaction } from '../transactions/transaction.mapper.ts';
import { fanOut } from '../webhooks/delivery.service.ts';
import { categoryOf, type EventName } from './catalog.ts';
import { insertEvent } from './event.repository.ts';
import type { EventEnvelope, EventExtras } from './event.types.ts';

/**
 * Writes an event to the outbox in the caller's database transaction, so an event exists if and only if
 * the state change that caused it was committed, together with one delivery per webhook URL that takes it
 * (src/webhooks): the delivery worker then sends them, at least once. The payload is typed from the event
 * schemas (`./event.types.ts`): the extras an event needs (`hold`, `chargebackCents`) are checked per event.
 */
export async function enqueueEvent<E extends EventName>(
  trx: Transaction<Database>,
  event: E,
  transaction: TransactionRow,
  at: Date,
  ...[extra]: Record<never, never> extends EventExtras<E> ? [extra?: EventExtras<E>] : [extra: EventExtras<E>]
): Promise<string> {
  const eventId = newId('evt');
  const fields = toEventTransaction(transaction);
  if (event === 'transfer.created') {
    // transfer.created announces the withdrawal; a refusal reason comes with the transfer.failed that follows.
    delete fields.refusedCode;
    delete fields.refusedReason;
  }
  const payload: EventEnvelope = {
    eventId,
    event,
    category: categoryOf(event),
    occurredAt: at.getTime(),
    ...fields,
    ...extra,
  };
  await insertEvent(trx, { id: eventId, accountId: transaction.account_id, transactionId: transaction.id, payload, at });
  await fanOut(trx, { id: eventId, accountId: transaction.account_id, name: event, at });
  return eventId;
}
