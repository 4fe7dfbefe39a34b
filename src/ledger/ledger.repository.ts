/**
 * Owner of `ledger_accounts`, `ledger_transfers` and `ledger_entries` (migration 009): the movements that
 * are no step of a state machine (take-backs, holds, settlements, adjustments) and the balances' reads (the
 * check's reads are in ledgerCheck.repository.ts). The steps of the state machines (a withdrawal's or a
 * refund's reserve, post, void and return, a charge's credit) are booked by their transitions, in the
 * database (`withdrawal_book`, `refund_book`, `charge_book`, migration 025). Every movement is one call of
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
import { sql, type Kysely, type Transaction } from 'kysely';
import { compiledOnce } from '../db/compiledOnce.ts';
import type { Database, Db, LedgerAccountKind, TransferReason } from '../db/schema.ts';

export const SYSTEM_ACCOUNTS = {
  pspSettlement: 'system:psp_settlement',
  feeRevenue: 'system:fee_revenue',
  holdsContra: 'system:holds_contra',
  suspense: 'system:suspense',
} as const;

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

/**
 * Money of a paid charge that went back to its payer without a reservation: a chargeback, or a devolução
 * the provider made outside the API. It leaves the merchant's available balance for the PSP, held money
 * included (a hold exists to keep it for this); the provider's word is a fact, the money is gone already, so
 * what available cannot cover is booked to `suspense` (a reconciliation break records it) and answered as the
 * shortfall. One statement locks the balance first, as every movement of the account does.
 */
export async function takeBack(
  trx: Transaction<Database>,
  charge: { id: string; account_id: string },
  amountCents: number,
  how: { reason: 'charge_refunded' | 'chargeback'; holdId?: string | null | undefined; at: Date },
): Promise<{ shortfallCents: number }> {
  assertPositive(amountCents);
  const available = await lockAvailable(trx, charge.account_id);
  const covered = Math.min(Math.max(available, 0), amountCents);
  const shortfallCents = amountCents - covered;
  await transfer(trx, { reason: how.reason, transactionId: charge.id, holdId: how.holdId ?? null, at: how.at }, [
    { account: merchantAccount(charge.account_id, 'available'), amountCents: -covered },
    { account: SYSTEM_ACCOUNTS.suspense, amountCents: -shortfallCents },
    { account: SYSTEM_ACCOUNTS.pspSettlement, amountCents },
  ]);
  return { shortfallCents };
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

export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[keyof typeof SYSTEM_ACCOUNTS];

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
export const systemLeg = (account: SystemAccount) => sql`split_part(le.account_id, '#', 1) = ${account}`;

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
