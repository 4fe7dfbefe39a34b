/**
 * Model-based property test of the money paths. fast-check draws sequences of 30-60 operations (charges
 * paid, withdrawals in both approval modes with every PSP outcome, the PSP settling, refusing and returning
 * them, reconciliation, holds and chargebacks, refunds of charges); each sequence runs on a fresh merchant against a real
 * gateway over HTTP, next to a small model that predicts every answer and the available balance. After
 * EVERY step: `checkLedger` finds no violation, nothing is negative, nothing stays reserved between
 * requests, the held total is the model's, and GET /v1/balance `available` equals the model's
 * (credited net amounts − debited totals + reversals and returns − chargebacks − refunds).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { checkLedger } from '../../src/ledger/ledger.check.ts';
import { readBalance } from '../../src/ledger/ledger.repository.ts';
import type { FaultOutcome } from '../../src/provider/simulated.ts';
import {
  createMerchant,
  relaxLimits,
  useGateway,
  validCustomer,
  type MerchantFixture,
} from '../support/gateway.ts';

const gateway = useGateway();

const CHARGE_FEE_BPS = 99;
const WITHDRAWAL_FEE = 100;
/** Withdrawals above this wait for the back office's approval (pending_approval). */
const APPROVAL_THRESHOLD = 8_000;
const HOLDER_CPF = '52998224725';

type Outcome = FaultOutcome;
type Reason = 'med' | 'dispute' | 'protest' | 'administrative';

type Command =
  | { kind: 'pay'; amount: number }
  | { kind: 'pendingCharge'; amount: number }
  /** The merchant returns `share` of a charge's amount to the payer (over what is left: refused). */
  | { kind: 'refund'; pick: number; share: number }
  | { kind: 'withdraw'; amount: number; outcome: Outcome }
  | { kind: 'approve'; pick: number; outcome: Outcome }
  | { kind: 'reject'; pick: number }
  | { kind: 'settle'; pick: number }
  | { kind: 'pspReject'; pick: number }
  | { kind: 'pspReturn'; pick: number; share: number }
  | { kind: 'reconcile' }
  /** On the balance (`target` null): `amount`; on a charge: `share` of the charge's amount (over 1: refused). */
  | { kind: 'hold'; amount: number; share: number; target: number | null; reason: Reason }
  | { kind: 'release'; pick: number }
  | { kind: 'chargeback'; pick: number; share: number | null }
  | { kind: 'advance'; ms: number };

const outcomeArb = fc.constantFrom<Outcome>('succeed', 'succeed', 'succeed', 'fail', 'timeout', 'timeout_unsent', 'cut');
const pickArb = fc.nat({ max: 1_000 });
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 100, max: 20_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pendingCharge' as const), amount: fc.integer({ min: 100, max: 5_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: pickArb, share: fc.double({ min: 0.05, max: 1.1, noNaN: true }) }) },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('withdraw' as const), amount: fc.integer({ min: 100, max: 12_000 }), outcome: outcomeArb }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('approve' as const), pick: pickArb, outcome: outcomeArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reject' as const), pick: pickArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const), pick: pickArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pspReject' as const), pick: pickArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pspReturn' as const), pick: pickArb, share: fc.double({ min: 0.05, max: 1.2, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reconcile' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('hold' as const),
      amount: fc.integer({ min: 1, max: 15_000 }),
      share: fc.double({ min: 0.05, max: 1.1, noNaN: true }),
      target: fc.option(pickArb, { freq: 4 }),
      reason: fc.constantFrom<Reason>('med', 'dispute', 'protest', 'administrative'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), pick: pickArb }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('chargeback' as const),
      pick: pickArb,
      share: fc.option(fc.double({ min: 0.05, max: 1.3, noNaN: true }), { freq: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 3_600_000 }) }) },
);

