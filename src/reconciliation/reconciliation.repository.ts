/**
 * Owner of `reconciliation_runs` and `reconciliation_breaks` (migration 018): the runs of the comparison of the
 * ledger with the provider, and each difference found (a break), recorded once per kind and key.
 */
import { sql, type Transaction } from 'kysely';
import type { BreakKind, BreakSettlement, Database, Db, ReconciliationBreakRow, ReconciliationRunRow } from '../db/schema.ts';

export interface NewBreak {
  id: string;
  kind: BreakKind;
  key: string;
  day?: string | null;
  accountId?: string | null;
  transactionId?: string | null;
  refundId?: string | null;
  endToEndId?: string | null;
  ledgerCents?: number | null;
  providerCents?: number | null;
  /** Money this difference put in `system:suspense` (its share of the balance), 0 when none. */
  suspenseCents?: number;
  /** How much more the provider holds than the ledger because of it (0: none, or corrected already). */
  balanceCents?: number;
  detail: string;
  runId?: number | null;
  at: Date;
}

/**
 * Records a break once: a new one is inserted; the same kind and key seen again only moves its last-seen
 * time, count and run (its amounts and detail follow the latest sighting while it is open). Answers the row
 * and whether it is new.
 */
export async function recordBreak(db: Db, found: NewBreak): Promise<{ row: ReconciliationBreakRow; isNew: boolean }> {
  const result = await sql<ReconciliationBreakRow & { inserted: boolean }>`
    INSERT INTO reconciliation_breaks (id, kind, key, day, account_id, transaction_id, refund_id, end_to_end_id, ledger_cents,
      provider_cents, suspense_cents, balance_cents, detail, status, first_seen_at, last_seen_at, seen_count, first_run_id, last_run_id)
    VALUES (${found.id}, ${found.kind}, ${found.key}, ${found.day ?? null}, ${found.accountId ?? null}, ${found.transactionId ?? null},
      ${found.refundId ?? null}, ${found.endToEndId ?? null}, ${found.ledgerCents ?? null}, ${found.providerCents ?? null},
      ${found.suspenseCents ?? 0}, ${found.balanceCents ?? 0}, ${found.detail}, 'open', ${found.at}, ${found.at}, 1, ${found.runId ?? null}, ${found.runId ?? null})
    ON CONFLICT (kind, key) DO UPDATE SET
      last_seen_at = excluded.last_seen_at,
      seen_count = reconciliation_breaks.seen_count + 1,
      last_run_id = coalesce(excluded.last_run_id, reconciliation_breaks.last_run_id),
      ledger_cents = CASE WHEN reconciliation_breaks.status = 'open' THEN excluded.ledger_cents ELSE reconciliation_breaks.ledger_cents END,
      provider_cents = CASE WHEN reconciliation_breaks.status = 'open' THEN excluded.provider_cents ELSE reconciliation_breaks.provider_cents END,
      detail = CASE WHEN reconciliation_breaks.status = 'open' THEN excluded.detail ELSE reconciliation_breaks.detail END
    RETURNING *, (xmax = 0) AS inserted`.execute(db);
  const row = result.rows[0];
  if (row === undefined) throw new Error(`break ${found.kind}/${found.key} not recorded`);
  const { inserted, ...rest } = row;
  return { row: rest, isNew: inserted };
}

export function findBreak(db: Db, id: string): Promise<ReconciliationBreakRow | undefined> {
  return db.selectFrom('reconciliation_breaks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockBreak(trx: Transaction<Database>, id: string): Promise<ReconciliationBreakRow | undefined> {
  return trx.selectFrom('reconciliation_breaks').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function resolveBreakRow(
  trx: Transaction<Database>,
  id: string,
  resolution: { by: string; note: string; settlement: BreakSettlement | null; at: Date },
): Promise<ReconciliationBreakRow> {
  return trx
    .updateTable('reconciliation_breaks')
    .set({ status: 'resolved', resolved_by: resolution.by, resolution_note: resolution.note, settlement: resolution.settlement, resolved_at: resolution.at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface BreakFilter {
  status?: 'open' | 'resolved' | undefined;
  kind?: BreakKind | undefined;
  /** Keyset position: breaks strictly older (in the listing's order) than this one. */
  after?: { firstSeenAt: Date; id: string } | undefined;
  limit: number;
}

/** Breaks, newest first by when they were first seen. */
export function listBreaks(db: Db, filter: BreakFilter): Promise<ReconciliationBreakRow[]> {
  let query = db.selectFrom('reconciliation_breaks').selectAll();
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
  if (filter.after) query = query.where(sql<boolean>`(first_seen_at, id) < (${filter.after.firstSeenAt}, ${filter.after.id})`);
  return query.orderBy('first_seen_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

/** Open breaks per kind (the /metrics gauge). */
export async function openBreakCounts(db: Db): Promise<{ kind: string; count: number }[]> {
  const rows = await db.selectFrom('reconciliation_breaks').select(['kind', (eb) => eb.fn.countAll<number>().as('count')]).where('status', '=', 'open').groupBy('kind').execute();
  return rows.map((row) => ({ kind: row.kind, count: Number(row.count) }));
}

/**
 * What the open breaks put in `system:suspense`, summed: the ledger check expects the suspense balance to be
 * exactly this (a difference explained by a break someone will settle), plus what older migrations booked.
 */
export async function openSuspenseCents(db: Db): Promise<number> {
  const row = await db
    .selectFrom('reconciliation_breaks')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('suspense_cents'), sql<number>`0`).as('cents'))
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(row?.cents ?? 0);
}

export async function startRun(db: Db, run: { day: string; trigger: string; at: Date }): Promise<number> {
  const row = await db
    .insertInto('reconciliation_runs')
    .values({ day: run.day, trigger: run.trigger, started_at: run.at, status: 'running' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function finishRun(
  db: Db,
  id: number,
  outcome: Partial<Pick<ReconciliationRunRow, 'status' | 'received' | 'sent' | 'devolucoes' | 'breaks_found' | 'breaks_new' | 'provider_balance_cents' | 'ledger_balance_cents' | 'error'>> & {
    finished_at: Date;
  },
): Promise<ReconciliationRunRow> {
  return db.updateTable('reconciliation_runs').set(outcome).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export function listRuns(db: Db, limit: number): Promise<ReconciliationRunRow[]> {
  return db.selectFrom('reconciliation_runs').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** What the open breaks explain of a difference between the provider's balance and the ledger's. */
export async function openBalanceCents(db: Db): Promise<number> {
  const row = await db
    .selectFrom('reconciliation_breaks')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('balance_cents'), sql<number>`0`).as('cents'))
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(row?.cents ?? 0);
}

/** Whether a run of that day by that trigger finished (the daily job runs once a day). */
export async function dayReconciled(db: Db, day: string, trigger: string): Promise<boolean> {
  const row = await db.selectFrom('reconciliation_runs').select('id').where('day', '=', day).where('trigger', '=', trigger).where('status', '=', 'done').executeTakeFirst();
  return row !== undefined;
}
