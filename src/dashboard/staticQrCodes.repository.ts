import type { Kysely } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';

/**
 * The payments of one static QR code of the account (the charges its Pix became), newest first, at most
 * `limit`: the page's "Pagamentos" (read by `transactions_by_static_qrcode`).
 */
export function staticQrCodePayments(db: Kysely<Database>, accountId: string, staticQrCodeId: string, limit: number): Promise<TransactionRow[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('static_qrcode_id', '=', staticQrCodeId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
