/** Owner of `withdrawal_alerts`: the internal alert every third-party (Mode 2) withdrawal raises. */
import type { Transaction } from 'kysely';
import type { Database, Db, WithdrawalAlertRow } from '../db/schema.ts';

export async function insertWithdrawalAlert(
  trx: Transaction<Database>,
  alert: { accountId: string; transactionId: string; recipientId: string; amountCents: number; pixKeyType: string; at: Date },
): Promise<void> {
  await trx
    .insertInto('withdrawal_alerts')
    .values({
      account_id: alert.accountId,
      transaction_id: alert.transactionId,
      recipient_id: alert.recipientId,
      amount_cents: alert.amountCents,
      pix_key_type: alert.pixKeyType,
      created_at: alert.at,
    })
    .execute();
}

/** Drops the alert of a withdrawal that never happened (the PSP refused it synchronously). */
export async function deleteWithdrawalAlerts(trx: Transaction<Database>, transactionId: string): Promise<void> {
  await trx.deleteFrom('withdrawal_alerts').where('transaction_id', '=', transactionId).execute();
}

export function listWithdrawalAlerts(db: Db, filter: { accountId?: string | undefined; limit: number }): Promise<WithdrawalAlertRow[]> {
  let query = db.selectFrom('withdrawal_alerts').selectAll();
  if (filter.accountId !== undefined) query = query.where('account_id', '=', filter.accountId);
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}
