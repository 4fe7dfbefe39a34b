/**
 * Refunds (devoluções) of paid charges: POST /v1/transactions/{id}/refunds, the dashboard's "Devolver",
 * and their reconciliation with the provider (docs/decisions.md "Refunds").
 *
 * Money, through the ledger: accepted → a pending transfer of the amount from the withdrawable balance
 * (available less holds) to pending_out; confirmed by the payer's bank → posted to psp_settlement;
 * refused or never sent → voided back to available. No fee is charged and the charge's fee is kept.
 */
import type { Transaction } from 'kysely';
import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import { isReturnable, refundedStatus } from '../charges/charge.states.ts';
import { giveBack } from '../charges/charge.machine.ts';
import { isDatabaseUnavailable, neverApplied, retryWhileUnavailable, SWITCHOVER_RETRY_MS } from '../db/unavailable.ts';
import type { Database, RefundRow, TransactionRow } from '../db/schema.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { releaseReturn, reserveReturn, stillReturnable } from '../charges/chargeReturns.repository.ts';
import { moveRefund, startRefund } from './refund.machine.ts';
import { retryDeadlocks } from '../db/deadlock.ts';
import { recordBreak } from '../reconciliation/reconciliation.repository.ts';
import { messages } from '../messages/merchant.ts';
import type { Deps } from '../platform/deps.ts';
import { newId } from '../primitives/ids.ts';
import { ProviderConfirmationLost, ProviderFailure, ProviderRefusedRefund, ProviderTimeout, type ProviderRefundStatus } from '../provider/port.ts';
import { release, tryConsume, type Slot, type Window } from '../ratelimit/rateLimit.repository.ts';
import { reportIdempotencyMismatch } from '../transactions/idempotencyMismatch.ts';
import { TransactionNotFound } from '../transactions/transaction.errors.ts';
import { findTransaction, findTransactionById, lockTransaction } from '../transactions/transaction.repository.ts';
import { recheckDelayMs } from '../withdrawals/withdrawal.settlement.ts';
import {
  RefundAboveRefundable,
  RefundChargeNotPaid,
  RefundNotCharge,
  RefundProviderFailure,
  RefundRateLimited,
  RefundWindowExpired,
} from './refund.errors.ts';
import {
  claimRefundKey,
  findLiveRefundByKey,
  findRefund,
  listRefundsDue,
  listVisibleRefunds,
  lockRefund,
  releaseRefundKey,
  updateRefund,
} from './refund.repository.ts';
import { isHiddenRefundStatus, isInFlightRefund } from './refund.states.ts';

export type CreateRefundRequest = components['schemas']['CreateRefundRequest'];
export type RefundCreated = components['schemas']['RefundCreated'];
export type RefundIdempotent = components['schemas']['RefundIdempotent'];
export type ApiRefund = components['schemas']['Refund'];

export type CreateRefundOutcome = { kind: 'created'; body: RefundCreated } | { kind: 'replayed'; body: RefundIdempotent };

const DAY_MS = 86_400_000;
/** A charge can be refunded up to 90 days after it was paid (API Pix; Stripe and the others alike). */
export const REFUND_WINDOW_MS = 90 * DAY_MS;
/** A refund's externalRef is kept 7 days after the refund was created, as the other operations'. */
export const REFUND_KEY_RETENTION_MS = 7 * DAY_MS;
/** PixGate's refund rate limit, per account: per fixed UTC hour, no per-second bucket. */
export const REFUND_RATE_LIMIT: Window = { bucket: 'refund:hour', windowMs: 3_600_000, limit: 120 };
/** A refund still `initiating` this long is presumed interrupted (a crash): reconciliation asks the provider. */
export const STUCK_REFUND_MS = 30_000;
/** How long recording the provider's answer keeps trying while the database is out of reach. */
const OUTCOME_RETRY_MS = 5_000;
/** How long a retry waits for a concurrent identical request still asking the provider (as a withdrawal's retry does). */
const IN_FLIGHT_WAIT_MS = 15_000;
const IN_FLIGHT_POLL_MS = 50;

// ---- Reading -------------------------------------------------------------------------------------------

