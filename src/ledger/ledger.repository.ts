/**
 * Owner of `ledger_accounts`, `ledger_transfers`, `ledger_entries` and the check's `ledger_checkpoints` /
 * `ledger_check_runs` (migration 009), and the only module that moves money. Every movement is one call of
 * the database's `ledger_transfer` (or a function built on it) in the caller's database transaction: an
 * immutable transfer whose entries sum to zero, each recording the balance it left. A merchant account
 * can never go below zero: the database refuses the statement (`ledger_accounts_non_negative`).
 *
 * Accounts: `<accountId>:available` (what the merchant has; holds are not taken out of it),
 * `<accountId>:held` (the memo of its active holds), `<accountId>:pending_out` (withdrawals in flight);
 * `system:psp_settlement` (the money at the PSP, negative), `system:fee_revenue`, `system:holds_contra`,
 * `system:suspense`. A system account is made of buckets (migration 024: no row every merchant's payment
 * locks): movements name the account, the database books each leg on a bucket no other transaction holds,
 * and the account's balance is the sum of its buckets (`systemBalance`, `systemLeg`).
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { compiledOnce } from '../db/compiledOnce.ts';
import type { Database, Db, LedgerAccountKind, TransferReason } from '../db/schema.ts';

export const SYSTEM_ACCOUNTS = {
  pspSettlement: 'system:psp_settlement',
  feeRevenue: 'system:fee_revenue',
  holdsContra: 'system:holds_contra',
  suspense: 'system:suspense' } as const;

export const MERCHANT_ACCOUNT_KINDS = ['available', 'held', 'pending_out'] as const satisfies readonly LedgerAccountKind[];

export function merchantAccount(accountId: string, kind: (typeof MERCHANT_ACCOUNT_KINDS)[number]): string {
  return `${accountId}:${kind}`;
}

export interface Leg {
  account: string;
  amountCents: number;
}

export interface Movement {
  reason: TransferReason;
  transactionId?: string | null;
  holdId?: string | null;
  refundId?: string | null;
  at: Date;
}

function assertPositive(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new Error(`invalid amount ${amountCents}`);
}

const accountsOf = (legs: Leg[]) => sql`${legs.map((leg) => leg.account)}::text[]`;
const amountsOf = (legs: Leg[]) => sql`${legs.map((leg) => String(leg.amountCents))}::bigint[]`;

/** One immutable transfer of `legs` (they sum to zero; zero legs are left out). Returns its id. */
export async function transfer(trx: Transaction<Database>, movement: Movement, legs: Leg[], pending = false): Promise<number> {
  const result = await sql<{ id: number }>`
    SELECT ledger_transfer(${movement.reason}, ${movement.transactionId ?? null}, ${movement.holdId ?? null}, ${pending},
      NULL, ${movement.at}, ${accountsOf(legs)}, ${amountsOf(legs)}, ${movement.refundId ?? null}) AS id`.execute(trx);
  return Number(result.rows[0]?.id);
}

/**
 * Moves `amountCents` out of the merchant's available balance to `to`, only when covered (by available
 * less the holds, or by available alone for a chargeback): one statement, under the balance's lock.
 * False, moving nothing, when not covered.
 */
async function takeAvailable(
  trx: Transaction<Database>,
  accountId: string,
  amountCents: number,
  options: { withinHolds: boolean; to: string; pending: boolean; movement: Movement },
): Promise<boolean> {
  assertPositive(amountCents);
  const { movement } = options;
  const result = await sql<{ id: number | null }>`
    SELECT ledger_take_withdrawable(${accountId}, ${amountCents}, ${options.withinHolds}, ${options.to}, ${movement.reason},
      ${movement.transactionId ?? null}, ${movement.holdId ?? null}, ${options.pending}, ${movement.at}) AS id`.execute(trx);
  return result.rows[0]?.id !== null && result.rows[0]?.id !== undefined;
}

/** Completes the transaction's open pending transfer with `legs` (a post or a void). */
async function completePending(trx: Transaction<Database>, movement: Movement & { transactionId: string }, legs: Leg[]): Promise<void> {
  await sql`SELECT ledger_complete_pending(${movement.transactionId}, ${movement.reason}, ${movement.at},
    ${accountsOf(legs)}, ${amountsOf(legs)})`.execute(trx);
}

interface ChargeMoney {
  id: string;
  account_id: string;
  amount_cents: number;
  fee_cents: number;
  net_cents: number;
}

/** A charge was paid: the payer's amount arrived at the PSP; the merchant gets the net, PixGate the fee. */
export async function creditCharge(trx: Transaction<Database>, charge: ChargeMoney, at: Date): Promise<void> {
  await transfer(trx, { reason: 'charge_paid', transactionId: charge.id, at }, [
    { account: SYSTEM_ACCOUNTS.pspSettlement, amountCents: -charge.amount_cents },
    { account: merchantAccount(charge.account_id, 'available'), amountCents: charge.net_cents },
    { account: SYSTEM_ACCOUNTS.feeRevenue, amountCents: charge.fee_cents },
  ]);
}

/**
 * Money of a paid charge that went back to its payer without a reservation: a chargeback, or a devolução
 * the provider made outside the API. It leaves the merchant's available balance for the PSP, held money
 * included (a hold exists to keep it for this). `cover: 'all'` (an operator's action): undefined, moving
 * nothing, when available does not cover it. `cover: 'what_there_is'` (the provider's word: the money is
 * gone already): what available cannot cover is booked to `suspense` (a reconciliation break records it) and
 * answered as the shortfall. One statement locks the balance first, as every movement of the account does.
 */
