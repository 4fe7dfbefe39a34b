import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, LedgerEntryKind } from '../db/schema.ts';

/**
 * The only module that moves money. Every change of a balance row is one conditional UPDATE plus one
 * ledger entry in the caller's database transaction, so `available_cents` always equals the sum of the
 * account's entries and `held_cents` the sum of their held deltas (checked by `checkLedger`).
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

export interface BalanceView {
  availableCents: number;
  heldCents: number;
  reservedCents: number;
  withdrawableCents: number;
}

export async function readBalance(db: Kysely<Database>, accountId: string): Promise<BalanceView> {
  const row = await db
    .selectFrom('balances')
    .select(['available_cents', 'held_cents', 'reserved_cents'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
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

export interface LedgerViolation {
  accountId: string;
  problem: string;
}

/**
 * Invariants: every balance equals the sums of its entries (available, held, reserved); held equals the
 * active holds; reserved equals the withdrawals in flight to the provider and is covered by available;
 * nothing is negative; and every transaction's ledger effect matches its state (a debit has its
 * transaction, a reversal restores exactly what was taken).
 */
export async function checkLedger(db: Kysely<Database>, accountId?: string): Promise<LedgerViolation[]> {
  const filter = accountId === undefined ? sql`true` : sql`b.account_id = ${accountId}`;
  const sums = await sql<{
    account_id: string;
    available_cents: number;
    held_cents: number;
    reserved_cents: number;
    entries_available: number;
    entries_held: number;
    entries_reserved: number;
    active_holds: number;
    in_flight: number;
  }>`
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
  const violations: LedgerViolation[] = [];
  for (const row of sums.rows) {
    const id = row.account_id;
    const check = (ok: boolean, problem: string) => ok || violations.push({ accountId: id, problem });
    check(Number(row.entries_available) === Number(row.available_cents), `available ${row.available_cents} != entries ${row.entries_available}`);
    check(Number(row.entries_held) === Number(row.held_cents), `held ${row.held_cents} != entries ${row.entries_held}`);
    check(Number(row.entries_reserved) === Number(row.reserved_cents), `reserved ${row.reserved_cents} != entries ${row.entries_reserved}`);
    check(Number(row.active_holds) === Number(row.held_cents), `held ${row.held_cents} != active holds ${row.active_holds}`);
    check(Number(row.in_flight) === Number(row.reserved_cents), `reserved ${row.reserved_cents} != withdrawals in flight ${row.in_flight}`);
    check(Number(row.available_cents) >= 0, `negative available ${row.available_cents}`);
    // A reservation becomes a debit of available when the PSP answers: it must always be covered.
    check(Number(row.reserved_cents) <= Number(row.available_cents), `reserved ${row.reserved_cents} > available ${row.available_cents}`);
  }
  const txFilter = accountId === undefined ? sql`true` : sql`t.account_id = ${accountId}`;
  const effects = await sql<{
    id: string;
    account_id: string;
    type: string;
    status: string;
    provider_state: string | null;
    net_cents: number;
    refunded_cents: number | null;
    effect: number;
    reserved: number;
  }>`
    SELECT t.id, t.account_id, t.type, t.status, t.provider_state, t.net_cents, t.refunded_cents,
      coalesce(e.effect, 0)::bigint AS effect, coalesce(e.reserved, 0)::bigint AS reserved
    FROM transactions t
    LEFT JOIN (
      SELECT transaction_id, sum(amount_cents) AS effect, sum(reserved_delta_cents) AS reserved
      FROM ledger_entries WHERE transaction_id IS NOT NULL GROUP BY transaction_id
    ) e ON e.transaction_id = t.id
    WHERE ${txFilter}`.execute(db);
  for (const tx of effects.rows) {
    const expected = expectedEffect(tx.type, tx.status, tx.provider_state, Number(tx.net_cents), Number(tx.refunded_cents ?? 0));
    if (expected === undefined) continue;
    if (Number(tx.effect) !== expected.available || Number(tx.reserved) !== expected.reserved) {
      violations.push({
        accountId: tx.account_id,
        problem: `transaction ${tx.id} (${tx.type}/${tx.status}) moved ${tx.effect} and reserves ${tx.reserved}, expected ${expected.available} and ${expected.reserved}`,
      });
    }
  }
  return violations;
}

interface Effect {
  available: number;
  reserved: number;
}

/** The ledger effect a transaction in a given state must have; undefined when several are legitimate. */
function expectedEffect(
  type: string,
  status: string,
  providerState: string | null,
  netCents: number,
  refundedCents: number,
): Effect | undefined {
  if (type === 'pix_in') {
    if (status === 'paid') return { available: netCents, reserved: 0 };
    if (status === 'pending' || status === 'expired' || status === 'cancelled' || status === 'failed') {
      return { available: 0, reserved: 0 };
    }
    // Chargebacks take back what was returned from the credited net amount.
    if (status === 'refunded' || status === 'partially_refunded') return { available: netCents - refundedCents, reserved: 0 };
    return undefined;
  }
  // Withdrawals: netCents is what leaves the balance (amount + fee).
  if (providerState === 'sending' && (status === 'initiating' || status === 'processing')) {
    return { available: 0, reserved: netCents };
  }
  switch (status) {
    case 'processing':
    case 'paid':
    case 'failed_unknown':
      return { available: -netCents, reserved: 0 };
    case 'pending_approval':
    case 'failed':
    case 'cancelled':
    case 'aborted':
      return { available: 0, reserved: 0 };
    case 'refunded':
    case 'partially_refunded':
      return { available: -netCents + refundedCents, reserved: 0 };
    default:
      return undefined;
  }
}
