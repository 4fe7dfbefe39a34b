/**
 * The provider's word on recurrences and their cycles, applied (docs/decisions.md "Pix Automático"). The
 * provider is asked first, outside any database transaction; its answer is then applied under the row's
 * lock, the state re-checked, so a callback, the follower job and a sandbox action racing each other apply
 * each change once. A cycle's payment is credited through the received-Pix path like any charge's.
 */
import type { CycleAttemptJson, RecurrenceEndedJson, RecurrenceStatus, StatusAtJson } from '../db/schema.ts';
import { moveCharge } from '../charges/charge.machine.ts';
import { applyReceivedPix } from '../charges/receivedPix.service.ts';
import { ProviderUnavailable } from '../charges/charge.errors.ts';
import { chargeFee, checkAmount } from '../charges/charge.service.ts';
import { findAccount } from '../accounts/account.repository.ts';
import { enqueueEvent } from '../events/outbox.ts';
import type { Deps } from '../platform/deps.ts';
import { addCalendarDays } from '../primitives/businessDays.ts';
import { saoPauloDay } from '../primitives/saoPaulo.ts';
import { createHash } from 'node:crypto';
import {
  ProviderFailure,
  ProviderRefusedRecurringCharge,
  ProviderTimeout,
  type ProviderCycleAttempt,
  type ProviderRecurrence,
} from '../provider/port.ts';
import { lockTransaction } from '../transactions/transaction.repository.ts';
import { dueDateOfSequence, nextRetryDate, SEND_WINDOW_DAYS, settlementDateOf } from './recurrence.calendar.ts';
import { CycleAmountOutOfRange, CycleNotSendable, RecurrenceNotCancellable, RecurrenceNotFound } from './recurrence.errors.ts';
import { enqueueCycleEvent, enqueueRecurrenceEvent } from './recurrence.events.ts';
import {
  findCycle,
  findRecurrence,
  insertCycle,
  lockCycle,
  lockRecurrence,
  openCyclesOf,
  openCyclesToRead,
  recurrencesAwaitingConsent,
  recurrencesToSchedule,
  updateCycle,
  updateRecurrence,
  type CycleRow,
  type RecurrenceRow,
} from './recurrence.repository.ts';

const BATCH = 100;

/** Where a recurrence may go from each status (the provider's statuses only move forward). */
const NEXT: Record<RecurrenceStatus, readonly RecurrenceStatus[]> = {
  created: ['approved', 'rejected', 'expired', 'cancelled'],
  approved: ['cancelled'],
  rejected: [],
  expired: [],
  cancelled: [],
};

const ENDED_CONSENT = { rejected: 'rejected', expired: 'expired', cancelled: 'cancelled' } as const;

/**
 * Applies what the provider says of a recurrence: its status (with the history's entry, the activation,
 * the ending), the consent's status and the payer's maximum; `recurrence.<status>` for each new status.
 * Answers the row as it is afterwards.
 */
export async function applyRecurrenceRead(deps: Deps, recurrenceId: string, read: ProviderRecurrence): Promise<RecurrenceRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockRecurrence(trx, recurrenceId);
    if (!row) throw new RecurrenceNotFound();
    const moves = row.status !== read.status && NEXT[row.status].includes(read.status);
    const consentStatus = read.consentStatus ?? (moves && read.status === 'approved' ? 'accepted' : moves && read.status !== 'approved' && row.consent_status === 'pending' ? ENDED_CONSENT[read.status as keyof typeof ENDED_CONSENT] : row.consent_status);
    const changes: Parameters<typeof updateRecurrence>[2] = {};
    if (consentStatus !== row.consent_status && row.consent_status === 'pending') changes.consent_status = consentStatus;
    if (read.payerMaximumCents !== undefined && read.payerMaximumCents !== row.payer_maximum_cents) changes.payer_maximum_cents = read.payerMaximumCents;
    if (moves) {
      const at = read.history.findLast((entry) => entry.status === read.status)?.atMs ?? now.getTime();
      const history = [...(row.history as StatusAtJson<RecurrenceStatus>[]), { status: read.status, atMs: at }];
      changes.status = read.status;
      changes.history = JSON.stringify(history);
      if (read.status === 'approved') {
        changes.activation_journey = read.activation?.journey ?? row.consent_journey;
        changes.activated_at = new Date(read.activation?.atMs ?? at);
      } else {
        const ended: RecurrenceEndedJson = read.ended ?? { reason: read.status as RecurrenceEndedJson['reason'] };
        changes.ended = JSON.stringify(ended);
        changes.next_cycle_date = null;
      }
    }
    if (Object.keys(changes).length === 0) return row;
    const updated = await updateRecurrence(trx, recurrenceId, { ...changes, updated_at: now });
    if (moves) await enqueueRecurrenceEvent(trx, `recurrence.${read.status}`, updated, now);
    return updated;
  });
}

