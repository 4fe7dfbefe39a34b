import type { components } from '../../generated/admin-types.ts';
import type { TransactionRow, WithdrawalAlertRow } from '../db/schema.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';

type AdminWithdrawal = components['schemas']['AdminWithdrawal'];
type WithdrawalAlert = components['schemas']['WithdrawalAlert'];

export function toAdminWithdrawal(row: TransactionRow): AdminWithdrawal {
  return {
    ...toApiTransaction(row, 'single'),
    accountId: row.account_id,
    pixKey: row.pix_key ?? '',
    pixKeyType: (row.pix_key_type ?? '') as AdminWithdrawal['pixKeyType'],
    recipientId: row.recipient_id,
    description: row.description,
  };
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
