/**
 * The ledger check's reads (src/ledger/ledger.check.ts), apart from the movements (ledger.repository.ts):
 * each account's entries since its checkpoint, transfers that are broken, each transaction's and refund's
 * transfers beside its status, and the checkpoints a clean check moves. Reads `ledger_accounts`,
 * `ledger_transfers`, `ledger_entries` (owned by ledger.repository.ts) and the rows the rules compare them
 * with; owns `ledger_checkpoints` and `ledger_check_runs`.
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database, Db, LedgerAccountKind } from '../db/schema.ts';
import { SYSTEM_ACCOUNTS, systemLeg } from './ledger.repository.ts';

export interface AccountAudit {
  id: string;
  owner_id: string | null;
  kind: LedgerAccountKind;
  non_negative: boolean;
  balance_cents: number;
  version: number;
  from_version: number;
  from_balance: number;
  entries: number;
  entries_sum: number;
  last_after: number | null;
  chain_breaks: number;
  active_holds: number | null;
}

export interface CheckScope {
  /** Re-verify everything from the first entry (else from each account's checkpoint). */
  full: boolean;
  /** Only this merchant's accounts and transactions (always full). */
  accountId?: string | undefined;
}

const scopeFilter = (scope: CheckScope, column: string) =>
  scope.accountId === undefined ? sql`true` : sql`${sql.ref(column)} = ${scope.accountId}`;

/** The sum of every account of the ledger, and how many there are. */
export async function ledgerTotal(db: Db): Promise<{ total: number; accounts: number }> {
  const result = await sql<{ total: number | null; accounts: number }>`
    SELECT sum(balance_cents)::bigint AS total, count(*)::int AS accounts FROM ledger_accounts`.execute(db);
  return { total: Number(result.rows[0]?.total ?? 0), accounts: Number(result.rows[0]?.accounts ?? 0) };
}

/**
 * Each account with what its entries since its checkpoint say: their count and sum, the last balance-after,
 * and the entries whose balance-after is not the previous one plus their amount. Incremental: only
 * accounts that moved (or whose balance changed without an entry) since the last clean check.
 */
export async function auditAccounts(db: Db, scope: CheckScope): Promise<AccountAudit[]> {
  const full = scope.full || scope.accountId !== undefined;
  const result = await sql<AccountAudit>`
    WITH acc AS (
      SELECT a.id, a.owner_id, a.kind, a.non_negative, a.balance_cents, a.version,
        ${full ? sql`0::bigint` : sql`coalesce(c.version, 0)`} AS from_version,
        ${full ? sql`0::bigint` : sql`coalesce(c.balance_cents, 0)`} AS from_balance
      FROM ledger_accounts a LEFT JOIN ledger_checkpoints c ON c.account_id = a.id
      WHERE ${scopeFilter(scope, 'a.owner_id')}
    )
    SELECT acc.*, coalesce(e.entries, 0)::bigint AS entries, coalesce(e.entries_sum, 0)::bigint AS entries_sum,
      e.last_after, coalesce(e.chain_breaks, 0)::bigint AS chain_breaks,
      CASE WHEN acc.kind = 'held' THEN (SELECT coalesce(sum(h.amount_cents), 0)::bigint FROM holds h
        WHERE h.account_id = acc.owner_id AND h.status = 'active') END AS active_holds
    FROM acc LEFT JOIN LATERAL (
      SELECT count(*) AS entries, sum(x.amount_cents) AS entries_sum,
        (array_agg(x.balance_after_cents ORDER BY x.account_version DESC))[1] AS last_after,
        count(*) FILTER (WHERE x.balance_after_cents <> x.before + x.amount_cents) AS chain_breaks
      FROM (
        SELECT le.amount_cents, le.balance_after_cents, le.account_version,
          coalesce(lag(le.balance_after_cents) OVER (ORDER BY le.account_version), acc.from_balance) AS before
        FROM ledger_entries le WHERE le.account_id = acc.id AND le.account_version > acc.from_version
      ) x
    ) e ON true
    WHERE ${full ? sql`true` : sql`acc.version <> acc.from_version OR acc.balance_cents <> acc.from_balance`}`.execute(db);
  return result.rows;
}

export interface TransferAudit {
  id: number;
  reason: string;
  transaction_id: string | null;
  /** The merchant of its transaction or hold (null: neither). */
  owner_id: string | null;
  entries: number;
  total: number;
  pending_id: number | null;
  completes_pending: boolean | null;
}

/**
 * Transfers that do not sum to zero, have fewer than two entries, or complete something that is not a
 * pending transfer of the same transaction: among those written since the checkpoints (or all).
 */
