/**
 * A Pix received with a static QR code's txid (receivedPix.service.ts asks here when the txid names no
 * charge): a payment of its own, a charge created `pending` and moved to `paid` by the charge state machine
 * (which books the credit: the merchant's net, PixGate's fee) with `transaction.paid` in the outbox, in one
 * database transaction. Once per end-to-end id: the codes' payments have a unique end-to-end id, so the
 * same Pix read twice (a callback and the listing, two callbacks at once) is credited once.
 *
 * What does not pay the code is refused, for receivedPix.service.ts to record as an unmatched Pix: another
 * amount than a fixed code's (the BR Code carries it; the payer may not change it), an open amount the
 * account's charges would refuse, or a Pix the provider received once the code was deactivated.
 */
import { findAccount } from '../accounts/account.repository.ts';
import { moveCharge } from '../charges/charge.machine.ts';
import { checkAmount, settledFee } from '../charges/charge.service.ts';
import type { AccountRow, TransactionRow } from '../db/schema.ts';
import { enqueueEvent } from '../events/outbox.ts';
import type { Deps } from '../platform/deps.ts';
import { DomainError } from '../platform/domainError.ts';
import { newId } from '../primitives/ids.ts';
import type { ReceivedPix } from '../provider/port.ts';
import { findStaticQrCodeByTxid, findStaticQrPayment, insertStaticQrPayment, type StaticQrCodeRow } from './staticQrCode.repository.ts';

/** The contract's smallest charge (a transaction's `amountCents` is at least 100). */
const MIN_CHARGE_CENTS = 100;

export type StaticQrPaymentOutcome =
  | { outcome: 'credited' | 'already_credited'; charge: TransactionRow }
  | { outcome: 'refused'; reason: 'amount_mismatch' | 'charge_not_payable' };

/**
 * The fee of a payment of `amountCents` to the code, by the account's rule now; undefined when the amount
 * does not pay it. A fixed code is paid by its amount only (its fee at most the amount less 1 cent, should
 * the rule have changed since it was created); an open one by what POST /v1/pix would accept.
 */
function feeOf(code: StaticQrCodeRow, account: AccountRow, amountCents: number): number | undefined {
  if (code.amount_cents !== null) {
    if (amountCents !== Number(code.amount_cents)) return undefined;
    return settledFee(amountCents, { fixedCents: account.charge_fee_fixed_cents, bps: account.charge_fee_bps });
  }
  if (amountCents < MIN_CHARGE_CENTS) return undefined;
  try {
    return checkAmount(account, amountCents);
  } catch (error) {
    if (error instanceof DomainError) return undefined;
    throw error;
  }
}

/** Applies a received Pix to the static code its txid names; undefined when it names none. */
export async function staticQrCodePayment(deps: Deps, pix: ReceivedPix): Promise<StaticQrPaymentOutcome | undefined> {
  const code = pix.chargeRef === undefined ? undefined : await findStaticQrCodeByTxid(deps.db, pix.chargeRef);
  if (!code) return undefined;
  const earlier = await findStaticQrPayment(deps.db, pix.endToEndId);
  if (earlier) return { outcome: 'already_credited', charge: earlier };
  // A Pix the provider received before the deactivation pays the code, however late it is reported.
  if (code.deactivated_at !== null && code.deactivated_at.getTime() <= pix.receivedAtMs) return { outcome: 'refused', reason: 'charge_not_payable' };
  const account = await findAccount(deps.db, code.account_id);
  if (!account) throw new Error(`static QR code ${code.id}: account ${code.account_id} not found`);
  const feeCents = feeOf(code, account, pix.amountCents);
  if (feeCents === undefined) return { outcome: 'refused', reason: 'amount_mismatch' };
  const now = new Date(deps.clock.now());
  const paid = await deps.db.transaction().execute(async (trx) => {
    const row = await insertStaticQrPayment(trx, { id: newId('tx'), code, amountCents: pix.amountCents, feeCents, endToEndId: pix.endToEndId, payer: pix.payer, at: now });
    if (!row) return undefined;
    const moved = await moveCharge(trx, row, 'paid', now, { paid_at: now, updated_at: now });
    await enqueueEvent(trx, 'transaction.paid', moved, now);
    return moved;
  });
  if (paid) return { outcome: 'credited', charge: paid };
  // Credited meanwhile by another reading of this very Pix, which held the end-to-end id first.
  const other = await findStaticQrPayment(deps.db, pix.endToEndId);
  if (!other) throw new Error(`Pix ${pix.endToEndId}: neither credited nor found credited to static QR code ${code.id}`);
  return { outcome: 'already_credited', charge: other };
}
