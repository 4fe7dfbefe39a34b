/**
 * Owner of the calls of the database functions `withdrawal_reserve` (migrations 010 and 025: a new
 * withdrawal's reservation, one statement and one round trip; it writes `transactions`, `idempotency_keys`,
 * `rate_limit_counters`, the ledger and `withdrawal_alerts` on behalf of their owners) and `withdrawal_move`
 * (migration 025: every later state change of a withdrawal, with the money of its step).
 */
import { sql, type Kysely } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import type { RenderedEvent } from '../events/outbox.ts';
import type { LedgerStep, WithdrawalState } from './withdrawal.states.ts';

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
  /** The ledger step of a new withdrawal's move to `initiating` (the state machine's table names it). */
  step: LedgerStep;
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
    ${r.caps.day}::date, ${r.caps.month}::date, ${r.caps.dailyCents}, ${r.caps.monthlyCents}, ${r.step})`.execute(db);
}

/**
 * A withdrawal's state change in one statement (`withdrawal_move`, migration 025): locked, checked to be in
 * the state `from` (else SQLSTATE PXM01), the step's money booked (`withdrawal_book`), the status written.
 * Undefined, nothing changed, when the step is a reservation the balance does not cover.
 */
export async function withdrawalMove(
  db: Kysely<Database>,
  move: {
    id: string;
    from: WithdrawalState;
    to: WithdrawalState;
    step: LedgerStep;
    at: Date;
    cents: number | null;
    /** The columns the move writes besides the state, as JSON (`jsonb_populate_record`). */
    changes: Record<string, unknown>;
    events: RenderedEvent[];
  },
): Promise<TransactionRow | undefined> {
  const result = await sql<TransactionRow>`SELECT * FROM withdrawal_move(${move.id}, ${move.from.status}, ${move.from.providerState},
    ${move.to.status}, ${move.to.providerState}, ${move.step}, ${move.at}, ${move.cents}, ${JSON.stringify(move.changes)}::jsonb,
    ${move.events.map((event) => event.id)}::text[], ${move.events.map((event) => event.name)}::text[],
    ${move.events.map((event) => event.payload)}::text[])`.execute(db);
  return result.rows[0];
}

/** The move found the withdrawal in another state than the one read (SQLSTATE PXM01): nothing changed. */
export function movedMeanwhile(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'PXM01';
}
