/**
 * The events of Pix Automático (category `recurring`), written to the outbox in the caller's database
 * transaction like every other event: `recurrence.<status>` for each change of a recurrence's status, with
 * the recurrence as GET /v1/recurrences/{id} reads it (without its recent cycles); `recurrence.cycle_scheduled`
 * when a cycle's charge reached the payer's bank and `recurrence.cycle_refused` when a debit was refused,
 * with the cycle. A cycle's payment and end are its charge's events (`transaction.paid`, `failed`,
 * `expired`, `cancelled`, with `recurrenceId`).
 */
import type { Transaction } from 'kysely';
import type { Database, RecurrenceStatus, TransactionRow } from '../db/schema.ts';
import { insertEvent } from '../events/event.repository.ts';
import type { EventName } from '../events/catalog.ts';
import type { components } from '../../generated/event-types.ts';
import { newId } from '../primitives/ids.ts';
import { cycleCounts, type CycleRow, type RecurrenceRow } from './recurrence.repository.ts';
import { toCycleJson, toRecurrenceJson } from './recurrence.jsons.ts';

export type RecurrenceEventName = `recurrence.${RecurrenceStatus}` & EventName;
export type CycleEventName = ('recurrence.cycle_scheduled' | 'recurrence.cycle_refused') & EventName;

type RecurrenceEventBody = components['schemas']['RecurrenceChanged'];
type CycleEventBody = components['schemas']['RecurrenceCycleChanged'];

export async function enqueueRecurrenceEvent(trx: Transaction<Database>, event: RecurrenceEventName, row: RecurrenceRow, at: Date): Promise<string> {
  const eventId = newId('evt');
  const body: RecurrenceEventBody = {
    eventId,
    event,
    category: 'recurring',
    occurredAt: at.getTime(),
    recurrenceId: row.id,
    recurrence: toRecurrenceJson(row, { cycles: await cycleCounts(trx, row.id) }),
  };
  await insertEvent(trx, { id: eventId, name: event, accountId: row.account_id, transactionId: null, payload: JSON.stringify(body), at });
  return eventId;
}

export async function enqueueCycleEvent(trx: Transaction<Database>, event: CycleEventName, charge: TransactionRow, cycle: CycleRow, at: Date): Promise<string> {
  const eventId = newId('evt');
  const body: CycleEventBody = {
    eventId,
    event,
    category: 'recurring',
    occurredAt: at.getTime(),
    recurrenceId: cycle.recurrence_id,
    transactionId: charge.id,
    cycle: toCycleJson({ cycle, charge }),
  };
  await insertEvent(trx, { id: eventId, name: event, accountId: charge.account_id, transactionId: charge.id, payload: JSON.stringify(body), at });
  return eventId;
}