/** Whether transfer `t` completes a pending transfer `p` of its own transaction (the check's rule). */
const COMPLETES_PENDING = sql`(p.id IS NOT NULL AND p.pending AND p.transaction_id IS NOT DISTINCT FROM t.transaction_id
  AND p.refund_id IS NOT DISTINCT FROM t.refund_id)`;

/** A transfer that is broken: fewer than two entries, not summing to zero, or completing what it may not. */
const BROKEN = (entries: RawBuilder<unknown>, total: RawBuilder<unknown>) =>
  sql`${entries} < 2 OR ${total} <> 0 OR (t.pending_id IS NOT NULL AND NOT ${COMPLETES_PENDING})`;

/**
 * The transfer id of every entry past its account's checkpoint (`le.transfer_id`), by an index range per
 * account; `OFFSET 0` keeps it a per-account lookup (see `changedTransactionLedgers`).
 */
const ENTRIES_PAST_CHECKPOINTS = sql`ledger_accounts a
  LEFT JOIN ledger_checkpoints c ON c.account_id = a.id
  CROSS JOIN LATERAL (SELECT e.transfer_id FROM ledger_entries e
    WHERE e.account_id = a.id AND e.account_version > coalesce(c.version, 0) OFFSET 0) le`;

export async function brokenTransfers(db: Db, scope: CheckScope): Promise<TransferAudit[]> {
  const full = scope.full || scope.accountId !== undefined;
  return full ? allBrokenTransfers(db, scope) : freshBrokenTransfers(db);
}

/** Set-based over all transfers (or one merchant's). */
async function allBrokenTransfers(db: Db, scope: CheckScope): Promise<TransferAudit[]> {
  const chosen = sql`SELECT t.id FROM ledger_transfers t LEFT JOIN transactions tx ON tx.id = t.transaction_id
    WHERE ${scope.accountId === undefined ? sql`true` : sql`tx.account_id = ${scope.accountId} OR t.id IN (
      SELECT le.transfer_id FROM ledger_entries le JOIN ledger_accounts a ON a.id = le.account_id WHERE a.owner_id = ${scope.accountId})`}`;
  const result = await sql<TransferAudit>`
    WITH fresh AS (${chosen})
    SELECT t.id, t.reason, t.transaction_id, coalesce(tx.account_id, h.account_id) AS owner_id, count(le.id)::int AS entries, coalesce(sum(le.amount_cents), 0)::bigint AS total,
      t.pending_id, ${COMPLETES_PENDING} AS completes_pending
    FROM ledger_transfers t
    JOIN fresh f ON f.id = t.id
    LEFT JOIN ledger_entries le ON le.transfer_id = t.id
    LEFT JOIN ledger_transfers p ON p.id = t.pending_id
    LEFT JOIN transactions tx ON tx.id = t.transaction_id
    LEFT JOIN holds h ON h.id = t.hold_id
    GROUP BY t.id, p.id, tx.account_id, h.account_id
    HAVING ${BROKEN(sql`count(le.id)`, sql`coalesce(sum(le.amount_cents), 0)`)}`.execute(db);
  return result.rows;
}

/** The transfers with entries past the checkpoints, by index lookups (see `changedTransactionLedgers`). */
async function freshBrokenTransfers(db: Db): Promise<TransferAudit[]> {
  const result = await sql<TransferAudit>`
    WITH fresh AS (SELECT DISTINCT le.transfer_id AS id FROM ${ENTRIES_PAST_CHECKPOINTS})
    SELECT t.id, t.reason, t.transaction_id, coalesce(tx.account_id, h.account_id) AS owner_id, e.entries, e.total,
      t.pending_id, ${COMPLETES_PENDING} AS completes_pending
    FROM fresh f
    CROSS JOIN LATERAL (SELECT * FROM ledger_transfers x WHERE x.id = f.id OFFSET 0) t
    CROSS JOIN LATERAL (SELECT count(*)::int AS entries, coalesce(sum(le.amount_cents), 0)::bigint AS total
      FROM ledger_entries le WHERE le.transfer_id = t.id) e
    LEFT JOIN LATERAL (SELECT x.id, x.pending, x.transaction_id, x.refund_id FROM ledger_transfers x WHERE x.id = t.pending_id OFFSET 0) p ON true
    LEFT JOIN LATERAL (SELECT x.account_id FROM transactions x WHERE x.id = t.transaction_id OFFSET 0) tx ON true
    LEFT JOIN LATERAL (SELECT x.account_id FROM holds x WHERE x.id = t.hold_id OFFSET 0) h ON true
    WHERE ${BROKEN(sql`e.entries`, sql`e.total`)}`.execute(db);
  return result.rows;
}