type WithdrawalStatus = 'processing' | 'pending_approval' | 'failed_unknown' | 'paid' | 'failed' | 'refunded' | 'partially_refunded';
interface ModelWithdrawal {
  id: string;
  amount: number;
  total: number;
  status: WithdrawalStatus;
  /** What the simulated PSP holds for it. */
  psp: 'none' | 'accepted' | 'paid' | 'rejected' | 'returned';
  returned: number;
}
interface ModelCharge {
  id: string;
  amount: number;
  net: number;
  status: 'pending' | 'paid' | 'partially_refunded' | 'refunded';
  refunded: number;
}
interface ModelHold {
  id: string;
  amount: number;
  chargeId: string | null;
  active: boolean;
}
interface Model {
  available: number;
  held: number;
  charges: ModelCharge[];
  withdrawals: ModelWithdrawal[];
  holds: ModelHold[];
}

const OPEN = new Set<WithdrawalStatus>(['processing', 'failed_unknown']);
const CHARGEABLE = new Set(['paid', 'partially_refunded']);

/** Picks from the preferred candidates most of the time, else from everything (to exercise refusals). */
function choose<T>(all: T[], preferred: (item: T) => boolean, pick: number): T | undefined {
  const candidates = all.filter(preferred);
  const pool = candidates.length > 0 && pick % 5 !== 0 ? candidates : all;
  return pool.length === 0 ? undefined : pool[pick % pool.length];
}

const withdrawable = (model: Model) => model.available - model.held;

class Runner {
  readonly model: Model = { available: 0, held: 0, charges: [], withdrawals: [], holds: [] };
  readonly trail: string[] = [];
  readonly merchant: MerchantFixture;
  constructor(merchant: MerchantFixture) {
    this.merchant = merchant;
  }

