/**
 * Owner of `recurrences` and `recurrence_cycles` (migration 030). A cycle is also a `pix_in` transaction
 * (`charge_kind = 'recurring'`), stored here with its cycle row in the caller's database transaction.
 */
import { splitJoinedRow } from '../db/joinedRow.ts';
import { sql, type Transaction } from 'kysely';
import type {
  CycleAttemptJson,
  Database,
  Db,
  RecurrenceCyclesTable,
  RecurrenceStatus,
  RecurrencesTable,
  TransactionRow,
} from '../db/schema.ts';
import type { Insertable, Selectable } from 'kysely';

export type RecurrenceRow = Selectable<RecurrencesTable>;
export type CycleRow = Selectable<RecurrenceCyclesTable>;
/** A cycle with its transaction (status, amounts, payment). */
export interface CycleRecord {
  cycle: CycleRow;
  charge: TransactionRow;
}

const numeric = (row: RecurrenceRow): RecurrenceRow => ({
  ...row,
  amount_cents: row.amount_cents === null ? null : Number(row.amount_cents),
  minimum_amount_cents: row.minimum_amount_cents === null ? null : Number(row.minimum_amount_cents),
  payer_maximum_cents: row.payer_maximum_cents === null ? null : Number(row.payer_maximum_cents),
});

export type NewRecurrence = Insertable<RecurrencesTable>;