/** A refund as the merchant API shows it: fields that do not apply are omitted, never null. */
export function toApiRefund(row: RefundRow): ApiRefund {
  if (isHiddenRefundStatus(row.status)) throw new Error(`internal refund status ${row.status} of ${row.id} must not be exposed`);
  const refund: ApiRefund = {
    refundId: row.id,
    amountCents: Number(row.amount_cents),
    status: row.status,
    createdAt: row.created_at.getTime(),
  };
  if (row.status === 'refunded') {
    if (row.refunded_at) refund.refundedAt = row.refunded_at.getTime();
    if (row.refund_end_to_end_id) refund.refundEndToEndId = row.refund_end_to_end_id;
  }
  if (row.status === 'failed') {
    if (row.refused_code !== null) refund.refusedCode = row.refused_code;
    if (row.refused_reason !== null) refund.refusedReason = row.refused_reason;
  }
  if (row.external_ref !== null) refund.externalRef = row.external_ref;
  if (row.description !== null) refund.description = row.description;
  return refund;
}

/** The refunds of one of the account's charges the merchant sees, newest first (empty: never refunded). */
export async function listRefunds(deps: Pick<Deps, 'db'>, accountId: string, chargeId: string): Promise<ApiRefund[]> {
  return (await listVisibleRefunds(deps.db, accountId, chargeId)).map(toApiRefund);
}

/** Whether a transaction may have refunds worth reading (a charge that was paid). */
export function mayHaveRefunds(row: Pick<TransactionRow, 'type' | 'paid_at' | 'status'>): boolean {
  return row.type === 'pix_in' && (isReturnable(row.status) || row.status === 'refunded');
}

// ---- Creating ------------------------------------------------------------------------------------------

type MismatchedRefundField = NonNullable<RefundIdempotent['mismatchedFields']>[number];

function refundMismatches(row: RefundRow, transactionId: string, body: CreateRefundRequest): MismatchedRefundField[] {
  const fields: MismatchedRefundField[] = [];
  if (row.transaction_id !== transactionId) fields.push('transactionId');
  if (body.amountCents !== undefined && body.amountCents !== Number(row.amount_cents)) fields.push('amountCents');
  if ((body.description ?? null) !== row.description) fields.push('description');
  return fields;
}

function createdBody(row: RefundRow): RefundCreated {
  const body: RefundCreated = {
    refundId: row.id,
    transactionId: row.transaction_id,
    amountCents: Number(row.amount_cents),
    status: 'processing',
    createdAt: row.created_at.getTime(),
  };
  if (row.external_ref !== null) body.externalRef = row.external_ref;
  if (row.description !== null) body.description = row.description;
  return body;
}

function replayedAnswer(deps: Deps, auth: AccountContext, row: RefundRow, transactionId: string, body: CreateRefundRequest): CreateRefundOutcome {
  const mismatched = refundMismatches(row, transactionId, body);
  reportIdempotencyMismatch(deps, 'createRefund', { accountId: auth.accountId, transactionId: row.transaction_id, noun: 'refund' }, mismatched);
  // An `initiating` original is being answered right now: the retry sees it as accepted.
  const shown = isHiddenRefundStatus(row.status) ? { ...row, status: 'processing' as const } : row;
  return {
    kind: 'replayed',
    body: { ...toApiRefund(shown), transactionId: row.transaction_id, idempotent: true, ...(mismatched.length > 0 ? { mismatchedFields: mismatched } : {}) },
  };
}

type Reservation = { kind: 'existing'; refund: RefundRow } | { kind: 'reserved'; refund: RefundRow; charge: TransactionRow; slot: Slot };

/**
 * POST /v1/transactions/{id}/refunds, in two phases so no money is lost or doubled even if the process dies
 * between them:
 * 1. one database transaction under the charge's row lock (refunds of one charge are serialised, so their
 *    sum can never pass the amount): the checks in the contract's order, the externalRef claimed, a rate-
 *    limit slot taken, the refund recorded `initiating` with its pending transfer (422 when the
 *    withdrawable balance does not cover it). Any refusal rolls all of it back.
 * 2. the provider is asked, then its answer recorded: accepted (or no answer in time) → `processing`, 201;
 *    refused → `aborted`, the pending transfer voided, slot and externalRef given back, 502. A refund left
 *    `initiating` by a crash is finished by reconciliation, which asks the provider.
 */
