import type { Transaction } from 'kysely';
import type { Database, PartyJson, ProviderSendStatus, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import type { BeneficiaryFacts, ProviderWithdrawalStatus } from '../provider/port.ts';
import { messages } from '../messages/merchant.ts';
import { findTransactionById, lockTransaction, scheduleNextCheck, updateTransaction, type TransactionChanges } from '../transactions/transaction.repository.ts';
import { applySendOutcome } from './withdrawal.dispatch.ts';
import { refundedStatus } from '../charges/charge.states.ts';
import { isOpenAtProvider, PAID_STATUS, RETURNABLE_WITHDRAWAL_STATUSES, UNKNOWN_STATUS, WITHDRAWAL } from './withdrawal.states.ts';
import { moveWithdrawal } from './withdrawal.machine.ts';
import { intendedBeneficiary } from './withdrawal.review.ts';

/**
 * Who a paid withdrawal reached: what the provider's read says, and for what it leaves out, whom it was sent
 * to (the recipient or the holder, whose document the provider checked the key against). A bank the read
 * does not name is left empty: the withdrawal is booked all the same.
 */
export function completeBeneficiary(facts: BeneficiaryFacts, intended: { name: string; document: string; documentType: 'cpf' | 'cnpj' }): PartyJson {
  const sameDocument = facts.document !== undefined && facts.documentType !== undefined;
  return {
    name: facts.name ?? intended.name,
    document: sameDocument ? (facts.document as string) : intended.document,
    documentType: sameDocument ? (facts.documentType as 'cpf' | 'cnpj') : intended.documentType,
    bankAccount: { ispb: facts.bankAccount?.ispb ?? '', branch: facts.bankAccount?.branch ?? '', account: facts.bankAccount?.account ?? '' },
  };
}

/** A provider observation whose receiver, if any, is complete. */
type Observation =
  | Exclude<ProviderWithdrawalStatus, { state: 'paid' | 'returned' }>
  | (Extract<ProviderWithdrawalStatus, { state: 'paid' }> & { beneficiary: PartyJson })
  | (Extract<ProviderWithdrawalStatus, { state: 'returned' }> & { beneficiary: PartyJson });

/** The provider's word as the withdrawal keeps it (`provider_status`); undefined when it said nothing. */
const LAST_WORD: Record<ProviderWithdrawalStatus['state'], ProviderSendStatus | undefined> = {
  unknown: undefined,
  not_found: 'not_found',
  accepted: 'accepted',
  paid: 'paid',
  rejected: 'rejected',
  returned: 'returned',
};

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The contract: a `failed_unknown` withdrawal reaches `paid` or `failed` within 24 h. Past that it is
 * overdue: every check logs an error and counts in a metric, /metrics shows it, the back office lists it
 * `overdue`, and an operator resolves it (POST /admin/v1/withdrawals/{id}/resolve).
 */
export const FAILED_UNKNOWN_DEADLINE_MS = 24 * HOUR_MS;
/** A send still in flight this long is presumed interrupted (a crash): reconciliation asks the PSP. */
export const STUCK_SEND_MS = 30_000;

/**
 * When reconciliation asks the PSP again about an open withdrawal, by how long it has been in its state:
 * quickly at first (most PIX settle within seconds), then backing off, and never less than every 30 min,
 * so an undecided withdrawal costs the PSP about 60 queries a day instead of one every few seconds.
 */
export const RECHECK_SCHEDULE: readonly { untilAgeMs: number; everyMs: number }[] = [
  { untilAgeMs: 15 * SECOND_MS, everyMs: 5 * SECOND_MS },
  { untilAgeMs: MINUTE_MS, everyMs: 15 * SECOND_MS },
  { untilAgeMs: 5 * MINUTE_MS, everyMs: MINUTE_MS },
  { untilAgeMs: 30 * MINUTE_MS, everyMs: 5 * MINUTE_MS },
  { untilAgeMs: 2 * HOUR_MS, everyMs: 15 * MINUTE_MS },
  { untilAgeMs: Infinity, everyMs: 30 * MINUTE_MS },
];

export function recheckDelayMs(ageMs: number): number {
  return (RECHECK_SCHEDULE.find((step) => ageMs < step.untilAgeMs) ?? RECHECK_SCHEDULE[RECHECK_SCHEDULE.length - 1]!).everyMs;
}

/**
 * Since when a withdrawal has been in its open state: `updated_at` is set when it enters `processing` or
 * `failed_unknown` and not touched again until it leaves (recording the PSP's acceptance or the next check
 * leaves it alone), so it also dates an approved withdrawal from its approval, not its creation.
 */
export function openSinceMs(row: Pick<TransactionRow, 'updated_at'>): number {
  return row.updated_at.getTime();
}

/** A `failed_unknown` withdrawal past the contract's 24 h. */
export function isOverdue(row: Pick<TransactionRow, 'status' | 'updated_at'>, nowMs: number): boolean {
  return row.status === UNKNOWN_STATUS && nowMs - openSinceMs(row) >= FAILED_UNKNOWN_DEADLINE_MS;
}

/**
 * Brings one withdrawal in line with what the PSP knows, in one database transaction with its events.
 * The PSP is asked first, outside the transaction; the row is then locked and the observation applied
 * only if it still moves the withdrawal forward, so two workers reconciling at once are harmless.
 *
 * Transitions (docs/decisions.md): `processing` → `paid` | `failed` | (via paid) `refunded`;
 * `failed_unknown` → `paid` | `failed` only, as the contract allows. The PSP's acceptance of a
 * `failed_unknown` withdrawal is recorded (`provider_accepted_at`) without a status change or event.
 */
export async function syncWithdrawal(deps: Deps, transactionId: string): Promise<TransactionRow | undefined> {
  const before = await findTransactionById(deps.db, transactionId);
  if (!before || before.type !== 'withdrawal') return before;
  const queried = await deps.provider.queryWithdrawal(transactionId);
  const observed: Observation =
    queried.state === 'paid' || queried.state === 'returned'
      ? { ...queried, beneficiary: completeBeneficiary(queried.beneficiary, await intendedBeneficiary(deps, before)) }
      : queried;
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const locked = await lockTransaction(trx, transactionId);
    if (!locked) return undefined;
    const row = await recordLastWord(trx, locked, observed.state, now);
    const result = await applyObservation(trx, row, observed, now);
    if (isOpenAtProvider(result.status)) {
      // Still open: ask again later, on the back-off schedule (every open withdrawal gets its turn).
      const ageMs = now.getTime() - openSinceMs(result);
      await scheduleNextCheck(trx, result.id, new Date(now.getTime() + recheckDelayMs(ageMs)));
    }
    if (isOverdue(result, now.getTime())) {
      deps.metrics.failedUnknownOverdueChecks.inc();
      deps.logger.error('withdrawal failed_unknown for more than 24 h: resolve it with the PSP (POST /admin/v1/withdrawals/{id}/resolve)', {
        transactionId,
        accountId: result.account_id,
        failedUnknownSince: result.updated_at.toISOString(),
        providerAcceptedAt: result.provider_accepted_at?.toISOString() ?? null,
        providerState: observed.state,
      });
    }
    return result;
  });
}

