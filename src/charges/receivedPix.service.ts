/**
 * A Pix the provider received on PixGate's key (confirmed by the provider's read: a callback body alone
 * credits nothing) applied to the charge it names, once: the charge is paid with the Pix's end-to-end id,
 * amount and payer. A Pix that cannot be the payment of a charge (its txid names none of ours, its amount
 * differs from the charge's, the charge was already paid, cancelled or expired before the Pix arrived) is
 * recorded in `unmatched_pix`, counted (`pixgate_psp_unmatched_pix_total`), logged, listed in the back
 * office, and left to an operator: the money is at the provider, in no merchant's balance.
 */
import type { Deps } from '../platform/deps.ts';
import type { ReceivedPix } from '../provider/port.ts';
import type { TransactionRow, UnmatchedPixReason } from '../db/schema.ts';
import { ChargeInWrongStatus, UnmatchedPixAlreadyResolved, UnmatchedPixNotFound } from './charge.errors.ts';
import { payCharge } from './charge.payment.ts';
import { staticQrCodePayment } from '../staticQrCodes/staticQrCode.payment.ts';
import {
  findChargeByProviderRef,
  findUnmatchedPix,
  listOpenUnmatchedPix,
  openUnmatchedCents,
  recordUnmatchedPix,
  resolveUnmatched,
  type UnmatchedPixRow,
} from './receivedPix.repository.ts';

export type { UnmatchedPixRow };

export type ReceivedPixOutcome =
  | { outcome: 'credited'; charge: TransactionRow }
  | { outcome: 'already_credited'; charge: TransactionRow }
  | { outcome: 'unmatched'; reason: UnmatchedPixReason; charge: TransactionRow | undefined };

export async function applyReceivedPix(deps: Deps, pix: ReceivedPix): Promise<ReceivedPixOutcome> {
  const charge = pix.chargeRef === undefined ? undefined : await findChargeByProviderRef(deps.db, pix.chargeRef);
  if (charge && charge.end_to_end_id === pix.endToEndId) return { outcome: 'already_credited', charge };
  if (!charge) {
    // A static QR code's txid: every Pix to an active code is a payment of its own (staticQrCode.payment.ts).
    const code = await staticQrCodePayment(deps, pix);
    if (code?.outcome === 'refused') return unmatched(deps, pix, undefined, code.reason);
    return code ?? unmatched(deps, pix, undefined, 'unknown_charge');
  }
  try {
    // Whether the Pix pays the charge (its amount, or a due charge's amount due that day) is decided under the charge's lock.
    const paid = await payCharge(deps, charge.id, { endToEndId: pix.endToEndId, payer: pix.payer, receivedAtMs: pix.receivedAtMs, amountCents: pix.amountCents });
    if ('refused' in paid) return unmatched(deps, pix, paid.charge, paid.refused);
    return { outcome: 'credited', charge: paid.paid };
  } catch (error) {
    if (!(error instanceof ChargeInWrongStatus)) throw error;
    // Paid meanwhile by this very Pix (a callback and the listing racing): nothing more to do.
    const now = await findChargeByProviderRef(deps.db, charge.provider_ref ?? '');
    if (now && now.end_to_end_id === pix.endToEndId) return { outcome: 'already_credited', charge: now };
    return unmatched(deps, pix, now ?? charge, 'charge_not_payable');
  }
}

async function unmatched(deps: Deps, pix: ReceivedPix, charge: TransactionRow | undefined, reason: UnmatchedPixReason): Promise<ReceivedPixOutcome> {
  const recorded = await recordUnmatchedPix(deps.db, {
    endToEndId: pix.endToEndId,
    chargeRef: pix.chargeRef ?? null,
    transactionId: charge?.id ?? null,
    amountCents: pix.amountCents,
    receivedAt: new Date(pix.receivedAtMs),
    reason,
    payer: pix.payer ?? null,
    at: new Date(deps.clock.now()),
  });
  if (recorded) {
    deps.metrics.unmatchedPix.inc({ reason });
    deps.logger.warn('received Pix not credited: recorded for an operator (back office: unmatched Pix)', {
      endToEndId: pix.endToEndId,
      reason,
      transactionId: charge?.id,
      amountCents: pix.amountCents,
      chargeAmountCents: charge?.amount_cents,
    });
  }
  return { outcome: 'unmatched', reason, charge };
}

/** The open unmatched Pix (oldest first) and what they add up to: the back office's queue. */
export async function openUnmatchedPix(deps: Pick<Deps, 'db'>, limit: number): Promise<{ rows: UnmatchedPixRow[]; openCents: number }> {
  const [rows, openCents] = await Promise.all([listOpenUnmatchedPix(deps.db, limit), openUnmatchedCents(deps.db)]);
  return { rows, openCents };
}

/** Closes an open unmatched Pix with what an operator did; answers it before and after. */
export async function resolveUnmatchedPix(
  deps: Pick<Deps, 'db' | 'clock'>,
  endToEndId: string,
  resolution: { by: string; note: string },
): Promise<{ before: UnmatchedPixRow; after: UnmatchedPixRow }> {
  const before = await findUnmatchedPix(deps.db, endToEndId);
  if (!before) throw new UnmatchedPixNotFound();
  const after = await resolveUnmatched(deps.db, endToEndId, { ...resolution, at: new Date(deps.clock.now()) });
  if (!after) throw new UnmatchedPixAlreadyResolved();
  return { before, after };
}