export async function takeBack(
  trx: Transaction<Database>,
  charge: { id: string; account_id: string },
  amountCents: number,
  how: { reason: 'charge_refunded' | 'chargeback'; holdId?: string | null | undefined; at: Date; cover: 'all' | 'what_there_is' },
): Promise<{ shortfallCents: number } | undefined> {
  assertPositive(amountCents);
  const available = await lockAvailable(trx, charge.account_id);
  const covered = Math.min(Math.max(available, 0), amountCents);
  if (how.cover === 'all' && covered < amountCents) return undefined;
  const shortfallCents = amountCents - covered;
  await transfer(trx, { reason: how.reason, transactionId: charge.id, holdId: how.holdId ?? null, at: how.at }, [
    { account: merchantAccount(charge.account_id, 'available'), amountCents: -covered },
    { account: SYSTEM_ACCOUNTS.suspense, amountCents: -shortfallCents },
    { account: SYSTEM_ACCOUNTS.pspSettlement, amountCents },
  ]);
  return { shortfallCents };
}

interface WithdrawalMoney {
  id: string;
  account_id: string;
  amount_cents: number;
  fee_cents: number;
  net_cents: number;
}

/**
 * Reserves amount + fee of a withdrawal about to be sent: the pending transfer available → pending_out,
 * when available less holds covers it. False, moving nothing, when it does not.
 */
export function reserveWithdrawal(trx: Transaction<Database>, withdrawal: WithdrawalMoney, at: Date): Promise<boolean> {
  return takeAvailable(trx, withdrawal.account_id, withdrawal.net_cents, {
    withinHolds: true,
    to: merchantAccount(withdrawal.account_id, 'pending_out'),
    pending: true,
    movement: { reason: 'withdrawal_reserved', transactionId: withdrawal.id, at } });
}

/** The withdrawal was paid: its pending transfer is posted (the amount left the PSP, the fee is earned). */
export function postWithdrawal(trx: Transaction<Database>, withdrawal: WithdrawalMoney, at: Date): Promise<void> {
  return completePending(trx, { reason: 'withdrawal_posted', transactionId: withdrawal.id, at }, [
    { account: merchantAccount(withdrawal.account_id, 'pending_out'), amountCents: -withdrawal.net_cents },
    { account: SYSTEM_ACCOUNTS.pspSettlement, amountCents: withdrawal.amount_cents },
    { account: SYSTEM_ACCOUNTS.feeRevenue, amountCents: withdrawal.fee_cents },
  ]);
}

/** The withdrawal did not happen: its pending transfer is voided, amount + fee are available again. */
export function voidWithdrawal(trx: Transaction<Database>, withdrawal: WithdrawalMoney, at: Date): Promise<void> {
  return completePending(trx, { reason: 'withdrawal_voided', transactionId: withdrawal.id, at }, [
    { account: merchantAccount(withdrawal.account_id, 'pending_out'), amountCents: -withdrawal.net_cents },
    { account: merchantAccount(withdrawal.account_id, 'available'), amountCents: withdrawal.net_cents },
  ]);
}

/** The beneficiary's bank returned part of a paid withdrawal: it arrives at the PSP, credited to the merchant. */
export async function returnWithdrawal(trx: Transaction<Database>, withdrawal: { id: string; account_id: string }, amountCents: number, at: Date): Promise<void> {
  assertPositive(amountCents);
  await transfer(trx, { reason: 'withdrawal_returned', transactionId: withdrawal.id, at }, [
    { account: SYSTEM_ACCOUNTS.pspSettlement, amountCents: -amountCents },
    { account: merchantAccount(withdrawal.account_id, 'available'), amountCents },
  ]);
}

interface RefundMoney {
  id: string;
  account_id: string;
  /** The refunded charge. */
  transaction_id: string;
  amount_cents: number;
}

/**
 * Reserves a refund's amount: the pending transfer available → pending_out of its charge and refund, when
 * available less holds covers it (no fee on refunds). False, moving nothing, when it does not.
 */
export async function reserveRefund(trx: Transaction<Database>, refund: RefundMoney, at: Date): Promise<boolean> {
  assertPositive(refund.amount_cents);
  const result = await sql<{ id: number | null }>`
    SELECT ledger_take_withdrawable(${refund.account_id}, ${refund.amount_cents}, true,
      ${merchantAccount(refund.account_id, 'pending_out')}, 'refund_reserved', ${refund.transaction_id}, NULL, true, ${at},
      ${refund.id}) AS id`.execute(trx);
  return result.rows[0]?.id !== null && result.rows[0]?.id !== undefined;
}

/** Completes the refund's open pending transfer with `legs` (a post or a void). */
async function completeRefund(trx: Transaction<Database>, refundId: string, reason: 'refund_posted' | 'refund_voided', at: Date, legs: Leg[]): Promise<void> {
  await sql`SELECT ledger_complete_refund(${refundId}, ${reason}, ${at}, ${accountsOf(legs)}, ${amountsOf(legs)})`.execute(trx);
}

/** The payer's bank confirmed the refund: the reserved amount leaves for the PSP. */
export function postRefund(trx: Transaction<Database>, refund: RefundMoney, at: Date): Promise<void> {
  return completeRefund(trx, refund.id, 'refund_posted', at, [
    { account: merchantAccount(refund.account_id, 'pending_out'), amountCents: -refund.amount_cents },
    { account: SYSTEM_ACCOUNTS.pspSettlement, amountCents: refund.amount_cents },
  ]);
}