/** Reads a recurrence at the provider and applies it (a callback, the safety net, a sandbox action). */
export async function syncRecurrence(deps: Deps, recurrenceId: string): Promise<RecurrenceRow | undefined> {
  const row = await findRecurrence(deps.db, undefined, recurrenceId);
  if (!row) return undefined;
  let read = await deps.provider.readRecurrence({ providerRef: row.provider_ref, consentRef: row.consent_ref ?? undefined });
  if (!read) {
    deps.logger.warn('the provider does not know a recurrence it created', { recurrenceId });
    return row;
  }
  if (read.status === 'created' && row.consent_journey === 'request' && read.consentStatus === 'expired') {
    // The request to the payer's bank ended unanswered (a provider may keep the recurrence CRIADA for another
    // request, which PixGate does not send): the recurrence expires here, and is cancelled there so that it can
    // never be approved afterwards.
    await deps.provider.cancelRecurrence(row.provider_ref).catch(() => false);
    read = { ...read, status: 'expired', ended: { reason: 'expired' }, history: [...read.history, { status: 'expired', atMs: deps.clock.now() }] };
  }
  const applied = await applyRecurrenceRead(deps, recurrenceId, read);
  if (applied.status !== 'approved' && applied.status !== 'created') await followCyclesOf(deps, applied.id);
  return applied;
}

/**
 * POST /v1/recurrences/{id}/cancel: cancelled at the provider first, then here; its cycles not yet debited
 * are cancelled with it where the provider still allows (one on its settlement day may be debited and stays).
 */
export async function cancelRecurrenceForMerchant(deps: Deps, accountId: string, id: string): Promise<RecurrenceRow> {
  const row = await findRecurrence(deps.db, accountId, id);
  if (!row) throw new RecurrenceNotFound();
  if (row.status === 'cancelled') return row;
  if (row.status !== 'created' && row.status !== 'approved') throw new RecurrenceNotCancellable(row.status);
  let cancelled: boolean;
  try {
    cancelled = await deps.provider.cancelRecurrence(row.provider_ref);
  } catch (error) {
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout) throw new ProviderUnavailable();
    throw error;
  }
  if (!cancelled) {
    // It ended at the provider first (the payer rejected or cancelled it): that is the answer.
    const synced = (await syncRecurrence(deps, id)) ?? row;
    if (synced.status === 'cancelled') return synced;
    throw new RecurrenceNotCancellable(synced.status);
  }
  const now = deps.clock.now();
  const applied = await applyRecurrenceRead(deps, id, {
    status: 'cancelled',
    ended: { reason: 'cancelled', by: 'merchant', code: 'SLCR', description: 'Cancelada pelo recebedor.' },
    history: [{ status: 'cancelled', atMs: now }],
  });
  for (const cycle of await openCyclesOf(deps.db, id)) {
    const found = await findCycle(deps.db, cycle.transaction_id);
    if (found?.charge.provider_ref) await deps.provider.cancelRecurringCharge(found.charge.provider_ref).catch(() => false);
  }
  await followCyclesOf(deps, id);
  return (await findRecurrence(deps.db, accountId, id)) ?? applied;
}

// ---- Cycles ---------------------------------------------------------------------------------------------

/** A cycle's transaction id, the same on every try (a retry after a timeout names the same charge at the provider). */
export function cycleTransactionId(recurrenceId: string, sequence: number): string {
  return `tx_${createHash('sha256').update(`${recurrenceId}:${sequence}`).digest('hex').slice(0, 24)}`;
}

/**
 * Sends the next cycle of an approved recurrence to the payer's bank (`cobr`), once its window has opened
 * (ten days before the due date), and stores it with the scheduler's cursor moved on, under the
 * recurrence's lock (two workers at once: the second finds the cursor moved and stores nothing). A
 * variable-amount recurrence has no amount to send by itself: its cycles wait for the merchant's
 * (`variableAmountCents`, POST /v1/recurrences/{id}/cycles); a cycle whose day passed is skipped either way.
 */
