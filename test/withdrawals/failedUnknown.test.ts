import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { recheckDelayMs, RECHECK_SCHEDULE } from '../../src/withdrawals/withdrawal.settlement.ts';
import {
  availableOf,
  createMerchant,
  fund,
  ledgerIsConsistent,
  relaxLimits,
  startGateway,
  type Gateway,
  type MerchantFixture,
} from '../support/gateway.ts';

/**
 * Issue 12, point 1: a `failed_unknown` withdrawal ends only in `paid` or `failed` (the contract's
 * transitions), however the PSP answers in between; reconciliation backs off; at 24 h it is escalated
 * (error log, metric, `overdue` in the back office) and an operator can resolve it, the PSP's final record
 * winning over the operator's word.
 */
let gateway: Gateway;
let merchant: MerchantFixture;
const HOLDER_CPF = '52998224725';
const FEE = 100;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  gateway = await startGateway();
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 1_000_000);
});
afterAll(async () => {
  expect(await ledgerIsConsistent(gateway)).toEqual([]);
  await gateway.close();
});

async function unknownWithdrawal(amountCents = 1000): Promise<string> {
  gateway.provider.queueOutcome('sendWithdrawal', 'timeout');
  const response = await fetch(`${gateway.baseUrl}/v1/withdraw`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${merchant.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amountCents, pixKey: HOLDER_CPF, pixKeyType: 'cpf' }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status).toBe(202);
  expect(body).toMatchObject({ error: messages.withdrawUnknown, status: 'failed_unknown' });
  return String(body.transactionId);
}

const statusOf = async (id: string) => (await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } })).data?.status;

async function eventsOf(id: string): Promise<string[]> {
  const { data } = await gateway.admin.GET('/admin/v1/accounts/{accountId}/events', {
    params: { path: { accountId: merchant.accountId }, query: { limit: 100 } },
  });
  // Events of one state change share a timestamp, so compare them as a sorted list.
  return (data?.events ?? []).filter((event) => event.transactionId === id).map((event) => event.event).sort();
}

async function adminView(id: string) {
  const { data } = await gateway.admin.GET('/admin/v1/withdrawals', { params: { query: { accountId: merchant.accountId, limit: 100 } } });
  return data?.withdrawals.find((w) => w.transactionId === id);
}

const reconcile = async () => (await gateway.admin.POST('/admin/v1/sandbox/reconcile')).data?.examined ?? -1;

describe('failed_unknown keeps its status until the outcome is final', () => {
  it('the PSP accepting the order is recorded internally: no processing, no transfer.processing', async () => {
    const id = await unknownWithdrawal();
    expect(await reconcile()).toBeGreaterThanOrEqual(1);
    expect(await statusOf(id)).toBe('failed_unknown');
    expect(await eventsOf(id)).toEqual(['transfer.created']);
    const view = await adminView(id);
    expect(view).toMatchObject({ status: 'failed_unknown', providerAcceptedAt: gateway.clock.now(), overdue: false });

    // Final outcome from the PSP: straight to paid, with transfer.paid and nothing in between.
    gateway.clock.advance(10_000);
    await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', { params: { path: { transactionId: id } } });
    expect(await statusOf(id)).toBe('paid');
    expect(await eventsOf(id)).toEqual(['transfer.created', 'transfer.paid']);
  });

  it('a refusal by the PSP ends it failed with the money returned', async () => {
    const before = await availableOf(merchant);
    const id = await unknownWithdrawal();
    await reconcile();
    expect(await availableOf(merchant)).toBe(before - 1000 - FEE);
    await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/reject', {
      params: { path: { transactionId: id } },
      body: { refusedCode: 'INVALID_PIX_KEY', refusedReason: 'Chave PIX inexistente no DICT.' },
    });
    expect(await statusOf(id)).toBe('failed');
    expect(await eventsOf(id)).toEqual(['transfer.created', 'transfer.failed']);
    expect(await availableOf(merchant)).toBe(before);
  });
});

