import type { Transaction } from 'kysely';
import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import type { Database, NewTransaction, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { lockBalance } from '../ledger/ledger.repository.ts';
import { messages } from '../messages/merchant.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { stripDocument } from '../primitives/documents.ts';
import { newId } from '../primitives/ids.ts';
import { normalizePixKey, normalizePixKeyType } from '../primitives/keys.ts';
import { feeCents } from '../primitives/money.ts';
import { RecipientDeactivated } from '../recipients/recipient.errors.ts';
import { findRecipient, lockRecipientStatus } from '../recipients/recipient.repository.ts';
import {
  claimIdempotencyKey,
  findLiveIdempotentTransaction,
  findTransactionById,
  IDEMPOTENCY_RETENTION_MS,
  releaseIdempotencyKey,
} from '../transactions/transaction.repository.ts';
import { reportIdempotencyMismatch } from '../transactions/idempotencyMismatch.ts';
import { isDatabaseUnavailable, retryWhileUnavailable, SWITCHOVER_RETRY_MS } from '../db/unavailable.ts';
import { announceInFlight, finishSend, sendOutcomeMove, sendToProvider, type SendOutcome } from './withdrawal.dispatch.ts';
import { capPeriodsAt, checkCaps, rateLimited, takeWithdrawalSlots, withdrawalSlots } from './withdrawal.limits.ts';
import { movedMeanwhile, reservationRefusal, reserveAtOnce, type SlotRequest } from './withdrawalPath.repository.ts';
import { isHiddenWithdrawalStatus, UNKNOWN_STATUS, WITHDRAWAL, withdrawalStep } from './withdrawal.states.ts';
import { insertWithdrawal, moveWithdrawal } from './withdrawal.machine.ts';
import { InsufficientBalance, WithdrawalConfirmationLost, WithdrawalProviderFailure, WithdrawalsUnavailable } from './withdrawal.errors.ts';
import { insertWithdrawalAlert } from './withdrawalAlert.repository.ts';
import { checkMaximum, needsApproval, requestedRecipientId, resolveDestination, type Destination } from './withdrawal.rules.ts';

type CreateWithdrawalRequest = components['schemas']['CreateWithdrawalRequest'];
type WithdrawalCreated = components['schemas']['WithdrawalCreated'];
type WithdrawalIdempotent = components['schemas']['WithdrawalIdempotent'];
type WithdrawalUnknown = components['schemas']['WithdrawalUnknown'];

/**
 * A new withdrawal; the original answered again for a repeated externalRef; or one whose PSP outcome is
 * indeterminate (debited, final state by reconciliation: the contract's 202).
 */
export type CreateWithdrawalOutcome =
  | { kind: 'created'; body: WithdrawalCreated }
  | { kind: 'replayed'; body: WithdrawalIdempotent }
  | { kind: 'indeterminate'; body: WithdrawalUnknown };

/** How long a retry waits for a concurrent identical request that is still talking to the PSP. */
const IN_FLIGHT_WAIT_MS = 15_000;
const IN_FLIGHT_POLL_MS = 25;
/** How many times a cap's refusal that the general path no longer confirms is tried again. */
const MAX_CAP_RETRIES = 3;

function withdrawalBody(row: TransactionRow) {
  return {
    transactionId: row.id,
    amountCents: row.amount_cents,
    feeCents: row.fee_cents,
    totalDeducted: row.net_cents,
    ...(row.refused_code !== null ? { refusedCode: row.refused_code } : {}),
    ...(row.refused_reason !== null ? { refusedReason: row.refused_reason } : {}),
  };
}

type MismatchedWithdrawalField = NonNullable<WithdrawalIdempotent['mismatchedFields']>[number];

/** A key as a withdrawal stores it: CPF/CNPJ without formatting, the others in their DICT form. */
function storedKeyOf(body: CreateWithdrawalRequest): string {
  const type = normalizePixKeyType(body.pixKeyType);
  if (type === 'cpf' || type === 'cnpj') return stripDocument(body.pixKey);
  if (type === undefined) return body.pixKey;
  const normalized = normalizePixKey(type, body.pixKey);
  return normalized.ok ? normalized.key : body.pixKey;
}

/**
 * The request fields of a retry that differ from the withdrawal its externalRef names, compared as stored.
 * Empty for a true retry.
 */
export function withdrawalMismatches(existing: TransactionRow, body: CreateWithdrawalRequest): MismatchedWithdrawalField[] {
  const fields: MismatchedWithdrawalField[] = [];
  if (body.amountCents !== existing.amount_cents) fields.push('amountCents');
  if (storedKeyOf(body) !== existing.pix_key) fields.push('pixKey');
  if ((normalizePixKeyType(body.pixKeyType) ?? body.pixKeyType) !== existing.pix_key_type) fields.push('pixKeyType');
  if ((body.recipientId?.toLowerCase() ?? null) !== existing.recipient_id) fields.push('recipientId');
  if ((body.description ?? null) !== existing.description) fields.push('description');
  return fields;
}

function idempotentAnswer(deps: Deps, auth: AccountContext, row: TransactionRow, body: CreateWithdrawalRequest): CreateWithdrawalOutcome {
  const mismatched = withdrawalMismatches(row, body);
  reportIdempotencyMismatch(deps, 'createWithdrawal', { accountId: auth.accountId, transactionId: row.id, noun: 'withdrawal' }, mismatched);
  // answerExisting announces an original still in flight before answering, so it is never `initiating` here.
  const status = row.status;
  if (isHiddenWithdrawalStatus(status) || status === 'pending' || status === 'expired') {
    throw new Error(`withdrawal ${row.id} in unexpected state ${status}`);
  }
  return {
    kind: 'replayed',
    body: { ...withdrawalBody(row), status, idempotent: true, ...(mismatched.length > 0 ? { mismatchedFields: mismatched } : {}) },
  };
}

async function recordAlert(trx: Transaction<Database>, row: TransactionRow, destination: Destination, at: Date) {
  if (!destination.recipient) return;
  // Every third-party withdrawal raises an internal alert (the contract); the back office lists them.
  await insertWithdrawalAlert(trx, {
    accountId: row.account_id,
    transactionId: row.id,
    recipientId: destination.recipient.id,
    amountCents: row.amount_cents,
    pixKeyType: destination.pixKeyType,
    at,
  });
}

type Phase1 =
  | { kind: 'existing'; row: TransactionRow }
  | { kind: 'answered'; row: TransactionRow }
  | { kind: 'sending'; row: TransactionRow }
  /** The cap that refused the one-statement reservation no longer does: it is tried again. */
  | { kind: 'retry' };

/**
 * POST /v1/withdraw, in two phases so no money is lost or doubled, even if the process dies mid-way:
 * 1. the reservation, ONE database statement for an automatic withdrawal (`withdrawal_reserve`, migration
 *    010): claim the externalRef, take the rate-limit slots, hold the account's balance (so caps and balance
 *    are exact), check that a recipient is still active, apply the caps, record the withdrawal as
 *    `initiating` (internal, invisible) with its pending transfer of amount + fee (422 when not covered).
 *    Any refusal rolls the statement back whole: slots and externalRef are returned by the rollback. A
 *    withdrawal waiting for approval, or refused by a cap (201 `failed`, with its events), takes the
 *    general path: the same steps in one database transaction of several statements.
 * 2. send it to the PSP, then record the outcome through the withdrawal's transition (`moveWithdrawal`, ONE
 *    statement, `withdrawal_move`): `processing` (201) or `failed_unknown` (202), the pending transfer
 *    standing until the PSP settles it, with their events; or, in one database transaction
 *    (withdrawal.dispatch.ts `finishSend`), `aborted` (502, nothing debited): the pending transfer voided,
 *    slots and externalRef given back. A withdrawal left `initiating` by a crash is finished by
 *    reconciliation, which asks the PSP.
 */
export async function createWithdrawal(
  deps: Deps,
  auth: AccountContext,
  body: CreateWithdrawalRequest,
  capRetries = 0,
): Promise<CreateWithdrawalOutcome> {
  const { account } = auth;
  const recipientId = requestedRecipientId(body);
  const nowMs = deps.clock.now();
  const externalRef = body.externalRef;

  let destination: Destination;
  try {
    const recipient = recipientId === undefined ? undefined : await findRecipient(deps.db, account.id, recipientId);
    destination = resolveDestination(account, body, recipient, recipientId);
    checkMaximum(account, body.amountCents);
  } catch (error) {
    // A retry is answered with the original whatever changed since (a recipient deactivated, a setting):
    // a withdrawal already sent must not look refused.
    const existing = externalRef === undefined ? undefined : await findLiveIdempotentTransaction(deps.db, account.id, 'withdrawal', externalRef, nowMs);
    if (existing) return answerExisting(deps, auth, body, existing);
    throw error;
  }
  // A provider without a send API (PSP=apipix): refused before any money, slot or externalRef is taken.
  if (!deps.provider.capabilities.payouts) throw new WithdrawalsUnavailable();

  const fee = feeCents({
    amountCents: body.amountCents,
    fixedCents: account.withdrawal_fee_fixed_cents,
    bps: account.withdrawal_fee_bps,
    capAtAmount: false,
  });
  const now = new Date(nowMs);
  const base: NewTransaction = {
    id: newId('tx'),
    account_id: account.id,
    type: 'withdrawal',
    status: WITHDRAWAL.inFlight.status,
    amount_cents: body.amountCents,
    fee_cents: fee,
    net_cents: body.amountCents + fee,
    total_deducted_cents: body.amountCents + fee,
    external_ref: externalRef ?? null,
    pix_key: destination.pixKey,
    pix_key_type: destination.pixKeyType,
    description: body.description ?? null,
    recipient_id: destination.recipient?.id ?? null,
    created_at: now,
    updated_at: now,
  };
  const slots = withdrawalSlots(account, nowMs);

  let phase1: Phase1;
  if (needsApproval(account, body.amountCents)) {
    phase1 = await reserveInSteps(deps, auth, base, destination, now);
  } else {
    const step = withdrawalStep(undefined, WITHDRAWAL.inFlight);
    const periods = capPeriodsAt(nowMs);
    try {
      const reserve = () => reserveAtOnce(deps.db, {
        id: base.id,
        accountId: account.id,
        amountCents: body.amountCents,
        feeCents: fee,
        externalRef: externalRef ?? null,
        keyExpiresAt: new Date(nowMs + IDEMPOTENCY_RETENTION_MS),
        pixKey: destination.pixKey,
        pixKeyType: destination.pixKeyType,
        description: body.description ?? null,
        recipientId: destination.recipient?.id ?? null,
        at: now,
        slots,
        caps: { day: periods.day, month: periods.month, dailyCents: account.withdrawal_daily_cap_cents, monthlyCents: account.withdrawal_monthly_cap_cents },
        step,
      });
      // The reservation is one statement that inserts the withdrawal under its own id. When the connection
      // breaks under it (a failover), whether it committed is read by that id before it is sent again; a
      // send still running on a server that lost only its connection to us is refused on the same id, or,
      // with an externalRef, as external_ref_taken by this very withdrawal (below): never reserved twice.
      let sends = 0;
      await retryWhileUnavailable(
        async () => {
          sends += 1;
          if (sends > 1 && (await findTransactionById(deps.db, base.id)) !== undefined) return;
          await reserve();
        },
        { timeoutMs: SWITCHOVER_RETRY_MS, firstPauseMs: 100 },
      );
      phase1 = { kind: 'sending', row: initiatingRow(base) };
    } catch (error) {
      const refusal = reservationRefusal(error);
      switch (refusal?.kind) {
        case undefined:
          throw error;
        case 'rate_limited':
          throw rateLimited(refusal.window, nowMs);
        case 'recipient_inactive':
          throw new RecipientDeactivated();
        case 'insufficient_balance':
          throw new InsufficientBalance();
        case 'external_ref_taken': {
          // This request's own reservation, committed before its connection broke: send it.
          if (refusal.transactionId === base.id) {
            phase1 = { kind: 'sending', row: initiatingRow(base) };
            break;
          }
          const existing = await findTransactionById(deps.db, refusal.transactionId);
          if (!existing) throw error;
          phase1 = { kind: 'existing', row: existing };
          break;
        }
        case 'cap':
          // The refusal is recorded (201 failed, with its events): the general path writes it.
          phase1 = await reserveInSteps(deps, auth, base, destination, now);
          break;
      }
    }
  }

  if (phase1.kind === 'retry') {
    // Two readings of the caps disagreeing for good would loop: after a few, it is a fault, not a race.
    if (capRetries >= MAX_CAP_RETRIES) throw new Error(`withdrawal caps of ${account.id}: the reservation and the general path disagree`);
    return createWithdrawal(deps, auth, body, capRetries + 1);
  }
  if (phase1.kind === 'existing') return answerExisting(deps, auth, body, phase1.row);
  if (phase1.kind === 'answered') {
    return { kind: 'created', body: { ...withdrawalBody(phase1.row), status: phase1.row.status as WithdrawalCreated['status'] } };
  }

  const outcome = await sendToProvider(deps, phase1.row, destination.beneficiary);
  const finished = await recordSendOutcome(deps, phase1.row, outcome, slots);
  if (finished.status === WITHDRAWAL.aborted.status) throw new WithdrawalProviderFailure();
  // The PSP refused the order itself (its reason in refusedCode): recorded as failed, nothing debited.
  if (outcome.kind === 'rejected' && finished.status === WITHDRAWAL.failed.status) {
    return { kind: 'created', body: { ...withdrawalBody(finished), status: WITHDRAWAL.failed.status } };
  }
  // A retry announced it while we were talking to the PSP, and the PSP refused it: still nothing debited.
  if (finished.status === WITHDRAWAL.failed.status) throw new WithdrawalProviderFailure();
  if (outcome.kind === 'confirmation_lost') throw new WithdrawalConfirmationLost(finished.id);
  if (finished.status === UNKNOWN_STATUS) {
    return {
      kind: 'indeterminate',
      body: { error: messages.withdrawUnknown, transactionId: finished.id, status: UNKNOWN_STATUS },
    };
  }
  return { kind: 'created', body: { ...withdrawalBody(finished), status: WITHDRAWAL.sent.status } };
}

/** The row `withdrawal_reserve` inserted, as the database holds it. */
function initiatingRow(base: NewTransaction): TransactionRow {
  return {
    pix_payload: null,
    expires_at: null,
    paid_at: null,
    end_to_end_id: null,
    payer: null,
    beneficiary: null,
    refund_end_to_end_id: null,
    refunded_cents: null,
    refused_code: null,
    refused_reason: null,
    customer: null,
    provider_ref: null,
    next_check_at: null,
    provider_accepted_at: null,
    resolved_by: null,
    resolution_note: null,
    resolved_at: null,
    status_changed_xid: null,
    ...base,
    external_ref: base.external_ref ?? null,
    pix_key: base.pix_key ?? null,
    pix_key_type: base.pix_key_type ?? null,
    description: base.description ?? null,
    recipient_id: base.recipient_id ?? null,
    provider_state: 'sending',
    total_deducted_cents: base.total_deducted_cents ?? null,
  } as TransactionRow;
}

/**
 * The general path, several statements in one database transaction (holding the account's balance): a
 * withdrawal waiting for approval, and a cap's refusal recorded; neither reserves money (the approval does,
 * later). Slots and externalRef taken here are returned by the rollback when anything fails.
 */
async function reserveInSteps(deps: Deps, auth: AccountContext, base: NewTransaction, destination: Destination, now: Date): Promise<Phase1> {
  const { account } = auth;
  const nowMs = now.getTime();
  const externalRef = base.external_ref ?? undefined;
  return deps.db.transaction().execute(async (trx): Promise<Phase1> => {
    // The account's balance first, as withdrawal_reserve takes it: the two paths never deadlock.
    await lockBalance(trx, account.id);
    if (externalRef !== undefined) {
      const claim = await claimIdempotencyKey(trx, {
        accountId: account.id,
        scope: 'withdrawal',
        externalRef,
        transactionId: base.id,
        expiresAt: new Date(nowMs + IDEMPOTENCY_RETENTION_MS),
        now,
      });
      if (!claim.claimed) return { kind: 'existing', row: claim.existing };
    }
    await takeWithdrawalSlots(trx, account, nowMs);
    // The recipient was read before this transaction: a deactivation committed since then refuses the
    // withdrawal here, and one still to come waits for this commit and then cancels what it left pending.
    if (destination.recipient && (await lockRecipientStatus(trx, account.id, destination.recipient.id)) !== 'active') {
      throw new RecipientDeactivated();
    }
    const cap = await checkCaps(trx, account, base.amount_cents, nowMs);
    if (cap) {
      const refused = await insertWithdrawal(trx, { ...base, refused_code: cap.code, refused_reason: cap.reason, paid_at: now }, WITHDRAWAL.failed);
      await recordAlert(trx, refused, destination, now);
      await enqueueEvent(trx, 'transfer.created', refused, now);
      await enqueueEvent(trx, 'transfer.failed', refused, now);
      // The refusal is recorded (201 failed, with its events) but does not keep the externalRef: once the
      // cap allows it, the same request is a new withdrawal, not the old refusal (docs/decisions.md).
      if (externalRef !== undefined) await releaseIdempotencyKey(trx, account.id, 'withdrawal', refused.id);
      return { kind: 'answered', row: refused };
    }
    if (needsApproval(account, base.amount_cents)) {
      const pending = await insertWithdrawal(trx, base, WITHDRAWAL.awaitingApproval);
      await recordAlert(trx, pending, destination, now);
      await enqueueEvent(trx, 'transfer.created', pending, now);
      await enqueueEvent(trx, 'transfer.pending_approval', pending, now);
      return { kind: 'answered', row: pending };
    }
    // The cap that refused a moment ago no longer does: this transaction ends (its slots and externalRef
    // given back by the rollback) and the one-statement reservation is tried again.
    throw new CapNoLongerRefuses();
  }).catch((error: unknown) => {
    if (error instanceof CapNoLongerRefuses) return { kind: 'retry' as const };
    throw error;
  });
}

/** Ends the general path's transaction when a cap that refused the one-statement reservation no longer does. */
class CapNoLongerRefuses extends Error {}

/** How long recording a send outcome keeps trying on fresh connections while the database is out of reach. */
const OUTCOME_RETRY_MS = 5_000;

/**
 * Records what the PSP answered. The PSP has (or may have) the order by now, so a connection ended under
 * this write is not the end of it: it is tried again on a fresh connection for a few seconds (it applies
 * once: the outcome changes only a withdrawal still `sending`, under its row lock). If the database stays
 * out of reach, the pending transfer stands and reconciliation finishes the withdrawal from the PSP's own
 * record once the database is back (after STUCK_SEND_MS); the merchant is told what the contract says for
 * each case: the PSP took it (or may have): 502 "Saque iniciado mas confirmação interrompida", read it, do
 * not resend; the PSP refused it: 502 "O valor não foi debitado" (reconciliation voids the reservation).
 */
async function recordSendOutcome(deps: Deps, row: TransactionRow, outcome: SendOutcome, slots: SlotRequest[]): Promise<TransactionRow> {
  try {
    return await retryWhileUnavailable(() => recordOutcome(deps, row, outcome, slots), { timeoutMs: OUTCOME_RETRY_MS, firstPauseMs: 100 });
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    deps.logger.error('withdrawal sent but its outcome not recorded: the database is out of reach; reconciliation finishes it', {
      transactionId: row.id,
      accountId: row.account_id,
      outcome: outcome.kind,
      error: error instanceof Error ? error.message : String(error),
    });
    if (outcome.kind === 'refused') throw new WithdrawalProviderFailure();
    throw new WithdrawalConfirmationLost(row.id);
  }
}

/**
 * The outcome of a send, through the withdrawal's transition. The common case is one statement: a
 * withdrawal nobody announced meanwhile, taken by the PSP or unanswered, moved with its events. Anything else
 * (a refusal, which also gives back the externalRef, the alert and the rate-limit slots; a withdrawal a retry
 * or reconciliation moved meanwhile) takes `finishSend`'s database transaction.
 */
async function recordOutcome(deps: Deps, row: TransactionRow, outcome: SendOutcome, slots: SlotRequest[]): Promise<TransactionRow> {
  if (row.status === WITHDRAWAL.inFlight.status) {
    const now = new Date(deps.clock.now());
    const move = sendOutcomeMove(row, outcome, now);
    if (!move.abort) {
      try {
        return await moveWithdrawal(deps.db, row, move.to, now, move.changes, { events: move.events });
      } catch (error) {
        if (!movedMeanwhile(error)) throw error;
      }
    }
  }
  return finishSend(deps, row.id, outcome, slots);
}

/**
 * A repeated externalRef: the original, with 200 and `idempotent: true`. When the original is still
 * talking to the PSP the retry waits for it; when the PSP refused it (502, nothing debited) its
 * externalRef was freed and the retry is a new withdrawal.
 */
async function answerExisting(
  deps: Deps,
  auth: AccountContext,
  body: CreateWithdrawalRequest,
  existing: TransactionRow,
): Promise<CreateWithdrawalOutcome> {
  let row: TransactionRow | undefined = existing;
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  while (row?.status === WITHDRAWAL.inFlight.status && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_POLL_MS));
    row = await findTransactionById(deps.db, existing.id);
  }
  if (row?.status === WITHDRAWAL.inFlight.status) row = await announceInFlight(deps, row.id);
  if (!row || row.status === WITHDRAWAL.aborted.status) return createWithdrawal(deps, auth, body);
  return idempotentAnswer(deps, auth, row, body);
}