export async function createRefund(deps: Deps, auth: AccountContext, transactionId: string, body: CreateRefundRequest): Promise<CreateRefundOutcome> {
  const now = new Date(deps.clock.now());
  const externalRef = body.externalRef;
  if (externalRef !== undefined) {
    const existing = await findLiveRefundByKey(deps.db, auth.accountId, externalRef, now);
    if (existing && existing.status !== 'aborted') return answerRetry(deps, auth, existing, transactionId, body);
  }
  // One database transaction of several statements: sent again after a broken connection only when the
  // server said it rolled back, or it never reached the server (neverApplied); else a retry with the same
  // externalRef finds it.
  const reservation = await retryWhileUnavailable(() => reserve(deps, auth, transactionId, body, now), {
    timeoutMs: SWITCHOVER_RETRY_MS,
    firstPauseMs: 100,
    mayRetry: neverApplied,
  });
  if (reservation.kind === 'existing') return answerRetry(deps, auth, reservation.refund, transactionId, body);

  const { refund, charge, slot } = reservation;
  const answer = await askProvider(deps, refund, charge);
  const recorded = await recordAnswer(deps, refund, answer);
  if (recorded.status === 'aborted') {
    await release(deps.db, auth.accountId, slot).catch((error: unknown) =>
      deps.logger.warn('refund aborted but its rate-limit slot not given back', { refundId: refund.id, error: error instanceof Error ? error.message : String(error) }),
    );
    // The provider's own devoluções leave no room for it (one PixGate has not booked yet, a MED): the
    // contract's 422 with what the provider says is left, not a 502.
    if (answer.kind === 'refused' && answer.exceeds) throw new RefundAboveRefundable(await leftAtProvider(deps, charge));
    throw new RefundProviderFailure();
  }
  return { kind: 'created', body: createdBody(recorded) };
}

/** What the provider says a charge's Pix can still give back (its amount less its devoluções not refused). */
async function leftAtProvider(deps: Deps, charge: TransactionRow): Promise<number> {
  const pix = await deps.provider.readReceivedPix(charge.end_to_end_id ?? '').catch(() => undefined);
  if (!pix) return stillReturnable((await findTransactionById(deps.db, charge.id)) ?? charge);
  const given = pix.devolucoes.filter((devolucao) => devolucao.state !== 'not_returned').reduce((sum, devolucao) => sum + devolucao.amountCents, 0);
  return Math.max(0, pix.amountCents - given);
}

/**
 * A retry of a refund's externalRef: while the original is still asking the provider (`initiating`) it waits
 * for that answer, as a withdrawal's retry does, so it never names a refund that then ends `aborted` (after a
 * 502 the same externalRef creates the refund anew, as the contract says). Past the wait the original is
 * announced (`processing`: reconciliation settles it with the provider) and answered.
 */
async function answerRetry(deps: Deps, auth: AccountContext, existing: RefundRow, transactionId: string, body: CreateRefundRequest): Promise<CreateRefundOutcome> {
  let row: RefundRow = existing;
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  while (row.status === 'initiating' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_POLL_MS));
    row = (await findRefund(deps.db, existing.id)) ?? row;
  }
  if (row.status === 'aborted') return createRefund(deps, auth, transactionId, body);
  row = await acknowledge(deps, row.id);
  if (row.status === 'aborted') return createRefund(deps, auth, transactionId, body);
  return replayedAnswer(deps, auth, row, transactionId, body);
}

/**
 * Marks a refund told to the merchant (`acknowledged_at`): one still `initiating` is announced as
 * `processing` first (it can no longer end `aborted`; reconciliation asks the provider what became of it).
 */