/**
 * The provider confirmed a refund its charge could no longer give (a chargeback took the rest while it was in
 * flight): the payer was repaid twice, by the provider. The merchant is not debited twice (its reservation
 * is voided back) and the money that left the provider is PixGate's loss, booked to `suspense` until a
 * reconciliation break about it is settled.
 */
export async function bookRefundBeyondCharge(trx: Transaction<Database>, refund: RefundMoney, at: Date): Promise<void> {
  await voidRefund(trx, refund, at);
  await transfer(trx, { reason: 'refund_beyond_charge', transactionId: refund.transaction_id, refundId: refund.id, at }, [
    { account: SYSTEM_ACCOUNTS.suspense, amountCents: -refund.amount_cents },
    { account: SYSTEM_ACCOUNTS.pspSettlement, amountCents: refund.amount_cents },
  ]);
}

/**
 * A devolução the provider made of a charge that could no longer give it (its amount given back already):
 * the money left the provider; nobody's balance is debited for it. PixGate's loss, booked to `suspense`
 * until a reconciliation break about it is settled.
 */
export async function bookDevolucaoBeyondCharge(trx: Transaction<Database>, charge: { id: string }, amountCents: number, at: Date): Promise<void> {
  assertPositive(amountCents);
  await transfer(trx, { reason: 'refund_beyond_charge', transactionId: charge.id, at }, [
    { account: SYSTEM_ACCOUNTS.suspense, amountCents: -amountCents },
    { account: SYSTEM_ACCOUNTS.pspSettlement, amountCents },
  ]);
}

export interface Settlement {
  /** `write_off`: PixGate's fee revenue takes the difference; `charge_merchant`: the merchant's balance does (debited when PixGate is owed, credited when the merchant is). */
  settlement: 'write_off' | 'charge_merchant';
  accountId?: string | null | undefined;
  at: Date;
}

/**
 * Books `amountCents` onto `account` (a system account a difference left wrong) against whoever the
 * settlement names. False, moving nothing, when the merchant is to be debited and its withdrawable balance
 * does not cover it (or there is no merchant).
 */
async function settleAgainst(trx: Transaction<Database>, account: string, amountCents: number, reason: TransferReason, how: Settlement): Promise<boolean> {
  if (amountCents === 0) return true;
  // Not tied to the transaction: a settlement is no step of its life (the break it settles names it).
  const movement: Movement = { reason, at: how.at };
  if (how.settlement === 'write_off') {
    await transfer(trx, movement, [
      { account, amountCents },
      { account: SYSTEM_ACCOUNTS.feeRevenue, amountCents: -amountCents },
    ]);
    return true;
  }
  if (!how.accountId) return false;
  if (amountCents > 0) return takeAvailable(trx, how.accountId, amountCents, { withinHolds: true, to: account, pending: false, movement });
  await transfer(trx, movement, [
    { account, amountCents },
    { account: merchantAccount(how.accountId, 'available'), amountCents: -amountCents },
  ]);
  return true;
}

/**
 * Settles money a reconciliation break holds in `suspense` (its share of the suspense balance: negative when
 * PixGate is owed it): the suspense share goes back to zero against the settlement's side.
 */
export function settleSuspense(trx: Transaction<Database>, suspenseCents: number, how: Settlement): Promise<boolean> {
  return settleAgainst(trx, SYSTEM_ACCOUNTS.suspense, -suspenseCents, 'suspense_settled', how);
}

/**
 * Settles a difference between what the provider holds and what the ledger says it holds (`balanceCents`:
 * how much more the provider holds): `psp_settlement` moves to the provider's figure, against the
 * settlement's side (a send the provider paid that the ledger returned to the merchant, charged back to the
 * merchant; or written off).
 */
export function settleWithProvider(trx: Transaction<Database>, balanceCents: number, how: Settlement): Promise<boolean> {
  return settleAgainst(trx, SYSTEM_ACCOUNTS.pspSettlement, -balanceCents, 'provider_adjustment', how);
}

type SystemAccount = (typeof SYSTEM_ACCOUNTS)[keyof typeof SYSTEM_ACCOUNTS];

/** A system account's balance: the sum of its buckets. */
export async function systemBalance(db: Db, account: SystemAccount): Promise<number> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('balance_cents'), sql<number>`0`).as('cents'))
    .where('system_account', '=', account)
    .executeTakeFirst();
  return Number(row?.cents ?? 0);
}

/** Whether the entry `le` is on (a bucket of) the system account: its id is the account's, or `account#n`. */
const systemLeg = (account: SystemAccount) => sql`split_part(le.account_id, '#', 1) = ${account}`;

/** The balance of `system:psp_settlement` (negative: what the ledger says the provider holds). */
export function pspSettlementCents(db: Db): Promise<number> {
  return systemBalance(db, SYSTEM_ACCOUNTS.pspSettlement);
}

/**
 * A difference between what the provider holds and what the ledger says it holds, booked by an operator
 * who found its cause (a provider's fee, an interest credit): `psp_settlement` moves to what the provider
 * holds, the other side to PixGate's revenue.
 */
export async function bookProviderAdjustment(trx: Transaction<Database>, providerMinusLedgerCents: number, at: Date): Promise<void> {
  if (providerMinusLedgerCents === 0) return;
  await transfer(trx, { reason: 'provider_adjustment', at }, [
    { account: SYSTEM_ACCOUNTS.pspSettlement, amountCents: -providerMinusLedgerCents },
    { account: SYSTEM_ACCOUNTS.feeRevenue, amountCents: providerMinusLedgerCents },
  ]);
}

