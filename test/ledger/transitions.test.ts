/**
 * Issue 34, part 2: one transition per money state machine, booking its own money. Every transition of the
 * withdrawal, refund and charge tables is applied through its machine's move function on a real database,
 * from a row brought to its source state by the same functions, and the ledger check of the account is
 * green after each: the move booked exactly the transfer its table names. Then the other way round: a
 * status written without its transfer, or a transfer booked without its status, is what the check reports.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { giveBack, moveCharge } from '../../src/charges/charge.machine.ts';
import { releaseReturn, reserveReturn } from '../../src/charges/chargeReturns.repository.ts';
import { chargeTransitions, refundedStatus, type ChargeStatus } from '../../src/charges/charge.states.ts';
import type { RefundRow, TransactionRow } from '../../src/db/schema.ts';
import { checkLedger } from '../../src/ledger/ledger.check.ts';
import { generateEndToEndId } from '../../src/primitives/endToEndId.ts';
import { newId } from '../../src/primitives/ids.ts';
import { moveRefund, startRefund } from '../../src/refunds/refund.machine.ts';
import { findRefund } from '../../src/refunds/refund.repository.ts';
import { refundTransitions, type RefundStatus } from '../../src/refunds/refund.states.ts';
import { findTransactionById } from '../../src/transactions/transaction.repository.ts';
import { insertWithdrawal, moveWithdrawal } from '../../src/withdrawals/withdrawal.machine.ts';
import { reserveAtOnce } from '../../src/withdrawals/withdrawalPath.repository.ts';
import { withdrawalStep, withdrawalTransitions, type WithdrawalState, type WithdrawalStatus } from '../../src/withdrawals/withdrawal.states.ts';
import { createMerchant, fund, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

// The rows here are moved in the database alone, not at the simulated provider (whose records the books are
// compared with at the end), and the last tests break a ledger on purpose: each test checks the ledger of its
// own merchant itself instead.
const gateway = useGateway({ checkLedgerAtEnd: false });
const db = () => gateway.deps.db;
const AT = new Date('2026-11-20T12:00:00Z');
const AMOUNT = 1_000;
const FEE = 50;

let merchant: MerchantFixture;
beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 10_000_000);
});

const violations = async (of: MerchantFixture = merchant) => (await checkLedger(db(), { accountId: of.accountId })).map((violation) => violation.problem);

/** The shortest way from one of `starts` to each state of a table, as the list of states after the start. */
function paths<S extends string>(starts: S[], transitions: { from: string; to: S }[]): Map<string, S[]> {
  const found = new Map<string, S[]>(starts.map((start) => [start, [start]]));
  const queue = [...starts] as string[];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const t of transitions.filter((t) => t.from === from && !found.has(t.to))) {
      found.set(t.to, [...found.get(from)!, t.to]);
      queue.push(t.to);
    }
  }
  return found;
}

// ---- Withdrawals -----------------------------------------------------------------------------------------

const parse = (state: string): WithdrawalState => {
  const [status, provider] = state.split('/');
  return { status: status as WithdrawalStatus, providerState: provider === '-' ? null : (provider as 'sending' | 'sent') };
};

/** A new withdrawal in `state`: reserved by `withdrawal_reserve` (in flight), or inserted (no money moved). */
async function newWithdrawal(state: string, of: MerchantFixture = merchant): Promise<TransactionRow> {
  const id = newId('tx');
  if (state === 'initiating/sending') {
    await reserveAtOnce(db(), {
      id,
      accountId: of.accountId,
      amountCents: AMOUNT,
      feeCents: FEE,
      externalRef: null,
      keyExpiresAt: AT,
      pixKey: '52998224725',
      pixKeyType: 'cpf',
      description: null,
      recipientId: null,
      at: AT,
      slots: [],
      caps: { day: '2026-11-20', month: '2026-11-01', dailyCents: 1e12, monthlyCents: 1e12 },
      step: withdrawalStep(undefined, parse(state)),
    });
    return (await findTransactionById(db(), id))!;
  }
  return db()
    .transaction()
    .execute((trx) =>
      insertWithdrawal(
        trx,
        {
          id,
          account_id: of.accountId,
          type: 'withdrawal',
          amount_cents: AMOUNT,
          fee_cents: FEE,
          net_cents: AMOUNT + FEE,
          total_deducted_cents: AMOUNT + FEE,
          pix_key: '52998224725',
          pix_key_type: 'cpf',
          created_at: AT,
          updated_at: AT,
        },
        parse(state),
      ),
    );
}

