import { logFailure } from '../db/unavailable.ts';
import type { Transaction } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { voidWithdrawal } from '../ledger/ledger.repository.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { ProviderConfirmationLost, ProviderFailure, ProviderRejected, ProviderTimeout } from '../provider/port.ts';
import { messages } from '../messages/merchant.ts';
import { lockTransaction, releaseIdempotencyKey, updateTransaction, type TransactionChanges } from '../transactions/transaction.repository.ts';
import { deleteWithdrawalAlerts } from './withdrawalAlert.repository.ts';
import { stateOf, WITHDRAWAL, withdrawalStep, type WithdrawalState } from './withdrawal.states.ts';

/** What sending a withdrawal to the PSP produced. */
export type SendOutcome =
  | { kind: 'accepted'; providerRef: string }
  | { kind: 'confirmation_lost'; providerRef: string }
  /** A definite failure: the PSP did not take the order (or, found by reconciliation, never received it). */
  | { kind: 'refused'; notReceived?: boolean }
  /** The PSP refused the order itself, with a reason (a 4xx before acceptance): a failed withdrawal, not a 502. */
  | { kind: 'rejected'; refusedCode: string; refusedReason: string }
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
    if (error instanceof ProviderRejected) return { kind: 'rejected', refusedCode: error.refusedCode, refusedReason: error.refusedReason };
    if (error instanceof ProviderConfirmationLost) return { kind: 'confirmation_lost', providerRef: error.providerRef };
    if (!(error instanceof ProviderTimeout)) {
      logFailure(deps.logger, 'withdrawal send failed unexpectedly; treated as indeterminate', error, { transactionId: row.id });
    }
    return { kind: 'indeterminate' };
  }
}

/**
 * Applies a send outcome to a withdrawal still in flight, in one database transaction with its events:
 * - accepted / confirmation lost: `processing`; its pending transfer stands until the PSP settles it.
 * - indeterminate: `failed_unknown`, left to reconciliation; its pending transfer stands.
 * - refused: the pending transfer is voided, nothing is debited. A withdrawal the merchant never saw
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
  // Approved by the back office (or announced to a retry): transfer.created went out then.
  const announced = row.status === WITHDRAWAL.announcedInFlight.status;
  const from = stateOf(row);
  const move = async (to: WithdrawalState, changes: TransactionChanges) => {
    if (withdrawalStep(from, to) === 'void') await voidWithdrawal(trx, row, now);
    return updateTransaction(trx, row.id, { ...changes, status: to.status, provider_state: to.providerState });
  };
  if (outcome.kind === 'rejected') {
    const failed = await move(WITHDRAWAL.failed, { refused_code: outcome.refusedCode, refused_reason: outcome.refusedReason, paid_at: now, updated_at: now });
    if (!announced) await enqueueEvent(trx, 'transfer.created', failed, now);
    await enqueueEvent(trx, 'transfer.failed', failed, now);
    return failed;
  }
  if (outcome.kind === 'refused') {
    if (!announced) {
      // Rolled back as if never requested (502): no alert of a third-party withdrawal that never existed,
      // and the externalRef is free for the retry, which raises its own alert.
      await deleteWithdrawalAlerts(trx, row.id);
      if (row.external_ref !== null) await releaseIdempotencyKey(trx, row.account_id, 'withdrawal', row.id);
      return move(WITHDRAWAL.aborted, { updated_at: now });
    }
    const failed = await move(
      WITHDRAWAL.failed,
      {
        refused_code: outcome.notReceived ? 'RECONCILED_NOT_SENT' : 'PROVIDER_REJECTED',
        refused_reason: outcome.notReceived ? messages.notReceivedReason : messages.providerRefusedReason,
        paid_at: now,
        updated_at: now,
      },
    );
    await enqueueEvent(trx, 'transfer.failed', failed, now);
    return failed;
  }
  if (outcome.kind === 'indeterminate') {
    const unknown = await move(WITHDRAWAL.unknown, { updated_at: now });
    if (!announced) await enqueueEvent(trx, 'transfer.created', unknown, now);
    return unknown;
  }
  const processing = await move(WITHDRAWAL.sent, { provider_ref: outcome.providerRef, updated_at: now });
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
    if (!row || row.status !== WITHDRAWAL.inFlight.status) return row;
    withdrawalStep(stateOf(row), WITHDRAWAL.announcedInFlight);
    const announced = await updateTransaction(trx, row.id, { status: WITHDRAWAL.announcedInFlight.status });
    await enqueueEvent(trx, 'transfer.created', announced, now);
    return announced;
  });
}
