import { logFailure } from '../db/unavailable.ts';
import type { Transaction } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { ProviderConfirmationLost, ProviderFailure, ProviderLacks, ProviderRejected, ProviderTimeout } from '../provider/port.ts';
import { messages } from '../messages/merchant.ts';
import { releaseSlots } from '../ratelimit/rateLimit.repository.ts';
import { lockTransaction, releaseIdempotencyKey } from '../transactions/transaction.repository.ts';
import { deleteWithdrawalAlerts } from './withdrawalAlert.repository.ts';
import { moveWithdrawal, type WithdrawalChanges, type WithdrawalEvent } from './withdrawal.machine.ts';
import type { SlotRequest } from './withdrawalPath.repository.ts';
import { WITHDRAWAL, type WithdrawalState } from './withdrawal.states.ts';

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
    // A provider without a send API (an approved withdrawal of an installation moved to PSP=apipix): nothing sent.
    if (error instanceof ProviderFailure || error instanceof ProviderLacks) return { kind: 'refused' };
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
 *   (`initiating`, answered 502) becomes `aborted`, drops its third-party alert, frees its externalRef for
 *   the retry and gives back the rate-limit `slots` it took (when the caller knows them); an approved one
 *   becomes `failed`.
 * A withdrawal no longer in flight (reconciliation finished it first) is returned unchanged.
 */
export async function finishSend(deps: Deps, transactionId: string, outcome: SendOutcome, slots: SlotRequest[] = []): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockTransaction(trx, transactionId);
    if (!row) throw new Error(`withdrawal ${transactionId} vanished`);
    if (row.provider_state !== 'sending') return row;
    const finished = await applySendOutcome(trx, row, outcome, now);
    if (finished.status === WITHDRAWAL.aborted.status) await releaseSlots(trx, row.account_id, slots);
    return finished;
  });
}

/** The move a send outcome makes of a withdrawal in flight: its state, what it writes, its events. */
export function sendOutcomeMove(
  row: TransactionRow,
  outcome: SendOutcome,
  now: Date,
): { to: WithdrawalState; changes: WithdrawalChanges; events: WithdrawalEvent[]; abort: boolean } {
  // Approved by the back office (or announced to a retry): transfer.created went out then.
  const created: WithdrawalEvent[] = row.status === WITHDRAWAL.announcedInFlight.status ? [] : ['transfer.created'];
  switch (outcome.kind) {
    case 'rejected':
      return {
        to: WITHDRAWAL.failed,
        changes: { refused_code: outcome.refusedCode, refused_reason: outcome.refusedReason, paid_at: now, updated_at: now },
        events: [...created, 'transfer.failed'],
        abort: false,
      };
    case 'refused':
      // Never announced: rolled back as if never requested (502), no event.
      if (created.length > 0) return { to: WITHDRAWAL.aborted, changes: { updated_at: now }, events: [], abort: true };
      return {
        to: WITHDRAWAL.failed,
        changes: {
          refused_code: outcome.notReceived ? 'RECONCILED_NOT_SENT' : 'PROVIDER_REJECTED',
          refused_reason: outcome.notReceived ? messages.notReceivedReason : messages.providerRefusedReason,
          paid_at: now,
          updated_at: now,
        },
        events: ['transfer.failed'],
        abort: false,
      };
    case 'indeterminate':
      return { to: WITHDRAWAL.unknown, changes: { updated_at: now }, events: created, abort: false };
    case 'accepted':
    case 'confirmation_lost':
      return { to: WITHDRAWAL.sent, changes: { provider_ref: outcome.providerRef, updated_at: now }, events: [...created, 'transfer.processing'], abort: false };
  }
}

/** Applies a send outcome to a withdrawal in flight, locked by the caller (see `finishSend`). */
export async function applySendOutcome(
  trx: Transaction<Database>,
  row: TransactionRow,
  outcome: SendOutcome,
  now: Date,
): Promise<TransactionRow> {
  const move = sendOutcomeMove(row, outcome, now);
  if (move.abort) {
    // No alert of a third-party withdrawal that never existed, and the externalRef is free for the retry,
    // which raises its own alert.
    await deleteWithdrawalAlerts(trx, row.id);
    if (row.external_ref !== null) await releaseIdempotencyKey(trx, row.account_id, 'withdrawal', row.id);
  }
  return moveWithdrawal(trx, row, move.to, now, move.changes, { events: move.events });
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
    return moveWithdrawal(trx, row, WITHDRAWAL.announcedInFlight, now, {}, { events: ['transfer.created'] });
  });
}
