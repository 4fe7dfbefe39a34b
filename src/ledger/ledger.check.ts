import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { chargeLedgerPosition } from '../charges/charge.states.ts';
import { refundLedgerPosition } from '../refunds/refund.states.ts';
import { totalsThatDiffer } from '../withdrawals/withdrawalTotals.repository.ts';
import { stateOf, withdrawalLedgerPosition } from '../withdrawals/withdrawal.states.ts';
import { openSuspenseCents } from '../reconciliation/reconciliation.repository.ts';
import { SYSTEM_ACCOUNTS, systemBalance } from './ledger.repository.ts';
import {
  advanceCheckpoints,
  auditAccounts,
  brokenTransfers,
  lastCheckXmin,
  ledgerTotal,
  planForLookups,
  refundLedgers,
  takeCheckSnapshot,
  transactionLedgers,
  type AccountAudit,
  type CheckScope,
  type RefundLedger,
  type TransactionLedger,
} from './ledgerCheck.repository.ts';

export interface LedgerViolation {
  accountId: string;
  problem: string;
}

/**
 * The invariants of the double-entry ledger:
 * - the balances of all accounts sum to zero, and nothing is in suspense;
 * - each account's balance equals the sum of its entries and its last entry's balance-after; its entries
 *   are consecutive versions, each balance-after the previous one plus the amount; a merchant account is
 *   never negative; the held memo equals the account's active holds;
 * - every transfer has two or more entries summing to zero, and a post or void completes a pending
 *   transfer of its own transaction;
 * - every transaction's transfers match its status (its state machine's ledger position): a paid charge
 *   credited its net and posted its fee (less what was given back, and what its refunds in flight hold in
 *   pending_out); every refund holds one open pending transfer of its amount while in flight, posted once
 *   refunded, voided once failed or aborted; a withdrawal in flight or
 *   `failed_unknown` holds one open pending transfer of amount + fee; a paid one posted it, fee to
 *   fee_revenue; a failed one voided it (or never had one); one waiting for approval or cancelled has none;
 * - (full check) the withdrawal totals the caps read equal the withdrawals they count.
 *
 * And the business rules the money obeys (issue 32), so an over-refund can no longer balance itself out:
 * - per charge: `refundedCents` equals what its confirmed refunds, chargebacks and devoluções made outside
 *   the API took to the PSP, never passes the amount, and its status says it (paid: nothing given back;
 *   partially_refunded: part; refunded: all); its returns in flight (`refunding_cents`) are exactly its
 *   refunds in flight and its devoluções claimed;
 * - per withdrawal: its status agrees with the provider's last word (paid is not what the provider refused or
 *   never saw; failed is not what the provider paid), a resolution included, unless a reconciliation break
 *   records that difference;
 * - per refund: one the merchant was told of (201, or an idempotent 200) never ends `aborted`, and no live
 *   externalRef names an aborted one;
 * - `suspense` holds exactly what the open reconciliation breaks put there (an explained difference).
 *
 * Incremental by default: each account is verified from its checkpoint (the version the last clean check
 * reached), transfers from the entries after it, transactions from those entries and from the status
 * changes the last clean check could not see (made by a database transaction at or above its snapshot's
 * xmin); a clean run moves the checkpoints and records its xmin. `full`
 * verifies everything from the first entry. One REPEATABLE READ snapshot, so money moving meanwhile is
 * never half seen.
 */
