/**
 * A charge paid: what the provider reports when the payer's Pix arrives (receivedPix.service.ts applies the
 * provider's confirmed read, in production and in the sandbox alike).
 */
import type { Deps } from '../platform/deps.ts';
import type { PartyJson, TransactionRow } from '../db/schema.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { lockTransaction, updateTransaction } from '../transactions/transaction.repository.ts';
import { ChargeInWrongStatus, ChargeNotFound } from './charge.errors.ts';
import { moveCharge } from './charge.machine.ts';

/**
 * The charge becomes `paid` with the Pix's end-to-end id and payer, its amount credited (the merchant's net,
 * PixGate's fee) and `transaction.paid` in the outbox, in one database transaction. A charge is paid once,
 * and only while pending and not past its expiry when the provider received the Pix (a callback may arrive
 * later); otherwise `ChargeInWrongStatus`, nothing changed.
 */
export async function payCharge(
  deps: Deps,
  transactionId: string,
  pix: { payer: PartyJson | undefined; endToEndId: string; receivedAtMs: number },
  /** A charge with a due date: the amount paid (the amount due that day) and the fee on it, credited instead of the amount billed. */
  settled?: { amountCents: number; feeCents: number },
): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockTransaction(trx, transactionId);
    if (!row || row.type !== 'pix_in') throw new ChargeNotFound();
    if (row.status !== 'pending') throw new ChargeInWrongStatus('pay', row.status);
    // Past its expiresAt a charge is expired, even before the expiry job has marked it.
    if (row.expires_at && row.expires_at.getTime() <= pix.receivedAtMs) throw new ChargeInWrongStatus('pay', 'expired');
    // The credit books the row's amount and fee: a charge with a due date's are the amount paid first.
    if (settled) await updateTransaction(trx, row.id, { amount_cents: settled.amountCents, fee_cents: settled.feeCents, net_cents: settled.amountCents - settled.feeCents });
    const paid = await moveCharge(trx, row, 'paid', now, {
      paid_at: now,
      updated_at: now,
      end_to_end_id: pix.endToEndId,
      // A provider's read that names no payer leaves it unknown (never a made-up one).
      payer: pix.payer === undefined ? null : JSON.stringify(pix.payer),
    });
    await enqueueEvent(trx, 'transaction.paid', paid, now);
    return paid;
  });
}
