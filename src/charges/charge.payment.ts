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
import { lockDueTerms } from './dueCharge.repository.ts';
import { duePaymentOf } from './dueCharge.service.ts';

/** What a received Pix did to the charge it names: paid it, or left it as it was (and why). */
export type PayOutcome = { paid: TransactionRow } | { refused: 'amount_mismatch' | 'charge_not_payable'; charge: TransactionRow };

/**
 * The charge becomes `paid` with the Pix's end-to-end id and payer, its amount credited (the merchant's net,
 * PixGate's fee) and `transaction.paid` in the outbox, in one database transaction. Whether the Pix pays it
 * is decided under the charge's lock: its amount is the charge's (a charge with a due date: the amount due
 * on the day the provider received it, computed from the terms locked with the row, so a PATCH racing the
 * payment is either before both or after both); otherwise `refused`, nothing changed. A charge is paid once,
 * and only while pending and not past its expiry when the provider received the Pix (a callback may arrive
 * later); otherwise `ChargeInWrongStatus`, nothing changed.
 */
export async function payCharge(
  deps: Deps,
  transactionId: string,
  pix: { payer: PartyJson | undefined; endToEndId: string; receivedAtMs: number; amountCents: number },
): Promise<PayOutcome> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx): Promise<PayOutcome> => {
    const row = await lockTransaction(trx, transactionId);
    if (!row || row.type !== 'pix_in') throw new ChargeNotFound();
    // A charge with a due date is paid by the amount due on the day the Pix arrived; any other by its amount.
    let settled: { amountCents: number; feeCents: number } | undefined;
    if (row.charge_kind === 'due' && row.status === 'pending') {
      const due = await lockDueTerms(trx, row.id);
      const payment = due ? duePaymentOf(due, pix) : { pays: false as const, reason: 'charge_not_payable' as const };
      if (!payment.pays) return { refused: payment.reason, charge: row };
      settled = { amountCents: payment.amountCents, feeCents: payment.feeCents };
    } else if (row.amount_cents !== pix.amountCents) return { refused: 'amount_mismatch', charge: row };
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
    return { paid };
  });
}
