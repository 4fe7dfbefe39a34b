import { sql, type Kysely } from 'kysely';
import type { Database, PartyJson, SimPspTransferRow } from '../db/schema.ts';

type Db = Kysely<Database>;

/** Records an accepted transfer; idempotent by transactionId, as a real PSP's order id. */
export async function insertAcceptedTransfer(
  db: Db,
  transfer: { transactionId: string; amountCents: number; pixKey: string; pixKeyType: string; settleAt: Date | null; beneficiary: PartyJson; at: Date },
): Promise<void> {
  await db
    .insertInto('sim_psp_transfers')
    .values({
      transaction_id: transfer.transactionId,
      amount_cents: transfer.amountCents,
      pix_key: transfer.pixKey,
      pix_key_type: transfer.pixKeyType,
      state: 'accepted',
      settle_at: transfer.settleAt,
      beneficiary: JSON.stringify(transfer.beneficiary),
      created_at: transfer.at,
      updated_at: transfer.at,
    })
    .onConflict((oc) => oc.column('transaction_id').doNothing())
    .execute();
}

export function findTransfer(db: Db, transactionId: string): Promise<SimPspTransferRow | undefined> {
  return db.selectFrom('sim_psp_transfers').selectAll().where('transaction_id', '=', transactionId).executeTakeFirst();
}

/** Moves an `accepted` transfer on (paid or rejected); false when it is not accepted any more. */
export async function changeAcceptedTransfer(
  db: Db,
  transactionId: string,
  changes: Partial<Pick<SimPspTransferRow, 'state' | 'end_to_end_id' | 'refused_code' | 'refused_reason'>> & {
    beneficiary?: string;
    updated_at: Date;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('sim_psp_transfers')
    .set(changes)
    .where('transaction_id', '=', transactionId)
    .where('state', '=', 'accepted')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Adds a return to a paid transfer in one statement, so two returns at once both count (a read, then a write
 * of the sum, lost one of them). False when the transfer is not paid or the returns would pass its amount.
 */
export async function recordReturn(
  db: Db,
  transactionId: string,
  change: { amountCents: number; refundEndToEndId: string; at: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('sim_psp_transfers')
    .set({
      state: 'returned',
      returned_cents: sql<number>`coalesce(returned_cents, 0) + ${change.amountCents}`,
      refund_end_to_end_id: change.refundEndToEndId,
      updated_at: change.at,
    })
    .where('transaction_id', '=', transactionId)
    .where('state', 'in', ['paid', 'returned'])
    .where(sql<boolean>`coalesce(returned_cents, 0) + ${change.amountCents} <= amount_cents`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Sends accepted in a period (inclusive bounds), for the provider's listing. */
export function listTransfers(db: Db, from: Date, to: Date): Promise<SimPspTransferRow[]> {
  return db
    .selectFrom('sim_psp_transfers')
    .selectAll()
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .orderBy('created_at')
    .orderBy('transaction_id')
    .execute();
}