/** The refund did not happen: its amount is available again. */
export function voidRefund(trx: Transaction<Database>, refund: RefundMoney, at: Date): Promise<void> {
  return completeRefund(trx, refund.id, 'refund_voided', at, [
    { account: merchantAccount(refund.account_id, 'pending_out'), amountCents: -refund.amount_cents },
    { account: merchantAccount(refund.account_id, 'available'), amountCents: refund.amount_cents },
  ]);
}

/**
 * Moves the memo of holds (placing: positive; releasing: negative). Holds never change `available`: they
 * lower what can be withdrawn. Taken under the lock of the available balance, so a withdrawal reserving at
 * the same moment sees the hold or comes before it.
 */
export async function changeHeld(
  trx: Transaction<Database>,
  accountId: string,
  deltaCents: number,
  movement: Movement,
): Promise<void> {
  if (deltaCents === 0) return;
  await lockBalance(trx, accountId);
  await transfer(trx, movement, [
    { account: merchantAccount(accountId, 'held'), amountCents: deltaCents },
    { account: SYSTEM_ACCOUNTS.holdsContra, amountCents: -deltaCents },
  ]);
}

/**
 * Locks the account's available balance for the rest of the caller's database transaction: withdrawals of
 * one account are serialised on it, so caps and the balance check see every earlier withdrawal.
 */
export async function lockBalance(trx: Transaction<Database>, accountId: string): Promise<void> {
  await lockAvailable(trx, accountId);
}

/** Locks the account's available balance (as `lockBalance`) and answers it. */
async function lockAvailable(trx: Transaction<Database>, accountId: string): Promise<number> {
  const row = await trx
    .selectFrom('ledger_accounts')
    .select('balance_cents')
    .where('id', '=', merchantAccount(accountId, 'available'))
    .forUpdate()
    .executeTakeFirst();
  return Number(row?.balance_cents ?? 0);
}

/** Opens the (empty) ledger accounts of a new merchant. */
export async function openLedgerAccounts(trx: Transaction<Database>, accountId: string, at: Date): Promise<void> {
  await trx
    .insertInto('ledger_accounts')
    .values(MERCHANT_ACCOUNT_KINDS.map((kind) => ({ id: merchantAccount(accountId, kind), owner_id: accountId, kind, non_negative: true, created_at: at })))
    .execute();
}

export interface BalanceView {
  /** What the merchant has (the merchant API's `available`): holds are not taken out of it. */
  availableCents: number;
  /** The active holds (may exceed available). */
  heldCents: number;
  /** Amount + fee of withdrawals in flight (pending_out): no longer the merchant's to withdraw, not gone. */
  reservedCents: number;
  /** available − held, never below 0. */
  withdrawableCents: number;
}

const selectBalances = compiledOnce((db, accountId: string) =>
  db.selectFrom('ledger_accounts').select(['kind', 'balance_cents']).where('owner_id', '=', accountId),
);

const selectAvailable = compiledOnce((db, accountId: string) =>
  db.selectFrom('ledger_accounts').select('balance_cents').where('id', '=', sql<string>`${accountId} || ':available'`),
);

/** The merchant's available balance alone (GET /v1/balance): one primary-key read. */
export async function readAvailable(db: Kysely<Database>, accountId: string): Promise<number> {
  const [row] = await selectAvailable(db, accountId);
  return Number(row?.balance_cents ?? 0);
}

export async function readBalance(db: Kysely<Database>, accountId: string): Promise<BalanceView> {
  const rows = await selectBalances(db, accountId);
  const of = (kind: LedgerAccountKind) => Number(rows.find((row) => row.kind === kind)?.balance_cents ?? 0);
  const available = of('available');
  const held = of('held');
  return { availableCents: available, heldCents: held, reservedCents: of('pending_out'), withdrawableCents: Math.max(0, available - held) };
}

// ---- The check's reads (ledger.check.ts) ---------------------------------------------------------------

export interface AccountAudit {
  id: string;
  owner_id: string | null;
  kind: LedgerAccountKind;
  non_negative: boolean;
  balance_cents: number;
  version: number;
  from_version: number;
  from_balance: number;
  entries: number;
  entries_sum: number;
  last_after: number | null;
  chain_breaks: number;
  active_holds: number | null;
}

export interface CheckScope {
  /** Re-verify everything from the first entry (else from each account's checkpoint). */
  full: boolean;
  /** Only this merchant's accounts and transactions (always full). */
  accountId?: string | undefined;
}

const scopeFilter = (scope: CheckScope, column: string) =>
  scope.accountId === undefined ? sql`true` : sql`${sql.ref(column)} = ${scope.accountId}`;

/** The sum of every account of the ledger, and how many there are. */
export async function ledgerTotal(db: Db): Promise<{ total: number; accounts: number }> {
  const result = await sql<{ total: number | null; accounts: number }>`
    SELECT sum(balance_cents)::bigint AS total, count(*)::int AS accounts FROM ledger_accounts`.execute(db);
  return { total: Number(result.rows[0]?.total ?? 0), accounts: Number(result.rows[0]?.accounts ?? 0) };
}

