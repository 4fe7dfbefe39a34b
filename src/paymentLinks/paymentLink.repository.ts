import { sql, type Kysely, type Selectable } from 'kysely';
import type { components } from '../../generated/api-types.ts';
import type { Database, PaymentLinksTable, TransactionRow } from '../db/schema.ts';

type Db = Kysely<Database>;

export type PaymentLinkRow = Selectable<PaymentLinksTable>;

/** Paid, refunded or partly refunded: a charge that received its Pix. */
export const SETTLED_STATUSES = ['paid', 'refunded', 'partially_refunded'] as const;

export interface LinkPaymentStats {
  count: number;
  receivedCents: number;
}

export const NO_LINK_PAYMENTS: LinkPaymentStats = { count: 0, receivedCents: 0 };

export async function insertPaymentLink(db: Db, link: PaymentLinkRow): Promise<{ created: boolean; row: PaymentLinkRow }> {
  const inserted = await db
    .insertInto('payment_links')
    .values(link)
    .onConflict((conflict) => conflict.columns(['account_id', 'external_ref']).where('external_ref', 'is not', null).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { created: true, row: inserted };
  const existing = link.external_ref === null ? undefined : await findPaymentLinkByRef(db, link.account_id, link.external_ref);
  if (!existing) throw new Error(`payment link ${link.id} neither stored nor found by its externalRef`);
  return { created: false, row: existing };
}

export function findPaymentLinkByRef(db: Db, accountId: string, externalRef: string): Promise<PaymentLinkRow | undefined> {
  return db.selectFrom('payment_links').selectAll().where('account_id', '=', accountId).where('external_ref', '=', externalRef).executeTakeFirst();
}

/** A link of the account, or any account's (`accountId` undefined: the public page, which knows only the id). */
export function findPaymentLink(db: Db, accountId: string | undefined, id: string): Promise<PaymentLinkRow | undefined> {
  let query = db.selectFrom('payment_links').selectAll().where('id', '=', id);
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return query.executeTakeFirst();
}

/** The status a link reads as (src/paymentLinks/paymentLink.service.ts `linkStatus`). */
type LinkStatus = components['schemas']['PaymentLink']['status'];

/**
 * Whether the link is a single-use one whose charge was paid (`used`), in SQL: the same rule as
 * `linkStatus` (src/paymentLinks/paymentLink.service.ts), where a settled charge counts.
 */
const usedSql = sql<boolean>`(NOT payment_links.reusable AND EXISTS (
  SELECT 1 FROM transactions t WHERE t.payment_link_id = payment_links.id AND t.status IN (${sql.join([...SETTLED_STATUSES])})))`;

/** The statement of each status as `linkStatus` reads it: the merchant's `inactive` first, then `used`, then `expired`. */
function statusSql(status: LinkStatus, now: Date) {
  if (status === 'inactive') return sql<boolean>`payment_links.status = 'inactive'`;
  if (status === 'used') return sql<boolean>`(payment_links.status = 'active' AND ${usedSql})`;
  const expired = sql<boolean>`(payment_links.expires_at IS NOT NULL AND payment_links.expires_at <= ${now})`;
  if (status === 'expired') return sql<boolean>`(payment_links.status = 'active' AND NOT ${usedSql} AND ${expired})`;
  return sql<boolean>`(payment_links.status = 'active' AND NOT ${usedSql} AND NOT ${expired})`;
}

/** The account's links, newest first, after a position; with `status`, only those that read as it at `now`. */
export async function listPaymentLinks(
  db: Db,
  accountId: string,
  filter: { after?: { createdAtUs: string; id: string } | undefined; limit: number; status?: { is: LinkStatus; now: Date } | undefined },
): Promise<(PaymentLinkRow & { created_at_us: string })[]> {
  let query = db
    .selectFrom('payment_links')
    .selectAll()
    .select(sql<string>`(extract(epoch from created_at) * 1000000)::bigint::text`.as('created_at_us'))
    .where('account_id', '=', accountId);
  if (filter.status) query = query.where(statusSql(filter.status.is, filter.status.now));
  if (filter.after) {
    const at = sql<Date>`'epoch'::timestamptz + ${filter.after.createdAtUs}::bigint * interval '1 microsecond'`;
    query = query.where(sql<boolean>`(created_at, id) < (${at}, ${filter.after.id})`);
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

export function deactivatePaymentLink(db: Db, id: string, at: Date): Promise<PaymentLinkRow | undefined> {
  return db
    .updateTable('payment_links')
    .set({ status: 'inactive', deactivated_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returningAll()
    .executeTakeFirst();
}

/** The paid charges of each link (count and amount received), in one query. */
export async function linkPaymentStats(db: Db, ids: readonly string[]): Promise<Map<string, LinkPaymentStats>> {
  const stats = new Map<string, LinkPaymentStats>();
  if (ids.length === 0) return stats;
  const rows = await db
    .selectFrom('transactions')
    .select((eb) => ['payment_link_id', eb.fn.countAll<string>().as('count'), eb.fn.sum<string>('amount_cents').as('received')])
    .where('payment_link_id', 'in', ids)
    .where('status', 'in', SETTLED_STATUSES)
    .groupBy('payment_link_id')
    .execute();
  for (const row of rows) {
    if (row.payment_link_id === null) continue;
    stats.set(row.payment_link_id, { count: Number(row.count), receivedCents: Number(row.received ?? 0) });
  }
  return stats;
}

/** A link's charges, newest first. */
export function linkCharges(db: Db, linkId: string, limit: number): Promise<TransactionRow[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('payment_link_id', '=', linkId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One charge of the link (the page's status and a returning payer's charge); undefined when it is not the link's. */
export function findLinkCharge(db: Db, linkId: string, transactionId: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('id', '=', transactionId).where('payment_link_id', '=', linkId).executeTakeFirst();
}

export interface NewLinkCharge {
  id: string;
  link: Pick<PaymentLinkRow, 'id' | 'account_id' | 'amount_cents'>;
  feeCents: number;
  pixPayload: string;
  providerRef: string;
  createdAt: Date;
  expiresAt: Date;
}

const linkChargeValues = (charge: NewLinkCharge) => ({
  id: charge.id,
  account_id: charge.link.account_id,
  type: 'pix_in' as const,
  status: 'pending' as const,
  amount_cents: charge.link.amount_cents,
  fee_cents: charge.feeCents,
  net_cents: charge.link.amount_cents - charge.feeCents,
  external_ref: null,
  pix_payload: charge.pixPayload,
  expires_at: charge.expiresAt,
  created_at: charge.createdAt,
  updated_at: charge.createdAt,
  customer: null,
  provider_ref: charge.providerRef,
  payment_link_id: charge.link.id,
});

/** A reusable link's charge: one insert. */
export async function insertLinkCharge(db: Db, charge: NewLinkCharge): Promise<void> {
  await db.insertInto('transactions').values(linkChargeValues(charge)).execute();
}

/**
 * A single-use link's charge, stored only if the link still names `previousId` as its charge (NULL before
 * the first): the swap of the pointer and the insert are one statement, so of two payers opening the page
 * at once one stores its charge and the other finds it. False when another request won.
 */
export async function insertCurrentLinkCharge(db: Db, charge: NewLinkCharge, previousId: string | null): Promise<boolean> {
  const values = linkChargeValues(charge);
  const result = await sql<{ id: string }>`
    WITH swap AS (
      UPDATE payment_links SET current_transaction_id = ${charge.id}, updated_at = ${charge.createdAt}
      WHERE id = ${charge.link.id} AND current_transaction_id IS NOT DISTINCT FROM ${previousId}::text
      RETURNING id
    )
    INSERT INTO transactions (id, account_id, type, status, amount_cents, fee_cents, net_cents, external_ref, pix_payload,
      expires_at, created_at, updated_at, customer, provider_ref, payment_link_id)
    SELECT ${values.id}::text, ${values.account_id}::text, 'pix_in', 'pending', ${values.amount_cents}::bigint, ${values.fee_cents}::bigint,
      ${values.net_cents}::bigint, NULL, ${values.pix_payload}::text, ${values.expires_at}::timestamptz, ${values.created_at}::timestamptz,
      ${values.updated_at}::timestamptz, NULL, ${values.provider_ref}::text, ${values.payment_link_id}::text
    FROM swap
    RETURNING id`.execute(db);
  return result.rows.length === 1;
}

/** A single-use link's charge of the moment, as stored now. */
export async function currentChargeId(db: Db, linkId: string): Promise<string | null> {
  const row = await db.selectFrom('payment_links').select('current_transaction_id').where('id', '=', linkId).executeTakeFirst();
  return row?.current_transaction_id ?? null;
}
