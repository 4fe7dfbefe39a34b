import { notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import type { PartyJson, TransactionRow } from '../db/schema.ts';
import { messages } from '../messages/merchant.ts';
import type { Deps } from '../platform/deps.ts';
import { findTransactionById, lockTransaction, updateTransaction } from '../transactions/transaction.repository.ts';
import { ResolutionNeedsSettlement, WithdrawalNotFound, WithdrawalNotIndeterminate, WithdrawalNotOverdue } from './withdrawal.errors.ts';
import { failWithdrawal, FAILED_UNKNOWN_DEADLINE_MS, isOverdue, markPaid, openSinceMs, syncWithdrawal } from './withdrawal.settlement.ts';
import { isHiddenWithdrawalStatus, UNKNOWN_STATUS } from './withdrawal.states.ts';
import { intendedBeneficiary } from './withdrawal.review.ts';

export interface ResolutionRequest {
  /** What the operator established with the PSP (its statement, support ticket). */
  outcome: 'paid' | 'failed';
  /** Why, for the audit trail (kept with the withdrawal). */
  note: string;
  /** For `paid`: the end-to-end id of the PIX and the account that received it, from the PSP's statement. */
  endToEndId?: string | undefined;
  beneficiaryBankAccount?: PartyJson['bankAccount'] | undefined;
}

/**
 * The forced end of a `failed_unknown` withdrawal past the contract's 24 h, by the service team
 * (POST /admin/v1/withdrawals/{id}/resolve). The PSP is asked first and its final record wins: when it now
 * knows the outcome (paid, refused, returned, never received), that is applied exactly as reconciliation
 * would, whatever the operator asked. Only when the PSP still has nothing final is the operator's outcome
 * applied: `paid` with the settlement data from the PSP's statement (`transfer.paid`), or `failed` with
 * the amount and fee returned to the balance (`RESOLVED_BY_OPERATOR`, `transfer.failed`). Either way the
 * note and who decided are kept with the withdrawal. Resolutions of one withdrawal at once: one wins, the
 * others are refused (409) under its row lock and change nothing.
 */
export async function resolveWithdrawal(
  deps: Deps,
  transactionId: string,
  request: ResolutionRequest,
  audit: AuditStep<TransactionRow> = notAudited,
): Promise<TransactionRow> {
  const row = await findTransactionById(deps.db, transactionId);
  if (!row || row.type !== 'withdrawal' || isHiddenWithdrawalStatus(row.status)) throw new WithdrawalNotFound();
  if (row.status !== UNKNOWN_STATUS) throw new WithdrawalNotIndeterminate(row.status);
  const nowMs = deps.clock.now();
  if (!isOverdue(row, nowMs)) throw new WithdrawalNotOverdue(openSinceMs(row) + FAILED_UNKNOWN_DEADLINE_MS);
  if (request.outcome === 'paid' && (!request.endToEndId || !request.beneficiaryBankAccount)) throw new ResolutionNeedsSettlement();

  const synced = await syncWithdrawal(deps, transactionId);
  const now = new Date(deps.clock.now());
  const beneficiary = request.outcome === 'paid' ? await intendedBeneficiary(deps, row) : undefined;
  return withAudit(deps.db, audit, async (trx) => {
    const current = await lockTransaction(trx, transactionId);
    if (!current) throw new WithdrawalNotFound();
    // One resolution wins: a concurrent one (or a repeat) finds it resolved and changes nothing, its audit entry included.
    if (current.resolved_at !== null) throw new WithdrawalNotIndeterminate(current.status);
    const audit = { resolution_note: request.note, resolved_at: now };
    if (synced?.status !== UNKNOWN_STATUS || current.status !== UNKNOWN_STATUS) {
      // The PSP's record decided it (now, or in a concurrent reconciliation): keep the note, say so.
      if (current.status === UNKNOWN_STATUS) return current;
      return updateTransaction(trx, current.id, { ...audit, resolved_by: 'provider' });
    }
    if (request.outcome === 'paid' && beneficiary && request.endToEndId && request.beneficiaryBankAccount) {
      const paid = await markPaid(trx, current, { endToEndId: request.endToEndId, beneficiary: { ...beneficiary, bankAccount: request.beneficiaryBankAccount } }, now);
      return updateTransaction(trx, paid.id, { ...audit, resolved_by: 'operator' });
    }
    return failWithdrawal(trx, current, now, {
      ...audit,
      resolved_by: 'operator',
      refused_code: 'RESOLVED_BY_OPERATOR',
      refused_reason: messages.resolvedNotPaidReason,
      paid_at: now,
      updated_at: now,
    });
  });
}
