import { randomInt } from 'node:crypto';
import type { Deps } from '../platform/deps.ts';
import type { PartyJson, TransactionRow } from '../db/schema.ts';
import { creditCharge, debitCharge } from '../ledger/ledger.repository.ts';
import { chargeStep, isReturnable, refundedStatus } from './charge.states.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { generateEndToEndId } from '../primitives/endToEndId.ts';
import { lockTransaction, updateTransaction } from '../transactions/transaction.repository.ts';
import { ChargeInWrongStatus, ChargeNotFound, RefundExceedsCharge, RefundNotCovered } from './charge.errors.ts';

/** A payer for sandbox payments when none is given: a valid CPF at a fictitious bank. */
const SANDBOX_PAYER: PartyJson = {
  name: 'PAGADOR SANDBOX',
  document: '52998224725',
  documentType: 'cpf',
  bankAccount: { ispb: '99999004', branch: '0001', account: '123456-7' },
};

async function lockCharge(trx: Parameters<typeof lockTransaction>[0], id: string): Promise<TransactionRow> {
  const row = await lockTransaction(trx, id);
  if (!row || row.type !== 'pix_in') throw new ChargeNotFound();
  return row;
}

/**
 * The payer pays a charge (what the PSP reports through its own webhook in production): the charge
 * becomes `paid`, the balance is credited with `netCents`, and `transaction.paid` goes to the outbox, all
 * in one database transaction. A charge can be paid once, and only while pending and not past expiry.
 */
export async function payCharge(
  deps: Deps,
  transactionId: string,
  input: {
    payer?: PartyJson | undefined;
    endToEndId?: string | undefined;
    /** When the provider received the payment (a callback may arrive later): the expiry is judged then. */
    receivedAtMs?: number | undefined;
  },
): Promise<TransactionRow> {
  const nowMs = deps.clock.now();
  const now = new Date(nowMs);
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockCharge(trx, transactionId);
    if (row.status !== 'pending') throw new ChargeInWrongStatus('pay', row.status);
    // Past its expiresAt a charge is expired, even before the expiry job has marked it.
    if (row.expires_at && row.expires_at.getTime() <= (input.receivedAtMs ?? nowMs)) throw new ChargeInWrongStatus('pay', 'expired');
    chargeStep(row.status, 'paid');
    const endToEndId =
      input.endToEndId ?? generateEndToEndId({ ispb: (input.payer ?? SANDBOX_PAYER).bankAccount.ispb, atMs: nowMs, kind: 'E' });
    const paid = await updateTransaction(trx, row.id, {
      status: 'paid',
      paid_at: now,
      updated_at: now,
      end_to_end_id: endToEndId,
      payer: JSON.stringify(input.payer ?? { ...SANDBOX_PAYER, bankAccount: { ...SANDBOX_PAYER.bankAccount, account: `${randomInt(100000, 999999)}-${randomInt(0, 9)}` } }),
    });
    await creditCharge(trx, paid, now);
    await enqueueEvent(trx, 'transaction.paid', paid, now);
    return paid;
  });
}

/** Ends a pending charge as `expired` or `cancelled`, with its event; nothing is credited. */
export async function endCharge(
  deps: Deps,
  transactionId: string,
  status: 'expired' | 'cancelled',
): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockCharge(trx, transactionId);
    if (row.status !== 'pending') throw new ChargeInWrongStatus('end', row.status);
    chargeStep(row.status, status);
    const ended = await updateTransaction(trx, row.id, { status, paid_at: now, updated_at: now });
    await enqueueEvent(trx, status === 'expired' ? 'transaction.expired' : 'transaction.cancelled', ended, now);
    return ended;
  });
}

/**
 * The merchant returns (part of) a paid charge to its payer (what a refund through the PSP does): the
 * amount leaves the withdrawable balance, the charge becomes `partially_refunded` or `refunded`, and
 * `transaction.partially_refunded` / `transaction.refunded` is emitted, in one database transaction.
 */
export async function refundCharge(deps: Deps, transactionId: string, amountCents: number): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockCharge(trx, transactionId);
    if (!isReturnable(row.status)) throw new ChargeInWrongStatus('refund', row.status);
    const refunded = (row.refunded_cents ?? 0) + amountCents;
    if (refunded > row.amount_cents) throw new RefundExceedsCharge();
    const status = refundedStatus(refunded, row.amount_cents);
    chargeStep(row.status, status);
    if (!(await debitCharge(trx, row, amountCents, { reason: 'charge_refunded', at: now }))) throw new RefundNotCovered();
    const updated = await updateTransaction(trx, row.id, { status, refunded_cents: refunded, updated_at: now });
    await enqueueEvent(trx, status === 'refunded' ? 'transaction.refunded' : 'transaction.partially_refunded', updated, now);
    return updated;
  });
}

/** The PSP could not complete a pending charge: `failed`, `transaction.failed`, nothing credited. */
export async function failCharge(deps: Deps, transactionId: string): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockCharge(trx, transactionId);
    if (row.status !== 'pending') throw new ChargeInWrongStatus('end', row.status);
    chargeStep(row.status, 'failed');
    const failed = await updateTransaction(trx, row.id, { status: 'failed', paid_at: now, updated_at: now });
    await enqueueEvent(trx, 'transaction.failed', failed, now);
    return failed;
  });
}