describe('reconciliation backs off', () => {
  it('the schedule is data: 5 s, 15 s, 1 min, 5 min, 15 min, then every 30 min', () => {
    expect(RECHECK_SCHEDULE.map((step) => step.everyMs)).toEqual([5_000, 15_000, 60_000, 300_000, 900_000, 1_800_000]);
    expect(recheckDelayMs(0)).toBe(5_000);
    expect(recheckDelayMs(20_000)).toBe(15_000);
    expect(recheckDelayMs(2 * 60_000)).toBe(60_000);
    expect(recheckDelayMs(10 * 60_000)).toBe(300_000);
    expect(recheckDelayMs(60 * 60_000)).toBe(900_000);
    expect(recheckDelayMs(5 * 3_600_000)).toBe(1_800_000);
  });

  it('asks the PSP on that schedule, not every few seconds', async () => {
    const id = await unknownWithdrawal();
    const queries: number[] = [];
    const original = gateway.provider.queryWithdrawal.bind(gateway.provider);
    gateway.provider.queryWithdrawal = async (transactionId: string) => {
      if (transactionId === id) queries.push(gateway.clock.now());
      return original(transactionId);
    };
    try {
      const started = gateway.clock.now();
      // Three hours of reconciliation runs every 2 s would be 5 400 queries; the schedule makes about 20.
      for (let t = 0; t < 3 * 3_600_000; t += 60_000) {
        await reconcile();
        gateway.clock.advance(60_000);
      }
      expect(queries.length).toBeLessThan(25);
      expect(queries.length).toBeGreaterThan(8);
      const gaps = queries.slice(1).map((at, i) => at - queries[i]!);
      expect(gaps.at(-1)).toBe(1_800_000);
      expect(queries[0]).toBe(started);
      expect((await adminView(id))?.nextCheckAt).toBe(queries.at(-1)! + 1_800_000);
    } finally {
      gateway.provider.queryWithdrawal = original;
    }
    expect(await statusOf(id)).toBe('failed_unknown');
  });
});

describe('at 24 h: alert, then a final state by the PSP record or by an operator', () => {
  it('logs an error, shows overdue in the back office and in /metrics; an early resolution is refused', async () => {
    const id = await unknownWithdrawal();
    await reconcile();
    const early = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/resolve', {
      params: { path: { transactionId: id } },
      body: { outcome: 'failed', note: 'too early' },
    });
    expect(early.response.status).toBe(409);
    expect(early.error?.error).toMatch(/^A conciliação tem até .* \(24 h em failed_unknown\)/);

    const errorsBefore = gateway.loggedErrors.length;
    gateway.clock.advance(DAY_MS);
    await reconcile();
    const logged = gateway.loggedErrors.slice(errorsBefore).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.some((line) => line.transactionId === id && String(line.msg).includes('failed_unknown for more than 24 h'))).toBe(true);
    expect((await adminView(id))?.overdue).toBe(true);
    const listed = await gateway.admin.GET('/admin/v1/withdrawals', { params: { query: { status: 'failed_unknown', limit: 100 } } });
    expect(listed.data?.withdrawals.find((w) => w.transactionId === id)).toMatchObject({ overdue: true });

    const metrics = await (await fetch(`${gateway.adminBaseUrl}/metrics`)).text();
    expect(Number(/^pixgate_withdrawals_failed_unknown_overdue (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/^pixgate_withdrawals_failed_unknown_oldest_age_seconds (\S+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(86_400);
    expect(Number(/^pixgate_withdrawals_failed_unknown_overdue_checks_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
  });

  it('the operator resolves it failed when the PSP has nothing final: money returned, RESOLVED_BY_OPERATOR, note kept', async () => {
    const before = await availableOf(merchant);
    const id = await unknownWithdrawal();
    await reconcile();
    gateway.clock.advance(DAY_MS);
    const resolved = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/resolve', {
      params: { path: { transactionId: id } },
      body: { outcome: 'failed', note: 'PSP ticket 48213: not executed' },
    });
    expect(resolved.response.status).toBe(200);
    expect(resolved.data).toMatchObject({
      status: 'failed',
      refusedCode: 'RESOLVED_BY_OPERATOR',
      refusedReason: messages.resolvedNotPaidReason,
      resolution: { by: 'operator', note: 'PSP ticket 48213: not executed', at: gateway.clock.now() },
    });
    expect(await availableOf(merchant)).toBe(before);
    expect(await eventsOf(id)).toEqual(['transfer.created', 'transfer.failed']);
    const again = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/resolve', {
      params: { path: { transactionId: id } },
      body: { outcome: 'paid', note: 'x' },
    });
    expect(again.response.status).toBe(409);
  });

  it('the operator resolves it paid with the PSP statement data', async () => {
    const id = await unknownWithdrawal();
    gateway.clock.advance(DAY_MS);
    const incomplete = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/resolve', {
      params: { path: { transactionId: id } },
      body: { outcome: 'paid', note: 'statement' },
    });
    expect(incomplete.response.status).toBe(400);
    const resolved = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/resolve', {
      params: { path: { transactionId: id } },
      body: {
        outcome: 'paid',
        note: 'PSP statement line 1182',
        endToEndId: 'E99999008202611201530a1B2c3D4e5F',
        beneficiaryBankAccount: { ispb: '60701190', branch: '1234', account: '56789-0' },
      },
    });
    expect(resolved.data).toMatchObject({
      status: 'paid',
      endToEndId: 'E99999008202611201530a1B2c3D4e5F',
      beneficiary: { document: HOLDER_CPF, documentType: 'cpf', bankAccount: { ispb: '60701190' } },
      resolution: { by: 'operator' },
    });
    expect(await eventsOf(id)).toEqual(['transfer.created', 'transfer.paid']);
  });

  it('the PSP final record wins over the operator: asked first, its refusal is applied', async () => {
    const id = await unknownWithdrawal();
    await reconcile();
    gateway.clock.advance(DAY_MS);
    // The PSP refused it upstream, not yet seen by reconciliation.
    expect(await gateway.provider.reject(id, 'BENEFICIARY_ACCOUNT_CLOSED', 'Conta do recebedor encerrada.')).toBe(true);
    const resolved = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/resolve', {
      params: { path: { transactionId: id } },
      body: {
        outcome: 'paid',
        note: 'operator believed it paid',
        endToEndId: 'E99999008202611201530a1B2c3D4e5F',
        beneficiaryBankAccount: { ispb: '60701190', branch: '1234', account: '56789-0' },
      },
    });
    expect(resolved.data).toMatchObject({
      status: 'failed',
      refusedCode: 'BENEFICIARY_ACCOUNT_CLOSED',
      resolution: { by: 'provider', note: 'operator believed it paid' },
    });
    expect(await eventsOf(id)).toEqual(['transfer.created', 'transfer.failed']);
  });
});