export async function checkLedger(db: Kysely<Database>, options: { accountId?: string | undefined; full?: boolean } = {}): Promise<LedgerViolation[]> {
  const scope: CheckScope = { full: options.full ?? false, accountId: options.accountId };
  const outcome = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const snapshot = await takeCheckSnapshot(trx);
      if (!scope.full && scope.accountId === undefined) await planForLookups(trx);
      const violations: LedgerViolation[] = [];
      const add = (accountId: string | null, problem: string) => violations.push({ accountId: accountId ?? 'system', problem });

      const { total } = await ledgerTotal(trx);
      if (total !== 0) add(null, `the balances of all ledger accounts sum to ${total}, not 0`);

      const accounts = await auditAccounts(trx, scope);
      for (const account of accounts) accountProblems(account).forEach((problem) => add(account.owner_id, problem));
      if (scope.accountId === undefined) {
        // The suspense account is the sum of its buckets: compared whole, whichever buckets moved.
        const suspense = await systemBalance(trx, SYSTEM_ACCOUNTS.suspense);
        const explained = await openSuspenseCents(trx);
        if (suspense !== explained) {
          add(null, `${SYSTEM_ACCOUNTS.suspense} holds ${suspense}, but the open reconciliation breaks explain ${explained}: a difference nobody has explained`);
        }
      }

      for (const transfer of await brokenTransfers(trx, scope)) {
        add(transfer.owner_id, `transfer ${transfer.id} (${transfer.reason}${transfer.transaction_id ? ` of ${transfer.transaction_id}` : ''}) has ${transfer.entries} entries summing to ${transfer.total}${transfer.pending_id !== null && !transfer.completes_pending ? ` and completes ${transfer.pending_id}, not a pending transfer of its transaction` : ''}`);
      }

      const changedFrom = scope.full ? undefined : await lastCheckXmin(trx);
      for await (const batch of transactionLedgers(trx, scope, changedFrom)) {
        for (const tx of batch) {
          const problem = transactionProblem(tx);
          if (problem !== undefined) add(tx.account_id, `transaction ${tx.id} (${tx.type} ${tx.status}): ${problem}`);
        }
      }

      for (const refund of await refundLedgers(trx, scope)) {
        const problem = refundProblem(refund);
        if (problem !== undefined) add(refund.account_id, `refund ${refund.id} of ${refund.transaction_id} (${refund.status}): ${problem}`);
      }

      if (scope.full || scope.accountId !== undefined) {
        for (const period of await totalsThatDiffer(trx, scope.accountId)) {
          add(period.account_id, `withdrawal total of the ${period.period} ${period.period_start} is ${period.stored ?? 0}, the withdrawals it counts sum ${period.computed ?? 0}`);
        }
      }

      return { violations, accounts, snapshot };
    });
  // A clean whole-ledger check moves the checkpoints to what its snapshot verified, after the snapshot
  // (a checkpoint only ever moves forward, so two checks finishing together cannot move one back).
  if (outcome.violations.length === 0 && scope.accountId === undefined) {
    const verified = outcome.accounts.map((account) => ({ id: account.id, version: Number(account.version), balance_cents: Number(account.balance_cents) }));
    await db.transaction().execute((trx) => advanceCheckpoints(trx, verified, outcome.snapshot));
  }
  return outcome.violations;
}

function accountProblems(account: AccountAudit): string[] {
  const problems: string[] = [];
  const balance = Number(account.balance_cents);
  const name = account.id;
  const entries = Number(account.entries);
  const expectedEntries = Number(account.version) - Number(account.from_version);
  if (entries !== expectedEntries) problems.push(`${name} is at version ${account.version} but has ${entries} entries after version ${account.from_version}`);
  const summed = Number(account.from_balance) + Number(account.entries_sum);
  if (summed !== balance) problems.push(`${name} balance ${balance} != the sum of its entries ${summed}`);
  if (account.last_after !== null && Number(account.last_after) !== balance) problems.push(`${name} balance ${balance} != its last entry's balance-after ${account.last_after}`);
  if (Number(account.chain_breaks) > 0) problems.push(`${name} has ${account.chain_breaks} entries whose balance-after is not the previous balance plus their amount`);
  if (account.non_negative && balance < 0) problems.push(`${name} is negative: ${balance}`);
  if (account.kind === 'held' && account.active_holds !== null && Number(account.active_holds) !== balance) {
    problems.push(`${name} ${balance} != the account's active holds ${account.active_holds}`);
  }
  return problems;
}

/** What is wrong with a transaction's transfers for its status; undefined when they match. */
function transactionProblem(tx: TransactionLedger): string | undefined {
  const moved = `available ${tx.available}, pending_out ${tx.pending_out}, fee ${tx.fee_revenue}, ${tx.open_pending} open pending, ${tx.posted} posted, ${tx.transfers} transfers`;
  const expect = (ok: boolean, wanted: string) => (ok ? undefined : `expected ${wanted}; the ledger has ${moved}`);
  const available = Number(tx.available);
  const pendingOut = Number(tx.pending_out);
  const fee = Number(tx.fee_revenue);
  const net = Number(tx.net_cents);
  const returned = Number(tx.refunded_cents ?? 0);
  if (tx.type === 'pix_in') {
    const position = chargeLedgerPosition(tx.status);
    if (position === undefined) return `unknown charge status`;
    if (position === 'none') return expect(tx.transfers === 0 && returned === 0 && Number(tx.refunding_cents) === 0, 'no transfer and nothing given back');
    const rule = chargeRuleProblem(tx);
    if (rule !== undefined) return rule;
    // Refunds in flight hold their amount in pending_out; confirmed ones count in `returned`, less what the
    // merchant's balance could not cover (booked to suspense).
    const refunding = Number(tx.refunding);
    const fromMerchant = returned - Number(tx.uncovered);
    return expect(
      available === net - fromMerchant - refunding && fee === Number(tx.fee_cents) && pendingOut === refunding && tx.posted === 0,
      `net ${net} − returned ${fromMerchant} − refunding ${refunding} credited, fee ${tx.fee_cents} posted, ${refunding} pending out`,
    );
  }
  const word = withdrawalWordProblem(tx);
  if (word !== undefined) return word;
  const position = withdrawalLedgerPosition(stateOf(tx));
  switch (position) {
    case undefined:
      return `state ${tx.status}/${tx.provider_state ?? '-'} is not in the withdrawal state machine`;
    case 'none':
      return expect(tx.transfers === 0, 'no transfer');
    case 'pending':
      return expect(tx.open_pending === 1 && tx.posted === 0 && available === -net && pendingOut === net && fee === 0, `one open pending transfer of ${net}`);
    case 'posted':
      return expect(
        tx.open_pending === 0 && tx.posted === 1 && available === -net + returned && pendingOut === 0 && fee === Number(tx.fee_cents),
        `the pending transfer of ${net} posted, fee ${tx.fee_cents}, returned ${returned}`,
      );
    case 'voided_or_none':
      return expect(tx.open_pending === 0 && tx.posted === 0 && available === 0 && pendingOut === 0 && fee === 0, 'its pending transfer voided, or none');
  }
}

