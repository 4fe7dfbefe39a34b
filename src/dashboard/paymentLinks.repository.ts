import { sql, type Kysely } from 'kysely';
import type { components } from '../../generated/api-types.ts';
import type { Database, PartyJson } from '../db/schema.ts';
import { SETTLED_STATUSES, type PaymentLinkRow } from '../paymentLinks/paymentLink.repository.ts';
import type { ListPosition } from '../transactions/listPage.ts';

type Db = Kysely<Database>;
/** The status a link reads as now (src/paymentLinks/paymentLink.service.ts `linkStatus`). */
type PaymentLinkStatus = components['schemas']['PaymentLink']['status'];

/**
 * The dashboard's reads of payment links beyond GET /v1/payment-links: the list filtered by the status a
 * link reads as now, and a link's payers and totals.
 */

/**
 * Whether the link is a single-use one whose charge was paid (`used`), in SQL: the same rule as
 * `linkStatus` (src/paymentLinks/paymentLink.service.ts), where a settled charge counts.
 */
const usedSql = sql<boolean>`(NOT payment_links.reusable AND EXISTS (
  SELECT 1 FROM transactions t WHERE t.payment_link_id = payment_links.id AND t.status IN (${sql.join([...SETTLED_STATUSES])})))`;

/** The statement of each status as `linkStatus` reads it: the merchant's `inactive` first, then `used`, then `expired`. */
function statusSql(status: PaymentLinkStatus, now: Date) {
  if (status === 'inactive') return sql<boolean>`payment_links.status = 'inactive'`;
  if (status === 'used') return sql<boolean>`(payment_links.status = 'active' AND ${usedSql})`;
  const expired = sql<boolean>`(payment_links.expires_at IS NOT NULL AND payment_links.expires_at <= ${now})`;
  if (status === 'expired') return sql<boolean>`(payment_links.status = 'active' AND NOT ${usedSql} AND ${expired})`;
  return sql<boolean>`(payment_links.status = 'active' AND NOT ${usedSql} AND NOT ${expired})`;
}

/** The account's links of one status, newest first, after a position (GET /v1/payment-links's order and cursor). */
export function listPaymentLinksByStatus(
  db: Db,
  accountId: string,
  filter: { status: PaymentLinkStatus; now: Date; after?: ListPosition | undefined; limit: number },
): Promise<(PaymentLinkRow & { created_at_us: string })[]> {
  let query = db
    .selectFrom('payment_links')
    .selectAll()
    .select(sql<string>`(extract(epoch from created_at) * 1000000)::bigint::text`.as('created_at_us'))
    .where('account_id', '=', accountId)
    .where(statusSql(filter.status, filter.now));
  if (filter.after) {
    const at = sql<Date>`'epoch'::timestamptz + ${filter.after.createdAtUs}::bigint * interval '1 microsecond'`;
    query = query.where(sql<boolean>`(created_at, id) < (${at}, ${filter.after.id})`);
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

/** Who paid each of these charges of the link, when the provider said it (settled charges only). */
export async function linkPayers(db: Db, linkId: string, transactionIds: readonly string[]): Promise<Map<string, PartyJson>> {
  const payers = new Map<string, PartyJson>();
  if (transactionIds.length === 0) return payers;
  const rows = await db
    .selectFrom('transactions')
    .select(['id', 'payer'])
    .where('payment_link_id', '=', linkId)
    .where('id', 'in', transactionIds)
    .where('status', 'in', SETTLED_STATUSES)
    .where('payer', 'is not', null)
    .execute();
  for (const row of rows) if (row.payer) payers.set(row.id, row.payer);
  return payers;
}

export interface LinkTotals {
  chargesCount: number;
  pendingCount: number;
  paidCount: number;
  receivedCents: number;
  refundedCents: number;
}

/** The totals of all of a link's charges, in one query. */
export async function linkTotals(db: Db, linkId: string): Promise<LinkTotals> {
  const settled = sql.join([...SETTLED_STATUSES]);
  const row = await db
    .selectFrom('transactions')
    .select([
      sql<string>`count(*)`.as('charges'),
      sql<string>`count(*) FILTER (WHERE status = 'pending')`.as('pending'),
      sql<string>`count(*) FILTER (WHERE status IN (${settled}))`.as('paid'),
      sql<string>`coalesce(sum(amount_cents) FILTER (WHERE status IN (${settled})), 0)`.as('received'),
      sql<string>`coalesce(sum(coalesce(refunded_cents, 0)) FILTER (WHERE status IN (${settled})), 0)`.as('refunded'),
    ])
    .where('payment_link_id', '=', linkId)
    .executeTakeFirstOrThrow();
  return {
    chargesCount: Number(row.charges),
    pendingCount: Number(row.pending),
    paidCount: Number(row.paid),
    receivedCents: Number(row.received),
    refundedCents: Number(row.refunded),
  };
}