export async function scheduleNextCycle(deps: Deps, recurrence: RecurrenceRow, variableAmountCents?: number): Promise<'scheduled' | 'skipped' | 'none'> {
  const dueDate = recurrence.next_cycle_date;
  if (recurrence.status !== 'approved' || dueDate === null) return 'none';
  const nowMs = deps.clock.now();
  const today = saoPauloDay(nowMs);
  const sequence = recurrence.next_sequence;
  const advance = { next_sequence: sequence + 1, next_cycle_date: dueDateOfSequence({ startDate: recurrence.start_date, endDate: recurrence.end_date, periodicity: recurrence.periodicity }, sequence + 1) ?? null };
  if (dueDate < today) {
    // Its day passed before it could be sent (the provider was down for days): the cycle is not billed.
    deps.logger.warn('a cycle\'s day passed before it was sent; it is skipped', { recurrenceId: recurrence.id, sequence, dueDate });
    await deps.db.transaction().execute(async (trx) => {
      const locked = await lockRecurrence(trx, recurrence.id);
      if (locked?.next_sequence === sequence) await updateRecurrence(trx, recurrence.id, { ...advance, updated_at: new Date(nowMs) });
    });
    return 'skipped';
  }
  const amountCents = recurrence.amount_cents ?? variableAmountCents;
  if (amountCents === undefined) return 'none';
  const account = await findAccount(deps.db, recurrence.account_id);
  if (!account) throw new Error(`recurrence ${recurrence.id} of no account`);
  const transactionId = cycleTransactionId(recurrence.id, sequence);
  let providerRef: string;
  try {
    ({ providerRef } = await deps.provider.registerRecurringCharge({
      transactionId,
      recurrenceRef: recurrence.provider_ref,
      dueDate,
      amountCents,
      retryPolicy: recurrence.retry_policy,
      description: `${recurrence.object ?? recurrence.contract} (${sequence})`.slice(0, 140),
      createdAtMs: nowMs,
    }));
  } catch (error) {
    if (error instanceof ProviderRefusedRecurringCharge) {
      // The provider no longer takes charges of it (cancelled there, a callback not yet applied): read it.
      deps.logger.warn('the provider refused a cycle\'s charge; the recurrence is read again', { recurrenceId: recurrence.id, sequence });
      await syncRecurrence(deps, recurrence.id);
      return 'none';
    }
    throw error;
  }
  const settlementDate = settlementDateOf(dueDate);
  const fee = chargeFee(amountCents, { fixedCents: account.charge_fee_fixed_cents, bps: account.charge_fee_bps });
  const stored = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockRecurrence(trx, recurrence.id);
    if (!locked || locked.status !== 'approved' || locked.next_sequence !== sequence) return undefined;
    const at = new Date(nowMs);
    await insertCycle(trx, {
      transactionId,
      recurrence: locked,
      sequence,
      dueDate,
      settlementDate,
      amountCents,
      feeCents: Math.min(fee, amountCents - 1),
      providerRef,
      attempts: [{ date: settlementDate, kind: 'scheduled', status: 'scheduled' }],
      at,
    });
    await updateRecurrence(trx, recurrence.id, { ...advance, updated_at: at });
    const charge = await lockTransaction(trx, transactionId);
    const cycle = await lockCycle(trx, transactionId);
    if (charge && cycle) await enqueueCycleEvent(trx, 'recurrence.cycle_scheduled', charge, cycle, at);
    return transactionId;
  });
  return stored ? 'scheduled' : 'none';
}

/**
 * POST /v1/recurrences/{id}/cycles: the next cycle of a variable-amount recurrence, sent now with the
 * merchant's amount (within the payer's maximum, at least the recurrence's floor, the account's range),
 * once its window has opened. Answers the cycle's transaction id.
 */