/**
 * Keeps the provider's last word on a withdrawal (also once it is final: the ledger check compares a
 * resolution with it, and the reconciliation a booking).
 */
export async function recordLastWord(trx: Transaction<Database>, row: TransactionRow, state: ProviderWithdrawalStatus['state'], now: Date): Promise<TransactionRow> {
  const word = LAST_WORD[state];
  if (word === undefined || word === row.provider_status) return row;
  return updateTransaction(trx, row.id, { provider_status: word, provider_status_at: now });
}

async function applyObservation(
  trx: Transaction<Database>,
  initial: TransactionRow,
  observed: Observation,
  now: Date,
): Promise<TransactionRow> {
  let row = initial;
  if (row.provider_state === 'sending') {
    // The send never finished here (crash, or a very slow PSP): resolve it from the PSP's own record.
    if (observed.state === 'unknown') return row;
    if (observed.state === 'not_found') return applySendOutcome(trx, row, { kind: 'refused', notReceived: true }, now);
    row = await applySendOutcome(trx, row, { kind: 'accepted', providerRef: observed.providerRef }, now);
  }
  switch (observed.state) {
    case 'unknown':
      return row;
    case 'not_found': {
      if (row.status !== UNKNOWN_STATUS) return row;
      return failWithdrawal(trx, row, now, {
        refused_code: 'RECONCILED_NOT_SENT',
        refused_reason: messages.notSentReturnedReason,
        paid_at: now,
        updated_at: now,
      });
    }
    case 'accepted': {
      // The contract allows `failed_unknown` only to `paid` or `failed`: the PSP holding the order is not
      // an outcome. It is recorded internally (no status change, no event, `updatedAt` unchanged).
      if (row.status !== UNKNOWN_STATUS || row.provider_accepted_at !== null) return row;
      return updateTransaction(trx, row.id, { provider_accepted_at: now, provider_ref: observed.providerRef });
    }
    case 'rejected': {
      if (!isOpenAtProvider(row.status)) return row;
      // The amount goes back to the balance in the statement that writes the event.
      return failWithdrawal(trx, row, now, {
        refused_code: observed.refusedCode,
        refused_reason: observed.refusedReason,
        paid_at: now,
        updated_at: now,
      });
    }
    case 'paid':
      return isOpenAtProvider(row.status) ? markPaid(trx, row, observed, new Date(observed.paidAtMs)) : row;
    case 'returned': {
      if (isOpenAtProvider(row.status)) row = await markPaid(trx, row, observed, now);
      if (!(RETURNABLE_WITHDRAWAL_STATUSES as readonly string[]).includes(row.status)) return row;
      const already = row.refunded_cents ?? 0;
      const returned = Math.min(observed.returnedCents, row.amount_cents);
      if (returned <= already) return row;
      // A return gives back what the beneficiary's bank returned; PixGate's fee is not returned.
      const status = refundedStatus(returned, row.amount_cents);
      return moveWithdrawal(
        trx,
        row,
        { status, providerState: row.provider_state },
        now,
        { refunded_cents: returned, refund_end_to_end_id: observed.refundEndToEndId, updated_at: now },
        { returnedCents: returned - already, events: [status === 'refunded' ? 'transfer.refunded' : 'transfer.partially_refunded'] },
      );
    }
  }
}

/**
 * Ends an open withdrawal as `failed`: its pending transfer is voided (amount + fee available again) in the
 * statement that writes the status and `transfer.failed`.
 */
export async function failWithdrawal(
  trx: Transaction<Database>,
  row: TransactionRow,
  now: Date,
  changes: Pick<TransactionChanges, 'refused_code' | 'refused_reason' | 'paid_at' | 'updated_at' | 'resolved_by' | 'resolution_note' | 'resolved_at'>,
): Promise<TransactionRow> {
  return moveWithdrawal(trx, row, { status: WITHDRAWAL.failed.status, providerState: row.provider_state }, now, changes, { events: ['transfer.failed'] });
}

export async function markPaid(
  trx: Transaction<Database>,
  row: TransactionRow,
  observed: { endToEndId: string; beneficiary: TransactionRow['beneficiary'] },
  paidAt: Date,
): Promise<TransactionRow> {
  return moveWithdrawal(
    trx,
    row,
    { status: PAID_STATUS, providerState: row.provider_state },
    paidAt,
    { end_to_end_id: observed.endToEndId, beneficiary: JSON.stringify(observed.beneficiary), paid_at: paidAt, updated_at: paidAt },
    { events: ['transfer.paid'] },
  );
}

