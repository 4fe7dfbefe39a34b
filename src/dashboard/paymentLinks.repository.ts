import { sql, type Kysely } from 'kysely';
import type { Database, PartyJson } from '../db/schema.ts';
import { SETTLED_STATUSES } from '../paymentLinks/paymentLink.repository.ts';

type Db = Kysely<Database>;

/** The dashboard's reads of payment links beyond GET /v1/payment-links: a link's payers and totals. */

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