describe('resolutions of one withdrawal at once (issue 32)', () => {
  const resolve = (id: string, note: string) =>
    gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/resolve', { params: { path: { transactionId: id } }, body: { outcome: 'failed', note } });
  const audits = async (id: string) =>
    (await gateway.admin.GET('/admin/v1/audit-log', { params: { query: { targetId: id, action: 'withdrawal.resolve' } } })).data?.entries ?? [];

  it('one wins; the others get 409 and change nothing, their audit entries included', async () => {
    const id = await unknownWithdrawal();
    gateway.clock.advance(DAY_MS);
    const answers = await Promise.all(['nota A', 'nota B', 'nota C'].map((note) => resolve(id, note)));
    const won = answers.filter((answer) => answer.response.status === 200);
    expect(won).toHaveLength(1);
    expect(answers.filter((answer) => answer.response.status === 409)).toHaveLength(2);
    for (const lost of answers.filter((answer) => answer.response.status === 409)) {
      expect(lost.error?.error).toBe("Só um saque em failed_unknown pode ser resolvido: situação 'failed'.");
    }
    const winner = won[0]?.data?.resolution;
    expect(winner).toMatchObject({ by: 'operator' });
    expect((await adminView(id))?.resolution).toEqual(winner);
    expect(await audits(id)).toHaveLength(1);
  });

  it('when the provider decides meanwhile, its word is kept once, with one note, and no later resolution overwrites it', async () => {
    const id = await unknownWithdrawal();
    gateway.clock.advance(DAY_MS);
    expect(await gateway.provider.settle(id)).toBe(true);
    const answers = await Promise.all(['nota A', 'nota B'].map((note) => resolve(id, note)));
    expect(answers.map((answer) => answer.response.status).sort()).toEqual([200, 409]);
    const won = answers.find((answer) => answer.response.status === 200)?.data;
    expect(won).toMatchObject({ status: 'paid', resolution: { by: 'provider' } });
    expect((await adminView(id))?.resolution).toEqual(won?.resolution);
    expect(await audits(id)).toHaveLength(1);
  });
});
