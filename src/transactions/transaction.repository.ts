/**
 * Owner of the `transactions` table (charges and withdrawals) and of `idempotency_keys` (the externalRefs
 * that name them): every query on them lives here. A charge's insert claims its externalRef in the same
 * statement, which is why both tables have one owner.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { compiledOnce } from '../db/compiledOnce.ts';
import type { CustomerJson, Database, Db, NewTransaction, StoredTransactionStatus, TransactionRow, TransactionType } from '../db/schema.ts';
import { SHOWN_COLUMNS, type ShownTransaction } from './transaction.mapper.ts';
import { HIDDEN_WITHDRAWAL_STATUSES, OPEN_STATUSES, UNKNOWN_STATUS, WITHDRAWAL } from '../withdrawals/withdrawal.states.ts';

/** externalRefs are kept 7 days after creation; afterwards the same externalRef creates a new transaction. */
export const IDEMPOTENCY_RETENTION_MS = 7 * 86_400_000;

export type IdempotencyScope = 'charge' | 'withdrawal' | 'due_charge';

/** Internal states the merchant never sees (a withdrawal in flight to the provider, or aborted by it). */
const HIDDEN_STATUSES = HIDDEN_WITHDRAWAL_STATUSES;
/** The statuses of the partial index transactions_withdrawals_open (literals, so the planner can use it). */
const IN_FLIGHT_OR_OPEN = [WITHDRAWAL.inFlight.status, ...OPEN_STATUSES] as const;