/** One move of a withdrawal; a return gives back half of what is left, or all of it for `refunded`. */
function moveTo(row: TransactionRow, state: string): Promise<TransactionRow> {
  const to = parse(state);
  const already = row.refunded_cents ?? 0;
  const returned = to.status === 'refunded' ? AMOUNT : to.status === 'partially_refunded' ? already + (AMOUNT - already) / 2 : undefined;
  return db()
    .transaction()
    .execute((trx) =>
      moveWithdrawal(trx, row, to, AT, returned === undefined ? {} : { refunded_cents: returned }, returned === undefined ? {} : { returnedCents: returned - already }),
    );
}

describe('the withdrawal machine, applied', () => {
  const transitions = withdrawalTransitions();
  const starts = transitions.filter((t) => t.from === 'new/-').map((t) => t.to);
  const ways = paths(starts, transitions.filter((t) => t.from !== 'new/-'));

  it.each(transitions.map((t) => [`${t.from} -> ${t.to} (${t.step})`, t] as const))('%s books its step, and the ledger check agrees', async (_name, t) => {
    const path = t.from === 'new/-' ? [t.to] : [...ways.get(t.from)!, t.to];
    let row = await newWithdrawal(path[0]!);
    let reserved = withdrawalStep(undefined, parse(path[0]!)) === 'reserve';
    for (const state of path.slice(1)) {
      reserved ||= withdrawalStep(parse(`${row.status}/${row.provider_state ?? '-'}`), parse(state)) === 'reserve';
      row = await moveTo(row, state);
    }
    expect(`${row.status}/${row.provider_state ?? '-'}`).toBe(t.to);
    // The reservation's pending transfer is named on the row once made, and stays (a post or void completes it).
    expect(row.pending_transfer_id !== null).toBe(reserved);
    expect(await violations()).toEqual([]);
  });

  it('refuses a move from a state the withdrawal is no longer in (SQLSTATE PXM01), changing nothing', async () => {
    const row = await newWithdrawal('initiating/sending');
    await moveTo(row, 'processing/sent');
    await expect(moveTo(row, 'failed_unknown/sent')).rejects.toMatchObject({ code: 'PXM01' });
    expect((await findTransactionById(db(), row.id))?.status).toBe('processing');
    expect(await violations()).toEqual([]);
  });
});

// ---- Refunds ---------------------------------------------------------------------------------------------

async function paidCharge(of: MerchantFixture = merchant): Promise<TransactionRow> {
  const { data } = await of.client.POST('/v1/pix', { body: { amountCents: AMOUNT * 4, customer: validCustomer } });
  const pay = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId: data!.transactionId } } });
  expect(pay.response.status).toBe(200);
  return (await findTransactionById(db(), data!.transactionId))!;
}

/** A new refund of a paid charge, `initiating`, with the charge's return reserved as the service does. */
async function newRefund(charge: TransactionRow): Promise<RefundRow> {
  const accountId = charge.account_id;
  return db()
    .transaction()
    .execute(async (trx) => {
      expect(await reserveReturn(trx, charge.id, AMOUNT)).toBe(true);
      return startRefund(trx, { id: newId('rf'), account_id: accountId, transaction_id: charge.id, amount_cents: AMOUNT, created_at: AT, updated_at: AT }, AT);
    });
}