export async function sendVariableCycle(deps: Deps, accountId: string, id: string, amountCents: number): Promise<string> {
  let recurrence = await findRecurrence(deps.db, accountId, id);
  if (!recurrence) throw new RecurrenceNotFound();
  // Cycles whose day passed unsent are skipped first (as the scheduler skips them): the next one is this one.
  const today = saoPauloDay(deps.clock.now());
  for (let guard = 0; recurrence?.status === 'approved' && recurrence.next_cycle_date !== null && recurrence.next_cycle_date < today && guard < 1_000; guard += 1) {
    await scheduleNextCycle(deps, recurrence);
    recurrence = await findRecurrence(deps.db, accountId, id);
  }
  if (!recurrence) throw new RecurrenceNotFound();
  if (recurrence.amount_cents !== null) throw new CycleNotSendable('fixed_amount');
  if (recurrence.status !== 'approved') throw new CycleNotSendable('not_approved', recurrence.status);
  const dueDate = recurrence.next_cycle_date;
  if (dueDate === null) throw new CycleNotSendable('no_cycle_left');
  const opens = addCalendarDays(dueDate, -SEND_WINDOW_DAYS.earliest);
  if (saoPauloDay(deps.clock.now()) < opens) throw new CycleNotSendable('too_early', dueDate, opens);
  if (recurrence.payer_maximum_cents !== null && amountCents > recurrence.payer_maximum_cents) throw new CycleAmountOutOfRange('payer_maximum', recurrence.payer_maximum_cents);
  if (recurrence.minimum_amount_cents !== null && amountCents < recurrence.minimum_amount_cents) throw new CycleAmountOutOfRange('minimum', recurrence.minimum_amount_cents);
  const account = await findAccount(deps.db, accountId);
  if (account) checkAmount(account, amountCents);
  let outcome: Awaited<ReturnType<typeof scheduleNextCycle>>;
  try {
    outcome = await scheduleNextCycle(deps, recurrence, amountCents);
  } catch (error) {
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout) throw new ProviderUnavailable();
    throw error;
  }
  const after = await findRecurrence(deps.db, accountId, id);
  if (outcome !== 'scheduled' || !after || after.next_sequence === recurrence.next_sequence) {
    throw new CycleNotSendable(after?.status === 'approved' ? 'no_cycle_left' : 'not_approved', after?.status ?? recurrence.status);
  }
  return cycleTransactionId(recurrence.id, recurrence.next_sequence);
}

