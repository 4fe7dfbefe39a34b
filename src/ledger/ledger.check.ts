import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { totalsThatDiffer } from '../withdrawals/withdrawalTotals.repository.ts';
import { balanceTotals, transactionEffects } from './ledger.repository.ts';

export interface LedgerViolation {
  accountId: string;
  problem: string;
}

/**
 * Invariants: every balance equals the sums of its entries (available, held, reserved); held equals the
 * active holds; reserved equals the withdrawals in flight to the provider and is covered by available;
 * nothing is negative; every transaction's ledger effect matches its state (a debit has its
 * transaction, a reversal restores exactly what was taken); and the daily and monthly withdrawal totals the
 * caps read equal the withdrawals they count.
 */
export async function checkLedger(db: Kysely<Database>, accountId?: string): Promise<LedgerViolation[]> {
  const violations: LedgerViolation[] = [];
  for (const row of await balanceTotals(db, accountId)) {
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
  for (const tx of await transactionEffects(db, accountId)) {
    const expected = expectedEffect(tx.type, tx.status, tx.provider_state, Number(tx.net_cents), Number(tx.refunded_cents ?? 0));
    if (expected === undefined) continue;
    if (Number(tx.effect) !== expected.available || Number(tx.reserved) !== expected.reserved) {
      violations.push({
        accountId: tx.account_id,
        problem: `transaction ${tx.id} (${tx.type}/${tx.status}) moved ${tx.effect} and reserves ${tx.reserved}, expected ${expected.available} and ${expected.reserved}`,
      });
    }
  }
  for (const total of await totalsThatDiffer(db, accountId)) {
    violations.push({
      accountId: total.account_id,
      problem: `withdrawal total of the ${total.period} ${total.period_start} is ${total.stored ?? 0}, the withdrawals it counts sum ${total.computed ?? 0}`,
    });
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

/** The check over the whole ledger, for the back office. */
export function checkWholeLedger(deps: { db: Kysely<Database> }): Promise<LedgerViolation[]> {
  return checkLedger(deps.db);
}
