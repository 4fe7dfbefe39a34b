/**
 * Property test of the money operations run CONCURRENTLY. fast-check draws sequences of steps; each step is
 * 2-5 operations of one merchant sent at the same time (charges paid, withdrawals in both approval modes,
 * approvals and rejections, the PSP settling, refusing and returning, reconciliation, holds on the balance
 * and on charges, releases, chargebacks, refunds). Their order is the server's, so no model predicts the
 * answers: each must be one the contract allows for that operation (never a 500), and after EVERY step the
 * ledger must hold: the check finds nothing (all accounts sum to zero, balances equal their entries, every
 * transaction's transfers match its status), pending_out equals the withdrawals still open, the held memo
 * equals the active holds, and GET /v1/balance says what the ledger says. On Postgres (npm run test:pg)
 * the operations really run in parallel; on PGlite their statements interleave on one connection.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/ledger/ledger.check.ts';
import { readBalance } from '../../src/ledger/ledger.repository.ts';
import { createMerchant, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

const gateway = useGateway();

type Op =
  | { kind: 'pay'; amount: number }
  | { kind: 'withdraw'; amount: number }
  | { kind: 'approve' | 'reject' | 'settle' | 'pspReject' | 'release'; pick: number }
  | { kind: 'pspReturn' | 'refund' | 'chargeback'; pick: number; share: number }
  | { kind: 'hold'; amount: number; onCharge: number | null }
  | { kind: 'reconcile' };

const pick = fc.nat({ max: 1_000 });
const share = fc.double({ min: 0.05, max: 1.1, noNaN: true });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 100, max: 20_000 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), amount: fc.integer({ min: 100, max: 12_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('approve' as const, 'reject' as const), pick }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('settle' as const, 'pspReject' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('pspReturn' as const, 'refund' as const, 'chargeback' as const), pick, share }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('hold' as const), amount: fc.integer({ min: 1, max: 15_000 }), onCharge: fc.option(pick, { freq: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), pick }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reconcile' as const }) },
);

/** The answers the contract allows each operation, whatever ran beside it. */
const ALLOWED: Record<Op['kind'], number[]> = {
  pay: [200],
  withdraw: [201, 422],
  approve: [200, 409],
  reject: [200, 409],
  settle: [200, 409],
  pspReject: [200, 409],
  pspReturn: [200, 409],
  refund: [200, 409],
  chargeback: [200, 409],
  hold: [201, 409],
  release: [200, 409],
  reconcile: [200],
};

class ConcurrentRunner {
  readonly merchant: MerchantFixture;
  readonly trail: string[] = [];
  constructor(merchant: MerchantFixture) {
    this.merchant = merchant;
  }

