import type { Selectable } from 'kysely';
import type { Db, PartyJson, TransactionRow, UnmatchedPixReason, UnmatchedPixTable } from '../db/schema.ts';

export type UnmatchedPixRow = Selectable<UnmatchedPixTable>;

/** The charge a provider's charge id (API Pix txid) names. */
export function findChargeByProviderRef(db: Db, providerRef: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('provider_ref', '=', providerRef).where('type', '=', 'pix_in').executeTakeFirst();
}

/** Records a received Pix that was not credited; once per end-to-end id. True when it was new. */
export async function recordUnmatchedPix(
  db: Db,
  input: { endToEndId: string; chargeRef: string | null; transactionId: string | null; amountCents: number; receivedAt: Date; reason: UnmatchedPixReason; payer: PartyJson | null; at: Date },
): Promise<boolean> {
  const inserted = await db
    .insertInto('unmatched_pix')
    .values({
      end_to_end_id: input.endToEndId,
      charge_ref: input.chargeRef,
      transaction_id: input.transactionId,
      amount_cents: input.amountCents,
      received_at: input.receivedAt,
      reason: input.reason,
      payer: input.payer === null ? null : JSON.stringify(input.payer),
      status: 'open',
      created_at: input.at,
    })
    .onConflict((conflict) => conflict.column('end_to_end_id').doNothing())
    .returning('end_to_end_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Which of these end-to-end ids are unmatched Pix (open or resolved): known to the ledger, left to an operator. */
export async function unmatchedAmong(db: Db, endToEndIds: string[]): Promise<Set<string>> {
  if (endToEndIds.length === 0) return new Set();
  const rows = await db.selectFrom('unmatched_pix').select('end_to_end_id').where('end_to_end_id', 'in', endToEndIds).execute();
  return new Set(rows.map((row) => row.end_to_end_id));
}

export function findUnmatchedPix(db: Db, endToEndId: string): Promise<UnmatchedPixRow | undefined> {
  return db.selectFrom('unmatched_pix').selectAll().where('end_to_end_id', '=', endToEndId).executeTakeFirst();
}

/** The open ones, oldest first (the operator's queue). */
export function listOpenUnmatchedPix(db: Db, limit: number): Promise<UnmatchedPixRow[]> {
  return db.selectFrom('unmatched_pix').selectAll().where('status', '=', 'open').orderBy('created_at').orderBy('end_to_end_id').limit(limit).execute();
}

/** Closes an open one with what the operator did; undefined when it is not open. */
export function resolveUnmatched(db: Db, endToEndId: string, resolution: { by: string; note: string; at: Date }): Promise<UnmatchedPixRow | undefined> {
  return db
    .updateTable('unmatched_pix')
    .set({ status: 'resolved', resolved_at: resolution.at, resolved_by: resolution.by, resolution_note: resolution.note })
    .where('end_to_end_id', '=', endToEndId)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}

/** What the provider holds that no balance has (open ones): the ledger's comparison with the provider adds it. */
export async function openUnmatchedCents(db: Db): Promise<number> {
  const row = await db
    .selectFrom('unmatched_pix')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_cents'), eb.val('0')).as('total'))
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