/**
 * Each account with what its entries since its checkpoint say: their count and sum, the last balance-after,
 * and the entries whose balance-after is not the previous one plus their amount. Incremental: only
 * accounts that moved (or whose balance changed without an entry) since the last clean check.
 */
export async function auditAccounts(db: Db, scope: CheckScope): Promise<AccountAudit[]> {
  const full = scope.full || scope.accountId !== undefined;
  const result = await sql<AccountAudit>`
    WITH acc AS (
      SELECT a.id, a.owner_id, a.kind, a.non_negative, a.balance_cents, a.version,
        ${full ? sql`0::bigint` : sql`coalesce(c.version, 0)`} AS from_version,
        ${full ? sql`0::bigint` : sql`coalesce(c.balance_cents, 0)`} AS from_balance
      FROM ledger_accounts a LEFT JOIN ledger_checkpoints c ON c.account_id = a.id
      WHERE ${scopeFilter(scope, 'a.owner_id')}
    )
    SELECT acc.*, coalesce(e.entries, 0)::bigint AS entries, coalesce(e.entries_sum, 0)::bigint AS entries_sum,
      e.last_after, coalesce(e.chain_breaks, 0)::bigint AS chain_breaks,
      CASE WHEN acc.kind = 'held' THEN (SELECT coalesce(sum(h.amount_cents), 0)::bigint FROM holds h
        WHERE h.account_id = acc.owner_id AND h.status = 'active') END AS active_holds
    FROM acc LEFT JOIN LATERAL (
      SELECT count(*) AS entries, sum(x.amount_cents) AS entries_sum,
        (array_agg(x.balance_after_cents ORDER BY x.account_version DESC))[1] AS last_after,
        count(*) FILTER (WHERE x.balance_after_cents <> x.before + x.amount_cents) AS chain_breaks
      FROM (
        SELECT le.amount_cents, le.balance_after_cents, le.account_version,
          coalesce(lag(le.balance_after_cents) OVER (ORDER BY le.account_version), acc.from_balance) AS before
        FROM ledger_entries le WHERE le.account_id = acc.id AND le.account_version > acc.from_version
      ) x
    ) e ON true
    WHERE ${full ? sql`true` : sql`acc.version <> acc.from_version OR acc.balance_cents <> acc.from_balance`}`.execute(db);
  return result.rows;
}

export interface TransferAudit {
  id: number;
  reason: string;
  transaction_id: string | null;
  /** The merchant of its transaction or hold (null: neither). */
  owner_id: string | null;
  entries: number;
  total: number;
  pending_id: number | null;
  completes_pending: boolean | null;
}

/**
 * Transfers that do not sum to zero, have fewer than two entries, or complete something that is not a
 * pending transfer of the same transaction: among those written since the checkpoints (or all).
 */
/** Whether transfer `t` completes a pending transfer `p` of its own transaction (the check's rule). */
const COMPLETES_PENDING = sql`(p.id IS NOT NULL AND p.pending AND p.transaction_id IS NOT DISTINCT FROM t.transaction_id
  AND p.refund_id IS NOT DISTINCT FROM t.refund_id)`;

/** A transfer that is broken: fewer than two entries, not summing to zero, or completing what it may not. */
const BROKEN = (entries: RawBuilder<unknown>, total: RawBuilder<unknown>) =>
  sql`${entries} < 2 OR ${total} <> 0 OR (t.pending_id IS NOT NULL AND NOT ${COMPLETES_PENDING})`;

/**
 * The transfer id of every entry past its account's checkpoint (`le.transfer_id`), by an index range per
 * account; `OFFSET 0` keeps it a per-account lookup (see `changedTransactionLedgers`).
 */
const ENTRIES_PAST_CHECKPOINTS = sql`ledger_accounts a
  LEFT JOIN ledger_checkpoints c ON c.account_id = a.id
  CROSS JOIN LATERAL (SELECT e.transfer_id FROM ledger_entries e
    WHERE e.account_id = a.id AND e.account_version > coalesce(c.version, 0) OFFSET 0) le`;

export async function brokenTransfers(db: Db, scope: CheckScope): Promise<TransferAudit[]> {
  const full = scope.full || scope.accountId !== undefined;
  return full ? allBrokenTransfers(db, scope) : freshBrokenTransfers(db);
}

/** Set-based over all transfers (or one merchant's). */
async function allBrokenTransfers(db: Db, scope: CheckScope): Promise<TransferAudit[]> {
  const chosen = sql`SELECT t.id FROM ledger_transfers t LEFT JOIN transactions tx ON tx.id = t.transaction_id
    WHERE ${scope.accountId === undefined ? sql`true` : sql`tx.account_id = ${scope.accountId} OR t.id IN (
      SELECT le.transfer_id FROM ledger_entries le JOIN ledger_accounts a ON a.id = le.account_id WHERE a.owner_id = ${scope.accountId})`}`;
  const result = await sql<TransferAudit>`
    WITH fresh AS (${chosen})
    SELECT t.id, t.reason, t.transaction_id, coalesce(tx.account_id, h.account_id) AS owner_id, count(le.id)::int AS entries, coalesce(sum(le.amount_cents), 0)::bigint AS total,
      t.pending_id, ${COMPLETES_PENDING} AS completes_pending
    FROM ledger_transfers t
    JOIN fresh f ON f.id = t.id
    LEFT JOIN ledger_entries le ON le.transfer_id = t.id
    LEFT JOIN ledger_transfers p ON p.id = t.pending_id
    LEFT JOIN transactions tx ON tx.id = t.transaction_id
    LEFT JOIN holds h ON h.id = t.hold_id
    GROUP BY t.id, p.id, tx.account_id, h.account_id
    HAVING ${BROKEN(sql`count(le.id)`, sql`coalesce(sum(le.amount_cents), 0)`)}`.execute(db);
  return result.rows;
}

