import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, LedgerEntryKind } from '../db/schema.ts';
import { compiledOnce } from '../db/compiledOnce.ts';

/**
 * Owner of `balances` and `ledger_entries`, and the only module that moves money. Every change of a
 * balance row is one conditional UPDATE plus one ledger entry in the caller's database transaction, so
 * `available_cents` always equals the sum of the account's entries and `held_cents` the sum of their held
 * deltas (checked by `checkLedger` in ./ledger.check.ts, which reads its totals from here).
 */

interface Movement {
  accountId: string;
  transactionId?: string | null;
  holdId?: string | null;
  kind: LedgerEntryKind;
  at: Date;
}

async function record(
  trx: Transaction<Database>,
  movement: Movement,
  amountCents: number,
  heldDeltaCents: number,
  reservedDeltaCents = 0,
): Promise<void> {
  await trx
    .insertInto('ledger_entries')
    .values({
      account_id: movement.accountId,
      transaction_id: movement.transactionId ?? null,
      hold_id: movement.holdId ?? null,
      kind: movement.kind,
      amount_cents: amountCents,
      held_delta_cents: heldDeltaCents,
      reserved_delta_cents: reservedDeltaCents,
      created_at: movement.at,
    })
    .execute();
}

/** Adds money to the available balance (a paid charge's net amount, a reversed withdrawal). */
export async function credit(trx: Transaction<Database>, movement: Movement, amountCents: number): Promise<void> {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) throw new Error(`invalid credit ${amountCents}`);
  if (amountCents === 0) return;
  await trx
    .updateTable('balances')
    .set((eb) => ({ available_cents: eb('available_cents', '+', amountCents), updated_at: movement.at }))
    .where('account_id', '=', movement.accountId)
    .executeTakeFirstOrThrow();
  await record(trx, movement, amountCents, 0);
}

function assertPositive(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new Error(`invalid amount ${amountCents}`);
}

/**
 * Reserves money for a withdrawal about to be sent: it stops being withdrawable but is not debited yet.
 * One conditional statement (withdrawable = available − holds − reservations), correct under concurrency
 * at READ COMMITTED. Returns false, changing nothing, when the withdrawable balance does not cover it.
 */
export async function reserve(trx: Transaction<Database>, movement: Movement, amountCents: number): Promise<boolean> {
  assertPositive(amountCents);
  const result = await trx
    .updateTable('balances')
    .set((eb) => ({ reserved_cents: eb('reserved_cents', '+', amountCents), updated_at: movement.at }))
    .where('account_id', '=', movement.accountId)
    .where(sql<boolean>`available_cents - held_cents - reserved_cents >= ${amountCents}`)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await record(trx, movement, 0, 0, amountCents);
  return true;
}

/**
 * Takes money from the withdrawable balance at once (a refund of a charge to its payer): one conditional
 * statement; false, changing nothing, when available − holds − reservations does not cover it.
 */
export async function debitWithdrawable(trx: Transaction<Database>, movement: Movement, amountCents: number): Promise<boolean> {
  assertPositive(amountCents);
  const result = await trx
    .updateTable('balances')
    .set((eb) => ({ available_cents: eb('available_cents', '-', amountCents), updated_at: movement.at }))
    .where('account_id', '=', movement.accountId)
    .where(sql<boolean>`available_cents - held_cents - reserved_cents >= ${amountCents}`)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await record(trx, movement, -amountCents, 0);
  return true;
}

/** The provider took the withdrawal (or may have): the reservation becomes a debit of the same amount. */
export async function debitReservation(trx: Transaction<Database>, movement: Movement, amountCents: number): Promise<void> {
  assertPositive(amountCents);
  await trx
    .updateTable('balances')
    .set((eb) => ({
      reserved_cents: eb('reserved_cents', '-', amountCents),
      available_cents: eb('available_cents', '-', amountCents),
      updated_at: movement.at,
    }))
    .where('account_id', '=', movement.accountId)
    .executeTakeFirstOrThrow();
  await record(trx, movement, -amountCents, 0, -amountCents);
}

/** The provider refused the withdrawal synchronously: the reservation is released, nothing was debited. */
export async function releaseReservation(
  trx: Transaction<Database>,
  movement: Movement,
  amountCents: number,
): Promise<void> {
  assertPositive(amountCents);
  await trx
    .updateTable('balances')
    .set((eb) => ({ reserved_cents: eb('reserved_cents', '-', amountCents), updated_at: movement.at }))
    .where('account_id', '=', movement.accountId)
    .executeTakeFirstOrThrow();
  await record(trx, movement, 0, 0, -amountCents);
}

/**
 * Takes money that a hold protects (a chargeback after a MED or dispute): held and available go down
 * together. Returns false when the available balance not reserved for withdrawals in flight does not
 * cover it: a reservation is turned into a debit of `available` when the PSP answers, so taking reserved
 * money here would drive `available` below zero then (and leave the withdrawal stuck in flight).
 */
export async function debitHeld(trx: Transaction<Database>, movement: Movement, amountCents: number): Promise<boolean> {
  assertPositive(amountCents);
  const result = await trx
    .updateTable('balances')
    .set((eb) => ({
      held_cents: eb('held_cents', '-', amountCents),
      available_cents: eb('available_cents', '-', amountCents),
      updated_at: movement.at,
    }))
    .where('account_id', '=', movement.accountId)
    .where(sql<boolean>`available_cents - reserved_cents >= ${amountCents}`)
    .where('held_cents', '>=', amountCents)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await record(trx, movement, -amountCents, -amountCents);
  return true;
}

