/**
 * The statement's read of the ledger (GET /v1/balance/entries): the entries of a merchant's available
 * account, newest first by the account's version (the order the balance moved in, so each entry's
 * balance-after follows from the one before), with what each transfer was for. Read-only; the ledger's
 * writes stay in ledger.repository.ts.
 */
import { sql, type Kysely } from 'kysely';
import type { Database, TransferReason } from '../db/schema.ts';

export interface StatementRow {
  amount_cents: number;
  balance_after_cents: number;
  account_version: string;
  created_at: Date;
  reason: TransferReason;
  transaction_id: string | null;
  refund_id: string | null;
  /** The fee of the entry's transaction (a charge's or a withdrawal's), to show it as a line of its own. */
  fee_cents: number | null;
  /** The status of the entry's transaction (an `aborted` withdrawal is not shown to the merchant). */
  status: string | null;
}

export interface StatementFilter {
  /** The period: the continuous run of versions booked from `createdFrom` to before `createdTo`. */
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
  /** Entries at or below this version (the cursor's entry is re-read when only part of it was shown). */
  atOrBelowVersion?: string | undefined;
  limit: number;
}

/**
 * Up to `limit` entries of `<accountId>:available`, newest first: a range of the unique (account_id,
 * account_version) index. A period is cut by version (`ledger_version_before`, a binary search over the
 * versions), so it is a continuous run of the balance's history whose balance-afters chain.
 */
export async function listStatementEntries(db: Kysely<Database>, accountId: string, filter: StatementFilter): Promise<StatementRow[]> {
  const account = `${accountId}:available`;
  const above = filter.createdFrom ? sql`ledger_version_before(${account}, ${filter.createdFrom})` : sql`0`;
  const upTo = filter.createdTo ? sql`ledger_version_before(${account}, ${filter.createdTo})` : sql`9223372036854775807`;
  const result = await sql<StatementRow>`
    WITH bounds AS (SELECT ${above}::bigint AS above, least(${upTo}::bigint,
      ${filter.atOrBelowVersion !== undefined ? sql`${filter.atOrBelowVersion}::bigint` : sql`9223372036854775807`}) AS up_to)
    SELECT e.amount_cents, e.balance_after_cents, e.account_version::text AS account_version, e.created_at,
      t.reason, t.transaction_id, t.refund_id, tx.fee_cents, tx.status
    FROM bounds
    JOIN ledger_entries e ON e.account_id = ${account} AND e.account_version > bounds.above AND e.account_version <= bounds.up_to
    JOIN ledger_transfers t ON t.id = e.transfer_id
    LEFT JOIN transactions tx ON tx.id = t.transaction_id
    ORDER BY e.account_version DESC
    LIMIT ${filter.limit}`.execute(db);
  return result.rows;
}
