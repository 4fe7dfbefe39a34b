/**
 * Owner of the calls of the database functions `withdrawal_reserve` and `withdrawal_send_outcome`
 * (migration 010): a withdrawal's reservation and its send outcome, each one statement and one round trip
 * (they write `transactions`, `idempotency_keys`, `rate_limit_counters`, the ledger, `withdrawal_alerts`
 * and `outbox_events` through those functions, on behalf of their owners).
 */
import { sql, type Kysely } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import type { RenderedEvent } from '../events/outbox.ts';
import type { WithdrawalStatus } from './withdrawal.states.ts';

export interface SlotRequest {
  bucket: string;
  windowIndex: number;
  expiresAt: Date;
  limit: number;
  /** How the 429 names the window: second, minute, hour. */
  name: string;
}

export interface Reservation {
  id: string;
  accountId: string;
  amountCents: number;
  feeCents: number;
  externalRef: string | null;
  keyExpiresAt: Date;
  pixKey: string;
  pixKeyType: string;
  description: string | null;
  recipientId: string | null;
  at: Date;
  slots: SlotRequest[];
  caps: { day: string; month: string; dailyCents: number; monthlyCents: number };
}

/** Why the database refused a reservation (the statement rolled back whole, slots and claim included). */
export type ReservationRefusal =
  | { kind: 'rate_limited'; window: string }
  | { kind: 'external_ref_taken'; transactionId: string }
  | { kind: 'recipient_inactive' }
  | { kind: 'cap'; period: 'day' | 'month' }
  | { kind: 'insufficient_balance' };

/** The refusal a database error stands for, or undefined for any other error. */
export function reservationRefusal(error: unknown): ReservationRefusal | undefined {
  const fields = error as { code?: unknown; detail?: unknown } | null;
  const detail = typeof fields?.detail === 'string' ? fields.detail : '';
  switch (fields?.code) {
    case 'PXW01':
      return { kind: 'rate_limited', window: detail };
    case 'PXW02':
      return { kind: 'external_ref_taken', transactionId: detail };
    case 'PXW03':
      return { kind: 'recipient_inactive' };
    case 'PXW04':
      return { kind: 'cap', period: detail === 'month' ? 'month' : 'day' };
    case 'PXW05':
      return { kind: 'insufficient_balance' };
    default:
      return undefined;
  }
}

/** The reservation, one statement; throws the database's refusal (see `reservationRefusal`). */
export async function reserveAtOnce(db: Kysely<Database>, r: Reservation): Promise<void> {
  await sql`SELECT withdrawal_reserve(${r.id}, ${r.accountId}, ${r.amountCents}, ${r.feeCents}, ${r.externalRef}, ${r.keyExpiresAt},
    ${r.pixKey}, ${r.pixKeyType}, ${r.description}, ${r.recipientId}, ${r.at},
    ${r.slots.map((slot) => slot.bucket)}::text[], ${r.slots.map((slot) => String(slot.windowIndex))}::bigint[],
    ${r.slots.map((slot) => slot.expiresAt.toISOString())}::timestamptz[], ${r.slots.map((slot) => slot.limit)}::integer[],
    ${r.slots.map((slot) => slot.name)}::text[],
    ${r.caps.day}::date, ${r.caps.month}::date, ${r.caps.dailyCents}, ${r.caps.monthlyCents})`.execute(db);
}

/** The general path must apply this outcome (the withdrawal was announced or approved meanwhile). */
export function needsGeneralPath(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'PXW06';
}

/**
 * The send outcome of a withdrawal the merchant has not been told about, one statement: its new status,
 * the events rendered for it, and on `aborted` the void of its pending transfer with the slots given back.
 * Returns the row (unchanged when it was no longer in flight).
 */
export async function recordOutcomeAtOnce(
  db: Kysely<Database>,
  outcome: {
    id: string;
    status: WithdrawalStatus;
    providerState: 'sent' | null;
    providerRef: string | null;
    at: Date;
    events: RenderedEvent[];
    slots: Pick<SlotRequest, 'bucket' | 'windowIndex'>[];
  },
): Promise<TransactionRow> {
  const result = await sql<TransactionRow>`SELECT * FROM withdrawal_send_outcome(${outcome.id}, ${outcome.status}, ${outcome.providerState},
    ${outcome.providerRef}, ${outcome.at}, ${outcome.events.map((event) => event.id)}::text[], ${outcome.events.map((event) => event.name)}::text[],
    ${outcome.events.map((event) => event.payload)}::text[], ${outcome.slots.map((slot) => slot.bucket)}::text[],
    ${outcome.slots.map((slot) => String(slot.windowIndex))}::bigint[])`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error(`withdrawal ${outcome.id}: no outcome row`);
  return row;
}
