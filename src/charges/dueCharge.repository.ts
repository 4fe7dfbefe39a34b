/**
 * Owner of `due_charges` (migration 026): a charge with a due date's terms beside its `transactions` row.
 * A charge with a due date is stored with its row, its terms and its externalRef's claim in one database
 * transaction; read with its row; listed newest first by keyset.
 */
import { splitJoinedRow } from '../db/joinedRow.ts';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, DueChargesTable, DueDebtorJson, TransactionRow } from '../db/schema.ts';
import { claimIdempotencyKey, type Claim } from '../transactions/transaction.repository.ts';
import type { DueChargeTerms } from '../provider/port.ts';

type Db = Kysely<Database>;

/** A due_charges row as read (the JSON columns parsed). */
export type DueChargeRow = Omit<DueChargesTable, 'terms' | 'debtor' | 'revision'> & { terms: DueChargeTerms; debtor: DueDebtorJson; revision: number };

/** A charge with a due date: its transaction and its terms. */
export interface DueChargeRecord {
  charge: TransactionRow;
  due: DueChargeRow;
}

export interface NewDueCharge {
  id: string;
  accountId: string;
  amountCents: number;
  feeCents: number;
  pixPayload: string;
  providerRef: string;
  expiresAt: Date;
  createdAt: Date;
  externalRef: string | null;
  dueDate: string;
  daysAfterDue: number;
  lastPayableDate: string;
  terms: DueChargeTerms;
  debtor: DueDebtorJson;
  description: string | null;
  feeRule: { fixedCents: number; bps: number };
}

/**
 * Stores the charge, claiming its externalRef first (scope `due_charge`) when it has one: `claimed: false`
 * with the charge that holds it, nothing stored. One database transaction.
 */
export function insertDueCharge(db: Db, charge: NewDueCharge, key: { expiresAt: Date } | undefined): Promise<Claim> {
  return db.transaction().execute(async (trx) => {
    if (charge.externalRef !== null && key) {
      const claim = await claimIdempotencyKey(trx, {
        accountId: charge.accountId,
        scope: 'due_charge',
        externalRef: charge.externalRef,
        transactionId: charge.id,
        expiresAt: key.expiresAt,
        now: charge.createdAt,
      });
      if (!claim.claimed) return claim;
    }
    await trx
      .insertInto('transactions')
      .values({
        id: charge.id,
        account_id: charge.accountId,
        type: 'pix_in',
        status: 'pending',
        amount_cents: charge.amountCents,
        fee_cents: charge.feeCents,
        net_cents: charge.amountCents - charge.feeCents,
        external_ref: charge.externalRef,
        pix_payload: charge.pixPayload,
        expires_at: charge.expiresAt,
        created_at: charge.createdAt,
        updated_at: charge.createdAt,
        provider_ref: charge.providerRef,
        charge_kind: 'due',
      })
      .execute();
    await trx
      .insertInto('due_charges')
      .values({
        transaction_id: charge.id,
        account_id: charge.accountId,
        due_date: charge.dueDate,
        days_after_due: charge.daysAfterDue,
        last_payable_date: charge.lastPayableDate,
        original_cents: charge.amountCents,
        terms: JSON.stringify(charge.terms),
        debtor: JSON.stringify(charge.debtor),
        description: charge.description,
        fee_fixed_cents: charge.feeRule.fixedCents,
        fee_bps: charge.feeRule.bps,
        created_at: charge.createdAt,
        updated_at: charge.createdAt,
      })
      .execute();
    return { claimed: true };
  });
}

function record(row: Record<string, unknown>): DueChargeRecord {
  const { own, transaction } = splitJoinedRow(row, 'd__');
  return { charge: transaction as unknown as TransactionRow, due: own as unknown as DueChargeRow };
}

const DUE_COLUMNS = [
  'd.transaction_id as d__transaction_id',
  'd.account_id as d__account_id',
  'd.due_date as d__due_date',
  'd.days_after_due as d__days_after_due',
  'd.last_payable_date as d__last_payable_date',
  'd.original_cents as d__original_cents',
  'd.terms as d__terms',
  'd.debtor as d__debtor',
  'd.description as d__description',
  'd.revision as d__revision',
  'd.fee_fixed_cents as d__fee_fixed_cents',
  'd.fee_bps as d__fee_bps',
  'd.created_at as d__created_at',
  'd.updated_at as d__updated_at',
] as const;