  private async withdraw(body: Record<string, unknown>) {
    const response = await fetch(`${gateway.baseUrl}/v1/withdraw`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.merchant.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  private queue(outcome: Outcome): void {
    if (outcome !== 'succeed') gateway.provider.queueOutcome('sendWithdrawal', outcome);
  }

  async run(command: Command): Promise<void> {
    this.trail.push(JSON.stringify(command));
    try {
      await this.apply(command);
      await this.checkInvariants();
    } catch (error) {
      // Name the step: the counterexample fast-check prints is the whole sequence.
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`step ${this.trail.length} ${this.trail.at(-1)} (model ${JSON.stringify(this.model)}): ${message}`, { cause: error });
    } finally {
      gateway.provider.clearOutcomes();
    }
  }

  private async apply(command: Command): Promise<void> {
    const m = this.model;
    switch (command.kind) {
      case 'pay':
      case 'pendingCharge': {
        const created = await this.merchant.client.POST('/v1/pix', { body: { amountCents: command.amount, customer: validCustomer } });
        expect(created.response.status).toBe(201);
        const id = created.data?.transactionId ?? '';
        const fee = Math.floor((command.amount * CHARGE_FEE_BPS + 5_000) / 10_000);
        const charge: ModelCharge = { id, amount: command.amount, net: command.amount - fee, status: 'pending', refunded: 0 };
        m.charges.push(charge);
        if (command.kind === 'pendingCharge') return;
        const paid = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId: id } } });
        expect(paid.data).toMatchObject({ status: 'paid', netCents: charge.net, feeCents: fee });
        charge.status = 'paid';
        m.available += charge.net;
        return;
      }
      case 'refund': {
        const charge = choose(m.charges, (c) => CHARGEABLE.has(c.status), command.pick);
        if (!charge) return;
        const amount = Math.max(1, Math.round(charge.amount * command.share));
        const result = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/refund', {
          params: { path: { transactionId: charge.id } },
          body: { amountCents: amount },
        });
        if (!CHARGEABLE.has(charge.status) || charge.refunded + amount > charge.amount || amount > withdrawable(m)) {
          expect(result.response.status).toBe(409);
          return;
        }
        charge.refunded += amount;
        charge.status = charge.refunded >= charge.amount ? 'refunded' : 'partially_refunded';
        expect(result.data).toMatchObject({ status: charge.status, refundedCents: charge.refunded });
        m.available -= amount;
        return;
      }
      case 'withdraw': {
        const total = command.amount + WITHDRAWAL_FEE;
        const body = { amountCents: command.amount, pixKey: HOLDER_CPF, pixKeyType: 'cpf' };
        if (command.amount > APPROVAL_THRESHOLD) {
          const result = await this.withdraw(body);
          expect(result).toMatchObject({ status: 201, body: { status: 'pending_approval', totalDeducted: total } });
          m.withdrawals.push({ id: String(result.body.transactionId), amount: command.amount, total, status: 'pending_approval', psp: 'none', returned: 0 });
          return;
        }
        if (total > withdrawable(m)) {
          expect(await this.withdraw(body)).toEqual({ status: 422, body: { error: messages.insufficientBalance } });
          return;
        }
        this.queue(command.outcome);
        const result = await this.withdraw(body);
        const record = (status: WithdrawalStatus, psp: ModelWithdrawal['psp'], id: string) => {
          m.withdrawals.push({ id, amount: command.amount, total, status, psp, returned: 0 });
          m.available -= total;
        };
        switch (command.outcome) {
          case 'succeed':
            expect(result).toMatchObject({ status: 201, body: { status: 'processing', totalDeducted: total } });
            return record('processing', 'accepted', String(result.body.transactionId));
          case 'fail':
            expect(result).toEqual({ status: 502, body: { error: messages.withdrawProviderError } });
            return;
          case 'timeout':
          case 'timeout_unsent':
            expect(result).toEqual({ status: 202, body: { error: messages.withdrawUnknown, transactionId: expect.any(String), status: 'failed_unknown' } });
            return record('failed_unknown', command.outcome === 'timeout' ? 'accepted' : 'none', String(result.body.transactionId));
          case 'cut': {
            expect(result.status).toBe(502);
            const id = /(tx_[0-9a-f]{24})$/.exec(String(result.body.error))?.[1] ?? '';
            expect(result.body).toEqual({ error: messages.withdrawConfirmationCut(id) });
            return record('processing', 'accepted', id);
          }
        }
        return;
      }
      case 'approve': {
        const w = choose(m.withdrawals, (x) => x.status === 'pending_approval', command.pick);
        if (!w) return;
        const willSend = w.status === 'pending_approval' && w.total <= withdrawable(m);
        if (willSend) this.queue(command.outcome);
        const result = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', { params: { path: { transactionId: w.id } } });
        if (w.status !== 'pending_approval') {
          expect(result.response.status).toBe(409);
          return;
        }
        if (!willSend) {
          expect(result.data).toMatchObject({ status: 'failed', refusedCode: 'INSUFFICIENT_BALANCE' });
          w.status = 'failed';
          return;
        }
        const outcome = command.outcome;
        if (outcome === 'fail') {
          expect(result.data).toMatchObject({ status: 'failed', refusedCode: 'PROVIDER_REJECTED' });
          w.status = 'failed';
          return;
        }
        const unknown = outcome === 'timeout' || outcome === 'timeout_unsent';
        expect(result.data?.status).toBe(unknown ? 'failed_unknown' : 'processing');
        w.status = unknown ? 'failed_unknown' : 'processing';
        w.psp = outcome === 'timeout_unsent' ? 'none' : 'accepted';
        m.available -= w.total;
        return;
      }
      case 'reject': {
        const w = choose(m.withdrawals, (x) => x.status === 'pending_approval', command.pick);
        if (!w) return;
        const result = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/reject', {
          params: { path: { transactionId: w.id } },
          body: {},
        });
        if (w.status !== 'pending_approval') {
          expect(result.response.status).toBe(409);
          return;
        }
        expect(result.data).toMatchObject({ status: 'failed', refusedCode: 'REJECTED_BY_COMPLIANCE' });
        w.status = 'failed';
        return;
      }
      case 'settle':
      case 'pspReject': {
        const w = choose(m.withdrawals, (x) => x.psp === 'accepted', command.pick);
        if (!w) return;
        const params = { params: { path: { transactionId: w.id } } };
        const result =
          command.kind === 'settle'
            ? await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', params)
            : await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/reject', {
                ...params,
                body: { refusedCode: 'INVALID_PIX_KEY', refusedReason: 'Chave PIX inexistente no DICT.' },
              });
        if (w.psp !== 'accepted') {
          expect(result.response.status).toBe(409);
          return;
        }
        // Every PSP-accepted withdrawal is open (processing or failed_unknown) in the model.
        expect(OPEN.has(w.status)).toBe(true);
        if (command.kind === 'settle') {
          expect(result.data).toMatchObject({ status: 'paid', beneficiary: { document: HOLDER_CPF } });
          w.status = 'paid';
          w.psp = 'paid';
        } else {
          expect(result.data).toMatchObject({ status: 'failed', refusedCode: 'INVALID_PIX_KEY' });
          w.status = 'failed';
          w.psp = 'rejected';
          m.available += w.total;
        }
        return;
      }
      case 'pspReturn': {
        const w = choose(m.withdrawals, (x) => x.psp === 'paid' || (x.psp === 'returned' && x.returned < x.amount), command.pick);
        if (!w) return;
        const amount = Math.max(1, Math.round(w.amount * command.share));
        const result = await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/return', {
          params: { path: { transactionId: w.id } },
          body: { amountCents: amount },
        });
        if ((w.psp !== 'paid' && w.psp !== 'returned') || w.returned + amount > w.amount) {
          expect(result.response.status).toBe(409);
          return;
        }
        w.returned += amount;
        w.psp = 'returned';
        w.status = w.returned >= w.amount ? 'refunded' : 'partially_refunded';
        // What the beneficiary's bank returns comes back; PixGate's fee does not.
        m.available += amount;
        expect(result.data).toMatchObject({ status: w.status, refundedCents: w.returned });
        return;
      }
      case 'reconcile': {
        const result = await gateway.admin.POST('/admin/v1/sandbox/reconcile');
        expect(result.response.status).toBe(200);
        for (const w of m.withdrawals) {
          if (w.status !== 'failed_unknown') continue;
          if (w.psp === 'accepted') {
            // The PSP holds it: still failed_unknown until paid or failed (the contract's transitions).
          } else {
            w.status = 'failed';
            m.available += w.total;
          }
        }
        return;
      }
      case 'hold': {
        const charge = command.target === null ? undefined : choose(m.charges, (c) => CHARGEABLE.has(c.status), command.target);
        const amount = charge ? Math.max(1, Math.round(charge.amount * command.share)) : command.amount;
        const body = { amountCents: amount, reason: command.reason, ...(charge ? { transactionId: charge.id } : {}) };
        const result = await gateway.admin.POST('/admin/v1/accounts/{accountId}/holds', {
          params: { path: { accountId: this.merchant.accountId } },
          body,
        });
        if (charge && !CHARGEABLE.has(charge.status)) {
          expect(result.response.status).toBe(409);
          expect(result.error).toEqual({ error: `Retenções sobre uma transação exigem uma cobrança paga: a transação é do tipo 'pix_in' e está em '${charge.status}'.` });
          return;
        }
        if (charge && amount > charge.amount) {
          expect(result.response.status).toBe(409);
          expect(result.error).toEqual({ error: 'A retenção sobre uma cobrança não pode exceder o valor dela.' });
          return;
        }
        expect(result.response.status).toBe(201);
        m.holds.push({ id: result.data?.holdId ?? '', amount, chargeId: charge?.id ?? null, active: true });
        m.held += amount;
        return;
      }
      case 'release': {
        const hold = choose(m.holds, (h) => h.active, command.pick);
        if (!hold) return;
        const result = await gateway.admin.POST('/admin/v1/accounts/{accountId}/holds/{holdId}/release', {
          params: { path: { accountId: this.merchant.accountId, holdId: hold.id } },
        });
        if (!hold.active) {
          expect(result.response.status).toBe(409);
          return;
        }
        expect(result.data?.status).toBe('released');
        hold.active = false;
        m.held -= hold.amount;
        return;
      }
      case 'chargeback': {
        const hold = choose(m.holds, (h) => h.active && h.chargeId !== null, command.pick);
        if (!hold) return;
        const amount = command.share === null ? hold.amount : Math.max(1, Math.round(hold.amount * command.share));
        const result = await gateway.admin.POST('/admin/v1/accounts/{accountId}/holds/{holdId}/chargeback', {
          params: { path: { accountId: this.merchant.accountId, holdId: hold.id } },
          body: command.share === null ? {} : { amountCents: amount },
        });
        const charge = m.charges.find((c) => c.id === hold.chargeId);
        const refused =
          !hold.active ||
          !charge ||
          !CHARGEABLE.has(charge.status) ||
          amount > hold.amount ||
          charge.refunded + amount > charge.amount ||
          amount > m.available;
        if (refused) {
          expect(result.response.status).toBe(409);
          return;
        }
        charge.refunded += amount;
        charge.status = charge.refunded >= charge.amount ? 'refunded' : 'partially_refunded';
        expect(result.data).toMatchObject({ transactionId: charge.id, status: charge.status, refundedCents: charge.refunded });
        hold.active = false;
        m.held -= hold.amount;
        m.available -= amount;
        return;
      }
      case 'advance':
        gateway.clock.advance(command.ms);
        return;
    }
  }

  /** The invariants, after every step. */
  async checkInvariants(): Promise<void> {
    const { accountId } = this.merchant;
    expect(await checkLedger(gateway.deps.db, { accountId })).toEqual([]);
    const balance = await readBalance(gateway.deps.db, accountId);
    expect(balance.availableCents).toBeGreaterThanOrEqual(0);
    // Between requests, pending_out is exactly the withdrawals open at the PSP (their pending transfers).
    const open = this.model.withdrawals.filter((w) => OPEN.has(w.status)).reduce((sum, w) => sum + w.total, 0);
    expect(balance.reservedCents).toBe(open);
    expect(balance.heldCents).toBe(this.model.held);
    expect(balance.availableCents).toBe(this.model.available);
    const { data } = await this.merchant.client.GET('/v1/balance');
    expect(data?.available).toBe(this.model.available);
  }

  /** At the end: every transaction's status as the model says; then settle what is still open. */
  async finish(): Promise<void> {
    const { data } = await this.merchant.client.GET('/v1/transactions', { params: { query: { limit: 100 } } });
    const statuses = new Map((data?.transactions ?? []).map((t) => [t.transactionId, t.status]));
    for (const c of this.model.charges) expect(statuses.get(c.id), c.id).toBe(c.status);
    for (const w of this.model.withdrawals) expect(statuses.get(w.id), w.id).toBe(w.status);
    expect(statuses.size).toBe(this.model.charges.length + this.model.withdrawals.length);
    // Keep the reconciliation queue short for the next runs (it looks at 100 withdrawals at a time).
    for (const w of this.model.withdrawals.filter((x) => x.psp === 'accepted')) {
      await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', { params: { path: { transactionId: w.id } } });
    }
    await gateway.admin.POST('/admin/v1/sandbox/reconcile');
    expect(await checkLedger(gateway.deps.db, { accountId: this.merchant.accountId })).toEqual([]);
  }
}

describe('ledger properties (model-based)', () => {
  it('after every step of random money sequences the ledger is consistent and available matches the model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 30, maxLength: 60 }), async (commands) => {
        const merchant = await createMerchant(gateway);
        await relaxLimits(gateway, merchant.accountId, {
          chargeFeeBps: CHARGE_FEE_BPS,
          withdrawalApprovalThresholdCents: APPROVAL_THRESHOLD,
        });
        const runner = new Runner(merchant);
        await runner.checkInvariants();
        for (const command of commands) await runner.run(command);
        await runner.finish();
      }),
      { numRuns: 25, endOnFailure: true },
    );
  }, 120_000);
});
