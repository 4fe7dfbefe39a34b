import type { Transaction } from 'kysely';
import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import type { Database, NewTransaction, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { lockBalance, reserveWithdrawal } from '../ledger/ledger.repository.ts';
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
  insertTransaction,
  releaseIdempotencyKey,
} from '../transactions/transaction.repository.ts';
import { reportIdempotencyMismatch } from '../transactions/idempotencyMismatch.ts';
import { isDatabaseUnavailable, retryWhileUnavailable } from '../db/unavailable.ts';
import { announceInFlight, finishSend, sendToProvider, type SendOutcome } from './withdrawal.dispatch.ts';
import { checkCaps, giveBack, takeWithdrawalSlots } from './withdrawal.limits.ts';
import { InsufficientBalance, WithdrawalConfirmationLost, WithdrawalProviderFailure } from './withdrawal.errors.ts';
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
  if (status === 'initiating' || status === 'aborted' || status === 'pending' || status === 'expired') {
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
  | { kind: 'sending'; row: TransactionRow };

/**
 * POST /v1/withdraw, in two phases so no money is lost or doubled, even if the process dies mid-way:
 * 1. one database transaction (holding the account's balance row, so caps and balance are exact): claim
 *    the externalRef, check that a recipient is still active, apply the caps and the approval rule, and
 *    for an automatic withdrawal reserve amount + fee (422 when not covered) and record it as
 *    `initiating` (internal, invisible);
 * 2. send it to the PSP, then turn the reservation into the debit (`processing`, 201; `failed_unknown`,
 *    202) or release it (502, nothing debited). A withdrawal left `initiating` by a crash is finished by
 *    reconciliation, which asks the PSP what it knows.
 */
export async function createWithdrawal(
  deps: Deps,
  auth: AccountContext,
  body: CreateWithdrawalRequest,
): Promise<CreateWithdrawalOutcome> {
  const { account } = auth;
  const recipientId = requestedRecipientId(body);
  const nowMs = deps.clock.now();
  const externalRef = body.externalRef;

  // A retry is answered with the original before the destination is checked again: a recipient
  // deactivated (or a setting changed) since then must not make a withdrawal already sent look refused.
  if (externalRef !== undefined) {
    const existing = await findLiveIdempotentTransaction(deps.db, account.id, 'withdrawal', externalRef, nowMs);
    if (existing) return answerExisting(deps, auth, body, existing);
  }

  const recipient = recipientId === undefined ? undefined : await findRecipient(deps.db, account.id, recipientId);
  const destination = resolveDestination(account, body, recipient, recipientId);
  checkMaximum(account, body.amountCents);

  const slots = await takeWithdrawalSlots(deps, account, nowMs);
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
    status: 'initiating',
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

  let phase1: Phase1;
  try {
    phase1 = await deps.db.transaction().execute(async (trx): Promise<Phase1> => {
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
      // The recipient was read before this transaction: a deactivation committed since then refuses the
      // withdrawal here, and one still to come waits for this commit and then cancels what it left pending.
      if (destination.recipient && (await lockRecipientStatus(trx, account.id, destination.recipient.id)) !== 'active') {
        throw new RecipientDeactivated();
      }
      const cap = await checkCaps(trx, account, body.amountCents, nowMs);
      if (cap) {
        const refused = await insertTransaction(trx, {
          ...base,
          status: 'failed',
          refused_code: cap.code,
          refused_reason: cap.reason,
          paid_at: now,
        });
        await recordAlert(trx, refused, destination, now);
        await enqueueEvent(trx, 'transfer.created', refused, now);
        await enqueueEvent(trx, 'transfer.failed', refused, now);
        // The refusal is recorded (201 failed, with its events) but does not keep the externalRef: once the
        // cap allows it, the same request is a new withdrawal, not the old refusal (docs/decisions.md).
        if (externalRef !== undefined) await releaseIdempotencyKey(trx, account.id, 'withdrawal', refused.id);
        return { kind: 'answered', row: refused };
      }
      if (needsApproval(account, body.amountCents)) {
        const pending = await insertTransaction(trx, { ...base, status: 'pending_approval' });
        await recordAlert(trx, pending, destination, now);
        await enqueueEvent(trx, 'transfer.created', pending, now);
        await enqueueEvent(trx, 'transfer.pending_approval', pending, now);
        return { kind: 'answered', row: pending };
      }
      const initiating = await insertTransaction(trx, { ...base, provider_state: 'sending' });
      if (!(await reserveWithdrawal(trx, initiating, now))) throw new InsufficientBalance();
      await recordAlert(trx, initiating, destination, now);
      return { kind: 'sending', row: initiating };
    });
  } catch (error) {
    await giveBack(deps, account.id, slots);
    throw error;
  }

  if (phase1.kind === 'existing') {
    await giveBack(deps, account.id, slots);
    return answerExisting(deps, auth, body, phase1.row);
  }
  if (phase1.kind === 'answered') {
    return { kind: 'created', body: { ...withdrawalBody(phase1.row), status: phase1.row.status as WithdrawalCreated['status'] } };
  }

  const outcome = await sendToProvider(deps, phase1.row, destination.beneficiary);
  const finished = await recordSendOutcome(deps, phase1.row, outcome);
  if (finished.status === 'aborted') {
    await giveBack(deps, account.id, slots);
    throw new WithdrawalProviderFailure();
  }
  // A retry announced it while we were talking to the PSP, and the PSP refused it: still nothing debited.
  if (finished.status === 'failed') throw new WithdrawalProviderFailure();
  if (outcome.kind === 'confirmation_lost') throw new WithdrawalConfirmationLost(finished.id);
  if (finished.status === 'failed_unknown') {
    return {
      kind: 'indeterminate',
      body: { error: messages.withdrawUnknown, transactionId: finished.id, status: 'failed_unknown' },
    };
  }
  return { kind: 'created', body: { ...withdrawalBody(finished), status: 'processing' } };
}

/** How long recording a send outcome keeps trying on fresh connections while the database is out of reach. */
const OUTCOME_RETRY_MS = 5_000;

/**
 * Records what the PSP answered. The PSP has (or may have) the order by now, so a connection ended under
 * this write is not the end of it: it is tried again on a fresh connection for a few seconds (it applies
 * once: `finishSend` changes only a withdrawal still `sending`, under its row lock). If the database stays
 * out of reach, the reservation stands and reconciliation finishes the withdrawal from the PSP's own record
 * once the database is back (after STUCK_SEND_MS); the merchant is told what the contract says for each
 * case: the PSP took it (or may have): 502 "Saque iniciado mas confirmação interrompida", read it, do not
 * resend; the PSP refused it: 502 "O valor não foi debitado" (reconciliation releases the reservation).
 */
async function recordSendOutcome(deps: Deps, row: TransactionRow, outcome: SendOutcome): Promise<TransactionRow> {
  try {
    return await retryWhileUnavailable(() => finishSend(deps, row.id, outcome), { timeoutMs: OUTCOME_RETRY_MS, firstPauseMs: 100 });
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
  while (row?.status === 'initiating' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_POLL_MS));
    row = await findTransactionById(deps.db, existing.id);
  }
  if (row?.status === 'initiating') row = await announceInFlight(deps, row.id);
  if (!row || row.status === 'aborted') return createWithdrawal(deps, auth, body);
  return idempotentAnswer(deps, auth, row, body);
}