/** The transfers with entries past the checkpoints, by index lookups (see `changedTransactionLedgers`). */
async function freshBrokenTransfers(db: Db): Promise<TransferAudit[]> {
  const result = await sql<TransferAudit>`
    WITH fresh AS (SELECT DISTINCT le.transfer_id AS id FROM ${ENTRIES_PAST_CHECKPOINTS})
    SELECT t.id, t.reason, t.transaction_id, coalesce(tx.account_id, h.account_id) AS owner_id, e.entries, e.total,
      t.pending_id, ${COMPLETES_PENDING} AS completes_pending
    FROM fresh f
    CROSS JOIN LATERAL (SELECT * FROM ledger_transfers x WHERE x.id = f.id OFFSET 0) t
    CROSS JOIN LATERAL (SELECT count(*)::int AS entries, coalesce(sum(le.amount_cents), 0)::bigint AS total
      FROM ledger_entries le WHERE le.transfer_id = t.id) e
    LEFT JOIN LATERAL (SELECT x.id, x.pending, x.transaction_id, x.refund_id FROM ledger_transfers x WHERE x.id = t.pending_id OFFSET 0) p ON true
    LEFT JOIN LATERAL (SELECT x.account_id FROM transactions x WHERE x.id = t.transaction_id OFFSET 0) tx ON true
    LEFT JOIN LATERAL (SELECT x.account_id FROM holds x WHERE x.id = t.hold_id OFFSET 0) h ON true
    WHERE ${BROKEN(sql`e.entries`, sql`e.total`)}`.execute(db);
  return result.rows;
}

export interface TransactionLedger {
  id: string;
  account_id: string;
  type: string;
  status: string;
  provider_state: 'sending' | 'sent' | null;
  amount_cents: number;
  fee_cents: number;
  net_cents: number;
  refunded_cents: number | null;
  /** The charge's own account of its returns in flight (refunds, devoluções claimed). */
  refunding_cents: number;
  /** Withdrawals: the provider's last word, and who resolved it. */
  provider_status: string | null;
  resolved_by: string | null;
  transfers: number;
  open_pending: number;
  posted: number;
  available: number;
  pending_out: number;
  fee_revenue: number;
  /** What the charge's refunds still in flight reserve. */
  refunding: number;
  /** What its booked returns took to the PSP (refunds posted, chargebacks, devoluções made outside the API). */
  returned_booked: number;
  /** What of those the merchant's balance could not cover (booked to suspense). */
  uncovered: number;
  /** What its devoluções claimed by the back office and not answered by the provider yet hold. */
  claimed: number;
  /** A reconciliation break records a difference between its status and the provider's (open or resolved). */
  explained: boolean;
}

/**
 * Each transaction beside what its transfers did: how many, its pending transfers still open and posted,
 * and the sums on the merchant's available and pending_out and on fee_revenue. All transactions, one
 * merchant's, or (incremental: `changedFrom` is the last clean check's snapshot xmin) those with entries
 * after the checkpoints or a status changed by a database transaction the last check could not see.
 */
export async function transactionLedgers(db: Db, scope: CheckScope, changedFrom: string | undefined): Promise<TransactionLedger[]> {
  const full = scope.full || scope.accountId !== undefined || changedFrom === undefined;
  return full ? allTransactionLedgers(db, scope) : changedTransactionLedgers(db, changedFrom);
}

const TRANSACTION_LEDGER_COLUMNS = sql`tx.id, tx.account_id, tx.type, tx.status, tx.provider_state, tx.amount_cents, tx.fee_cents, tx.net_cents, tx.refunded_cents,
  tx.refunding_cents, tx.provider_status, tx.resolved_by,
  coalesce(transfers.transfers, 0)::int AS transfers, coalesce(transfers.open_pending, 0)::int AS open_pending,
  coalesce(transfers.posted, 0)::int AS posted,
  coalesce(moved.available, 0)::bigint AS available, coalesce(moved.pending_out, 0)::bigint AS pending_out,
  coalesce(moved.fee_revenue, 0)::bigint AS fee_revenue, coalesce(refunding.cents, 0)::bigint AS refunding,
  coalesce(moved.returned_booked, 0)::bigint AS returned_booked, coalesce(moved.uncovered, 0)::bigint AS uncovered,
  coalesce(claimed.cents, 0)::bigint AS claimed,
  EXISTS (SELECT 1 FROM reconciliation_breaks b WHERE b.transaction_id = tx.id AND b.kind IN ('sent_booked_failed', 'booked_paid_not_sent')) AS explained`;

/** The returns of a charge that took money to the PSP: its psp_settlement leg is what went back to the payer. */
const RETURNED_TO_PSP = sql`${systemLeg(SYSTEM_ACCOUNTS.pspSettlement)} AND lt.reason IN ('chargeback', 'charge_refunded', 'refund_posted')`;
/** What a chargeback or a devolução made outside the API could not take from the merchant (booked to suspense). */
const UNCOVERED = sql`${systemLeg(SYSTEM_ACCOUNTS.suspense)} AND lt.reason IN ('chargeback', 'charge_refunded')`;

/** PixGate's fee of a transaction: its legs on fee_revenue. */
const FEE_REVENUE = systemLeg(SYSTEM_ACCOUNTS.feeRevenue);