/** Moves the held total (placing a hold: positive; releasing: negative). Holds never touch available. */
export async function changeHeld(trx: Transaction<Database>, movement: Movement, deltaCents: number): Promise<void> {
  await trx
    .updateTable('balances')
    .set((eb) => ({ held_cents: eb('held_cents', '+', deltaCents), updated_at: movement.at }))
    .where('account_id', '=', movement.accountId)
    .executeTakeFirstOrThrow();
  await record(trx, movement, 0, deltaCents);
}

/**
 * Locks the account's balance row for the rest of the caller's database transaction: withdrawals of one
 * account are serialised on it, so caps and the balance check see every earlier withdrawal.
 */
export async function lockBalance(trx: Transaction<Database>, accountId: string): Promise<void> {
  await trx.selectFrom('balances').select('account_id').where('account_id', '=', accountId).forUpdate().execute();
}

/** Opens the (empty) balance of a new account. */
export async function openBalance(trx: Transaction<Database>, accountId: string, at: Date): Promise<void> {
  await trx.insertInto('balances').values({ account_id: accountId, available_cents: 0, held_cents: 0, updated_at: at }).execute();
}

export interface BalanceView {
  availableCents: number;
  heldCents: number;
  reservedCents: number;
  withdrawableCents: number;
}

const selectBalance = compiledOnce((db, accountId: string) =>
  db.selectFrom('balances').select(['available_cents', 'held_cents', 'reserved_cents']).where('account_id', '=', accountId),
);

export async function readBalance(db: Kysely<Database>, accountId: string): Promise<BalanceView> {
  const [row] = await selectBalance(db, accountId);
  const available = row?.available_cents ?? 0;
  const held = row?.held_cents ?? 0;
  const reserved = row?.reserved_cents ?? 0;
  return {
    availableCents: available,
    heldCents: held,
    reservedCents: reserved,
    withdrawableCents: Math.max(0, available - held - reserved),
  };
}

export interface BalanceTotals {
  account_id: string;
  available_cents: number;
  held_cents: number;
  reserved_cents: number;
  entries_available: number;
  entries_held: number;
  entries_reserved: number;
  active_holds: number;
  in_flight: number;
}

/**
 * Each balance beside the sums of its entries, its active holds and its withdrawals in flight: the totals
 * `checkLedger` compares. A read-only audit that joins `holds` and `transactions` on purpose, so every
 * total comes from one snapshot.
 */
export async function balanceTotals(db: Kysely<Database>, accountId?: string): Promise<BalanceTotals[]> {
  const filter = accountId === undefined ? sql`true` : sql`b.account_id = ${accountId}`;
  const sums = await sql<BalanceTotals>`
    SELECT b.account_id, b.available_cents, b.held_cents, b.reserved_cents,
      coalesce(e.available, 0)::bigint AS entries_available,
      coalesce(e.held, 0)::bigint AS entries_held,
      coalesce(e.reserved, 0)::bigint AS entries_reserved,
      coalesce((SELECT sum(h.amount_cents) FROM holds h WHERE h.account_id = b.account_id AND h.status = 'active'), 0)::bigint AS active_holds,
      coalesce((SELECT sum(t.total_deducted_cents) FROM transactions t
        WHERE t.account_id = b.account_id AND t.type = 'withdrawal' AND t.provider_state = 'sending'
          AND t.status IN ('initiating', 'processing')), 0)::bigint AS in_flight
    FROM balances b
    LEFT JOIN (
      SELECT account_id, sum(amount_cents) AS available, sum(held_delta_cents) AS held, sum(reserved_delta_cents) AS reserved
      FROM ledger_entries GROUP BY account_id
    ) e ON e.account_id = b.account_id
    WHERE ${filter}`.execute(db);
  return sums.rows;
}

export interface TransactionEffect {
  id: string;
  account_id: string;
  type: string;
  status: string;
  provider_state: string | null;
  net_cents: number;
  refunded_cents: number | null;
  effect: number;
  reserved: number;
}

/** Each transaction beside the sum of its ledger entries (read-only audit, joins `transactions`). */
export async function transactionEffects(db: Kysely<Database>, accountId?: string): Promise<TransactionEffect[]> {
  const txFilter = accountId === undefined ? sql`true` : sql`t.account_id = ${accountId}`;
  const effects = await sql<TransactionEffect>`
    SELECT t.id, t.account_id, t.type, t.status, t.provider_state, t.net_cents, t.refunded_cents,
      coalesce(e.effect, 0)::bigint AS effect, coalesce(e.reserved, 0)::bigint AS reserved
    FROM transactions t
    LEFT JOIN (
      SELECT transaction_id, sum(amount_cents) AS effect, sum(reserved_delta_cents) AS reserved
      FROM ledger_entries WHERE transaction_id IS NOT NULL GROUP BY transaction_id
    ) e ON e.transaction_id = t.id
    WHERE ${txFilter}`.execute(db);
  return effects.rows;
}
