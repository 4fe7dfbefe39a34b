import type { components } from '../../generated/admin-types.ts';
import type { TransactionRow, WithdrawalAlertRow } from '../db/schema.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { legalNameForOperators } from './accounts.mapper.ts';
import { isOverdue } from '../withdrawals/withdrawal.settlement.ts';

type AdminWithdrawal = components['schemas']['AdminWithdrawal'];
type WithdrawalAlert = components['schemas']['WithdrawalAlert'];

const OPEN = new Set(['processing', 'failed_unknown']);

/** A withdrawal for the back office, with its reconciliation state as of `nowMs`. */
export function toAdminWithdrawal(row: TransactionRow, nowMs: number): AdminWithdrawal {
  const open = OPEN.has(row.status);
  return {
    ...toApiTransaction(row, 'single'),
    accountId: row.account_id,
    pixKey: row.pix_key ?? '',
    pixKeyType: (row.pix_key_type ?? '') as AdminWithdrawal['pixKeyType'],
    recipientId: row.recipient_id,
    description: row.description,
    ...(row.status === 'failed_unknown' && row.provider_accepted_at ? { providerAcceptedAt: row.provider_accepted_at.getTime() } : {}),
    ...(open && row.next_check_at ? { nextCheckAt: row.next_check_at.getTime() } : {}),
    ...(row.status === 'failed_unknown' ? { overdue: isOverdue(row, nowMs) } : {}),
    ...(row.resolved_by && row.resolved_at
      ? { resolution: { by: row.resolved_by, note: row.resolution_note ?? '', at: row.resolved_at.getTime() } }
      : {}),
  };
}

/** A withdrawal waiting for approval with the account's withdrawable balance and whether it covers amount + fee. */
export function withBalance(withdrawal: AdminWithdrawal, withdrawableCents: number | undefined): AdminWithdrawal {
  if (withdrawal.status !== 'pending_approval' || withdrawableCents === undefined) return withdrawal;
  return { ...withdrawal, withdrawableCents, coveredByBalance: withdrawableCents >= withdrawal.amountCents + withdrawal.feeCents };
}

/** A withdrawal of the back office's lists with its account's legal name (as the back office shows it). */
export function withAccountName(withdrawal: AdminWithdrawal, legalName: string | undefined): AdminWithdrawal {
  return legalName === undefined ? withdrawal : { ...withdrawal, accountLegalName: legalNameForOperators(legalName) };
}

export function toAdminAlert(row: WithdrawalAlertRow): WithdrawalAlert {
  return {
    alertId: row.id,
    accountId: row.account_id,
    transactionId: row.transaction_id,
    recipientId: row.recipient_id,
    amountCents: row.amount_cents,
    pixKeyType: row.pix_key_type as WithdrawalAlert['pixKeyType'],
    createdAt: row.created_at.getTime(),
  };
}