/** Job: the next cycle of every approved recurrence whose window has opened. Answers how many were sent. */
export async function scheduleCycles(deps: Deps): Promise<number> {
  const through = addCalendarDays(saoPauloDay(deps.clock.now()), SEND_WINDOW_DAYS.earliest);
  let sent = 0;
  for (const recurrence of await recurrencesToSchedule(deps.db, through, BATCH)) {
    try {
      if ((await scheduleNextCycle(deps, recurrence)) === 'scheduled') sent += 1;
    } catch (error) {
      deps.logger.warn('a cycle could not be sent now; the next run tries again', { recurrenceId: recurrence.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return sent;
}

const toAttempt = (attempt: ProviderCycleAttempt): CycleAttemptJson => ({
  date: attempt.date,
  kind: attempt.kind,
  status: attempt.status,
  ...(attempt.refusal ? { refusalCode: attempt.refusal.code, refusalReason: attempt.refusal.description } : {}),
  ...(attempt.endToEndId && attempt.status === 'paid' ? { endToEndId: attempt.endToEndId } : {}),
});

/**
 * Reads a cycle's charge at the provider and applies it: its payment credited (the received Pix, as any
 * charge's), its attempts kept, a refusal answered with the next attempt when the policy leaves one
 * (`recurrence.cycle_refused` either way), and its end (refused for good, expired, cancelled) moving the
 * charge to `failed`, `expired` or `cancelled` with its event.
 */
export async function followCycle(deps: Deps, transactionId: string): Promise<void> {
  const found = await findCycle(deps.db, transactionId);
  if (!found?.charge.provider_ref) return;
  const recurrence = await findRecurrence(deps.db, undefined, found.cycle.recurrence_id);
  if (!recurrence) return;
  const read = await deps.provider.readRecurringCharge(found.charge.provider_ref);
  if (read.state === 'not_found') {
    deps.logger.warn('the provider does not know a cycle\'s charge', { transactionId });
    return;
  }
  for (const endToEndId of read.payments) {
    const pix = await deps.provider.readReceivedPix(endToEndId);
    if (pix) await applyReceivedPix(deps, pix);
  }
  const today = saoPauloDay(deps.clock.now());
  const attempts = read.attempts.map(toAttempt);
  const last = attempts.at(-1);
  const retriesMade = attempts.filter((attempt) => attempt.kind === 'retry').length;
  const retryDate =
    read.state === 'active' && last?.status === 'refused'
      ? nextRetryDate({ settlementDate: found.cycle.settlement_date, policy: recurrence.retry_policy, retriesMade, today })
      : undefined;
  const retried = retryDate !== undefined && (await deps.provider.retryRecurringCharge(found.charge.provider_ref, retryDate).catch(() => false));
  if (retried && retryDate) attempts.push({ date: retryDate, kind: 'retry', status: 'scheduled' });
  await applyCycleRead(deps, transactionId, { state: read.state, attempts, refusal: read.refusal, cancelledBy: read.cancelledBy });
}

async function applyCycleRead(
  deps: Deps,
  transactionId: string,
  read: { state: string; attempts: CycleAttemptJson[]; refusal?: { code: string; description: string } | undefined; cancelledBy?: CycleRow['cancelled_by'] | undefined },
): Promise<void> {
  const now = new Date(deps.clock.now());
  await deps.db.transaction().execute(async (trx) => {
    const charge = await lockTransaction(trx, transactionId);
    const cycle = await lockCycle(trx, transactionId);
    if (!charge || !cycle) return;
    const before = cycle.attempts;
    const refusedBefore = before.filter((attempt) => attempt.status === 'refused').length;
    const refusedNow = read.attempts.filter((attempt) => attempt.status === 'refused').length;
    const lastRefusal = read.attempts.findLast((attempt) => attempt.status === 'refused');
    const open = cycle.status === 'scheduled' || cycle.status === 'retrying';
    let status: CycleRow['status'] = cycle.status;
    if (open && charge.status === 'pending') {
      if (read.state === 'rejected') status = 'failed';
      else if (read.state === 'expired') status = 'expired';
      else if (read.state === 'cancelled') status = 'cancelled';
      // `retrying` once another attempt is scheduled; a refusal not yet answered with one leaves the status as it was.
      else if (read.attempts.at(-1)?.kind === 'retry' && read.attempts.at(-1)?.status === 'scheduled') status = 'retrying';
    }
    const attemptsChanged = JSON.stringify(before) !== JSON.stringify(read.attempts);
    if (!attemptsChanged && status === cycle.status) return;
    const refusal = read.refusal ?? (lastRefusal?.refusalCode ? { code: lastRefusal.refusalCode, description: lastRefusal.refusalReason ?? '' } : undefined);
    const updated = await updateCycle(trx, transactionId, {
      status,
      attempts: JSON.stringify(read.attempts),
      retries: Math.min(3, read.attempts.filter((attempt) => attempt.kind === 'retry').length),
      ...(refusal && (refusedNow > refusedBefore || status !== cycle.status) ? { refusal_code: refusal.code, refusal_reason: refusal.description } : {}),
      ...(status === 'cancelled' ? { cancelled_by: read.cancelledBy ?? 'provider' } : {}),
      updated_at: now,
    });
    if (refusedNow > refusedBefore) await enqueueCycleEvent(trx, 'recurrence.cycle_refused', charge, updated, now);
    if (status !== cycle.status && (status === 'failed' || status === 'expired' || status === 'cancelled')) {
      const ended = await moveCharge(trx, charge, status, now, { paid_at: now, updated_at: now });
      await enqueueEvent(trx, status === 'failed' ? 'transaction.failed' : status === 'expired' ? 'transaction.expired' : 'transaction.cancelled', ended, now);
    }
  });
}

/** Follows every open cycle of a recurrence (after it ended: the provider cancelled them, or one stays to be debited). */
export async function followCyclesOf(deps: Deps, recurrenceId: string): Promise<void> {
  for (const cycle of await openCyclesOf(deps.db, recurrenceId)) await followCycle(deps, cycle.transaction_id);
}

/**
 * Job: the provider's word on every open cycle with an attempt due by today (debited, refused, expired),
 * and on every recurrence still waiting for its payer (the safety net for lost callbacks and for consents
 * that expire). Answers how many were read.
 */
export async function followRecurrences(deps: Deps): Promise<number> {
  let read = 0;
  for (const recurrence of await recurrencesAwaitingConsent(deps.db, BATCH)) {
    try {
      await syncRecurrence(deps, recurrence.id);
      read += 1;
    } catch (error) {
      deps.logger.warn('a recurrence could not be read now', { recurrenceId: recurrence.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  for (const transactionId of await openCyclesToRead(deps.db, saoPauloDay(deps.clock.now()), BATCH)) {
    try {
      await followCycle(deps, transactionId);
      read += 1;
    } catch (error) {
      deps.logger.warn('a cycle could not be read now', { transactionId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return read;
}