/** A refund whose amount is still reserved (its pending transfer open). */
const IN_FLIGHT_REFUND = sql`r.status IN ('initiating', 'processing')`;

/** Set-based (hash aggregates), so a full check, or the first after a bulk load, reads each entry once. */
async function allTransactionLedgers(db: Db, scope: CheckScope): Promise<TransactionLedger[]> {
  const result = await sql<TransactionLedger>`
    WITH tx AS (SELECT * FROM transactions WHERE ${scopeFilter(scope, 'account_id')}),
    transfers AS (
      SELECT lt.transaction_id, count(*) AS transfers,
        count(*) FILTER (WHERE lt.pending AND NOT EXISTS (SELECT 1 FROM ledger_transfers c WHERE c.pending_id = lt.id)) AS open_pending,
        count(*) FILTER (WHERE lt.reason = 'withdrawal_posted') AS posted
      FROM ledger_transfers lt JOIN tx ON tx.id = lt.transaction_id
      GROUP BY lt.transaction_id
    ),
    moved AS (
      SELECT tx.id,
        sum(le.amount_cents) FILTER (WHERE le.account_id = tx.account_id || ':available') AS available,
        sum(le.amount_cents) FILTER (WHERE le.account_id = tx.account_id || ':pending_out') AS pending_out,
        sum(le.amount_cents) FILTER (WHERE ${FEE_REVENUE}) AS fee_revenue,
        sum(le.amount_cents) FILTER (WHERE ${RETURNED_TO_PSP}) AS returned_booked,
        -sum(le.amount_cents) FILTER (WHERE ${UNCOVERED}) AS uncovered
      FROM tx JOIN ledger_transfers lt ON lt.transaction_id = tx.id JOIN ledger_entries le ON le.transfer_id = lt.id
      GROUP BY tx.id
    ),
    refunding AS (
      SELECT r.transaction_id, sum(r.amount_cents) AS cents FROM refunds r JOIN tx ON tx.id = r.transaction_id
      WHERE ${IN_FLIGHT_REFUND} GROUP BY r.transaction_id
    ),
    claimed AS (
      SELECT d.transaction_id, sum(d.amount_cents) AS cents FROM provider_devolucoes d JOIN tx ON tx.id = d.transaction_id
      WHERE d.status = 'claimed' GROUP BY d.transaction_id
    )
    SELECT ${TRANSACTION_LEDGER_COLUMNS}
    FROM tx LEFT JOIN transfers ON transfers.transaction_id = tx.id LEFT JOIN moved ON moved.id = tx.id
      LEFT JOIN refunding ON refunding.transaction_id = tx.id LEFT JOIN claimed ON claimed.transaction_id = tx.id`.execute(db);
  return result.rows;
}

/**
 * Index lookups per changed transaction, so the incremental check costs what changed, not the size of the
 * ledger. `OFFSET 0` keeps each LATERAL subquery a per-row lookup: flattened into a join, the planner
 * (which cannot know how few entries lie past a checkpoint) would hash the whole entries table.
 */
async function changedTransactionLedgers(db: Db, changedFrom: string): Promise<TransactionLedger[]> {
  const result = await sql<TransactionLedger>`
    WITH chosen AS (
      SELECT id FROM transactions WHERE status_changed_xid >= ${changedFrom}::xid8
      UNION
      SELECT t.transaction_id FROM ${ENTRIES_PAST_CHECKPOINTS}
        CROSS JOIN LATERAL (SELECT lt.transaction_id FROM ledger_transfers lt WHERE lt.id = le.transfer_id OFFSET 0) t
      WHERE t.transaction_id IS NOT NULL
    )
    SELECT ${TRANSACTION_LEDGER_COLUMNS}
    FROM chosen
    CROSS JOIN LATERAL (SELECT * FROM transactions t WHERE t.id = chosen.id OFFSET 0) tx
    CROSS JOIN LATERAL (
      SELECT count(*) AS transfers,
        count(*) FILTER (WHERE lt.pending AND NOT EXISTS (SELECT 1 FROM ledger_transfers c WHERE c.pending_id = lt.id)) AS open_pending,
        count(*) FILTER (WHERE lt.reason = 'withdrawal_posted') AS posted
      FROM ledger_transfers lt WHERE lt.transaction_id = tx.id
    ) transfers
    CROSS JOIN LATERAL (
      SELECT sum(le.amount_cents) FILTER (WHERE le.account_id = tx.account_id || ':available') AS available,
        sum(le.amount_cents) FILTER (WHERE le.account_id = tx.account_id || ':pending_out') AS pending_out,
        sum(le.amount_cents) FILTER (WHERE ${FEE_REVENUE}) AS fee_revenue,
        sum(le.amount_cents) FILTER (WHERE ${RETURNED_TO_PSP}) AS returned_booked,
        -sum(le.amount_cents) FILTER (WHERE ${UNCOVERED}) AS uncovered
      FROM ledger_transfers lt JOIN LATERAL (SELECT * FROM ledger_entries e WHERE e.transfer_id = lt.id OFFSET 0) le ON true
      WHERE lt.transaction_id = tx.id
    ) moved
    CROSS JOIN LATERAL (SELECT sum(r.amount_cents) AS cents FROM refunds r WHERE r.transaction_id = tx.id AND ${IN_FLIGHT_REFUND}) refunding
    CROSS JOIN LATERAL (SELECT sum(d.amount_cents) AS cents FROM provider_devolucoes d WHERE d.transaction_id = tx.id AND d.status = 'claimed') claimed`.execute(db);
  return result.rows;
}

