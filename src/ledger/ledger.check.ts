import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { chargeLedgerPosition } from '../charges/charge.states.ts';
import { refundLedgerPosition } from '../refunds/refund.states.ts';
import { totalsThatDiffer } from '../withdrawals/withdrawalTotals.repository.ts';
import { stateOf, withdrawalLedgerPosition } from '../withdrawals/withdrawal.states.ts';
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
} from './ledger.repository.ts';

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

      for (const transfer of await brokenTransfers(trx, scope)) {
        add(transfer.owner_id, `transfer ${transfer.id} (${transfer.reason}${transfer.transaction_id ? ` of ${transfer.transaction_id}` : ''}) has ${transfer.entries} entries summing to ${transfer.total}${transfer.pending_id !== null && !transfer.completes_pending ? ` and completes ${transfer.pending_id}, not a pending transfer of its transaction` : ''}`);
      }

      const changedFrom = scope.full ? undefined : await lastCheckXmin(trx);
      for (const tx of await transactionLedgers(trx, scope, changedFrom)) {
        const problem = transactionProblem(tx);
        if (problem !== undefined) add(tx.account_id, `transaction ${tx.id} (${tx.type} ${tx.status}): ${problem}`);
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
  if (account.kind === 'suspense' && balance !== 0) problems.push(`${name} holds ${balance}: a difference nobody has explained`);
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
    if (position === 'none') return expect(tx.transfers === 0, 'no transfer');
    // Refunds in flight hold their amount in pending_out; confirmed ones count in `returned`.
    const refunding = Number(tx.refunding);
    return expect(
      available === net - returned - refunding && fee === Number(tx.fee_cents) && pendingOut === refunding && tx.posted === 0,
      `net ${net} − returned ${returned} − refunding ${refunding} credited, fee ${tx.fee_cents} posted, ${refunding} pending out`,
    );
  }
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

/** What is wrong with a refund's transfers for its status; undefined when they match. */
function refundProblem(refund: RefundLedger): string | undefined {
  const amount = Number(refund.amount_cents);
  const available = Number(refund.available);
  const pendingOut = Number(refund.pending_out);
  const moved = `available ${available}, pending_out ${pendingOut}, ${refund.open_pending} open pending, ${refund.posted} posted, ${refund.voided} voided, ${refund.transfers} transfers`;
  const expect = (ok: boolean, wanted: string) => (ok ? undefined : `expected ${wanted}; the ledger has ${moved}`);
  switch (refundLedgerPosition(refund.status)) {
    case undefined:
      return 'unknown refund status';
    case 'pending':
      return expect(refund.transfers === 1 && refund.open_pending === 1 && available === -amount && pendingOut === amount, `one open pending transfer of ${amount}`);
    case 'posted':
      return expect(refund.transfers === 2 && refund.posted === 1 && available === -amount && pendingOut === 0, `its pending transfer of ${amount} posted`);
    case 'voided':
      return expect(refund.transfers === 2 && refund.voided === 1 && available === 0 && pendingOut === 0, `its pending transfer of ${amount} voided`);
  }
}

/** The check over the whole ledger, for the back office (`full` re-verifies from the first entry). */
export function checkWholeLedger(deps: { db: Kysely<Database> }, full = false): Promise<LedgerViolation[]> {
  return checkLedger(deps.db, { full });
}