async function acknowledge(deps: Deps, refundId: string): Promise<RefundRow> {
  return deps.db.transaction().execute(async (trx) => {
    const nowMs = deps.clock.now();
    const row = await lockRefund(trx, refundId);
    if (!row) throw new Error(`refund ${refundId} vanished`);
    if (row.status === 'aborted' || (row.acknowledged_at !== null && row.status !== 'initiating')) return row;
    if (row.status === 'initiating') {
      return moveRefund(trx, row, 'processing', new Date(nowMs), { acknowledged_at: new Date(nowMs), updated_at: new Date(nowMs), next_check_at: new Date(nowMs + recheckDelayMs(0)) });
    }
    return updateRefund(trx, row.id, { acknowledged_at: new Date(nowMs) });
  });
}

async function reserve(deps: Deps, auth: AccountContext, transactionId: string, body: CreateRefundRequest, now: Date): Promise<Reservation> {
  const nowMs = now.getTime();
  return deps.db.transaction().execute(async (trx): Promise<Reservation> => {
    const charge = await lockVisibleTransaction(trx, auth.accountId, transactionId);
    if (charge.type !== 'pix_in') throw new RefundNotCharge();
    if (!isReturnable(charge.status)) throw new RefundChargeNotPaid(charge.status);
    // What is left: the amount less confirmed returns and returns in flight (refunds, devoluções claimed).
    const remaining = stillReturnable(charge);
    const amountCents = body.amountCents ?? remaining;
    if (amountCents > remaining || amountCents <= 0) throw new RefundAboveRefundable(Math.max(0, remaining));
    if (charge.paid_at === null || nowMs - charge.paid_at.getTime() > REFUND_WINDOW_MS) throw new RefundWindowExpired();

    const id = newId('rf');
    if (body.externalRef !== undefined) {
      const claim = await claimRefundKey(trx, {
        accountId: auth.accountId,
        externalRef: body.externalRef,
        refundId: id,
        expiresAt: new Date(nowMs + REFUND_KEY_RETENTION_MS),
        now,
      });
      if (!claim.claimed) return { kind: 'existing', refund: claim.existing };
    }
    const slot = await tryConsume(trx, auth.accountId, REFUND_RATE_LIMIT, nowMs);
    if (!slot) throw new RefundRateLimited();

    // The rule, in the statement itself: confirmed + in flight + this never pass the charge's amount.
    if (!(await reserveReturn(trx, charge.id, amountCents))) throw new RefundAboveRefundable(remaining);
    const refund = await startRefund(
      trx,
      {
        id,
        account_id: auth.accountId,
        transaction_id: charge.id,
        amount_cents: amountCents,
        external_ref: body.externalRef ?? null,
        description: body.description ?? null,
        next_check_at: new Date(nowMs + STUCK_REFUND_MS),
        created_at: now,
        updated_at: now,
      },
      now,
    );
    return { kind: 'reserved', refund, charge, slot };
  });
}

/** The merchant's own transaction, locked; another merchant's or an internal one is not found. */
async function lockVisibleTransaction(trx: Transaction<Database>, accountId: string, id: string): Promise<TransactionRow> {
  // Read through the merchant's scope first, so the lock is never taken on another merchant's row.
  if (!(await findTransaction(trx, accountId, id))) throw new TransactionNotFound();
  const row = await lockTransaction(trx, id);
  if (!row) throw new TransactionNotFound();
  return row;
}

type ProviderAnswer = { kind: 'accepted'; providerRef: string | null } | { kind: 'refused'; exceeds: boolean };

async function askProvider(deps: Deps, refund: RefundRow, charge: TransactionRow): Promise<ProviderAnswer> {
  try {
    const { providerRef } = await deps.provider.sendRefund({
      refundId: refund.id,
      endToEndId: charge.end_to_end_id ?? '',
      amountCents: Number(refund.amount_cents),
      description: refund.description ?? undefined,
    });
    return { kind: 'accepted', providerRef };
  } catch (error) {
    if (error instanceof ProviderRefusedRefund) return { kind: 'refused', exceeds: true };
    if (error instanceof ProviderFailure) return { kind: 'refused', exceeds: false };
    if (error instanceof ProviderConfirmationLost) return { kind: 'accepted', providerRef: error.providerRef };
    if (error instanceof ProviderTimeout) {
      // No answer in time: the provider may hold it. It stays reserved and reconciliation asks.
      deps.logger.warn('refund sent but the provider did not answer in time: reconciliation asks it', { refundId: refund.id });
      return { kind: 'accepted', providerRef: null };
    }
    throw error;
  }
}

