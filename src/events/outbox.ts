import type { Transaction } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import { newId } from '../primitives/ids.ts';
import { toEventTransaction } from '../transactions/transaction.mapper.ts';
import { categoryOf, type ContractEventName } from './catalog.ts';
import { insertEvent } from './event.repository.ts';
import type { EventEnvelope, EventExtras } from './event.types.ts';

/** A transaction event, rendered: the contract's 21 (the `recurrence.*` events: src/recurrences/recurrence.events.ts). */
export interface RenderedEvent {
  id: string;
  name: ContractEventName;
  accountId: string;
  transactionId: string;
  /** The JSON body every attempt of every delivery sends, as text. */
  payload: string;
  at: Date;
}

type ExtrasOf<E extends ContractEventName> = Record<never, never> extends EventExtras<E> ? [extra?: EventExtras<E>] : [extra: EventExtras<E>];

/**
 * An event as it is stored and sent: its id, and its payload typed from the event schemas
 * (`./event.types.ts`; the extras an event needs, `hold` or `chargebackCents`, are checked per event).
 */
export function renderEvent<E extends ContractEventName>(event: E, transaction: TransactionRow, at: Date, ...[extra]: ExtrasOf<E>): RenderedEvent {
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
  return { id: eventId, name: event, accountId: transaction.account_id, transactionId: transaction.id, payload: JSON.stringify(payload), at };
}

/**
 * Writes an event to the outbox in the caller's database transaction, so an event exists if and only if
 * the state change that caused it was committed. One row and nothing else: the delivery worker fans it
 * out to the merchant's webhook URLs afterwards (`fanOutEvents`, src/webhooks), out of the money
 * transaction, and sends the deliveries at least once.
 */
export async function enqueueEvent<E extends ContractEventName>(
  trx: Transaction<Database>,
  event: E,
  transaction: TransactionRow,
  at: Date,
  ...extra: ExtrasOf<E>
): Promise<string> {
  const rendered = renderEvent(event, transaction, at, ...extra);
  await insertEvent(trx, rendered);
  return rendered.id;
}
