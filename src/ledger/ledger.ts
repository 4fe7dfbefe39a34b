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

/**
 * Takes money from the withdrawable balance (available minus active holds) in one conditional statement:
 * correct under concurrency at READ COMMITTED. Returns false, changing nothing, when it does not cover it.
 */
export async function debitWithdrawable(
  trx: Transaction<Database>,
  movement: Movement,
  amountCents: number,
): Promise<boolean> {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new Error(`invalid debit ${amountCents}`);
  const result = await trx
    .updateTable('balances')
    .set((eb) => ({ available_cents: eb('available_cents', '-', amountCents), updated_at: movement.at }))
    .where('account_id', '=', movement.accountId)
    .where(sql<boolean>`available_cents - held_cents >= ${amountCents}`)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await record(trx, movement, -amountCents, 0);
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
  withdrawableCents: number;
}

export async function readBalance(db: Kysely<Database>, accountId: string): Promise<BalanceView> {
  const row = await db
    .selectFrom('balances')
    .select(['available_cents', 'held_cents'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  const available = row?.available_cents ?? 0;
  const held = row?.held_cents ?? 0;
  return { availableCents: available, heldCents: held, withdrawableCents: Math.max(0, available - held) };
}

export interface LedgerViolation {
  accountId: string;
  problem: string;
}

/**
 * Invariants: balances equal the sums of their entries; held equals the active holds; nothing negative;
 * every withdrawal that is debited has exactly its debit (and a reversal restores exactly that).
 */
export async function checkLedger(db: Kysely<Database>, accountId?: string): Promise<LedgerViolation[]> {
  const filter = accountId === undefined ? sql`true` : sql`b.account_id = ${accountId}`;
  const sums = await sql<{
    account_id: string;
    available_cents: number;
    held_cents: number;
    entries_available: number;
    entries_held: number;
    active_holds: number;
  }>`
    SELECT b.account_id, b.available_cents, b.held_cents,
      coalesce((SELECT sum(e.amount_cents) FROM ledger_entries e WHERE e.account_id = b.account_id), 0)::bigint AS entries_available,
      coalesce((SELECT sum(e.held_delta_cents) FROM ledger_entries e WHERE e.account_id = b.account_id), 0)::bigint AS entries_held,
      coalesce((SELECT sum(h.amount_cents) FROM holds h WHERE h.account_id = b.account_id AND h.status = 'active'), 0)::bigint AS active_holds
    FROM balances b WHERE ${filter}`.execute(db);
  const violations: LedgerViolation[] = [];
  for (const row of sums.rows) {
    const id = row.account_id;
    if (Number(row.entries_available) !== Number(row.available_cents)) {
      violations.push({ accountId: id, problem: `available ${row.available_cents} != entries ${row.entries_available}` });
    }
    if (Number(row.entries_held) !== Number(row.held_cents)) {
      violations.push({ accountId: id, problem: `held ${row.held_cents} != entries ${row.entries_held}` });
    }
    if (Number(row.active_holds) !== Number(row.held_cents)) {
      violations.push({ accountId: id, problem: `held ${row.held_cents} != active holds ${row.active_holds}` });
    }
    if (Number(row.available_cents) < 0) violations.push({ accountId: id, problem: 'negative available' });
  }
  // Each transaction's net ledger effect must match its state.
  const txFilter = accountId === undefined ? sql`true` : sql`t.account_id = ${accountId}`;
  const effects = await sql<{ id: string; type: string; status: string; net_cents: number; effect: number; refunded_cents: number | null }>`
    SELECT t.id, t.type, t.status, t.net_cents, t.refunded_cents,
      coalesce((SELECT sum(e.amount_cents) FROM ledger_entries e WHERE e.transaction_id = t.id), 0)::bigint AS effect
    FROM transactions t WHERE ${txFilter}`.execute(db);
  for (const tx of effects.rows) {
    const effect = Number(tx.effect);
    const expected = expectedEffect(tx.type, tx.status, Number(tx.net_cents), Number(tx.refunded_cents ?? 0));
    if (expected !== undefined && effect !== expected) {
      violations.push({ accountId: tx.id, problem: `transaction ${tx.id} (${tx.type}/${tx.status}) effect ${effect} != ${expected}` });
    }
  }
  return violations;
}

/** The ledger effect a transaction in a given state must have; undefined when several are legitimate. */
function expectedEffect(type: string, status: string, netCents: number, refundedCents: number): number | undefined {
  if (type === 'pix_in') {
    if (status === 'paid') return netCents;
    if (status === 'pending' || status === 'expired' || status === 'cancelled' || status === 'failed') return 0;
    return undefined; // refunds and chargebacks: effect depends on what was returned
  }
  if (status === 'processing' || status === 'paid' || status === 'failed_unknown') return -netCents;
  if (status === 'pending_approval' || status === 'failed' || status === 'cancelled') return 0;
  if (status === 'refunded' || status === 'partially_refunded') return -netCents + refundedCents;
  return undefined;
}