export interface TransactionLedger {
  id: string;
  account_id: string;
  type: string;
  status: string;
  provider_state: 'sending' | 'sent' | null;
  amount_cents: number;
  fee_cents: number;
  net_cents: number;
  refunded_cents: number | null;
  /** The charge's own account of its returns in flight (refunds, devoluções claimed). */
  refunding_cents: number;
  /** Withdrawals: the provider's last word, and who resolved it. */
  provider_status: string | null;
  resolved_by: string | null;
  transfers: number;
  open_pending: number;
  posted: number;
  available: number;
  pending_out: number;
  fee_revenue: number;
  /** What the charge's refunds still in flight reserve. */
  refunding: number;
  /** What its booked returns took to the PSP (refunds posted, chargebacks, devoluções made outside the API). */
  returned_booked: number;
  /** What of those the merchant's balance could not cover (booked to suspense). */
  uncovered: number;
  /** What its devoluções claimed by the back office and not answered by the provider yet hold. */
  claimed: number;
  /** A reconciliation break records a difference between its status and the provider's (open or resolved). */
  explained: boolean;
}

/** How many transactions the check reads at a time: its memory stays that size, whatever the ledger's. */
export const TRANSACTION_BATCH = 5_000;

/**
 * Each transaction beside what its transfers did: how many, its pending transfers still open and posted,
 * and the sums on the merchant's available and pending_out and on fee_revenue. All transactions, one
 * merchant's, or (incremental: `changedFrom` is the last clean check's snapshot xmin) those with entries
 * after the checkpoints or a status changed by a database transaction the last check could not see.
 * In batches of `batchSize` in id order (the caller's REPEATABLE READ transaction sees one snapshot across
 * them), so the first check after a bulk load of a million transactions holds one batch, not a million rows.
 * The incremental check's transactions are chosen once, into a temporary table of the caller's transaction.
 */
export async function* transactionLedgers(
  trx: Transaction<Database>,
  scope: CheckScope,
  changedFrom: string | undefined,
  batchSize = TRANSACTION_BATCH,
): AsyncGenerator<TransactionLedger[]> {
  const full = scope.full || scope.accountId !== undefined || changedFrom === undefined;
  if (!full) await chooseChangedTransactions(trx, changedFrom);
  let after = '';
  for (;;) {
    const chosen = full
      ? sql`SELECT id FROM transactions WHERE ${scopeFilter(scope, 'account_id')} AND id > ${after} ORDER BY id LIMIT ${batchSize}`
      : sql`SELECT id FROM ledger_check_chosen WHERE id > ${after} ORDER BY id LIMIT ${batchSize}`;
    const rows = await ledgersOf(trx, chosen);
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!.id;
  }
}

const TRANSACTION_LEDGER_COLUMNS = sql`tx.id, tx.account_id, tx.type, tx.status, tx.provider_state, tx.amount_cents, tx.fee_cents, tx.net_cents, tx.refunded_cents,
  tx.refunding_cents, tx.provider_status, tx.resolved_by,
  coalesce(transfers.transfers, 0)::int AS transfers, coalesce(transfers.open_pending, 0)::int AS open_pending,
  coalesce(transfers.posted, 0)::int AS posted,
  coalesce(moved.available, 0)::bigint AS available, coalesce(moved.pending_out, 0)::bigint AS pending_out,
  coalesce(moved.fee_revenue, 0)::bigint AS fee_revenue, coalesce(refunding.cents, 0)::bigint AS refunding,
  coalesce(moved.returned_booked, 0)::bigint AS returned_booked, coalesce(moved.uncovered, 0)::bigint AS uncovered,
  coalesce(claimed.cents, 0)::bigint AS claimed,
  EXISTS (SELECT 1 FROM reconciliation_breaks b WHERE b.transaction_id = tx.id AND b.kind IN ('sent_booked_failed', 'booked_paid_not_sent')) AS explained`;

/** The returns of a charge that took money to the PSP: its psp_settlement leg is what went back to the payer. */
const RETURNED_TO_PSP = sql`${systemLeg(SYSTEM_ACCOUNTS.pspSettlement)} AND lt.reason IN ('chargeback', 'charge_refunded', 'refund_posted')`;
/** What a chargeback or a devolução made outside the API could not take from the merchant (booked to suspense). */
const UNCOVERED = sql`${systemLeg(SYSTEM_ACCOUNTS.suspense)} AND lt.reason IN ('chargeback', 'charge_refunded')`;