export function insertTransaction(db: Db, row: NewTransaction): Promise<TransactionRow> {
  return db.insertInto('transactions').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Scoped by account: another merchant's id is simply not found; so is a row in an internal state. */
const selectVisibleTransaction = compiledOnce((db, accountId: string, id: string) =>
  db
    .selectFrom('transactions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    // Literals, so the query's only parameters are its arguments (compiled once).
    .where('status', 'not in', HIDDEN_STATUSES.map((status) => sql.lit(status))),
);

export async function findTransaction(db: Db, accountId: string, id: string): Promise<TransactionRow | undefined> {
  const [row] = await selectVisibleTransaction(db, accountId, id);
  return row;
}

export function findTransactionById(db: Db, id: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Locks the row for a state change; the caller holds the database transaction. FOR NO KEY UPDATE: the rows
 * that reference it (its transfers, events, refunds) take a key-share lock on it as they are inserted, which
 * this lock does not block, so two paths on one charge meet only on this lock, in the order they take it.
 */
export function lockTransaction(trx: Transaction<Database>, id: string): Promise<TransactionRow | undefined> {
  return trx.selectFrom('transactions').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
}

/** The charges paid by these end-to-end ids (the reconciliation, a batch of received Pix at a time). */
export function chargesByEndToEndId(db: Db, endToEndIds: string[]): Promise<TransactionRow[]> {
  if (endToEndIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('transactions').selectAll().where('end_to_end_id', 'in', endToEndIds).where('type', '=', 'pix_in').execute();
}

/** The charge whose payment is this end-to-end id (a devolução names the Pix it returns). */
export function findChargeByEndToEndId(db: Db, endToEndId: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('end_to_end_id', '=', endToEndId).where('type', '=', 'pix_in').executeTakeFirst();
}

export interface TransactionFilter {
  type?: TransactionType | undefined;
  status?: StoredTransactionStatus | undefined;
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
  externalRef?: string | undefined;
  /** The payments of one static QR code (transactions_by_static_qrcode, migration 027). */
  staticQrCodeId?: string | undefined;
  /** The charges of one payment link. */
  paymentLinkId?: string | undefined;
  /** The cycles (and first payment) of one recurrence. */
  recurrenceId?: string | undefined;
  /** Keyset position: rows strictly after (older than) this one in the list's order. */
  after?: { createdAtUs: string; id: string } | undefined;
  limit: number;
}

/**
 * A listed transaction: the columns the API shows, the kind of charge (the dashboard's
 * CSV export), and its creation time in microseconds (the cursor's).
 */
export type ListedTransaction = ShownTransaction & Pick<TransactionRow, 'charge_kind'> & { account_id: string; created_at_us: string };

/**
 * A page of the account's transactions, newest first by (created_at, id): a keyset order, so a page read
 * after inserts continues exactly where the previous one stopped. Only the columns the API shows are read
 * (no customer, no review data), and the position comes back in microseconds, as stored. The filters and
 * the position are index ranges of transactions_account_created, _account_type_created,
 * _account_status_created or _account_external_ref (migration 014).
 */
export function listTransactions(db: Db, accountId: string, filter: TransactionFilter): Promise<ListedTransaction[]> {
  return listed(filteredTransactions(db, accountId, filter));
}

const listed = (query: ReturnType<typeof filteredTransactions>): Promise<ListedTransaction[]> =>
  query.select([...SHOWN_COLUMNS, 'charge_kind', 'account_id', sql<string>`(extract(epoch from created_at) * 1000000)::bigint::text`.as('created_at_us')]).execute();

/**
 * The dashboard's search (issue 38, defect 5): transactions whose reference starts with `referencePrefix`,
 * whose id starts with `idPrefix` (`tx_` and at least 4 hex digits), or whose amount is `amountCents`: any
 * of them, with the list's filters, order and keyset. Each kind is read on an index that bounds it, so the
 * search costs the same on an account of a million transactions (migration 022):
 * - the amount: `transactions_account_amount_created`, already in the list's order;
 * - the id and the reference: first the ids in the prefix's range of the primary key or of
 *   `transactions_account_external_ref` (text_pattern_ops), at most `SPARSE_LIMIT` + 1, read in the index's
 *   order; when there are no more than `SPARSE_LIMIT` (ids are random, so 4 hex digits leave one in 65,536;
 *   most reference prefixes are rare), those rows are read by id and sorted; a reference prefix that more
 *   than `SPARSE_LIMIT` references share (`cobranca-painel`) is common enough that the account's newest
 *   transactions, walked in order and filtered, give a page within a few thousand rows.
 * The pages are merged newest first and cut to the filter's limit.
 */
export interface TransactionSearch {
  referencePrefix: string;
  idPrefix?: string | undefined;
  amountCents?: number | undefined;
}

const SPARSE_LIMIT = 5_000;

/** The smallest text above every text that starts with `prefix` in byte (text_pattern_ops) order, or none. */
function prefixUpperBound(prefix: string): string | undefined {
  const codePoints = [...prefix];
  while (codePoints.length > 0) {
    const last = codePoints.pop()!.codePointAt(0)!;
    // The next code point that UTF-8 can encode (surrogates are not text).
    const next = last === 0xd7ff ? 0xe000 : last + 1;
    if (next <= 0x10ffff) return codePoints.join('') + String.fromCodePoint(next);
  }
  return undefined;
}

/**
 * The ids of the account whose `column` starts with `prefix`, in the index's order, at most SPARSE_LIMIT + 1:
 * a reference by the byte-order operators of its text_pattern_ops index (any collation); an id by the
 * primary key's own order (ids are `tx_` and lowercase hex digits, which every collation orders alike).
 */
async function prefixCandidates(db: Db, accountId: string, column: 'external_ref' | 'id', prefix: string): Promise<string[]> {
  const upper = prefixUpperBound(prefix);
  const [from, below, order] = column === 'external_ref' ? [sql`~>=~`, sql`~<~`, sql`external_ref using ~<~`] : [sql`>=`, sql`<`, sql`id`];
  let query = db.selectFrom('transactions').select('id').where('account_id', '=', accountId).where(sql<boolean>`${sql.ref(column)} ${from} ${prefix}`);
  if (upper !== undefined) query = query.where(sql<boolean>`${sql.ref(column)} ${below} ${upper}`);
  const rows = await query.orderBy(order).limit(SPARSE_LIMIT + 1).execute();
  return rows.map((row) => row.id);
}

/** How a prefix is read: its candidates counted first (the gateway), or as a rare or a common one (the benchmark's plans). */
export type PrefixRange = 'counted' | 'rare' | 'common';

async function prefixMatches(db: Db, accountId: string, filter: TransactionFilter, column: 'external_ref' | 'id', prefix: string, range: PrefixRange): Promise<ListedTransaction[]> {
  const base = filteredTransactions(db, accountId, filter).where(sql<boolean>`starts_with(${sql.ref(column)}, ${prefix})`);
  if (range === 'common') return listed(base);
  const ids = await prefixCandidates(db, accountId, column, prefix);
  if (range === 'counted' && ids.length > SPARSE_LIMIT) return listed(base);
  if (range === 'counted' && ids.length === 0) return [];
  // Read as rare (the benchmark's plans, whose EXPLAIN answers no rows): as if one id had been found.
  const found = ids.length > 0 ? ids : ['tx_000000000000000000000000'];
  return listed(base.where(sql<boolean>`id = any(${found}::text[])`));
}

export async function searchTransactions(
  db: Db,
  accountId: string,
  filter: TransactionFilter,
  search: TransactionSearch,
  range: PrefixRange = 'counted',
): Promise<ListedTransaction[]> {
  // One after the other: a search holds one connection of the pool, as a list does.
  const pages = [await prefixMatches(db, accountId, filter, 'external_ref', search.referencePrefix, range)];
  if (search.idPrefix !== undefined) pages.push(await prefixMatches(db, accountId, filter, 'id', search.idPrefix, range === 'common' ? 'rare' : range));
  if (search.amountCents !== undefined) pages.push(await listed(filteredTransactions(db, accountId, filter).where('amount_cents', '=', search.amountCents)));
  const unique = new Map(pages.flat().map((row) => [row.id, row]));
  const newestFirst = (a: ListedTransaction, b: ListedTransaction) => {
    const at = BigInt(b.created_at_us) - BigInt(a.created_at_us);
    return at !== 0n ? (at > 0n ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  };
  return [...unique.values()].sort(newestFirst).slice(0, filter.limit);
}

function filteredTransactions(db: Db, accountId: string, filter: TransactionFilter) {
  let query = db.selectFrom('transactions').where('account_id', '=', accountId).where('status', 'not in', HIDDEN_STATUSES);
  if (filter.type) query = query.where('type', '=', filter.type);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.externalRef !== undefined) query = query.where('external_ref', '=', filter.externalRef);
  if (filter.staticQrCodeId !== undefined) query = query.where('static_qrcode_id', '=', filter.staticQrCodeId);
  if (filter.paymentLinkId !== undefined) query = query.where('payment_link_id', '=', filter.paymentLinkId);
  if (filter.recurrenceId !== undefined) query = query.where('recurrence_id', '=', filter.recurrenceId);
  if (filter.createdFrom) query = query.where('created_at', '>=', filter.createdFrom);
  if (filter.createdTo) query = query.where('created_at', '<', filter.createdTo);
  if (filter.after) {
    const at = sql<Date>`'epoch'::timestamptz + ${filter.after.createdAtUs}::bigint * interval '1 microsecond'`;
    query = query.where(sql<boolean>`(created_at, id) < (${at}, ${filter.after.id})`);
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit);
}

/**
 * A listed transaction as the merchant API's JSON text, written by Postgres: the fields, order and omission
 * rules of `toApiTransaction(row, 'list')` (transaction.mapper.ts), which test/transactions/listJson.test.ts
 * compares it with on every status of both types. The list is the API's widest read; turning rows into
 * objects and back into JSON (pg parsing every timestamp into a Date, one object per column) was most of its
 * gateway CPU. Plain text concatenation, not jsonb: measured on 100k rows, jsonb_build_object with
 * jsonb_strip_nulls cost 6.0 µs a row in Postgres, this 1.9 µs, returning the bare columns 1.3 µs. Strings
 * that can hold any character go through to_json (JSON escaping); `concat` drops the parts that are null.
 */
const SETTLED_SQL = sql`('paid', 'refunded', 'partially_refunded')`;
const RETURNED_SQL = sql`('refunded', 'partially_refunded')`;
const LIST_ITEM_JSON = sql<string>`concat('{"transactionId":"', id, '","type":"', type,
  '","amountCents":', amount_cents, ',"feeCents":', fee_cents, ',"netCents":', net_cents, ',"status":"', status,
  '","paidAt":', coalesce(floor(extract(epoch from paid_at) * 1000)::bigint::text, 'null'),
  ',"createdAt":', floor(extract(epoch from created_at) * 1000)::bigint, ',"updatedAt":', floor(extract(epoch from updated_at) * 1000)::bigint,
  ',"externalRef":' || to_json(external_ref),
  ',"staticQrCodeId":' || to_json(static_qrcode_id),
  ',"paymentLinkId":' || to_json(payment_link_id),
  ',"recurrenceId":' || to_json(recurrence_id),
  CASE WHEN type = 'pix_in' THEN concat(',"pixPayload":', coalesce(to_json(pix_payload)::text, 'null'),
    ',"expiresAt":' || floor(extract(epoch from expires_at))::bigint) END,
  CASE WHEN status IN ${SETTLED_SQL} THEN concat(',"endToEndId":' || to_json(end_to_end_id),
    CASE WHEN type = 'pix_in' THEN ',"payer":' || payer::text ELSE ',"beneficiary":' || beneficiary::text END) END,
  CASE WHEN status IN ${RETURNED_SQL} THEN concat(',"refundEndToEndId":' || to_json(refund_end_to_end_id), ',"refundedCents":' || refunded_cents) END,
  ',"refusedCode":' || to_json(refused_code), ',"refusedReason":' || to_json(refused_reason), '}')`;

/** A page of the account's transactions as the API's JSON (see `listTransactions` for the order and filters). */
export function listTransactionsJson(db: Db, accountId: string, filter: TransactionFilter): Promise<{ id: string; created_at_us: string; json: string }[]> {
  return filteredTransactions(db, accountId, filter)
    .select(['id', sql<string>`(extract(epoch from created_at) * 1000000)::bigint::text`.as('created_at_us'), LIST_ITEM_JSON.as('json')])
    .execute();
}

export type TransactionChanges = Partial<Omit<NewTransaction, 'id' | 'account_id' | 'type' | 'charge_kind' | 'static_qrcode_id' | 'payment_link_id' | 'recurrence_id'>>;

export function updateTransaction(trx: Transaction<Database>, id: string, changes: TransactionChanges): Promise<TransactionRow> {
  return trx.updateTable('transactions').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

// ---- Charges -------------------------------------------------------------------------------------------

export interface NewCharge {
  id: string;
  accountId: string;
  amountCents: number;
  feeCents: number;
  externalRef: string | null;
  pixPayload: string;
  expiresAt: Date;
  createdAt: Date;
  customer: CustomerJson;
  providerRef: string;
}

const chargeValues = (charge: NewCharge) => sql`
  ${charge.id}::text, ${charge.accountId}::text, 'pix_in', 'pending', ${charge.amountCents}::bigint,
  ${charge.feeCents}::bigint, ${charge.amountCents - charge.feeCents}::bigint, ${charge.externalRef}::text,
  ${charge.pixPayload}::text, ${charge.expiresAt}::timestamptz, ${charge.createdAt}::timestamptz,
  ${charge.createdAt}::timestamptz, ${JSON.stringify(charge.customer)}::jsonb, ${charge.providerRef}::text`;

const chargeColumns = sql`(id, account_id, type, status, amount_cents, fee_cents, net_cents, external_ref,
  pix_payload, expires_at, created_at, updated_at, customer, provider_ref)`;

/** Stores a charge without externalRef: one statement. */
export async function insertCharge(db: Kysely<Database>, charge: NewCharge): Promise<void> {
  await sql`INSERT INTO transactions ${chargeColumns} VALUES (${chargeValues(charge)})`.execute(db);
}

/**
 * Claims the charge's externalRef and stores the charge in ONE statement: the charge row is inserted only
 * when the key was claimed (new, or its 7-day retention over). A concurrent claim of the same key waits for
 * the first to commit and then claims nothing. Returns false when the key belongs to another charge.
 */
export async function insertChargeClaimingKey(
  db: Kysely<Database>,
  charge: NewCharge & { externalRef: string },
  key: { expiresAt: Date; now: Date },
): Promise<boolean> {
  const result = await sql<{ id: string }>`
    WITH claim AS (
      INSERT INTO idempotency_keys (account_id, scope, external_ref, transaction_id, expires_at)
      VALUES (${charge.accountId}, 'charge', ${charge.externalRef}, ${charge.id}, ${key.expiresAt})
      ON CONFLICT (account_id, scope, external_ref) DO UPDATE
        SET transaction_id = excluded.transaction_id, expires_at = excluded.expires_at
        WHERE idempotency_keys.expires_at <= ${key.now}
      RETURNING transaction_id
    )
    INSERT INTO transactions ${chargeColumns}
    SELECT ${chargeValues(charge)} FROM claim
    RETURNING id`.execute(db);
  return result.rows.length === 1;
}

/**
 * Locks up to `limit` pending charges past their expiry, skipping rows another process holds (a charge being
 * paid at this instant is skipped, and then found paid).
 */
export function lockDueCharges(trx: Transaction<Database>, now: Date, limit: number): Promise<TransactionRow[]> {
  return trx
    .selectFrom('transactions')
    .selectAll()
    .where('status', '=', 'pending')
    .where('type', '=', 'pix_in')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .forNoKeyUpdate()
    .skipLocked()
    .execute();
}

/** Pending charges past their expiry (no lock): those to remove at the provider before they are expired here. */
export function findDueCharges(db: Db, now: Date, limit: number): Promise<Pick<TransactionRow, 'id' | 'provider_ref' | 'charge_kind'>[]> {
  return db
    .selectFrom('transactions')
    .select(['id', 'provider_ref', 'charge_kind'])
    .where('status', '=', 'pending')
    .where('type', '=', 'pix_in')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

/** Charges credited with a received Pix in a period (by when they were paid), for the reconciliation. */
export function creditedBetween(db: Db, from: Date, to: Date): Promise<TransactionRow[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('type', '=', 'pix_in')
    .where('status', 'in', ['paid', 'partially_refunded', 'refunded'])
    .where('end_to_end_id', 'is not', null)
    .where('paid_at', '>=', from)
    .where('paid_at', '<=', to)
    .execute();
}

// ---- Idempotency keys ----------------------------------------------------------------------------------

/** The transaction a still-live externalRef points at, read without locking (the fast path of a retry). */
export function findLiveIdempotentTransaction(
  db: Db,
  accountId: string,
  scope: IdempotencyScope,
  externalRef: string,
  nowMs: number,
): Promise<TransactionRow | undefined> {
  return db
    .selectFrom('idempotency_keys as k')
    .innerJoin('transactions as t', 't.id', 'k.transaction_id')
    .selectAll('t')
    .where('k.account_id', '=', accountId)
    .where('k.scope', '=', scope)
    .where('k.external_ref', '=', externalRef)
    .where('k.expires_at', '>', new Date(nowMs))
    .executeTakeFirst();
}

export type Claim = { claimed: true } | { claimed: false; existing: TransactionRow };

/**
 * Claims an externalRef for a new transaction inside the caller's database transaction.
 *
 * One statement: insert, or take over a key whose retention has passed. A concurrent claim of the same key
 * blocks on the first one's uncommitted row until it commits (then it is answered with that transaction)
 * or rolls back (then it claims the key itself). Exactly one transaction per live externalRef.
 * The foreign key to transactions is deferred, so the key is claimed before the transaction row exists.
 */
export async function claimIdempotencyKey(
  trx: Transaction<Database>,
  claim: { accountId: string; scope: IdempotencyScope; externalRef: string; transactionId: string; expiresAt: Date; now: Date },
): Promise<Claim> {
  const inserted = await sql<{ transaction_id: string }>`
    INSERT INTO idempotency_keys (account_id, scope, external_ref, transaction_id, expires_at)
    VALUES (${claim.accountId}, ${claim.scope}, ${claim.externalRef}, ${claim.transactionId}, ${claim.expiresAt})
    ON CONFLICT (account_id, scope, external_ref) DO UPDATE
      SET transaction_id = excluded.transaction_id, expires_at = excluded.expires_at
      WHERE idempotency_keys.expires_at <= ${claim.now}
    RETURNING transaction_id`.execute(trx);
  if (inserted.rows.length === 1) return { claimed: true };
  const existing = await trx
    .selectFrom('idempotency_keys as k')
    .innerJoin('transactions as t', 't.id', 'k.transaction_id')
    .selectAll('t')
    .where('k.account_id', '=', claim.accountId)
    .where('k.scope', '=', claim.scope)
    .where('k.external_ref', '=', claim.externalRef)
    .executeTakeFirstOrThrow();
  return { claimed: false, existing };
}

/** Frees the externalRef of a transaction that never happened (a withdrawal the PSP refused at once). */
export async function releaseIdempotencyKey(trx: Transaction<Database>, accountId: string, scope: IdempotencyScope, transactionId: string): Promise<void> {
  await trx
    .deleteFrom('idempotency_keys')
    .where('account_id', '=', accountId)
    .where('scope', '=', scope)
    .where('transaction_id', '=', transactionId)
    .execute();
}

// ---- Withdrawals ---------------------------------------------------------------------------------------

/** Asks reconciliation to look at an open withdrawal again at `at` (behind the others). */
export async function scheduleNextCheck(trx: Transaction<Database>, id: string, at: Date): Promise<void> {
  await trx.updateTable('transactions').set({ next_check_at: at }).where('id', '=', id).execute();
}

/** Withdrawals sent to the provider (accepted there) and created in a period, for the reconciliation. */
export function sentBetween(db: Db, from: Date, to: Date): Promise<TransactionRow[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('type', '=', 'withdrawal')
    .where('provider_state', '=', 'sent')
    .where('created_at', '>=', from)
    .where('created_at', '<=', to)
    .execute();
}

/** Sends still in flight since before `before` (their process died, or the PSP is very slow). */
export async function listStuckSends(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('transactions')
    .select('id')
    .where('type', '=', 'withdrawal')
    .where('provider_state', '=', 'sending')
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Open withdrawals (processing, failed_unknown) whose turn has come, least recently checked first. */
export async function listOpenWithdrawalsDue(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('transactions')
    .select('id')
    .where('type', '=', 'withdrawal')
    .where('status', 'in', OPEN_STATUSES.map((status) => sql.lit(status)))
    .where('provider_state', '=', 'sent')
    .where((eb) => eb.or([eb('next_check_at', 'is', null), eb('next_check_at', '<=', now)]))
    .orderBy('next_check_at', (ob) => ob.asc().nullsFirst())
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Withdrawals of one recipient still waiting for approval. */
export async function listPendingApprovalFor(db: Db, accountId: string, recipientId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('transactions')
    .select('id')
    .where('account_id', '=', accountId)
    .where('recipient_id', '=', recipientId)
    .where('status', '=', WITHDRAWAL.awaitingApproval.status)
    .execute();
  return rows.map((row) => row.id);
}

/** The back office's view of withdrawals, newest first (internal states left out). */
export function listWithdrawals(
  db: Db,
  filter: { status?: StoredTransactionStatus | undefined; accountId?: string | undefined; limit: number },
): Promise<TransactionRow[]> {
  let query = db
    .selectFrom('transactions')
    .selectAll()
    .where('type', '=', 'withdrawal')
    .where('status', 'not in', HIDDEN_STATUSES);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  // One account's: its (account, type, created) index. Every account's: the partial index only this
  // query names (migration 012), newest first without a sort.
  query = filter.accountId !== undefined ? query.where('account_id', '=', filter.accountId) : query.where(sql`lower(type)`, '=', 'withdrawal');
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

/** What /metrics shows of open withdrawals: one query on the partial index of open withdrawals. */
export interface OpenWithdrawalFigures {
  failedUnknown: number;
  /** Since when the oldest has been failed_unknown (its `updated_at`, see withdrawal.settlement.ts). */
  oldestFailedUnknownAt: Date | null;
  failedUnknownOverdue: number;
  processing: number;
  /** The oldest scheduled PSP check that is due and not done yet (null: none due). */
  oldestDueCheckAt: Date | null;
  stuckSends: number;
}

export async function openWithdrawalFigures(
  db: Db,
  at: { now: Date; overdueBefore: Date; stuckBefore: Date },
): Promise<OpenWithdrawalFigures> {
  const result = await sql<{
    failed_unknown: number;
    oldest_failed_unknown: Date | null;
    overdue: number;
    processing: number;
    oldest_due: Date | null;
    stuck: number;
  }>`
    SELECT
      count(*) FILTER (WHERE status = ${UNKNOWN_STATUS})::int AS failed_unknown,
      min(updated_at) FILTER (WHERE status = ${UNKNOWN_STATUS}) AS oldest_failed_unknown,
      count(*) FILTER (WHERE status = ${UNKNOWN_STATUS} AND updated_at <= ${at.overdueBefore})::int AS overdue,
      count(*) FILTER (WHERE status = ${WITHDRAWAL.sent.status} AND provider_state = ${WITHDRAWAL.sent.providerState})::int AS processing,
      min(coalesce(next_check_at, updated_at)) FILTER (
        WHERE status IN (${sql.join(OPEN_STATUSES.map((status) => sql.lit(status)))}) AND provider_state = ${WITHDRAWAL.sent.providerState}
          AND (next_check_at IS NULL OR next_check_at <= ${at.now})) AS oldest_due,
      count(*) FILTER (WHERE provider_state = 'sending' AND updated_at < ${at.stuckBefore})::int AS stuck
    FROM transactions
    WHERE type = 'withdrawal' AND status IN (${sql.join(IN_FLIGHT_OR_OPEN.map((status) => sql.lit(status)))})`.execute(db);
  const row = result.rows[0];
  return {
    failedUnknown: Number(row?.failed_unknown ?? 0),
    oldestFailedUnknownAt: row?.oldest_failed_unknown ? new Date(row.oldest_failed_unknown) : null,
    failedUnknownOverdue: Number(row?.overdue ?? 0),
    processing: Number(row?.processing ?? 0),
    oldestDueCheckAt: row?.oldest_due ? new Date(row.oldest_due) : null,
    stuckSends: Number(row?.stuck ?? 0),
  };
}