/** One charge with a due date of the account (undefined: none, or another account's). */
export async function findDueCharge(db: Db, accountId: string | undefined, transactionId: string): Promise<DueChargeRecord | undefined> {
  let query = db.selectFrom('transactions as t').innerJoin('due_charges as d', 'd.transaction_id', 't.id').selectAll('t').select(DUE_COLUMNS).where('t.id', '=', transactionId);
  if (accountId !== undefined) query = query.where('t.account_id', '=', accountId);
  const row = await query.executeTakeFirst();
  return row === undefined ? undefined : record(row);
}

/** The terms of a charge with a due date, locked with its transaction row by the caller (FOR NO KEY UPDATE). */
export async function lockDueTerms(trx: Transaction<Database>, transactionId: string): Promise<DueChargeRow | undefined> {
  const row = await trx.selectFrom('due_charges').selectAll().where('transaction_id', '=', transactionId).forNoKeyUpdate().executeTakeFirst();
  return row as DueChargeRow | undefined;
}

export interface DueChargeFilter {
  status?: string | undefined;
  dueFrom?: string | undefined;
  dueTo?: string | undefined;
  after?: { createdAtUs: string; id: string } | undefined;
  limit: number;
}

/** A page of the account's charges with a due date, newest first (creation, then id), with each one's position. */
export async function listDueCharges(db: Db, accountId: string, filter: DueChargeFilter): Promise<(DueChargeRecord & { createdAtUs: string })[]> {
  let query = db
    .selectFrom('due_charges as d')
    .innerJoin('transactions as t', 't.id', 'd.transaction_id')
    .selectAll('t')
    .select(DUE_COLUMNS)
    .select(sql<string>`(extract(epoch from d.created_at) * 1000000)::bigint::text`.as('d__created_at_us'))
    .where('d.account_id', '=', accountId);
  if (filter.status !== undefined) query = query.where('t.status', '=', filter.status as TransactionRow['status']);
  if (filter.dueFrom !== undefined) query = query.where('d.due_date', '>=', filter.dueFrom);
  if (filter.dueTo !== undefined) query = query.where('d.due_date', '<=', filter.dueTo);
  if (filter.after) {
    const at = sql<Date>`'epoch'::timestamptz + ${filter.after.createdAtUs}::bigint * interval '1 microsecond'`;
    query = query.where(sql<boolean>`(d.created_at, d.transaction_id) < (${at}, ${filter.after.id})`);
  }
  const rows = await query.orderBy('d.created_at', 'desc').orderBy('d.transaction_id', 'desc').limit(filter.limit).execute();
  return rows.map((row) => {
    const { d__created_at_us: createdAtUs, ...rest } = row;
    return { ...record(rest), createdAtUs };
  });
}

/** A pending charge's new terms and amount, written with its revision + 1 (the caller holds both rows' locks). */
export async function reviseDueTerms(
  trx: Transaction<Database>,
  transactionId: string,
  change: {
    amountCents: number;
    feeCents: number;
    dueDate: string;
    daysAfterDue: number;
    lastPayableDate: string;
    expiresAt: Date;
    terms: DueChargeTerms;
    debtor: DueDebtorJson;
    description: string | null;
    at: Date;
  },
): Promise<void> {
  await trx
    .updateTable('transactions')
    .set({ amount_cents: change.amountCents, fee_cents: change.feeCents, net_cents: change.amountCents - change.feeCents, expires_at: change.expiresAt, updated_at: change.at })
    .where('id', '=', transactionId)
    .execute();
  await trx
    .updateTable('due_charges')
    .set((eb) => ({
      due_date: change.dueDate,
      days_after_due: change.daysAfterDue,
      last_payable_date: change.lastPayableDate,
      original_cents: change.amountCents,
      terms: JSON.stringify(change.terms),
      debtor: JSON.stringify(change.debtor),
      description: change.description,
      revision: eb('revision', '+', 1),
      updated_at: change.at,
    }))
    .where('transaction_id', '=', transactionId)
    .execute();
}