/**
 * Records the provider's answer to a refund still `initiating` (a retry, reconciliation or a crash-restart
 * may have moved it on: then it is left as it is). Tried again on fresh connections for a few seconds
 * while the database is out of reach; after that the refund stays `initiating` and reconciliation
 * finishes it from the provider's own record.
 */
async function recordAnswer(deps: Deps, refund: RefundRow, answer: ProviderAnswer): Promise<RefundRow> {
  const apply = () =>
    deps.db.transaction().execute(async (trx) => {
      const nowMs = deps.clock.now();
      const now = new Date(nowMs);
      // The charge first, then the refund: the order every path that gives the charge's money back takes.
      await lockTransaction(trx, refund.transaction_id);
      const row = await lockRefund(trx, refund.id);
      if (!row) throw new Error(`refund ${refund.id} vanished`);
      if (row.status !== 'initiating') return row;
      if (answer.kind === 'refused') return abortRefund(trx, row, now);
      return moveRefund(trx, row, 'processing', now, {
        provider_ref: answer.providerRef,
        acknowledged_at: now,
        updated_at: now,
        next_check_at: new Date(nowMs + recheckDelayMs(0)),
      });
    });
  try {
    return await retryWhileUnavailable(apply, { timeoutMs: OUTCOME_RETRY_MS, firstPauseMs: 100 });
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    deps.logger.error('refund sent but its outcome not recorded: the database is out of reach; reconciliation finishes it', {
      refundId: refund.id,
      transactionId: refund.transaction_id,
      outcome: answer.kind,
    });
    if (answer.kind === 'refused') throw new RefundProviderFailure();
    // The provider took it: it is shown as accepted; reconciliation records it.
    return { ...refund, status: 'processing' };
  }
}

/** The provider refused the refund at once: nothing happened; amount and externalRef are given back. */
async function abortRefund(trx: Transaction<Database>, row: RefundRow, now: Date): Promise<RefundRow> {
  await releaseReturn(trx, row.transaction_id, Number(row.amount_cents));
  if (row.external_ref !== null) await releaseRefundKey(trx, row.account_id, row.id);
  return moveRefund(trx, row, 'aborted', now, { updated_at: now, next_check_at: null });
}

// ---- Settling ------------------------------------------------------------------------------------------

/**
 * Brings one refund in line with what the provider knows, in one database transaction with its event. The
 * provider is asked first, outside the transaction; then the charge and the refund are locked (in that
 * order, as creation takes them) and the observation applied only if it still moves the refund forward.
 */
export async function syncRefund(deps: Deps, refundId: string): Promise<RefundRow | undefined> {
  const before = await findRefund(deps.db, refundId);
  if (!before || !isInFlightRefund(before.status)) return before;
  const paidCharge = await findTransactionById(deps.db, before.transaction_id);
  const observed = await deps.provider.queryRefund({ refundId, endToEndId: paidCharge?.end_to_end_id ?? '' });
  return retryDeadlocks(() => deps.db.transaction().execute(async (trx) => {
    const nowMs = deps.clock.now();
    const now = new Date(nowMs);
    const charge = await lockTransaction(trx, before.transaction_id);
    const row = await lockRefund(trx, refundId);
    if (!row || !charge || !isInFlightRefund(row.status)) return row;
    const result = await applyObservation(trx, row, charge, observed, now);
    if (isInFlightRefund(result.status)) {
      return updateRefund(trx, result.id, { next_check_at: new Date(nowMs + recheckDelayMs(nowMs - result.created_at.getTime())) });
    }
    return result;
  }));
}