  private async ids(type: 'pix_in' | 'withdrawal', statuses: string[]): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`SELECT id FROM transactions WHERE account_id = ${this.merchant.accountId}
      AND type = ${type} AND status IN (${sql.join(statuses)}) ORDER BY created_at, id`.execute(gateway.deps.db);
    return rows.map((row) => row.id);
  }

  private async holdIds(onCharge: boolean): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`SELECT id FROM holds WHERE account_id = ${this.merchant.accountId} AND status = 'active'
      AND (transaction_id IS NOT NULL) = ${onCharge} ORDER BY created_at, id`.execute(gateway.deps.db);
    return rows.map((row) => row.id);
  }

  /** Resolves an operation's target (read before the step: another operation of the step may change it). */
  async prepare(op: Op): Promise<() => Promise<number>> {
    const of = <T>(list: T[], n: number) => list[n % Math.max(1, list.length)];
    const admin = gateway.admin;
    const accountId = this.merchant.accountId;
    switch (op.kind) {
      case 'pay': {
        const created = await this.merchant.client.POST('/v1/pix', { body: { amountCents: op.amount, customer: validCustomer } });
        const id = created.data!.transactionId;
        return async () => (await admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId: id } } })).response.status;
      }
      case 'withdraw':
        return async () =>
          (await this.merchant.client.POST('/v1/withdraw', { body: { amountCents: op.amount, pixKey: '52998224725', pixKeyType: 'cpf' } })).response.status;
      case 'approve':
      case 'reject': {
        const id = of(await this.ids('withdrawal', ['pending_approval']), op.pick);
        if (!id) return async () => 200;
        const path = { params: { path: { transactionId: id } } };
        return async () =>
          op.kind === 'approve'
            ? (await admin.POST('/admin/v1/withdrawals/{transactionId}/approve', path)).response.status
            : (await admin.POST('/admin/v1/withdrawals/{transactionId}/reject', { ...path, body: { reason: 'Teste.' } })).response.status;
      }
      case 'settle':
      case 'pspReject': {
        const id = of(await this.ids('withdrawal', ['processing']), op.pick);
        if (!id) return async () => 200;
        const path = { params: { path: { transactionId: id } } };
        return async () =>
          op.kind === 'settle'
            ? (await admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', path)).response.status
            : (await admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/reject', {
                ...path,
                body: { refusedCode: 'INVALID_PIX_KEY', refusedReason: 'Chave PIX inexistente no DICT.' },
              })).response.status;
      }
      case 'pspReturn': {
        const id = of(await this.ids('withdrawal', ['paid', 'partially_refunded']), op.pick);
        if (!id) return async () => 200;
        const amount = Math.max(1, Math.round(12_000 * op.share * 0.3));
        return async () =>
          (await admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/return', { params: { path: { transactionId: id } }, body: { amountCents: amount } }))
            .response.status;
      }
      case 'refund': {
        const id = of(await this.ids('pix_in', ['paid', 'partially_refunded']), op.pick);
        if (!id) return async () => 200;
        const amount = Math.max(1, Math.round(5_000 * op.share));
        return async () =>
          (await admin.POST('/admin/v1/sandbox/charges/{transactionId}/refund', { params: { path: { transactionId: id } }, body: { amountCents: amount } }))
            .response.status;
      }
      case 'chargeback': {
        const holdId = of(await this.holdIds(true), op.pick);
        if (!holdId) return async () => 200;
        return async () =>
          (await admin.POST('/admin/v1/accounts/{accountId}/holds/{holdId}/chargeback', { params: { path: { accountId, holdId } }, body: {} })).response.status;
      }
      case 'hold': {
        const chargeId = op.onCharge === null ? undefined : of(await this.ids('pix_in', ['paid', 'partially_refunded']), op.onCharge);
        const body = { amountCents: chargeId ? Math.min(op.amount, 100) : op.amount, reason: 'med' as const, ...(chargeId ? { transactionId: chargeId } : {}) };
        return async () => (await admin.POST('/admin/v1/accounts/{accountId}/holds', { params: { path: { accountId } }, body })).response.status;
      }
      case 'release': {
        const holdId = of(await this.holdIds(false), op.pick);
        if (!holdId) return async () => 200;
        return async () => (await admin.POST('/admin/v1/accounts/{accountId}/holds/{holdId}/release', { params: { path: { accountId, holdId } } })).response.status;
      }
      case 'reconcile':
        return async () => (await admin.POST('/admin/v1/sandbox/reconcile')).response.status;
    }
  }

  async step(ops: Op[]): Promise<void> {
    this.trail.push(ops.map((op) => op.kind).join(' | '));
    const calls = await Promise.all(ops.map((op) => this.prepare(op)));
    const statuses = await Promise.all(calls.map((call) => call()));
    statuses.forEach((status, index) => expect(ALLOWED[ops[index]!.kind], `${ops[index]!.kind} answered ${status}; steps:\n${this.trail.join('\n')}`).toContain(status));
    await this.checkInvariants();
  }

  async checkInvariants(): Promise<void> {
    const { accountId } = this.merchant;
    const db = gateway.deps.db;
    expect(await checkLedger(db, { accountId }), this.trail.join('\n')).toEqual([]);
    const balance = await readBalance(db, accountId);
    const { rows } = await sql<{ open: number; held: number }>`
      SELECT
        (SELECT coalesce(sum(net_cents), 0) FROM transactions WHERE account_id = ${accountId} AND type = 'withdrawal'
           AND status IN ('initiating', 'processing', 'failed_unknown'))::bigint AS open,
        (SELECT coalesce(sum(amount_cents), 0) FROM holds WHERE account_id = ${accountId} AND status = 'active')::bigint AS held`.execute(db);
    expect(balance.availableCents).toBeGreaterThanOrEqual(0);
    expect(balance.reservedCents, 'pending_out = the open withdrawals').toBe(Number(rows[0]?.open));
    expect(balance.heldCents, 'held = the active holds').toBe(Number(rows[0]?.held));
    const { data } = await this.merchant.client.GET('/v1/balance');
    expect(data?.available).toBe(balance.availableCents);
  }
}

describe('ledger properties under concurrency', () => {
  it('after every step of concurrent money operations the ledger is consistent', async () => {
    expect(gateway.loggedErrors).toEqual([]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(opArb, { minLength: 2, maxLength: 5 }), { minLength: 8, maxLength: 16 }), async (steps) => {
        const merchant = await createMerchant(gateway);
        await relaxLimits(gateway, merchant.accountId, { chargeFeeBps: 99, withdrawalApprovalThresholdCents: 8_000 });
        const runner = new ConcurrentRunner(merchant);
        for (const ops of steps) await runner.step(ops);
        // Whole-ledger check too, across every merchant the runs created.
        expect(await checkLedger(gateway.deps.db, { full: true })).toEqual([]);
      }),
      { numRuns: 12, endOnFailure: true },
    );
    expect(gateway.loggedErrors).toEqual([]);
  }, 180_000);
});
