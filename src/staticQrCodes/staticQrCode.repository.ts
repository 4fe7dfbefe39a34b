/**
 * Owner of `static_qrcodes` (migration 027), and of the insert of a code's payment into `transactions` (a
 * charge created `pending` and moved to `paid` in the same database transaction, as dueCharge.repository.ts
 * inserts its charges). A code's payments are counted when read, from `transactions_by_static_qrcode`: no
 * counter on the code's row, which every payment of a busy till would otherwise lock.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, PartyJson, StaticQrCodesTable, StaticQrCodeStatus, TransactionRow } from '../db/schema.ts';
import type { Selectable } from 'kysely';

type Db = Kysely<Database>;

export type StaticQrCodeRow = Selectable<StaticQrCodesTable>;

/** A code's payments so far: how many, what they add up to, the latest. */
export interface PaymentStats {
  count: number;
  receivedCents: number;
  lastPaidAt: Date | undefined;
}

export const NO_PAYMENTS: PaymentStats = { count: 0, receivedCents: 0, lastPaidAt: undefined };

/** Stores a code; one whose externalRef the account already gave a code is not stored, that code answered instead. */
export async function insertStaticQrCode(db: Db, code: StaticQrCodeRow): Promise<{ created: boolean; row: StaticQrCodeRow }> {
  const inserted = await db
    .insertInto('static_qrcodes')
    .values(code)
    .onConflict((conflict) => conflict.columns(['account_id', 'external_ref']).where('external_ref', 'is not', null).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { created: true, row: inserted };
  const existing = code.external_ref === null ? undefined : await findStaticQrCodeByRef(db, code.account_id, code.external_ref);
  if (!existing) throw new Error(`static QR code ${code.id} neither stored nor found by its externalRef`);
  return { created: false, row: existing };
}

export function findStaticQrCodeByRef(db: Db, accountId: string, externalRef: string): Promise<StaticQrCodeRow | undefined> {
  return db.selectFrom('static_qrcodes').selectAll().where('account_id', '=', accountId).where('external_ref', '=', externalRef).executeTakeFirst();
}

/** One code of the account (undefined: none, or another account's); any account's when `accountId` is undefined. */
export function findStaticQrCode(db: Db, accountId: string | undefined, id: string): Promise<StaticQrCodeRow | undefined> {
  let query = db.selectFrom('static_qrcodes').selectAll().where('id', '=', id);
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return query.executeTakeFirst();
}

/** The code a received Pix names by its txid (BR Code field 62-05). */
export function findStaticQrCodeByTxid(db: Db, txid: string): Promise<StaticQrCodeRow | undefined> {
  return db.selectFrom('static_qrcodes').selectAll().where('txid', '=', txid).executeTakeFirst();
}

export interface StaticQrCodeFilter {
  status?: StaticQrCodeStatus | undefined;
  after?: { createdAtUs: string; id: string } | undefined;
  limit: number;
}

/** A page of the account's codes, newest first (creation, then id), with each one's position in microseconds. */
export async function listStaticQrCodes(db: Db, accountId: string, filter: StaticQrCodeFilter): Promise<(StaticQrCodeRow & { created_at_us: string })[]> {
  let query = db
    .selectFrom('static_qrcodes')
    .selectAll()
    .select(sql<string>`(extract(epoch from created_at) * 1000000)::bigint::text`.as('created_at_us'))
    .where('account_id', '=', accountId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.after) {
    const at = sql<Date>`'epoch'::timestamptz + ${filter.after.createdAtUs}::bigint * interval '1 microsecond'`;
    query = query.where(sql<boolean>`(created_at, id) < (${at}, ${filter.after.id})`);
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

/** Deactivates an active code; undefined when it is not active (already inactive, or not found). */
export function deactivateStaticQrCode(db: Db, id: string, at: Date): Promise<StaticQrCodeRow | undefined> {
  return db
    .updateTable('static_qrcodes')
    .set({ status: 'inactive', deactivated_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returningAll()
    .executeTakeFirst();
}

/** The payments of these codes so far (one query for a page of them). */
export async function paymentStats(db: Db, ids: readonly string[]): Promise<Map<string, PaymentStats>> {
  const stats = new Map<string, PaymentStats>();
  if (ids.length === 0) return stats;
  const rows = await db
    .selectFrom('transactions')
    .select((eb) => [
      'static_qrcode_id',
      eb.fn.countAll<string>().as('count'),
      eb.fn.sum<string>('amount_cents').as('received'),
      eb.fn.max('paid_at').as('last_paid_at'),
    ])
    .where('static_qrcode_id', 'in', ids)
    .groupBy('static_qrcode_id')
    .execute();
  for (const row of rows) {
    if (row.static_qrcode_id === null) continue;
    stats.set(row.static_qrcode_id, { count: Number(row.count), receivedCents: Number(row.received ?? 0), lastPaidAt: row.last_paid_at ?? undefined });
  }
  return stats;
}

/** The payment a Pix made to a static code (by its end-to-end id), if it was credited. */
export function findStaticQrPayment(db: Db, endToEndId: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('end_to_end_id', '=', endToEndId).where('static_qrcode_id', 'is not', null).executeTakeFirst();
}

export interface NewStaticQrPayment {
  id: string;
  code: Pick<StaticQrCodeRow, 'id' | 'account_id' | 'pix_payload'>;
  amountCents: number;
  feeCents: number;
  endToEndId: string;
  payer: PartyJson | undefined;
  at: Date;
}

/**
 * A code's payment, stored `pending` with its Pix (the caller moves it to `paid` in the same database
 * transaction). Undefined when that Pix is a payment already: the unique end-to-end id of the codes'
 * payments (a concurrent insert of the same Pix waits for the first to commit, then does nothing).
 */
export function insertStaticQrPayment(trx: Transaction<Database>, payment: NewStaticQrPayment): Promise<TransactionRow | undefined> {
  return trx
    .insertInto('transactions')
    .values({
      id: payment.id,
      account_id: payment.code.account_id,
      type: 'pix_in',
      status: 'pending',
      amount_cents: payment.amountCents,
      fee_cents: payment.feeCents,
      net_cents: payment.amountCents - payment.feeCents,
      external_ref: null,
      pix_payload: payment.code.pix_payload,
      // Created when its Pix arrived and paid at once: nothing is payable on it afterwards.
      expires_at: payment.at,
      created_at: payment.at,
      updated_at: payment.at,
      end_to_end_id: payment.endToEndId,
      payer: payment.payer === undefined ? null : JSON.stringify(payment.payer),
      charge_kind: 'static',
      static_qrcode_id: payment.code.id,
    })
    .onConflict((conflict) => conflict.column('end_to_end_id').where('static_qrcode_id', 'is not', null).doNothing())
    .returningAll()
    .executeTakeFirst();
}
