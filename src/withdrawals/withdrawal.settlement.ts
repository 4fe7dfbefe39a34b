import type { Transaction } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { credit } from '../ledger/ledger.repository.ts';
import { enqueueEvent } from '../events/outbox.ts';
import type { ProviderWithdrawalStatus } from '../provider/port.ts';
import { messages } from '../messages/merchant.ts';
import { findTransactionById, lockTransaction, scheduleNextCheck, updateTransaction } from '../transactions/transaction.repository.ts';
import { applySendOutcome } from './withdrawal.dispatch.ts';

const DAY_MS = 86_400_000;
/** An open withdrawal is asked about again this long after the last answer that changed nothing. */
const RECHECK_MS = 5_000;
/** A send still in flight this long is presumed interrupted (a crash): reconciliation asks the PSP. */
export const STUCK_SEND_MS = 30_000;

const OPEN: ReadonlySet<string> = new Set(['processing', 'failed_unknown']);

/**
 * Brings one withdrawal in line with what the PSP knows, in one database transaction with its events.
 * The PSP is asked first, outside the transaction; the row is then locked and the observation applied
 * only if it still moves the withdrawal forward, so two workers reconciling at once are harmless.
 */
export async function syncWithdrawal(deps: Deps, transactionId: string): Promise<TransactionRow | undefined> {
  const before = await findTransactionById(deps.db, transactionId);
  if (!before || before.type !== 'withdrawal') return before;
  const observed = await deps.provider.queryWithdrawal(transactionId);
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockTransaction(trx, transactionId);
    if (!row) return undefined;
    const result = await applyObservation(trx, row, observed, now);
    if (OPEN.has(result.status)) {
      // Still open: ask again later, behind the others (every open withdrawal gets its turn).
      await scheduleNextCheck(trx, result.id, new Date(now.getTime() + RECHECK_MS));
    }
    if (result.status === 'failed_unknown' && now.getTime() - result.created_at.getTime() > DAY_MS) {
      deps.logger.error('withdrawal still indeterminate after 24 h: escalate to the PSP', { transactionId });
    }
    return result;
  });
}

async function applyObservation(
  trx: Transaction<Database>,
  initial: TransactionRow,
  observed: ProviderWithdrawalStatus,
  now: Date,
): Promise<TransactionRow> {
  let row = initial;
  if (row.provider_state === 'sending') {
    // The send never finished here (crash, or a very slow PSP): resolve it from the PSP's own record.
    if (observed.state === 'unknown') return row;
    if (observed.state === 'not_found') return applySendOutcome(trx, row, { kind: 'refused', notReceived: true }, now);
    row = await applySendOutcome(trx, row, { kind: 'accepted', providerRef: observed.providerRef }, now);
  }
  const movement = { accountId: row.account_id, transactionId: row.id, at: now };
  switch (observed.state) {
    case 'unknown':
      return row;
    case 'not_found': {
      if (row.status !== 'failed_unknown') return row;
      await credit(trx, { ...movement, kind: 'withdrawal_reversal' }, row.net_cents);
      const failed = await updateTransaction(trx, row.id, {
        status: 'failed',
        refused_code: 'RECONCILED_NOT_SENT',
        refused_reason: messages.notSentReturnedReason,
        paid_at: now,
        updated_at: now,
      });
      await enqueueEvent(trx, 'transfer.failed', failed, now);
      return failed;
    }
    case 'accepted': {
      if (row.status !== 'failed_unknown') return row;
      const processing = await updateTransaction(trx, row.id, { status: 'processing', provider_ref: observed.providerRef, updated_at: now });
      await enqueueEvent(trx, 'transfer.processing', processing, now);
      return processing;
    }
    case 'rejected': {
      if (!OPEN.has(row.status)) return row;
      // The amount goes back to the balance in the same transaction that writes the event.
      await credit(trx, { ...movement, kind: 'withdrawal_reversal' }, row.net_cents);
      const failed = await updateTransaction(trx, row.id, {
        status: 'failed',
        refused_code: observed.refusedCode,
        refused_reason: observed.refusedReason,
        paid_at: now,
        updated_at: now,
      });
      await enqueueEvent(trx, 'transfer.failed', failed, now);
      return failed;
    }
    case 'paid':
      return OPEN.has(row.status) ? markPaid(trx, row, observed, new Date(observed.paidAtMs)) : row;
    case 'returned': {
      if (OPEN.has(row.status)) row = await markPaid(trx, row, observed, now);
      if (row.status !== 'paid' && row.status !== 'partially_refunded') return row;
      const already = row.refunded_cents ?? 0;
      const returned = Math.min(observed.returnedCents, row.amount_cents);
      if (returned <= already) return row;
      // A return gives back what the beneficiary's bank returned; PixGate's fee is not returned.
      await credit(trx, { ...movement, kind: 'withdrawal_returned' }, returned - already);
      const status = returned >= row.amount_cents ? 'refunded' : 'partially_refunded';
      const updated = await updateTransaction(trx, row.id, {
        status,
        refunded_cents: returned,
        refund_end_to_end_id: observed.refundEndToEndId,
        updated_at: now,
      });
      await enqueueEvent(trx, status === 'refunded' ? 'transfer.refunded' : 'transfer.partially_refunded', updated, now);
      return updated;
    }
  }
}

async function markPaid(
  trx: Transaction<Database>,
  row: TransactionRow,
  observed: { endToEndId: string; beneficiary: TransactionRow['beneficiary'] },
  paidAt: Date,
): Promise<TransactionRow> {
  const paid = await updateTransaction(trx, row.id, {
    status: 'paid',
    end_to_end_id: observed.endToEndId,
    beneficiary: JSON.stringify(observed.beneficiary),
    paid_at: paidAt,
    updated_at: paidAt,
  });
  await enqueueEvent(trx, 'transfer.paid', paid, paidAt);
  return paid;
}