/** One move of a refund; `refunded` through its charge (`giveBack`), the one way a refund is posted. */
async function moveRefundTo(refund: RefundRow, to: RefundStatus): Promise<RefundRow> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const charge = (await findTransactionById(trx, refund.transaction_id))!;
      if (to === 'refunded') {
        const status = refundedStatus(Number(charge.refunded_cents ?? 0) + AMOUNT, Number(charge.amount_cents));
        const given = await giveBack(trx, charge, { amountCents: AMOUNT, status, reservedCents: AMOUNT, countInFlight: false, at: AT }, { kind: 'refund', refund, changes: { refunded_at: AT } });
        return given.refund!;
      }
      if (to === 'failed' || to === 'aborted') await releaseReturn(trx, charge.id, AMOUNT);
      return moveRefund(trx, refund, to, AT);
    });
}

describe('the refund machine, applied', () => {
  const transitions = refundTransitions();
  const ways = paths<RefundStatus>(['initiating'], transitions.filter((t) => t.from !== 'new'));

  it.each(transitions.map((t) => [`${t.from} -> ${t.to} (${t.step})`, t] as const))('%s books its step, and the ledger check agrees', async (_name, t) => {
    let refund = await newRefund(await paidCharge());
    if (t.from !== 'new') {
      for (const state of ways.get(t.from)!.slice(1)) refund = await moveRefundTo(refund, state);
      refund = await moveRefundTo(refund, t.to);
    }
    expect(refund.status).toBe(t.to);
    expect(refund.pending_transfer_id).not.toBeNull();
    expect(await violations()).toEqual([]);
  });

  it('refuses a refund its balance does not cover, leaving no refund and no transfer', async () => {
    const poor = await createMerchant(gateway);
    const { data } = await poor.client.POST('/v1/pix', { body: { amountCents: AMOUNT, customer: validCustomer } });
    await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId: data!.transactionId } } });
    // Its whole balance leaves with a withdrawal first (the charge's net is what it has).
    const { rows } = await sql<{ available: number }>`SELECT balance_cents::int AS available FROM ledger_accounts WHERE id = ${`${poor.accountId}:available`}`.execute(db());
    await sql`SELECT ledger_transfer('correction', NULL, NULL, false, NULL, now(), ARRAY[${`${poor.accountId}:available`}, 'system:suspense'], ARRAY[${-rows[0]!.available}, ${rows[0]!.available}]::bigint[])`.execute(db());
    const id = newId('rf');
    await expect(
      db()
        .transaction()
        .execute((trx) => startRefund(trx, { id, account_id: poor.accountId, transaction_id: data!.transactionId, amount_cents: AMOUNT, created_at: AT, updated_at: AT }, AT)),
    ).rejects.toThrow();
    expect(await findRefund(db(), id)).toBeUndefined();
    await sql`SELECT ledger_transfer('correction', NULL, NULL, false, NULL, now(), ARRAY[${`${poor.accountId}:available`}, 'system:suspense'], ARRAY[${rows[0]!.available}, ${-rows[0]!.available}]::bigint[])`.execute(db());
  });
});

// ---- Charges ---------------------------------------------------------------------------------------------

async function pendingCharge(of: MerchantFixture = merchant): Promise<TransactionRow> {
  const { data } = await of.client.POST('/v1/pix', { body: { amountCents: AMOUNT * 4, customer: validCustomer } });
  return (await findTransactionById(db(), data!.transactionId))!;
}

