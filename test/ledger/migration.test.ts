/**
 * Migration 009 (the double-entry ledger) on a populated database: the schema of 008 is filled the old
 * way (single-entry `balances` and `ledger_entries`, every kind of entry and every withdrawal state), then
 * migrated. Every balance must be unchanged (available = old available − old reservations, held = old
 * held, pending_out = what the open withdrawals took), every transaction row identical, the books summing
 * to zero with nothing in suspense, and the full ledger check green. An old ledger that disagreed with its
 * balances is migrated too, its difference booked to suspense, where the check reports it.
 */
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.ts';
import type { Database } from '../../src/db/schema.ts';
import { checkLedger } from '../../src/ledger/ledger.check.ts';
import { readBalance } from '../../src/ledger/ledger.repository.ts';
import { openDatabase } from '../support/gateway.ts';

const A = 'acc_aaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'acc_bbbbbbbbbbbbbbbbbbbbbbbb';
const T0 = Date.parse('2026-11-02T12:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const txId = (n: number) => `tx_${String(n).padStart(24, '0')}`;

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function oldSchemaDatabase(): Promise<Kysely<Database>> {
  const { handle, drop } = await openDatabase();
  cleanup = async () => {
    await handle.close();
    await drop();
  };
  await migrateUpTo(handle.db, '008_scan_free_jobs');
  return handle.db;
}

async function insertAccount(db: Kysely<Database>, id: string): Promise<void> {
  await sql`INSERT INTO accounts (id, legal_name, responsible_cpf, company_cnpj, email, kyc_status, charge_fee_fixed_cents,
      charge_fee_bps, withdrawal_fee_fixed_cents, withdrawal_fee_bps, charge_rate_per_hour, created_at, updated_at)
    VALUES (${id}, 'LOJA', '52998224725', '11222333000181', 'a@example.com', 'approved', 0, 99, 100, 0, 1000, ${at(0)}, ${at(0)})`.execute(db);
}

interface OldTx {
  n: number;
  type: 'pix_in' | 'withdrawal';
  status: string;
  amount: number;
  fee: number;
  providerState?: 'sending' | 'sent';
  refunded?: number;
}

async function insertTx(db: Kysely<Database>, accountId: string, tx: OldTx): Promise<string> {
  const id = txId(tx.n);
  await sql`INSERT INTO transactions (id, account_id, type, status, amount_cents, fee_cents, net_cents, created_at, updated_at,
      paid_at, provider_state, total_deducted_cents, refunded_cents, pix_key, pix_key_type)
    VALUES (${id}, ${accountId}, ${tx.type}, ${tx.status}, ${tx.amount}, ${tx.fee},
      ${tx.type === 'pix_in' ? tx.amount - tx.fee : tx.amount + tx.fee}, ${at(tx.n)}, ${at(tx.n + 1)},
      ${['pending', 'pending_approval', 'processing', 'failed_unknown', 'initiating'].includes(tx.status) ? null : at(tx.n + 1)},
      ${tx.providerState ?? null}, ${tx.type === 'withdrawal' ? tx.amount + tx.fee : null}, ${tx.refunded ?? null},
      ${tx.type === 'withdrawal' ? '52998224725' : null}, ${tx.type === 'withdrawal' ? 'cpf' : null})`.execute(db);
  return id;
}

type Kind =
  | 'charge_credit'
  | 'refund_debit'
  | 'chargeback_debit'
  | 'hold_placed'
  | 'hold_released'
  | 'withdrawal_reserved'
  | 'withdrawal_debit'
  | 'withdrawal_reservation_released'
  | 'withdrawal_reversal'
  | 'withdrawal_returned';

async function entry(
  db: Kysely<Database>,
  accountId: string,
  kind: Kind,
  deltas: { amount?: number; held?: number; reserved?: number; tx?: string; hold?: string },
): Promise<void> {
  await sql`INSERT INTO ledger_entries (account_id, transaction_id, hold_id, kind, amount_cents, held_delta_cents, reserved_delta_cents, created_at)
    VALUES (${accountId}, ${deltas.tx ?? null}, ${deltas.hold ?? null}, ${kind}, ${deltas.amount ?? 0}, ${deltas.held ?? 0},
      ${deltas.reserved ?? 0}, ${at(100)})`.execute(db);
}

async function insertHold(db: Kysely<Database>, accountId: string, id: string, amount: number, status: 'active' | 'released', tx: string | null) {
  await sql`INSERT INTO holds (id, account_id, transaction_id, amount_cents, reason, status, created_at, released_at)
    VALUES (${id}, ${accountId}, ${tx}, ${amount}, 'med', ${status}, ${at(50)}, ${status === 'released' ? at(60) : null})`.execute(db);
}

/** Merchant A's history in the old model: every kind of entry, every withdrawal state. */
async function populateMerchantA(db: Kysely<Database>): Promise<void> {
  const c1 = await insertTx(db, A, { n: 1, type: 'pix_in', status: 'paid', amount: 10_000, fee: 99 });
  await entry(db, A, 'charge_credit', { amount: 9_901, tx: c1 });
  const c2 = await insertTx(db, A, { n: 2, type: 'pix_in', status: 'partially_refunded', amount: 5_000, fee: 50, refunded: 1_000 });
  await entry(db, A, 'charge_credit', { amount: 4_950, tx: c2 });
  await entry(db, A, 'refund_debit', { amount: -1_000, tx: c2 });
  await insertTx(db, A, { n: 3, type: 'pix_in', status: 'pending', amount: 700, fee: 7 });
  await insertTx(db, A, { n: 4, type: 'pix_in', status: 'expired', amount: 800, fee: 8 });
  const c5 = await insertTx(db, A, { n: 5, type: 'pix_in', status: 'partially_refunded', amount: 3_000, fee: 30, refunded: 1_500 });
  await entry(db, A, 'charge_credit', { amount: 2_970, tx: c5 });
  await insertHold(db, A, 'hold_aaaaaaaaaaaaaaaaaaaaaaa1', 2_000, 'released', c5);
  await entry(db, A, 'hold_placed', { held: 2_000, tx: c5, hold: 'hold_aaaaaaaaaaaaaaaaaaaaaaa1' });
  await entry(db, A, 'chargeback_debit', { amount: -1_500, held: -1_500, tx: c5, hold: 'hold_aaaaaaaaaaaaaaaaaaaaaaa1' });
  await entry(db, A, 'hold_released', { held: -500, tx: c5, hold: 'hold_aaaaaaaaaaaaaaaaaaaaaaa1' });
  await insertHold(db, A, 'hold_aaaaaaaaaaaaaaaaaaaaaaa2', 700, 'active', null);
  await entry(db, A, 'hold_placed', { held: 700, hold: 'hold_aaaaaaaaaaaaaaaaaaaaaaa2' });

  // Withdrawals: reserved then debited (sent), released (refused at once), reversed (failed later), returned.
  const sent = async (n: number, status: string, amount: number, extra: Partial<OldTx> = {}) => {
    const id = await insertTx(db, A, { n, type: 'withdrawal', status, amount, fee: 100, providerState: 'sent', ...extra });
    await entry(db, A, 'withdrawal_reserved', { reserved: amount + 100, tx: id });
    await entry(db, A, 'withdrawal_debit', { amount: -(amount + 100), reserved: -(amount + 100), tx: id });
    return id;
  };
  await sent(10, 'paid', 2_000);
  await sent(11, 'processing', 1_000);
  await sent(12, 'failed_unknown', 500);
  const failedLate = await sent(13, 'failed', 800);
  await entry(db, A, 'withdrawal_reversal', { amount: 900, tx: failedLate });
  const returned = await sent(14, 'refunded', 600, { refunded: 600 });
  await entry(db, A, 'withdrawal_returned', { amount: 600, tx: returned });
  const aborted = await insertTx(db, A, { n: 15, type: 'withdrawal', status: 'aborted', amount: 300, fee: 100 });
  await entry(db, A, 'withdrawal_reserved', { reserved: 400, tx: aborted });
  await entry(db, A, 'withdrawal_reservation_released', { reserved: -400, tx: aborted });
  const inFlight = await insertTx(db, A, { n: 16, type: 'withdrawal', status: 'initiating', amount: 400, fee: 100, providerState: 'sending' });
  await entry(db, A, 'withdrawal_reserved', { reserved: 500, tx: inFlight });
  await insertTx(db, A, { n: 17, type: 'withdrawal', status: 'pending_approval', amount: 100, fee: 100 });
  await insertTx(db, A, { n: 18, type: 'withdrawal', status: 'failed', amount: 100_000, fee: 100 });
  await insertTx(db, A, { n: 19, type: 'withdrawal', status: 'cancelled', amount: 100, fee: 100 });
}

/** The old balance rows, as the old code kept them: the sums of each account's entries. */
async function writeOldBalances(db: Kysely<Database>): Promise<void> {
  await sql`INSERT INTO balances (account_id, available_cents, held_cents, reserved_cents, updated_at)
    SELECT a.id, coalesce(sum(e.amount_cents), 0), coalesce(sum(e.held_delta_cents), 0), coalesce(sum(e.reserved_delta_cents), 0), ${at(200)}
    FROM accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id GROUP BY a.id`.execute(db);
}

/** Every transaction row as text (`when` names the read: a statement prepared before a migration cannot be reused after it). */
async function transactionsAsText(db: Kysely<Database>, when: 'before' | 'after'): Promise<string[]> {
  const { rows } = await sql<Record<string, unknown>>`SELECT * FROM transactions ORDER BY id ${sql.raw(`/* ${when} */`)}`.execute(db);
  // Columns later migrations add (each at its neutral value here: nothing in flight, no provider word yet).
  return rows.map(({ status_changed_xid: _stamp, refunding_cents: _refunding, provider_status: _word, provider_status_at: _wordAt, pending_transfer_id: _pending, charge_kind: _kind, static_qrcode_id: _code, payment_link_id: _link, recurrence_id: _recurrence, ...row }) => {
    if (when === 'after') expect({ refunding: _refunding, word: _word }).toEqual({ refunding: 0, word: null });
    // Migrations 026 and 027: every charge before them an immediate one, no static QR code's payment.
    if (when === 'after') expect({ kind: _kind, code: _code }).toEqual({ kind: null, code: null });
    // Migration 029: no charge of a payment link before it.
    if (when === 'after') expect(_link).toBeNull();
    // Migration 030: no cycle of a recurrence before it.
    if (when === 'after') expect(_recurrence).toBeNull();
    // Migration 025 names the reservation of every withdrawal that made one (009 replayed them all).
    if (when === 'after' && row.type === 'withdrawal') expect(_pending !== null, `${String(row.id)} ${String(row.status)}`).toBe(!['pending_approval', 'cancelled'].includes(String(row.status)) && !(row.status === 'failed' && row.provider_state === null));
    return JSON.stringify(row);
  });
}

describe('migration 009: single-entry balances to the double-entry ledger', () => {
  it('keeps every balance and every transaction, and the migrated ledger checks clean', async () => {
    const db = await oldSchemaDatabase();
    await insertAccount(db, A);
    await insertAccount(db, B);
    await populateMerchantA(db);
    await writeOldBalances(db);
    const { rows: old } = await sql<{ account_id: string; available_cents: number; held_cents: number; reserved_cents: number }>`
      SELECT account_id, available_cents, held_cents, reserved_cents FROM balances ORDER BY account_id`.execute(db);
    const transactionsBefore = await transactionsAsText(db, 'before');

    await migrateToLatest(db);

    expect(await transactionsAsText(db, 'after')).toEqual(transactionsBefore);
    // The open withdrawals' money (sent: processing 1_100 and failed_unknown 600; in flight: 500) waits in pending_out.
    const pendingOut: Record<string, number> = { [A]: 1_100 + 600 + 500, [B]: 0 };
    for (const balance of old) {
      const now = await readBalance(db, balance.account_id);
      expect(now, balance.account_id).toEqual({
        availableCents: Number(balance.available_cents) - Number(balance.reserved_cents),
        heldCents: Number(balance.held_cents),
        reservedCents: pendingOut[balance.account_id],
        withdrawableCents: Math.max(0, Number(balance.available_cents) - Number(balance.reserved_cents) - Number(balance.held_cents)),
      });
    }
    // A's figures by hand: 9_901 + 4_950 − 1_000 + 2_970 − 1_500 − 2_100 − 1_100 − 600 − 900 + 900 − 700 + 600 − 500 = 10_921.
    expect((await readBalance(db, A)).availableCents).toBe(10_921);

    // Each system account is the sum of its buckets (migration 024).
    const { rows: system } = await sql<{ id: string; balance_cents: number }>`
      SELECT system_account AS id, sum(balance_cents)::bigint AS balance_cents FROM ledger_accounts WHERE owner_id IS NULL
      GROUP BY system_account ORDER BY system_account`.execute(db);
    // Fees earned: charges 99 + 50 + 30, withdrawals paid and returned 100 + 100. The PSP holds everything else.
    expect(Object.fromEntries(system.map((row) => [row.id, Number(row.balance_cents)]))).toEqual({
      'system:fee_revenue': 379,
      'system:holds_contra': -700,
      'system:psp_settlement': -(10_921 + 2_200 + 379),
      'system:suspense': 0,
    });
    const { rows: states } = await sql<{ id: string; pending: boolean; completed: string | null }>`
      SELECT p.transaction_id AS id, p.pending, c.reason AS completed FROM ledger_transfers p
      LEFT JOIN ledger_transfers c ON c.pending_id = p.id WHERE p.pending ORDER BY p.transaction_id`.execute(db);
    expect(states.map((row) => [row.id, row.completed])).toEqual([
      [txId(10), 'withdrawal_posted'],
      [txId(11), null],
      [txId(12), null],
      [txId(13), 'withdrawal_voided'],
      [txId(14), 'withdrawal_posted'],
      [txId(15), 'withdrawal_voided'],
      [txId(16), null],
    ]);
    expect(await checkLedger(db, { full: true })).toEqual([]);
    // The old rows stay, renamed, for the audit trail.
    const { rows: legacy } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM legacy_ledger_entries`.execute(db);
    expect(legacy[0]?.n).toBeGreaterThan(20);
  });

  it('books what an inconsistent old ledger cannot explain to suspense, where the check reports it', async () => {
    const db = await oldSchemaDatabase();
    await insertAccount(db, B);
    // 50 cents on the balance row with no entry behind them.
    await sql`INSERT INTO balances (account_id, available_cents, held_cents, reserved_cents, updated_at) VALUES (${B}, 50, 0, 0, ${at(0)})`.execute(db);
    await migrateToLatest(db);
    expect((await readBalance(db, B)).availableCents).toBe(50);
    const violations = await checkLedger(db, { full: true });
    expect(violations).toEqual([{ accountId: 'system', problem: 'system:suspense holds -50, but the open reconciliation breaks explain 0: a difference nobody has explained' }]);
  });
});