/** Stores a recurrence, claiming its externalRef; false when another request claimed it first. */
export async function insertRecurrence(db: Db, row: NewRecurrence): Promise<boolean> {
  const inserted = await db
    .insertInto('recurrences')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'external_ref']).where('external_ref', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findRecurrence(db: Db, accountId: string | undefined, id: string): Promise<RecurrenceRow | undefined> {
  let query = db.selectFrom('recurrences').selectAll().where('id', '=', id);
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  const row = await query.executeTakeFirst();
  return row && numeric(row);
}

export async function findRecurrenceByExternalRef(db: Db, accountId: string, externalRef: string): Promise<RecurrenceRow | undefined> {
  const row = await db.selectFrom('recurrences').selectAll().where('account_id', '=', accountId).where('external_ref', '=', externalRef).executeTakeFirst();
  return row && numeric(row);
}

export async function findRecurrenceByProviderRef(db: Db, providerRef: string): Promise<RecurrenceRow | undefined> {
  const row = await db.selectFrom('recurrences').selectAll().where('provider_ref', '=', providerRef).executeTakeFirst();
  return row && numeric(row);
}

export async function lockRecurrence(trx: Transaction<Database>, id: string): Promise<RecurrenceRow | undefined> {
  const row = await trx.selectFrom('recurrences').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
  return row && numeric(row);
}

export type RecurrenceChanges = Partial<{
  status: RecurrenceStatus;
  consent_status: RecurrencesTable['consent_status'];
  payer_maximum_cents: number | null;
  activation_journey: RecurrenceRow['activation_journey'];
  activated_at: Date | null;
  ended: string | null;
  history: string;
  next_sequence: number;
  next_cycle_date: string | null;
  pix_payload: string | null;
  updated_at: Date;
}>;

export async function updateRecurrence(trx: Transaction<Database>, id: string, changes: RecurrenceChanges): Promise<RecurrenceRow> {
  return numeric(await trx.updateTable('recurrences').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow());
}

export interface RecurrenceFilter {
  status?: RecurrenceStatus | undefined;
  after?: { createdAtUs: string; id: string } | undefined;
  limit: number;
}

/** A page of the account's recurrences, newest first, with each one's position. */
export async function listRecurrences(db: Db, accountId: string, filter: RecurrenceFilter): Promise<(RecurrenceRow & { createdAtUs: string })[]> {
  let query = db
    .selectFrom('recurrences')
    .selectAll()
    .select(sql<string>`(extract(epoch from created_at) * 1000000)::bigint::text`.as('created_at_us'))
    .where('account_id', '=', accountId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.after) {
    const at = sql<Date>`'epoch'::timestamptz + ${filter.after.createdAtUs}::bigint * interval '1 microsecond'`;
    query = query.where(sql<boolean>`(created_at, id) < (${at}, ${filter.after.id})`);
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  return rows.map(({ created_at_us: createdAtUs, ...row }) => ({ ...numeric(row), createdAtUs }));
}

/** Approved recurrences whose next cycle falls due by `throughDate` (the scheduler's scan), oldest due first. */
export async function recurrencesToSchedule(db: Db, throughDate: string, limit: number): Promise<RecurrenceRow[]> {
  const rows = await db
    .selectFrom('recurrences')
    .selectAll()
    .where('status', '=', 'approved')
    .where('next_cycle_date', 'is not', null)
    .where('next_cycle_date', '<=', throughDate)
    .orderBy('next_cycle_date')
    .limit(limit)
    .execute();
  return rows.map(numeric);
}

/** Recurrences still waiting for the payer (the safety net for lost callbacks and consents that expire). */
export async function recurrencesAwaitingConsent(db: Db, limit: number): Promise<RecurrenceRow[]> {
  const rows = await db.selectFrom('recurrences').selectAll().where('status', '=', 'created').orderBy('created_at').limit(limit).execute();
  return rows.map(numeric);
}

/** The immediate first payment of a `qrcode_with_payment` consent: a pending charge named by its recurrence. */
export async function insertFirstPayment(
  trx: Transaction<Database>,
  charge: { id: string; accountId: string; recurrenceId: string; amountCents: number; feeCents: number; pixPayload: string; providerRef: string; expiresAt: Date; at: Date },
): Promise<void> {
  await trx
    .insertInto('transactions')
    .values({
      id: charge.id,
      account_id: charge.accountId,
      type: 'pix_in',
      status: 'pending',
      amount_cents: charge.amountCents,
      fee_cents: charge.feeCents,
      net_cents: charge.amountCents - charge.feeCents,
      external_ref: null,
      pix_payload: charge.pixPayload,
      expires_at: charge.expiresAt,
      created_at: charge.at,
      updated_at: charge.at,
      customer: null,
      provider_ref: charge.providerRef,
      recurrence_id: charge.recurrenceId,
    })
    .execute();
}

// ---- Cycles -------------------------------------------------------------------------------------------------

export interface NewCycle {
  transactionId: string;
  recurrence: Pick<RecurrenceRow, 'id' | 'account_id'>;
  sequence: number;
  dueDate: string;
  settlementDate: string;
  amountCents: number;
  feeCents: number;
  providerRef: string;
  attempts: CycleAttemptJson[];
  at: Date;
}

/** A cycle and its charge (`pix_in`, pending, no expiry of its own: the cycle's reads end it), in the caller's transaction. */
export async function insertCycle(trx: Transaction<Database>, cycle: NewCycle): Promise<void> {
  await trx
    .insertInto('transactions')
    .values({
      id: cycle.transactionId,
      account_id: cycle.recurrence.account_id,
      type: 'pix_in',
      status: 'pending',
      amount_cents: cycle.amountCents,
      fee_cents: cycle.feeCents,
      net_cents: cycle.amountCents - cycle.feeCents,
      external_ref: null,
      pix_payload: null,
      expires_at: null,
      created_at: cycle.at,
      updated_at: cycle.at,
      customer: null,
      provider_ref: cycle.providerRef,
      charge_kind: 'recurring',
      recurrence_id: cycle.recurrence.id,
    })
    .execute();
  await trx
    .insertInto('recurrence_cycles')
    .values({
      transaction_id: cycle.transactionId,
      recurrence_id: cycle.recurrence.id,
      account_id: cycle.recurrence.account_id,
      sequence: cycle.sequence,
      due_date: cycle.dueDate,
      settlement_date: cycle.settlementDate,
      status: 'scheduled',
      attempts: JSON.stringify(cycle.attempts),
      created_at: cycle.at,
      updated_at: cycle.at,
    })
    .execute();
}

const CYCLE_COLUMNS = [
  'c.transaction_id as c__transaction_id',
  'c.recurrence_id as c__recurrence_id',
  'c.account_id as c__account_id',
  'c.sequence as c__sequence',
  'c.due_date as c__due_date',
  'c.settlement_date as c__settlement_date',
  'c.status as c__status',
  'c.attempts as c__attempts',
  'c.retries as c__retries',
  'c.refusal_code as c__refusal_code',
  'c.refusal_reason as c__refusal_reason',
  'c.cancelled_by as c__cancelled_by',
  'c.created_at as c__created_at',
  'c.updated_at as c__updated_at',
] as const;

function cycleRecord(row: Record<string, unknown>): CycleRecord {
  const { own, transaction } = splitJoinedRow(row, 'c__');
  return { cycle: own as unknown as CycleRow, charge: transaction as unknown as TransactionRow };
}

export async function findCycle(db: Db, transactionId: string): Promise<CycleRecord | undefined> {
  const row = await db
    .selectFrom('recurrence_cycles as c')
    .innerJoin('transactions as t', 't.id', 'c.transaction_id')
    .selectAll('t')
    .select(CYCLE_COLUMNS)
    .where('c.transaction_id', '=', transactionId)
    .executeTakeFirst();
  return row === undefined ? undefined : cycleRecord(row);
}

export async function lockCycle(trx: Transaction<Database>, transactionId: string): Promise<CycleRow | undefined> {
  return trx.selectFrom('recurrence_cycles').selectAll().where('transaction_id', '=', transactionId).forNoKeyUpdate().executeTakeFirst();
}

export type CycleChanges = Partial<{
  status: CycleRow['status'];
  attempts: string;
  retries: number;
  refusal_code: string | null;
  refusal_reason: string | null;
  cancelled_by: CycleRow['cancelled_by'];
  updated_at: Date;
}>;

export async function updateCycle(trx: Transaction<Database>, transactionId: string, changes: CycleChanges): Promise<CycleRow> {
  return trx.updateTable('recurrence_cycles').set(changes).where('transaction_id', '=', transactionId).returningAll().executeTakeFirstOrThrow();
}

/** A page of a recurrence's cycles, newest first (by sequence). */
export async function listCycles(db: Db, recurrenceId: string, filter: { beforeSequence?: number | undefined; limit: number }): Promise<CycleRecord[]> {
  let query = db
    .selectFrom('recurrence_cycles as c')
    .innerJoin('transactions as t', 't.id', 'c.transaction_id')
    .selectAll('t')
    .select(CYCLE_COLUMNS)
    .where('c.recurrence_id', '=', recurrenceId);
  if (filter.beforeSequence !== undefined) query = query.where('c.sequence', '<', filter.beforeSequence);
  const rows = await query.orderBy('c.sequence', 'desc').limit(filter.limit).execute();
  return rows.map(cycleRecord);
}

export type CycleCounts = { total: number; paid: number; open: number; failed: number };

/** How many cycles each recurrence has, by outcome (paid: its charge paid, refunded or not), in one query. */
export async function cycleCountsOf(db: Db, recurrenceIds: string[]): Promise<Map<string, CycleCounts>> {
  const counts = new Map<string, CycleCounts>(recurrenceIds.map((id) => [id, { total: 0, paid: 0, open: 0, failed: 0 }]));
  if (recurrenceIds.length === 0) return counts;
  const rows = await sql<{ recurrence_id: string; total: string; paid: string; open: string }>`
    SELECT c.recurrence_id, count(*)::text AS total,
      count(*) FILTER (WHERE t.status IN ('paid', 'partially_refunded', 'refunded'))::text AS paid,
      count(*) FILTER (WHERE t.status = 'pending')::text AS open
    FROM recurrence_cycles c JOIN transactions t ON t.id = c.transaction_id
    WHERE c.recurrence_id = ANY(${sql`${recurrenceIds}::text[]`})
    GROUP BY c.recurrence_id`.execute(db);
  for (const row of rows.rows) {
    const [total, paid, open] = [Number(row.total), Number(row.paid), Number(row.open)];
    counts.set(row.recurrence_id, { total, paid, open, failed: total - paid - open });
  }
  return counts;
}

/** How many cycles a recurrence has, by outcome. */
export async function cycleCounts(db: Db, recurrenceId: string): Promise<CycleCounts> {
  return (await cycleCountsOf(db, [recurrenceId])).get(recurrenceId) ?? { total: 0, paid: 0, open: 0, failed: 0 };
}

/**
 * Open cycles (`scheduled`, `retrying`) whose charge is still pending, with an attempt due by `today` or a
 * recurrence that ended: the provider's read tells what happened to them.
 */
export async function openCyclesToRead(db: Db, today: string, limit: number): Promise<string[]> {
  const rows = await sql<{ transaction_id: string }>`
    SELECT c.transaction_id FROM recurrence_cycles c
    JOIN transactions t ON t.id = c.transaction_id
    JOIN recurrences r ON r.id = c.recurrence_id
    WHERE c.status IN ('scheduled', 'retrying') AND t.status = 'pending'
      AND (r.status <> 'approved' OR (c.attempts -> -1 ->> 'date') <= ${today})
    ORDER BY c.settlement_date, c.transaction_id
    LIMIT ${limit}`.execute(db);
  return rows.rows.map((row) => row.transaction_id);
}

/** The open cycles of a recurrence (its cancellation cancels them). */
export async function openCyclesOf(db: Db, recurrenceId: string): Promise<CycleRow[]> {
  return db.selectFrom('recurrence_cycles').selectAll().where('recurrence_id', '=', recurrenceId).where('status', 'in', ['scheduled', 'retrying']).execute();
}
