/**
 * What a paid charge can give back, as the database keeps it: the return columns of `transactions`
 * (`refunded_cents`: refunds confirmed, chargebacks and devoluções made outside the API, as booked;
 * `refunding_cents`: refunds in flight) are written only here, each change one conditional statement that
 * holds the bound itself (docs/decisions.md "The books agree with the bank"):
 *
 *   confirmed + in flight + this ≤ amount   to reserve a refund, or to book an operator's chargeback
 *   confirmed + this ≤ amount               to book what the provider says left (its word is a fact)
 *
 * and the database refuses any write that takes `refunded_cents` past the amount or either column below
 * zero (`transactions_returns_bounded`, migration 018). The caller holds the charge's row lock (the first lock
 * of every path that gives money back: charge, hold, refund, balance), so the statement never races; the
 * condition is the rule, not a retry loop.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import type { ChargeStatus } from './charge.states.ts';

/**
 * Reserves `amountCents` of what the charge can still give back, for a refund being sent. False (nothing
 * changed) when confirmed returns, returns in flight and this one would pass the amount.
 */
export async function reserveReturn(trx: Transaction<Database>, chargeId: string, amountCents: number): Promise<boolean> {
  const result = await sql<{ id: string }>`
    UPDATE transactions SET refunding_cents = refunding_cents + ${amountCents}
    WHERE id = ${chargeId} AND type = 'pix_in' AND coalesce(refunded_cents, 0) + refunding_cents + ${amountCents} <= amount_cents
    RETURNING id`.execute(trx);
  return result.rows.length === 1;
}

/** A refund in flight ended without the money leaving (refused, never sent): its reservation is given back. */
export async function releaseReturn(trx: Transaction<Database>, chargeId: string, amountCents: number): Promise<void> {
  await sql`UPDATE transactions SET refunding_cents = refunding_cents - ${amountCents} WHERE id = ${chargeId}`.execute(trx);
}

export interface BookedReturn {
  amountCents: number;
  /** The charge's status after it (its state machine's step, checked by the caller). */
  status: ChargeStatus;
  /** What of `refunding_cents` this return ends (a refund's or a claimed devolução's reservation; 0: none). */
  reservedCents: number;
  /** Count the refunds in flight against the bound (an operator's chargeback), or not (the provider's word). */
  countInFlight: boolean;
  /** The devolução's `D…` end-to-end id, when the return has one the merchant reads (a refund). */
  refundEndToEndId?: string | undefined;
  at: Date;
}

/**
 * Books money of the charge that went back to its payer: `refunded_cents` grows, the status moves, in one
 * statement that holds the bound. Undefined (nothing changed) when the bound would pass: the caller decides
 * what that means (a 409 for an operator, suspense for a provider that paid past the charge).
 */
export async function bookReturn(trx: Transaction<Database>, chargeId: string, booked: BookedReturn): Promise<TransactionRow | undefined> {
  const reserved = booked.reservedCents;
  const inFlight = booked.countInFlight ? sql`refunding_cents - ${reserved}` : sql`0`;
  const result = await sql<TransactionRow>`
    UPDATE transactions SET
      refunded_cents = coalesce(refunded_cents, 0) + ${booked.amountCents},
      refunding_cents = refunding_cents - ${reserved},
      status = ${booked.status},
      refund_end_to_end_id = coalesce(${booked.refundEndToEndId ?? null}::text, refund_end_to_end_id),
      updated_at = ${booked.at}
    WHERE id = ${chargeId} AND type = 'pix_in'
      AND coalesce(refunded_cents, 0) + ${booked.amountCents} + ${inFlight} <= amount_cents
    RETURNING *`.execute(trx);
  return result.rows[0];
}

/** What the charge can still give back now: the amount less confirmed returns and returns in flight. */
export function stillReturnable(charge: Pick<TransactionRow, 'amount_cents' | 'refunded_cents' | 'refunding_cents'>): number {
  return Math.max(0, Number(charge.amount_cents) - Number(charge.refunded_cents ?? 0) - Number(charge.refunding_cents));
}
