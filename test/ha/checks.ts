import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { readBalance } from '../../src/ledger/ledger.repository.ts';
import type { Merchant } from '../support/processes.ts';
import { isAcknowledged } from './client.ts';
import { acknowledgedAnswer, type Write, type WriteKind } from './load.ts';

/**
 * What the failover test checks on the primary once the load is over: every acknowledged write is there
 * with its money, nothing was created twice, every balance equals its transactions, and every state change
 * wrote its webhook events exactly once (src/events: one outbox row per event, in the transaction of the
 * change). Each function returns its problems as sentences: empty means all is well.
 */

/** The statuses the contract lets a withdrawal be in (never the internal `initiating` / `aborted`). */
export const CONTRACT_WITHDRAWAL_STATUSES = ['processing', 'pending_approval', 'paid', 'failed', 'failed_unknown', 'cancelled', 'refunded', 'partially_refunded'];

export interface AcknowledgedCheck {
  checked: Record<WriteKind, number>;
  /** Writes never acknowledged (a 5xx or a lost answer, or a 4xx) that nonetheless left a live row: allowed, counted (only those with an externalRef can be found). */
  storedUnacknowledged: number;
  withdrawalStatuses: Record<string, number>;
  refundStatuses: Record<string, number>;
  problems: string[];
}

const TRANSACTION_TYPE = { charge: 'pix_in', withdrawal: 'withdrawal' } as const;

