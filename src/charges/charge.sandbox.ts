import { randomInt } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { PartyJson, StoredTransactionStatus, TransactionRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { credit } from '../ledger/ledger.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import { generateEndToEndId } from '../pix/endToEndId.ts';
import { lockTransaction, updateTransaction } from '../transactions/transaction.repository.ts';

/** A payer for sandbox payments when none is given: a valid CPF at a fictitious bank. */
const SANDBOX_PAYER: PartyJson = {
  name: 'PAGADOR SANDBOX',
  document: '52998224725',
  documentType: 'cpf',
  bankAccount: { ispb: '99999004', branch: '0001', account: '123456-7' },
};

function notPayable(status: StoredTransactionStatus): ApiError {
  return new ApiError(409, `Charge is not payable: status ${status}.`);
}

async function lockCharge(trx: Parameters<typeof lockTransaction>[0], id: string): Promise<TransactionRow> {
  const row = await lockTransaction(trx, id);
  if (!row || row.type !== 'pix_in') throw new ApiError(404, 'Charge not found.');
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
  input: { payer?: PartyJson | undefined; endToEndId?: string | undefined },
): Promise<TransactionRow> {
  const nowMs = deps.clock.now();
  const now = new Date(nowMs);
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockCharge(trx, transactionId);
    if (row.status !== 'pending') throw notPayable(row.status);
    // Past its expiresAt a charge is expired, even before the expiry job has marked it.
    if (row.expires_at && row.expires_at.getTime() <= nowMs) throw notPayable('expired');
    const endToEndId =
      input.endToEndId ?? generateEndToEndId({ ispb: (input.payer ?? SANDBOX_PAYER).bankAccount.ispb, atMs: nowMs, kind: 'E' });
    const paid = await updateTransaction(trx, row.id, {
      status: 'paid',
      paid_at: now,
      updated_at: now,
      end_to_end_id: endToEndId,
      payer: JSON.stringify(input.payer ?? { ...SANDBOX_PAYER, bankAccount: { ...SANDBOX_PAYER.bankAccount, account: `${randomInt(100000, 999999)}-${randomInt(0, 9)}` } }),
    });
    await credit(trx, { accountId: row.account_id, transactionId: row.id, kind: 'charge_credit', at: now }, paid.net_cents);
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
    if (row.status !== 'pending') throw new ApiError(409, `Charge is not pending: status ${row.status}.`);
    const ended = await updateTransaction(trx, row.id, { status, paid_at: now, updated_at: now });
    await enqueueEvent(trx, status === 'expired' ? 'transaction.expired' : 'transaction.cancelled', ended, now);
    return ended;
  });
}