/** One move of a charge: paid, expired, cancelled, failed through `moveCharge`; money given back through `giveBack`. */
function moveChargeTo(charge: TransactionRow, to: ChargeStatus): Promise<TransactionRow> {
  return db()
    .transaction()
    .execute(async (trx) => {
      if (to === 'partially_refunded' || to === 'refunded') {
        const left = Number(charge.amount_cents) - Number(charge.refunded_cents ?? 0);
        const amountCents = to === 'refunded' ? left : left / 4;
        const given = await giveBack(
          trx,
          charge,
          { amountCents, status: to, reservedCents: 0, countInFlight: false, at: AT },
          { kind: 'take_back', reason: 'chargeback', holdId: null },
        );
        expect(given.shortfallCents).toBe(0);
        return given.charge!;
      }
      if (to === 'pending') throw new Error('a charge is created pending');
      return moveCharge(trx, charge, to, AT, to === 'paid' ? { paid_at: AT, end_to_end_id: generateEndToEndId({ ispb: '99999004', atMs: AT.getTime(), kind: 'E' }) } : { paid_at: AT });
    });
}

describe('the charge machine, applied', () => {
  const transitions = chargeTransitions();
  const ways = paths<ChargeStatus>(['pending'], transitions.filter((t) => t.from !== 'new'));

  it.each(transitions.filter((t) => t.from !== 'new').map((t) => [`${t.from} -> ${t.to} (${t.step})`, t] as const))(
    '%s books its step, and the ledger check agrees',
    async (_name, t) => {
      let charge = await pendingCharge();
      for (const state of ways.get(t.from)!.slice(1)) charge = await moveChargeTo(charge, state);
      charge = await moveChargeTo(charge, t.to);
      expect(charge.status).toBe(t.to);
      expect(await violations()).toEqual([]);
    },
  );
});

// ---- A status without its transfer, a transfer without its status ------------------------------------------

describe('what the ledger check catches', () => {
  let rogue: MerchantFixture;
  beforeAll(async () => {
    rogue = await createMerchant(gateway);
    await relaxLimits(gateway, rogue.accountId);
    await fund(gateway, rogue, 1_000_000);
  });

  it('a withdrawal, a refund and a charge whose status changed without its transfer', async () => {
    const withdrawal = await newWithdrawal('initiating/sending', rogue);
    const refund = await newRefund(await paidCharge(rogue));
    const charge = await pendingCharge(rogue);
    expect(await violations(rogue)).toEqual([]);
    await sql`UPDATE transactions SET status = 'paid', provider_state = 'sent' WHERE id = ${withdrawal.id}`.execute(db());
    await sql`UPDATE refunds SET status = 'refunded' WHERE id = ${refund.id}`.execute(db());
    await sql`UPDATE transactions SET status = 'paid' WHERE id = ${charge.id}`.execute(db());
    const found = await violations(rogue);
    for (const id of [withdrawal.id, refund.id, charge.id]) expect(found.some((problem) => problem.includes(id)), `${id}: ${found.join('\n')}`).toBe(true);
    // Put back: the statuses and their transfers agree again.
    await sql`UPDATE transactions SET status = 'initiating', provider_state = 'sending' WHERE id = ${withdrawal.id}`.execute(db());
    await sql`UPDATE refunds SET status = 'initiating' WHERE id = ${refund.id}`.execute(db());
    await sql`UPDATE transactions SET status = 'pending' WHERE id = ${charge.id}`.execute(db());
    expect(await violations(rogue)).toEqual([]);
  });

  it('a transfer booked without its status: a reservation, a post and a credit', async () => {
    const waiting = await newWithdrawal('pending_approval/-', rogue);
    const inFlight = await newWithdrawal('initiating/sending', rogue);
    const charge = await pendingCharge(rogue);
    expect(await violations(rogue)).toEqual([]);
    await sql`SELECT withdrawal_book(${waiting.id}, 'reserve', ${AT}, NULL)`.execute(db());
    await sql`SELECT withdrawal_book(${inFlight.id}, 'post', ${AT}, NULL)`.execute(db());
    await sql`SELECT charge_book(${charge.id}, 'credit', ${AT})`.execute(db());
    const found = await violations(rogue);
    for (const id of [waiting.id, inFlight.id, charge.id]) expect(found.some((problem) => problem.includes(id)), `${id}: ${found.join('\n')}`).toBe(true);
  });
});
