import { notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import type { TransactionRow, WithdrawalAlertRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { messages } from '../messages/merchant.ts';
import { findRecipient } from '../recipients/recipient.repository.ts';
import { findTransactionById, listWithdrawals, lockTransaction } from '../transactions/transaction.repository.ts';
import { listWithdrawalAlerts } from './withdrawalAlert.repository.ts';
import { finishSend, sendToProvider } from './withdrawal.dispatch.ts';
import { findAccount } from '../accounts/account.repository.ts';
import { InsufficientBalance, WithdrawalNotFound, WithdrawalNotPendingApproval } from './withdrawal.errors.ts';
import { isHiddenWithdrawalStatus, WITHDRAWAL } from './withdrawal.states.ts';
import { moveWithdrawal } from './withdrawal.machine.ts';

async function lockPending(trx: Parameters<typeof lockTransaction>[0], id: string): Promise<TransactionRow> {
  const row = await lockTransaction(trx, id);
  if (!row || row.type !== 'withdrawal') throw new WithdrawalNotFound();
  if (row.status !== WITHDRAWAL.awaitingApproval.status) throw new WithdrawalNotPendingApproval(row.status);
  return row;
}

/**
 * The service team approves a withdrawal in manual approval mode: amount + fee is reserved now (it was
 * not debited while pending), `transfer.approved` is emitted, and the withdrawal is sent like an automatic
 * one. When the balance no longer covers it, it fails with `INSUFFICIENT_BALANCE` instead.
 */
export async function approveWithdrawal(deps: Deps, transactionId: string, audit: AuditStep<TransactionRow> = notAudited): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  // The decision (approved and reserved, or failed for want of balance) is audited with it; the send after.
  const approved = await withAudit(deps.db, audit, async (trx) => {
    const row = await lockPending(trx, transactionId);
    try {
      return await moveWithdrawal(trx, row, WITHDRAWAL.announcedInFlight, now, { updated_at: now }, { events: ['transfer.approved'] });
    } catch (error) {
      // The reservation was not covered: nothing moved (the statement changed nothing), so it fails instead.
      if (!(error instanceof InsufficientBalance)) throw error;
    }
    return moveWithdrawal(
      trx,
      row,
      WITHDRAWAL.failed,
      now,
      { refused_code: 'INSUFFICIENT_BALANCE', refused_reason: messages.insufficientAtApprovalReason, paid_at: now, updated_at: now },
      { events: ['transfer.failed'] },
    );
  });
  if (approved.status !== WITHDRAWAL.announcedInFlight.status) return approved;
  const outcome = await sendToProvider(deps, approved, await intendedBeneficiary(deps, approved));
  return finishSend(deps, approved.id, outcome);
}

/** Who a withdrawal is for (the approved recipient, or the account holder), by its id. */
export async function expectedBeneficiary(deps: Pick<Deps, 'db'>, transactionId: string): Promise<{ name: string; document: string; documentType: 'cpf' | 'cnpj' } | undefined> {
  const row = await findTransactionById(deps.db, transactionId);
  return row && row.type === 'withdrawal' ? intendedBeneficiary(deps, row) : undefined;
}

/** Who a withdrawal pays: the approved recipient (Mode 2), or the account holder (Mode 1). */
export async function intendedBeneficiary(deps: Pick<Deps, 'db'>, row: TransactionRow): Promise<{ name: string; document: string; documentType: 'cpf' | 'cnpj' }> {
  if (row.recipient_id) {
    const recipient = await findRecipient(deps.db, row.account_id, row.recipient_id);
    if (recipient) return { name: recipient.legal_name, document: recipient.document, documentType: recipient.document_type };
  }
  const account = await findAccount(deps.db, row.account_id);
  const documentType: 'cpf' | 'cnpj' = row.pix_key_type === 'cnpj' ? 'cnpj' : 'cpf';
  return { name: account?.legal_name ?? '', document: row.pix_key ?? '', documentType };
}

/** The service team refuses a pending withdrawal: `failed`, `REJECTED_BY_COMPLIANCE`, nothing was debited. */
export async function rejectWithdrawal(deps: Deps, transactionId: string, reason?: string, audit: AuditStep<TransactionRow> = notAudited): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return withAudit(deps.db, audit, async (trx) => {
    const row = await lockPending(trx, transactionId);
    return moveWithdrawal(
      trx,
      row,
      WITHDRAWAL.failed,
      now,
      { refused_code: 'REJECTED_BY_COMPLIANCE', refused_reason: reason ?? messages.rejectedByReviewReason, paid_at: now, updated_at: now },
      { events: ['transfer.rejected'] },
    );
  });
}

/**
 * Cancels a withdrawal that has not been sent (pending approval): `cancelled`, nothing was debited.
 * Used on request and when the recipient it pays is deactivated (`RECIPIENT_DEACTIVATED`).
 */
export async function cancelWithdrawal(
  deps: Deps,
  transactionId: string,
  refusal: { code: string; reason: string } = { code: 'CANCELLED_BY_REQUEST', reason: messages.cancelledByRequestReason },
  audit: AuditStep<TransactionRow> = notAudited,
): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return withAudit(deps.db, audit, async (trx) => {
    const row = await lockPending(trx, transactionId);
    return moveWithdrawal(
      trx,
      row,
      WITHDRAWAL.cancelled,
      now,
      { refused_code: refusal.code, refused_reason: refusal.reason, paid_at: now, updated_at: now },
      { events: ['transfer.cancelled'] },
    );
  });
}

/** The back office's list of withdrawals (the approval queue with `status=pending_approval`), newest first. */
export function withdrawalsForReview(
  deps: Pick<Deps, 'db'>,
  filter: { status?: TransactionRow['status'] | undefined; accountId?: string | undefined; limit: number },
): Promise<TransactionRow[]> {
  return listWithdrawals(deps.db, filter);
}

/** The internal alerts raised by third-party withdrawals, newest first. */
export function thirdPartyAlerts(
  deps: Pick<Deps, 'db'>,
  filter: { accountId?: string | undefined; limit: number },
): Promise<WithdrawalAlertRow[]> {
  return listWithdrawalAlerts(deps.db, filter);
}

/** A withdrawal as the back office reads it before a decision (internal states are not found). */
export async function withdrawalForReview(deps: Pick<Deps, 'db'>, transactionId: string): Promise<TransactionRow> {
  const row = await findTransactionById(deps.db, transactionId);
  if (!row || row.type !== 'withdrawal' || isHiddenWithdrawalStatus(row.status)) throw new WithdrawalNotFound();
  return row;
}