/** The business rule of what a paid charge gives back; undefined when it holds. */
function chargeRuleProblem(tx: TransactionLedger): string | undefined {
  const amount = Number(tx.amount_cents);
  const refunded = Number(tx.refunded_cents ?? 0);
  const booked = Number(tx.returned_booked);
  const inFlight = Number(tx.refunding) + Number(tx.claimed);
  if (refunded !== booked) return `refundedCents ${refunded} is not what its refunds and chargebacks took to the PSP (${booked})`;
  if (refunded > amount) return `refundedCents ${refunded} is more than its amount ${amount}`;
  const status = refunded === 0 ? 'paid' : refunded < amount ? 'partially_refunded' : 'refunded';
  if (tx.status !== status) return `refundedCents ${refunded} of ${amount} makes it ${status}, not ${tx.status}`;
  if (Number(tx.refunding_cents) !== inFlight) return `${tx.refunding_cents} in flight on the charge, but its refunds in flight and devoluções claimed hold ${inFlight}`;
  return undefined;
}

const PAID = new Set(['paid', 'refunded', 'partially_refunded']);
const UNPAID = new Set(['failed', 'cancelled', 'aborted']);

/** A withdrawal whose status the provider's last word contradicts (a resolution included); undefined when they agree. */
function withdrawalWordProblem(tx: TransactionLedger): string | undefined {
  const word = tx.provider_status;
  // A difference the reconciliation recorded (a break someone resolves) is known, not hidden.
  if (word === null || tx.explained) return undefined;
  const by = tx.resolved_by === null ? '' : ` (resolved by the ${tx.resolved_by})`;
  if (UNPAID.has(tx.status) && (word === 'paid' || word === 'returned')) return `it is ${tx.status}${by}, but the provider's last word is ${word}`;
  if (PAID.has(tx.status) && (word === 'rejected' || word === 'not_found')) return `it is ${tx.status}${by}, but the provider's last word is ${word}`;
  return undefined;
}

/** What is wrong with a refund's transfers for its status; undefined when they match. */
function refundProblem(refund: RefundLedger): string | undefined {
  const amount = Number(refund.amount_cents);
  const available = Number(refund.available);
  const pendingOut = Number(refund.pending_out);
  const moved = `available ${available}, pending_out ${pendingOut}, ${refund.open_pending} open pending, ${refund.posted} posted, ${refund.voided} voided, ${refund.transfers} transfers`;
  const expect = (ok: boolean, wanted: string) => (ok ? undefined : `expected ${wanted}; the ledger has ${moved}`);
  if (refund.status === 'aborted' && refund.acknowledged_at !== null) return 'the merchant was told of it, but it ended aborted';
  if (refund.status === 'aborted' && refund.keyed) return 'a live externalRef names it, but it ended aborted';
  switch (refundLedgerPosition(refund.status)) {
    case undefined:
      return 'unknown refund status';
    case 'pending':
      return expect(refund.transfers === 1 && refund.open_pending === 1 && available === -amount && pendingOut === amount, `one open pending transfer of ${amount}`);
    case 'posted':
      // Paid by the provider past what the charge could give (a chargeback took the rest): voided for the
      // merchant, the provider's payment booked to suspense.
      if (refund.beyond === 1) {
        return expect(refund.transfers === 3 && refund.voided === 1 && refund.posted === 0 && available === 0 && pendingOut === 0, `its pending transfer of ${amount} voided and ${amount} booked to suspense`);
      }
      return expect(refund.transfers === 2 && refund.posted === 1 && available === -amount && pendingOut === 0, `its pending transfer of ${amount} posted`);
    case 'voided':
      return expect(refund.transfers === 2 && refund.voided === 1 && available === 0 && pendingOut === 0, `its pending transfer of ${amount} voided`);
  }
}

/** The check over the whole ledger, for the back office (`full` re-verifies from the first entry). */
export function checkWholeLedger(deps: { db: Kysely<Database> }, full = false): Promise<LedgerViolation[]> {
  return checkLedger(deps.db, { full });
}
