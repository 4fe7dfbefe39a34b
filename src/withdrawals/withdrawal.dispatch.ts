import type { Transaction } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { debitReservation, releaseReservation } from '../ledger/ledger.repository.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { ProviderConfirmationLost, ProviderFailure, ProviderTimeout } from '../provider/port.ts';
import { messages } from '../messages/merchant.ts';
import { lockTransaction, releaseIdempotencyKey, updateTransaction } from '../transactions/transaction.repository.ts';
import { deleteWithdrawalAlerts } from './withdrawalAlert.repository.ts';

/** What sending a withdrawal to the PSP produced. */
export type SendOutcome =
  | { kind: 'accepted'; providerRef: string }
  | { kind: 'confirmation_lost'; providerRef: string }
  /** A definite failure: the PSP did not take the order (or, found by reconciliation, never received it). */
  | { kind: 'refused'; notReceived?: boolean }
  /** No answer: the PSP may or may not have taken the order. */
  | { kind: 'indeterminate' };

/**
 * Calls the PSP for a withdrawal whose money is reserved (`provider_state = 'sending'`). Any error other
 * than a definite failure counts as indeterminate: money must never be assumed to have stayed.
 */
export async function sendToProvider(deps: Deps, row: TransactionRow, beneficiary: {
  name: string;
  document: string;
  documentType: 'cpf' | 'cnpj';
}): Promise<SendOutcome> {
  try {
    const { providerRef } = await deps.provider.sendWithdrawal({
      transactionId: row.id,
      amountCents: row.amount_cents,
      pixKey: row.pix_key ?? '',
      pixKeyType: row.pix_key_type ?? '',
      description: row.description ?? undefined,
      expectedBeneficiary: beneficiary,
    });
    return { kind: 'accepted', providerRef };
  } catch (error) {
    if (error instanceof ProviderFailure) return { kind: 'refused' };
    if (error instanceof ProviderConfirmationLost) return { kind: 'confirmation_lost', providerRef: error.providerRef };
    if (!(error instanceof ProviderTimeout)) {
      deps.logger.error('withdrawal send failed unexpectedly; treated as indeterminate', {
        transactionId: row.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    return { kind: 'indeterminate' };
  }
}

/**
 * Applies a send outcome to a withdrawal still in flight, in one database transaction with its events:
 * - accepted / confirmation lost: the reservation becomes the debit; `processing`.
 * - indeterminate: the reservation becomes the debit; `failed_unknown`, left to reconciliation.
 * - refused: the reservation is released, nothing is debited. A withdrawal the merchant never saw
 *   (`initiating`, answered 502) becomes `aborted`, drops its third-party alert and frees its externalRef
 *   for the retry; an approved one becomes `failed`.
 * A withdrawal no longer in flight (reconciliation finished it first) is returned unchanged.
 */
export async function finishSend(deps: Deps, transactionId: string, outcome: SendOutcome): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockTransaction(trx, transactionId);
    if (!row) throw new Error(`withdrawal ${transactionId} vanished`);
    if (row.provider_state !== 'sending') return row;
    return applySendOutcome(trx, row, outcome, now);
  });
}

export async function applySendOutcome(
  trx: Transaction<Database>,
  row: TransactionRow,
  outcome: SendOutcome,
  now: Date,
): Promise<TransactionRow> {
  const total = row.net_cents;
  const movement = { accountId: row.account_id, transactionId: row.id, at: now };
  const announced = row.status === 'processing'; // approved by the back office: transfer.created went out then
  if (outcome.kind === 'refused') {
    await releaseReservation(trx, { ...movement, kind: 'withdrawal_reservation_released' }, total);
    if (!announced) {
      // Rolled back as if never requested (502): no alert of a third-party withdrawal that never existed,
      // and the externalRef is free for the retry, which raises its own alert.
      await deleteWithdrawalAlerts(trx, row.id);
      if (row.external_ref !== null) await releaseIdempotencyKey(trx, row.account_id, 'withdrawal', row.id);
      return updateTransaction(trx, row.id, { status: 'aborted', provider_state: null, updated_at: now });
    }
    const failed = await updateTransaction(trx, row.id, {
      status: 'failed',
      provider_state: null,
      refused_code: outcome.notReceived ? 'RECONCILED_NOT_SENT' : 'PROVIDER_REJECTED',
      refused_reason: outcome.notReceived ? messages.notReceivedReason : messages.providerRefusedReason,
      paid_at: now,
      updated_at: now,
    });
    await enqueueEvent(trx, 'transfer.failed', failed, now);
    return failed;
  }
  await debitReservation(trx, { ...movement, kind: 'withdrawal_debit' }, total);
  if (outcome.kind === 'indeterminate') {
    const unknown = await updateTransaction(trx, row.id, { status: 'failed_unknown', provider_state: 'sent', updated_at: now });
    if (!announced) await enqueueEvent(trx, 'transfer.created', unknown, now);
    return unknown;
  }
  const processing = await updateTransaction(trx, row.id, {
    status: 'processing',
    provider_state: 'sent',
    provider_ref: outcome.providerRef,
    updated_at: now,
  });
  if (!announced) await enqueueEvent(trx, 'transfer.created', processing, now);
  await enqueueEvent(trx, 'transfer.processing', processing, now);
  return processing;
}

/**
 * A retry finds its original still `initiating` (its process died mid-send, or the PSP is slow): the
 * merchant is now told about this withdrawal, so it becomes visible as `processing` (money still reserved,
 * `provider_state` still `sending`) with `transfer.created`. From then on reconciliation or the original
 * finishes it as an announced withdrawal (`failed` with its event, never `aborted`), so one externalRef
 * never names two transactions.
 */
export async function announceInFlight(deps: Deps, transactionId: string): Promise<TransactionRow | undefined> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockTransaction(trx, transactionId);
    if (!row || row.status !== 'initiating') return row;
    const announced = await updateTransaction(trx, row.id, { status: 'processing' });
    await enqueueEvent(trx, 'transfer.created', announced, now);
    return announced;
  });
}
