/**
 * Owner of `refunds` and `refund_idempotency_keys`: every query on them lives here.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, Db, NewRefund, RefundRow } from '../db/schema.ts';
import { HIDDEN_REFUND_STATUSES, IN_FLIGHT_REFUND_STATUSES, type RefundLedgerStep, type RefundStatus } from './refund.states.ts';

export function insertRefund(trx: Transaction<Database>, row: NewRefund): Promise<RefundRow> {
  return trx.insertInto('refunds').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Books a ledger step of a refund just inserted in its first state (`refund_book`, migration 025); false when a reservation is not covered. */
export async function bookRefundStep(trx: Transaction<Database>, id: string, step: RefundLedgerStep, at: Date): Promise<boolean> {
  const result = await sql<{ ok: boolean }>`SELECT refund_book(${id}, ${step}, ${at}, false) AS ok`.execute(trx);
  return result.rows[0]?.ok === true;
}

/**
 * A refund's state change in one statement (`refund_move`, migration 025): locked, checked to be in `from`
 * (else SQLSTATE PXM01), the step's money booked (`beyondCharge`: a post the provider paid past what the
 * charge could give, booked to suspense), the status written. Undefined when a reservation is not covered.
 */
export async function refundMove(
  trx: Transaction<Database>,
  move: { id: string; from: RefundStatus; to: RefundStatus; step: RefundLedgerStep; at: Date; beyondCharge: boolean },
): Promise<RefundRow | undefined> {
  const result = await sql<RefundRow>`SELECT * FROM refund_move(${move.id}, ${move.from}, ${move.to}, ${move.step}, ${move.at}, ${move.beyondCharge})`.execute(trx);
  return result.rows[0];
}

export function refundsByIds(db: Db, ids: string[]): Promise<RefundRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('refunds').selectAll().where('id', 'in', ids).execute();
}

export function findRefund(db: Db, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks the refund for a state change; the caller holds the database transaction (and its charge's lock). */
export function lockRefund(trx: Transaction<Database>, id: string): Promise<RefundRow | undefined> {
  return trx.selectFrom('refunds').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export type RefundChanges = Partial<Omit<NewRefund, 'id' | 'account_id' | 'transaction_id' | 'amount_cents'>>;

export function updateRefund(trx: Transaction<Database>, id: string, changes: RefundChanges): Promise<RefundRow> {
  return trx.updateTable('refunds').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The refunds of a charge the merchant sees (not the internal states), newest first. */
export function listVisibleRefunds(db: Db, accountId: string, transactionId: string): Promise<RefundRow[]> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('transaction_id', '=', transactionId)
    .where('account_id', '=', accountId)
    .where('status', 'not in', HIDDEN_REFUND_STATUSES)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** What the charge's refunds still in flight have reserved (they count against what is refundable). */
export async function inFlightRefundCents(db: Db, transactionId: string): Promise<number> {
  const row = await db
    .selectFrom('refunds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), sql<number>`0`).as('cents'))
    .where('transaction_id', '=', transactionId)
    .where('status', 'in', IN_FLIGHT_REFUND_STATUSES)
    .executeTakeFirst();
  return Number(row?.cents ?? 0);
}

// ---- Idempotency keys ----------------------------------------------------------------------------------

/** The refund a still-live externalRef names, read without locking (the fast path of a retry). */
export function findLiveRefundByKey(db: Db, accountId: string, externalRef: string, now: Date): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refund_idempotency_keys as k')
    .innerJoin('refunds as r', 'r.id', 'k.refund_id')
    .selectAll('r')
    .where('k.account_id', '=', accountId)
    .where('k.external_ref', '=', externalRef)
    .where('k.expires_at', '>', now)
    .executeTakeFirst();
}

export type RefundClaim = { claimed: true } | { claimed: false; existing: RefundRow };

/**
 * Claims an externalRef for a new refund inside the caller's database transaction: insert, or take over a
 * key whose 7 days have passed. A concurrent claim of the same key waits for the first to commit (then it
 * is answered with that refund) or roll back (then it claims the key). The foreign key is deferred, so the
 * key is claimed before the refund row exists.
 */
export async function claimRefundKey(
  trx: Transaction<Database>,
  claim: { accountId: string; externalRef: string; refundId: string; expiresAt: Date; now: Date },
): Promise<RefundClaim> {
  const inserted = await sql<{ refund_id: string }>`
    INSERT INTO refund_idempotency_keys (account_id, external_ref, refund_id, expires_at)
    VALUES (${claim.accountId}, ${claim.externalRef}, ${claim.refundId}, ${claim.expiresAt})
    ON CONFLICT (account_id, external_ref) DO UPDATE
      SET refund_id = excluded.refund_id, expires_at = excluded.expires_at
      WHERE refund_idempotency_keys.expires_at <= ${claim.now}
    RETURNING refund_id`.execute(trx);
  if (inserted.rows.length === 1) return { claimed: true };
  const existing = await trx
    .selectFrom('refund_idempotency_keys as k')
    .innerJoin('refunds as r', 'r.id', 'k.refund_id')
    .selectAll('r')
    .where('k.account_id', '=', claim.accountId)
    .where('k.external_ref', '=', claim.externalRef)
    .executeTakeFirstOrThrow();
  return { claimed: false, existing };
}

/** Frees the externalRef of a refund that never happened (the provider refused it at once). */
export async function releaseRefundKey(trx: Transaction<Database>, accountId: string, refundId: string): Promise<void> {
  await trx.deleteFrom('refund_idempotency_keys').where('account_id', '=', accountId).where('refund_id', '=', refundId).execute();
}

// ---- Reconciliation ------------------------------------------------------------------------------------

/**
 * Refunds whose turn to be reconciled with the provider has come (`next_check_at` passed): `processing`
 * ones on their back-off schedule, and `initiating` ones whose process died between reserving and
 * recording the provider's answer (inserted with a check 30 s ahead). Walks the partial index
 * `refunds_open`.
 */
export async function listRefundsDue(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('refunds')
    .select('id')
    .where('status', 'in', IN_FLIGHT_REFUND_STATUSES)
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** The end-to-end id of the charge a refund returns (the provider names a devolução by it). */
export async function endToEndIdOfRefund(db: Db, refundId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('refunds')
    .innerJoin('transactions', 'transactions.id', 'refunds.transaction_id')
    .select('transactions.end_to_end_id')
    .where('refunds.id', '=', refundId)
    .executeTakeFirst();
  return row?.end_to_end_id ?? undefined;
}