/** PixGate's fee of a transaction: its legs on fee_revenue. */
const FEE_REVENUE = systemLeg(SYSTEM_ACCOUNTS.feeRevenue);

/** A refund whose amount is still reserved (its pending transfer open). */
const IN_FLIGHT_REFUND = sql`r.status IN ('initiating', 'processing')`;

/**
 * The transactions the incremental check reads, into `ledger_check_chosen` (temporary, dropped at the end
 * of the caller's transaction): those whose status changed since the last clean check could see, and
 * those with entries past the checkpoints.
 */
async function chooseChangedTransactions(trx: Transaction<Database>, changedFrom: string): Promise<void> {
  await sql`CREATE TEMPORARY TABLE ledger_check_chosen (id text PRIMARY KEY) ON COMMIT DROP`.execute(trx);
  await sql`
    INSERT INTO ledger_check_chosen (id)
    SELECT id FROM transactions WHERE status_changed_xid >= ${changedFrom}::xid8
    UNION
    SELECT t.transaction_id FROM ${ENTRIES_PAST_CHECKPOINTS}
      CROSS JOIN LATERAL (SELECT lt.transaction_id FROM ledger_transfers lt WHERE lt.id = le.transfer_id OFFSET 0) t
    WHERE t.transaction_id IS NOT NULL`.execute(trx);
}

/**
 * The ledgers of the `chosen` transactions (a batch), by index lookups per transaction, so a batch costs its
 * size, not the ledger's. `OFFSET 0` keeps each LATERAL subquery a per-row lookup: flattened into a join, the
 * planner (which cannot know how few entries a batch has) would hash the whole entries table.
 */
async function ledgersOf(db: Db, chosenIds: RawBuilder<unknown>): Promise<TransactionLedger[]> {
  const result = await sql<TransactionLedger>`
    WITH chosen AS (${chosenIds})
    SELECT ${TRANSACTION_LEDGER_COLUMNS}
    FROM chosen
    CROSS JOIN LATERAL (SELECT * FROM transactions t WHERE t.id = chosen.id OFFSET 0) tx
    CROSS JOIN LATERAL (
      SELECT count(*) AS transfers,
        count(*) FILTER (WHERE lt.pending AND NOT EXISTS (SELECT 1 FROM ledger_transfers c WHERE c.pending_id = lt.id)) AS open_pending,
        count(*) FILTER (WHERE lt.reason = 'withdrawal_posted') AS posted
      FROM ledger_transfers lt WHERE lt.transaction_id = tx.id
    ) transfers
    CROSS JOIN LATERAL (
      SELECT sum(le.amount_cents) FILTER (WHERE le.account_id = tx.account_id || ':available') AS available,
        sum(le.amount_cents) FILTER (WHERE le.account_id = tx.account_id || ':pending_out') AS pending_out,
        sum(le.amount_cents) FILTER (WHERE ${FEE_REVENUE}) AS fee_revenue,
        sum(le.amount_cents) FILTER (WHERE ${RETURNED_TO_PSP}) AS returned_booked,
        -sum(le.amount_cents) FILTER (WHERE ${UNCOVERED}) AS uncovered
      FROM ledger_transfers lt JOIN LATERAL (SELECT * FROM ledger_entries e WHERE e.transfer_id = lt.id OFFSET 0) le ON true
      WHERE lt.transaction_id = tx.id
    ) moved
    CROSS JOIN LATERAL (SELECT sum(r.amount_cents) AS cents FROM refunds r WHERE r.transaction_id = tx.id AND ${IN_FLIGHT_REFUND}) refunding
    CROSS JOIN LATERAL (SELECT sum(d.amount_cents) AS cents FROM provider_devolucoes d WHERE d.transaction_id = tx.id AND d.status = 'claimed') claimed
    ORDER BY tx.id`.execute(db);
  return result.rows;
}

export interface RefundLedger {
  id: string;
  account_id: string;
  transaction_id: string;
  status: string;
  amount_cents: number;
  acknowledged_at: Date | null;
  /** Whether a live externalRef names it. */
  keyed: boolean;
  transfers: number;
  open_pending: number;
  posted: number;
  voided: number;
  /** Transfers booking what the provider paid past the charge (to suspense). */
  beyond: number;
  available: number;
  pending_out: number;
}

