/** Owner of `sim_psp_refunds`: the simulated PSP's own record of the refunds it was asked for. */
import type { Db, SimPspRefundRow } from '../db/schema.ts';

/** Records an accepted refund; idempotent by refundId, as the id of API Pix's devolução. */
export async function insertAcceptedRefund(
  db: Db,
  refund: { refundId: string; endToEndId: string; amountCents: number; description: string | null; settleAt: Date | null; at: Date },
): Promise<void> {
  await db
    .insertInto('sim_psp_refunds')
    .values({
      refund_id: refund.refundId,
      end_to_end_id: refund.endToEndId,
      amount_cents: refund.amountCents,
      description: refund.description,
      state: 'accepted',
      settle_at: refund.settleAt,
      created_at: refund.at,
      updated_at: refund.at,
    })
    .onConflict((oc) => oc.column('refund_id').doNothing())
    .execute();
}

export function findSimRefund(db: Db, refundId: string): Promise<SimPspRefundRow | undefined> {
  return db.selectFrom('sim_psp_refunds').selectAll().where('refund_id', '=', refundId).executeTakeFirst();
}

/** Moves an `accepted` refund on (refunded or rejected); false when it is not accepted any more. */
export async function changeAcceptedRefund(
  db: Db,
  refundId: string,
  changes: Partial<Pick<SimPspRefundRow, 'state' | 'refund_end_to_end_id' | 'refused_code' | 'refused_reason'>> & { updated_at: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('sim_psp_refunds')
    .set(changes)
    .where('refund_id', '=', refundId)
    .where('state', '=', 'accepted')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