async function applyObservation(trx: Transaction<Database>, row: RefundRow, charge: TransactionRow, observed: ProviderRefundStatus, now: Date): Promise<RefundRow> {
  switch (observed.state) {
    case 'unknown':
      return row;
    case 'not_found':
      // Never reached the provider: an `initiating` one (its process died) never happened; a `processing`
      // one (the provider's answer was lost) did not happen either.
      if (row.status === 'initiating') return abortRefund(trx, row, now);
      return failRefund(trx, row, now, 'RECONCILED_NOT_SENT', messages.refundNotSentReason);
    case 'accepted':
      if (row.status !== 'initiating') return row;
      return moveRefund(trx, row, 'processing', now, { provider_ref: observed.providerRef, updated_at: now });
    case 'rejected':
      return failRefund(trx, row, now, observed.refusedCode, observed.refusedReason, observed.providerRef);
    case 'refunded':
      return confirmRefund(trx, row, charge, observed, now);
  }
}

/** The provider refused it: `failed`, its amount available again, the charge unchanged (no event). */
async function failRefund(trx: Transaction<Database>, row: RefundRow, now: Date, refusedCode: string, refusedReason: string, providerRef?: string): Promise<RefundRow> {
  await releaseReturn(trx, row.transaction_id, Number(row.amount_cents));
  return moveRefund(trx, row, 'failed', now, {
    refused_code: refusedCode,
    refused_reason: refusedReason,
    ...(providerRef !== undefined ? { provider_ref: providerRef } : {}),
    updated_at: now,
    next_check_at: null,
  });
}

/**
 * The payer's bank confirmed the refund: it is posted, the charge becomes `partially_refunded` or
 * `refunded` with the refund's end-to-end id, and the event carries the refund's id, in one statement that
 * keeps the charge within its amount. A refund the provider confirmed past what the charge could still give
 * (a chargeback took the rest while it was in flight) is not paid twice by the merchant: its reservation is
 * voided and the money the provider paid is PixGate's loss, in suspense, a reconciliation break.
 */
async function confirmRefund(
  trx: Transaction<Database>,
  row: RefundRow,
  charge: TransactionRow,
  observed: Extract<ProviderRefundStatus, { state: 'refunded' }>,
  now: Date,
): Promise<RefundRow> {
  const amountCents = Number(row.amount_cents);
  const refundedAt = new Date(Math.min(observed.refundedAtMs, now.getTime()));
  const status = refundedStatus(Number(charge.refunded_cents ?? 0) + amountCents, Number(charge.amount_cents));
  const given = await giveBack(
    trx,
    charge,
    { amountCents, status, reservedCents: amountCents, countInFlight: false, refundEndToEndId: observed.refundEndToEndId, at: now },
    {
      kind: 'refund',
      refund: row,
      changes: { provider_ref: observed.providerRef, refund_end_to_end_id: observed.refundEndToEndId, refunded_at: refundedAt, updated_at: now, next_check_at: null },
    },
  );
  const refunded = given.refund!;
  if (!given.charge) {
    await releaseReturn(trx, charge.id, amountCents);
    await recordBreak(trx, {
      id: newId('brk'),
      kind: 'refund_beyond_charge',
      key: row.id,
      accountId: row.account_id,
      transactionId: charge.id,
      refundId: row.id,
      endToEndId: charge.end_to_end_id,
      ledgerCents: Math.max(0, Number(charge.amount_cents) - Number(charge.refunded_cents ?? 0)),
      providerCents: amountCents,
      suspenseCents: -amountCents,
      detail: `The provider confirmed refund ${row.id} of ${amountCents} cents after ${charge.id} had given back ${Number(charge.refunded_cents ?? 0)} of ${Number(charge.amount_cents)}: the payer was repaid twice. The merchant was not debited twice; the amount is in suspense.`,
      at: now,
    });
    return refunded;
  }
  await enqueueEvent(trx, status === 'refunded' ? 'transaction.refunded' : 'transaction.partially_refunded', given.charge, now, { refundId: row.id });
  return refunded;
}

/** Refunds whose turn to be reconciled has come. */
export function refundsDue(deps: Pick<Deps, 'db' | 'clock'>, batchSize: number): Promise<string[]> {
  return listRefundsDue(deps.db, new Date(deps.clock.now()), batchSize);
}