const REFUND_LEDGER = sql`r.id, r.account_id, r.transaction_id, r.status, r.amount_cents, r.acknowledged_at,
  EXISTS (SELECT 1 FROM refund_idempotency_keys k WHERE k.refund_id = r.id) AS keyed,
  count(DISTINCT lt.id)::int AS transfers,
  count(DISTINCT lt.id) FILTER (WHERE lt.reason = 'refund_beyond_charge')::int AS beyond,
  count(DISTINCT lt.id) FILTER (WHERE lt.pending AND NOT EXISTS (SELECT 1 FROM ledger_transfers c WHERE c.pending_id = lt.id))::int AS open_pending,
  count(DISTINCT lt.id) FILTER (WHERE lt.reason = 'refund_posted')::int AS posted,
  count(DISTINCT lt.id) FILTER (WHERE lt.reason = 'refund_voided')::int AS voided,
  coalesce(sum(le.amount_cents) FILTER (WHERE le.account_id = r.account_id || ':available'), 0)::bigint AS available,
  coalesce(sum(le.amount_cents) FILTER (WHERE le.account_id = r.account_id || ':pending_out'), 0)::bigint AS pending_out`;

/**
 * Each refund beside what its transfers did (by `refund_id`): all of them, one merchant's, or
 * (incremental) those with entries past the checkpoints, since every change of a refund's status that
 * matters to the ledger moves money in the same database transaction.
 */
export async function refundLedgers(db: Db, scope: CheckScope): Promise<RefundLedger[]> {
  const full = scope.full || scope.accountId !== undefined;
  const chosen = full
    ? sql`SELECT id FROM refunds WHERE ${scopeFilter(scope, 'account_id')}`
    : sql`SELECT DISTINCT t.refund_id AS id FROM ${ENTRIES_PAST_CHECKPOINTS}
        CROSS JOIN LATERAL (SELECT lt.refund_id FROM ledger_transfers lt WHERE lt.id = le.transfer_id OFFSET 0) t
        WHERE t.refund_id IS NOT NULL`;
  const result = await sql<RefundLedger>`
    WITH chosen AS (${chosen})
    SELECT ${REFUND_LEDGER}
    FROM chosen JOIN refunds r ON r.id = chosen.id
    LEFT JOIN ledger_transfers lt ON lt.refund_id = r.id
    LEFT JOIN ledger_entries le ON le.transfer_id = lt.id AND lt.reason <> 'refund_beyond_charge'
    GROUP BY r.id`.execute(db);
  return result.rows;
}

/**
 * The incremental check's queries are index lookups per changed row, but their cost estimates grow with the
 * tables (the planner cannot know how few rows lie past a checkpoint), and past `jit_above_cost` Postgres
 * compiles each of them with LLVM: measured at 250-450 ms per query on the scale benchmark's database, for
 * queries that then ran in under a millisecond. The incremental check turns JIT off for its transaction.
 */
export async function planForLookups(trx: Transaction<Database>): Promise<void> {
  await sql`SET LOCAL jit = off`.execute(trx);
}

/** The xmin of the last clean check's snapshot (undefined: no check has recorded one). */
export async function lastCheckXmin(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('ledger_check_runs').select('snapshot_xmin').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.snapshot_xmin ?? undefined;
}

/** Records a clean check: every account verified up to its current version, and its snapshot. */
export async function advanceCheckpoints(trx: Transaction<Database>, accounts: { id: string; version: number; balance_cents: number }[], snapshot: CheckSnapshot): Promise<void> {
  if (accounts.length > 0) {
    await trx
      .insertInto('ledger_checkpoints')
      .values(accounts.map((account) => ({ account_id: account.id, version: account.version, balance_cents: account.balance_cents })))
      .onConflict((oc) =>
        oc
          .column('account_id')
          .doUpdateSet((eb) => ({ version: eb.ref('excluded.version'), balance_cents: eb.ref('excluded.balance_cents') }))
          .where('ledger_checkpoints.version', '<', (eb) => eb.ref('excluded.version')),
      )
      .execute();
  }
  await trx.insertInto('ledger_check_runs').values({ started_at: snapshot.startedAt, snapshot_xmin: snapshot.xmin }).execute();
}

export interface CheckSnapshot {
  startedAt: Date;
  /** The oldest transaction still running when the snapshot was taken (xid8, as text). */
  xmin: string;
}

/**
 * The check's snapshot: the first statement of its REPEATABLE READ transaction takes it, so the xmin read
 * here is the xmin of everything the check reads.
 */
export async function takeCheckSnapshot(db: Db): Promise<CheckSnapshot> {
  const result = await sql<{ now: Date; xmin: string }>`SELECT clock_timestamp() AS now, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`.execute(db);
  const row = result.rows[0];
  if (row === undefined) throw new Error('the database returned no snapshot');
  return { startedAt: new Date(row.now), xmin: row.xmin };
}