function tally(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

export async function checkAcknowledged(db: Kysely<Database>, writes: readonly Write[], merchants: readonly Merchant[], prefix: string): Promise<AcknowledgedCheck> {
  const accounts = merchants.map((merchant) => merchant.accountId);
  const transactions = await db
    .selectFrom('transactions')
    .select(['id', 'account_id', 'type', 'status', 'external_ref', 'amount_cents'])
    .where('account_id', 'in', accounts)
    .where('status', '<>', 'aborted')
    .execute();
  const refunds = await db
    .selectFrom('refunds')
    .select(['id', 'account_id', 'transaction_id', 'status', 'external_ref', 'amount_cents'])
    .where('account_id', 'in', accounts)
    .where('status', '<>', 'aborted')
    .execute();
  type Row = { id: string; account_id: string; status: string; amount_cents: number; type?: string; transaction_id?: string };
  const byRef = new Map<string, Row[]>();
  const byId = new Map<string, Row>();
  for (const row of [...transactions, ...refunds]) {
    byId.set(row.id, row);
    if (row.external_ref?.startsWith(`${prefix}-`)) byRef.set(row.external_ref, [...(byRef.get(row.external_ref) ?? []), row]);
  }

  const problems: string[] = [];
  const checked: Record<WriteKind, number> = { charge: 0, withdrawal: 0, refund: 0 };
  const withdrawalStatuses: string[] = [];
  const refundStatuses: string[] = [];
  let storedUnacknowledged = 0;
  for (const write of writes) {
    const name = `${write.kind} ${write.ref ?? '(no externalRef)'}`;
    const idField = write.kind === 'refund' ? 'refundId' : 'transactionId';
    const told = new Set(write.answers.filter(isAcknowledged).map((answer) => String(answer.body[idField])));
    // With an externalRef, found by it (a second live row would be a double); without one, by the id it was told.
    const rows = write.ref !== undefined ? (byRef.get(write.ref) ?? []) : [...told].flatMap((id) => byId.get(id) ?? []);
    if (rows.length > 1) problems.push(`${name}: ${rows.length} live rows (${rows.map((row) => row.id).join(', ')})`);
    if (!acknowledgedAnswer(write)) {
      if (rows.length > 0) storedUnacknowledged += 1;
      continue;
    }
    checked[write.kind] += 1;
    if (told.size !== 1) problems.push(`${name}: the 2xx answers named ${[...told].join(', ')}`);
    if (write.answers.filter((answer) => answer.status === 201).length > 1) problems.push(`${name}: two 201 answers`);
    const row = rows[0];
    if (!row) {
      problems.push(`${name}: acknowledged (${[...told].join(', ')}) but not in the database`);
      continue;
    }
    if (!told.has(row.id)) problems.push(`${name}: told ${[...told].join(', ')}, stored ${row.id}`);
    if (row.account_id !== merchants[write.merchant]!.accountId) problems.push(`${name}: stored on another account`);
    if (Number(row.amount_cents) !== write.body.amountCents) problems.push(`${name}: amount ${row.amount_cents}, asked ${String(write.body.amountCents)}`);
    if (write.kind === 'refund') {
      refundStatuses.push(row.status);
      if (row.transaction_id !== write.chargeId) problems.push(`${name}: of ${row.transaction_id}, asked of ${write.chargeId}`);
    } else {
      if (row.type !== TRANSACTION_TYPE[write.kind]) problems.push(`${name}: stored as ${row.type}`);
      if (write.kind === 'withdrawal') {
        withdrawalStatuses.push(row.status);
        if (!CONTRACT_WITHDRAWAL_STATUSES.includes(row.status)) problems.push(`${name}: status ${row.status} is not one the contract allows`);
      }
    }
  }
  return { checked, storedUnacknowledged, withdrawalStatuses: tally(withdrawalStatuses), refundStatuses: tally(refundStatuses), problems };
}

/**
 * Each merchant's available balance equals what its transactions say: paid charges (fee 0 with
 * RELAXED_LIMITS) less refunds in flight or done, less withdrawals that took money (amount + fee, the
 * withdrawal's net) and have not given it back.
 */
export async function balanceProblems(db: Kysely<Database>, merchants: readonly Merchant[]): Promise<string[]> {
  const problems: string[] = [];
  for (const merchant of merchants) {
    const sums = await sql<{ credited: number; refunded: number; debited: number }>`
      SELECT
        (SELECT coalesce(sum(net_cents), 0) FROM transactions WHERE account_id = ${merchant.accountId} AND type = 'pix_in'
           AND status IN ('paid', 'partially_refunded', 'refunded'))::bigint AS credited,
        (SELECT coalesce(sum(amount_cents), 0) FROM refunds WHERE account_id = ${merchant.accountId}
           AND status IN ('initiating', 'processing', 'refunded'))::bigint AS refunded,
        (SELECT coalesce(sum(net_cents), 0) FROM transactions WHERE account_id = ${merchant.accountId} AND type = 'withdrawal'
           AND status IN ('processing', 'paid', 'failed_unknown'))::bigint AS debited`.execute(db);
    const { credited, refunded, debited } = sums.rows[0]!;
    const expected = Number(credited) - Number(refunded) - Number(debited);
    const { availableCents } = await readBalance(db, merchant.accountId);
    if (availableCents !== expected) {
      problems.push(`account ${merchant.accountId}: available ${availableCents}, its transactions say ${expected} (charges ${credited} − refunds ${refunded} − withdrawals ${debited})`);
    }
  }
  return problems;
}

/**
 * The events each transaction's status implies, and those it may also have had on the way: a withdrawal
 * announces itself once (`transfer.created`) and ends once; `transfer.processing` is skipped by one that went
 * through `failed_unknown`. A charge's refund events are checked per refund below.
 */
const WITHDRAWAL_EVENTS: Record<string, { required: string[]; allowed: string[] }> = {
  processing: { required: ['transfer.created'], allowed: ['transfer.processing'] },
  failed_unknown: { required: ['transfer.created'], allowed: [] },
  paid: { required: ['transfer.created', 'transfer.paid'], allowed: ['transfer.processing'] },
  failed: { required: ['transfer.created', 'transfer.failed'], allowed: ['transfer.processing'] },
  pending_approval: { required: ['transfer.created', 'transfer.pending_approval'], allowed: [] },
};
const CHARGE_EVENTS: Record<string, { required: string[]; allowed: string[] }> = {
  pending: { required: [], allowed: [] },
  paid: { required: ['transaction.paid'], allowed: [] },
  partially_refunded: { required: ['transaction.paid', 'transaction.partially_refunded'], allowed: [] },
  refunded: { required: ['transaction.paid', 'transaction.refunded'], allowed: ['transaction.partially_refunded'] },
};
const REFUND_EVENTS = ['transaction.refunded', 'transaction.partially_refunded'];

export interface EventCheck {
  events: number;
  transactions: number;
  problems: string[];
}

export async function eventProblems(db: Kysely<Database>, merchants: readonly Merchant[]): Promise<EventCheck> {
  const accounts = merchants.map((merchant) => merchant.accountId);
  const transactions = await db.selectFrom('transactions').select(['id', 'type', 'status']).where('account_id', 'in', accounts).execute();
  const events = await sql<{ transaction_id: string | null; event: string; refund_id: string | null }>`
    SELECT transaction_id, event, payload->>'refundId' AS refund_id FROM outbox_events WHERE account_id IN (${sql.join(accounts)})`.execute(db);
  const refunds = await db.selectFrom('refunds').select(['id', 'transaction_id', 'status']).where('account_id', 'in', accounts).execute();

  const problems: string[] = [];
  const seen = new Map<string, number>();
  const byTransaction = new Map<string, { event: string; refundId: string | null }[]>();
  for (const row of events.rows) {
    const key = `${row.transaction_id}|${row.event}|${row.refund_id ?? ''}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (row.transaction_id !== null) byTransaction.set(row.transaction_id, [...(byTransaction.get(row.transaction_id) ?? []), { event: row.event, refundId: row.refund_id }]);
  }
  for (const [key, n] of seen) if (n > 1) problems.push(`event ${key.replace(/\|$/, '')} enqueued ${n} times`);

  const confirmedRefunds = new Map<string, Set<string>>();
  for (const refund of refunds) {
    if (refund.status === 'refunded') confirmedRefunds.set(refund.transaction_id, (confirmedRefunds.get(refund.transaction_id) ?? new Set()).add(refund.id));
  }
  for (const transaction of transactions) {
    const got = byTransaction.get(transaction.id) ?? [];
    const names = new Set(got.map((event) => event.event));
    const rule = (transaction.type === 'withdrawal' ? WITHDRAWAL_EVENTS : CHARGE_EVENTS)[transaction.status];
    if (transaction.status === 'aborted' || transaction.status === 'initiating') {
      if (got.length > 0) problems.push(`${transaction.id} (${transaction.status}, never told to the merchant) has events ${[...names].join(', ')}`);
      continue;
    }
    if (!rule) {
      problems.push(`${transaction.id}: no event rule for ${transaction.type} ${transaction.status}`);
      continue;
    }
    const missing = rule.required.filter((name) => !names.has(name));
    const unexpected = [...names].filter((name) => !rule.required.includes(name) && !rule.allowed.includes(name));
    if (missing.length > 0) problems.push(`${transaction.type} ${transaction.id} (${transaction.status}) lacks ${missing.join(', ')}`);
    if (unexpected.length > 0) problems.push(`${transaction.type} ${transaction.id} (${transaction.status}) has unexpected ${unexpected.join(', ')}`);
    if (transaction.type === 'pix_in') {
      const announced = new Set(got.filter((event) => REFUND_EVENTS.includes(event.event)).map((event) => event.refundId ?? '?'));
      const confirmed = confirmedRefunds.get(transaction.id) ?? new Set<string>();
      const same = announced.size === confirmed.size && [...confirmed].every((id) => announced.has(id));
      if (!same) problems.push(`charge ${transaction.id}: refunds confirmed ${[...confirmed].join(',') || 'none'}, announced ${[...announced].join(',') || 'none'}`);
    }
  }
  return { events: events.rows.length, transactions: transactions.length, problems };
}

/** Withdrawals and refunds of these merchants still waiting for the PSP (the worker settles them). */
export async function stillInFlight(db: Kysely<Database>, merchants: readonly Merchant[]): Promise<{ withdrawals: number; refunds: number }> {
  const accounts = merchants.map((merchant) => merchant.accountId);
  const withdrawals = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', 'in', accounts)
    .where('type', '=', 'withdrawal')
    .where('status', 'in', ['initiating', 'processing'])
    .executeTakeFirst();
  const refunds = await db
    .selectFrom('refunds')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', 'in', accounts)
    .where('status', 'in', ['initiating', 'processing'])
    .executeTakeFirst();
  return { withdrawals: Number(withdrawals?.n ?? 0), refunds: Number(refunds?.n ?? 0) };
}