export interface RefundLedger {
  id: string;
  account_id: string;
  transaction_id: string;
  status: string;
  amount_cents: number;
  acknowledged_at: Date | null;
  /** Whether a live externalRef names it. */
  keyed: boolean;
  transfers: number;
  open_pending: number;
  posted: number;
  voided: number;
  /** Transfers booking what the provider paid past the charge (to suspense). */
  beyond: number;
  available: number;
  pending_out: number;
}

const REFUND_LEDGER = sql`r.id, r.account_id, r.transaction_id, r.status, r.amount_cents, r.acknowledged_at,
  EXISTS (SELECT 1 FROM refund_idempotency_keys k WHERE k.refund_id = r.id) AS keyed,
  count(DISTINCT lt.id)::int AS transfers,
  count(DISTINCT lt.id) FILTER (WHERE lt.reason = 'refund_beyond_charge')::int AS beyond,
  count(DISTINCT lt.id) FILTER (WHERE lt.pending AND NOT EXISTS (SELECT 1 FROM ledger_transfers c WHERE c.pending_id = lt.id))::int AS open_pending,
  count(DISTINCT lt.id) FILTER (WHERE lt.reason = 'refund_posted')::int AS posted,
  count(DISTINCT lt.id) FILTER (WHERE lt.reason = 'refund_voided')::int AS voided,
  coalesce(sum(le.amount_cents) FILTER (WHERE le.account_id = r.account_id || ':available'), 0)::bigint AS available,
  coalesce(sum(le.amount_cents) FILTER (WHERE le.account_id = r.account_id || ':pending_out'), 0)::bigint AS pending_out`;

/**
 * Each refund beside what its transfers did (by `refund_id`): all of them, one merchant's, or
 * (incremental) those with entries past the checkpoints, since every change of a refund's status that
 * matters to the ledger moves money in the same database transaction.
 */
export async function refundLedgers(db: Db, scope: CheckScope): Promise<RefundLedger[]> {
  const full = scope.full || scope.accountId !== undefined;
  const chosen = full
    ? sql`SELECT id FROM refunds WHERE ${scopeFilter(scope, 'account_id')}`
    : sql`SELECT DISTINCT t.refund_id AS id FROM ${ENTRIES_PAST_CHECKPOINTS}
        CROSS JOIN LATERAL (SELECT lt.refund_id FROM ledger_transfers lt WHERE lt.id = le.transfer_id OFFSET 0) t
        WHERE t.refund_id IS NOT NULL`;
  const result = await sql<RefundLedger>`
    WITH chosen AS (${chosen})
    SELECT ${REFUND_LEDGER}
    FROM chosen JOIN refunds r ON r.id = chosen.id
    LEFT JOIN ledger_transfers lt ON lt.refund_id = r.id
    LEFT JOIN ledger_entries le ON le.transfer_id = lt.id AND lt.reason <> 'refund_beyond_charge'
    GROUP BY r.id`.execute(db);
  return result.rows;
}

/**
 * The incremental check's queries are index lookups per changed row, but their cost estimates grow with the
 * tables (the planner cannot know how few rows lie past a checkpoint), and past `jit_above_cost` Postgres
 * compiles each of them with LLVM: measured at 250-450 ms per query on the scale benchmark's database, for
 * queries that then ran in under a millisecond. The incremental check turns JIT off for its transaction.
 */
export async function planForLookups(trx: Transaction<Database>): Promise<void> {
  await sql`SET LOCAL jit = off`.execute(trx);
}

/** The xmin of the last clean check's snapshot (undefined: no check has recorded one). */
export async function lastCheckXmin(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('ledger_check_runs').select('snapshot_xmin').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.snapshot_xmin ?? undefined;
}

/** Records a clean check: every account verified up to its current version, and its snapshot. */
export async function advanceCheckpoints(trx: Transaction<Database>, accounts: { id: string; version: number; balance_cents: number }[], snapshot: CheckSnapshot): Promise<void> {
  if (accounts.length > 0) {
    await trx
      .insertInto('ledger_checkpoints')
      .values(accounts.map((account) => ({ account_id: account.id, version: account.version, balance_cents: account.balance_cents })))
      .onConflict((oc) =>
        oc
          .column('account_id')
          .doUpdateSet((eb) => ({ version: eb.ref('excluded.version'), balance_cents: eb.ref('excluded.balance_cents') }))
          .where('ledger_checkpoints.version', '<', (eb) => eb.ref('excluded.version')),
      )
      .execute();
  }
  await trx.insertInto('ledger_check_runs').values({ started_at: snapshot.startedAt, snapshot_xmin: snapshot.xmin }).execute();
}

export interface CheckSnapshot {
  startedAt: Date;
  /** The oldest transaction still running when the snapshot was taken (xid8, as text). */
  xmin: string;
}

/**
 * The check's snapshot: the first statement of its REPEATABLE READ transaction takes it, so the xmin read
 * here is the xmin of everything the check reads.
 */
export async function takeCheckSnapshot(db: Db): Promise<CheckSnapshot> {
  const result = await sql<{ now: Date; xmin: string }>`SELECT clock_timestamp() AS now, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`.execute(db);
  const row = result.rows[0];
  if (row === undefined) throw new Error('the database returned no snapshot');
  return { startedAt: new Date(row.now), xmin: row.xmin };
}
