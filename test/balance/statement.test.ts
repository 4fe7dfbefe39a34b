import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { availableOf, createMerchant, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 20: GET /v1/balance/entries, the statement of the available balance. On random histories (charges
 * paid with their fee, withdrawals sent, paid or refused, refunds confirmed or refused) the entries sum to
 * `available` and each one's balanceAfterCents is the previous one's plus its amount, read page by page.
 */
const gateway = useGateway();
const HOLDER_CPF = '52998224725';

interface Entry {
  entryId: string;
  type: string;
  amountCents: number;
  balanceAfterCents: number;
  transactionId?: string;
  refundId?: string;
  createdAt: number;
}

async function entries(of: MerchantFixture, query: Record<string, string | number> = {}) {
  const search = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]));
  const response = await fetch(`${gateway.baseUrl}/v1/balance/entries?${search}`, { headers: { Authorization: `Bearer ${of.apiKey}` } });
  return { status: response.status, body: (await response.json()) as { entries: Entry[]; count: number; nextCursor?: string; error?: string } };
}

/** The whole statement, newest first, read `limit` entries at a time. */
async function statement(of: MerchantFixture, limit: number, query: Record<string, number> = {}): Promise<Entry[]> {
  const all: Entry[] = [];
  let cursor: string | undefined;
  do {
    const page = await entries(of, { ...query, limit, ...(cursor ? { cursor } : {}) });
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(page.body.entries.length);
    expect(page.body.entries.length).toBeLessThanOrEqual(limit);
    all.push(...page.body.entries);
    cursor = page.body.nextCursor;
  } while (cursor);
  return all;
}

function expectChained(lines: Entry[], available: number): void {
  const oldestFirst = [...lines].reverse();
  let balance = 0;
  for (const line of oldestFirst) {
    balance += line.amountCents;
    expect(line.balanceAfterCents, `${line.entryId} ${line.type}`).toBe(balance);
  }
  expect(balance).toBe(available);
  expect(new Set(lines.map((line) => line.entryId)).size).toBe(lines.length);
}

async function paidCharge(of: MerchantFixture, amountCents: number): Promise<string> {
  const created = await of.client.POST('/v1/pix', { body: { amountCents, customer: validCustomer } });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  const paid = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId: created.data.transactionId } } });
  expect(paid.response.status).toBe(200);
  return created.data.transactionId;
}

describe('the statement', () => {
  it('shows a charge as its amount and its fee, a withdrawal as its amount and its fee, a failed refund coming back', async () => {
    const shop = await createMerchant(gateway); // default fees: charges 0,99 %, withdrawals R$ 1,00
    const chargeId = await paidCharge(shop, 10_000);
    gateway.clock.advance(1_000);
    const withdrawal = await shop.client.POST('/v1/withdraw', { body: { amountCents: 2_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
    const withdrawalId = withdrawal.data?.transactionId ?? '';
    gateway.clock.advance(1_000);
    const refund = await shop.client.POST('/v1/transactions/{id}/refunds', { params: { path: { id: chargeId } }, body: { amountCents: 500 } });
    const refundId = refund.data?.refundId ?? '';
    const rejected = await gateway.admin.POST('/admin/v1/sandbox/refunds/{refundId}/reject', {
      params: { path: { refundId } },
      body: { refusedCode: 'PROVIDER_REJECTED', refusedReason: 'Recusada.' },
    });
    expect(rejected.response.status).toBe(200);

    const lines = await statement(shop, 100);
    expect(lines.map(({ type, amountCents, balanceAfterCents }) => ({ type, amountCents, balanceAfterCents }))).toEqual([
      { type: 'refund_returned', amountCents: 500, balanceAfterCents: 7_801 },
      { type: 'refund', amountCents: -500, balanceAfterCents: 7_301 },
      { type: 'withdrawal_fee', amountCents: -100, balanceAfterCents: 7_801 },
      { type: 'withdrawal', amountCents: -2_000, balanceAfterCents: 7_901 },
      { type: 'fee', amountCents: -99, balanceAfterCents: 9_901 },
      { type: 'charge_paid', amountCents: 10_000, balanceAfterCents: 10_000 },
    ]);
    expect(lines[0]).toMatchObject({ transactionId: chargeId, refundId });
    expect(lines[2]).toMatchObject({ transactionId: withdrawalId, entryId: expect.stringMatching(/^be_\d+_fee$/) });
    expect(lines[5]).toMatchObject({ transactionId: chargeId, entryId: expect.stringMatching(/^be_\d+$/) });
    expectChained(lines, await availableOf(shop));
  });

  it('selects a period, and refuses bad values with 400', async () => {
    const shop = await createMerchant(gateway);
    await relaxLimits(gateway, shop.accountId);
    const start = gateway.clock.now();
    await paidCharge(shop, 1_000);
    gateway.clock.advance(60_000);
    await paidCharge(shop, 2_000);
    gateway.clock.advance(60_000);
    await paidCharge(shop, 3_000);
    const amounts = async (query: Record<string, number>) => (await statement(shop, 1, query)).map((line) => line.amountCents);
    expect(await amounts({ createdFrom: start + 60_000 })).toEqual([3_000, 2_000]);
    expect(await amounts({ createdTo: start + 60_000 })).toEqual([1_000]);
    expect(await amounts({ createdFrom: start + 60_000, createdTo: start + 120_000 })).toEqual([2_000]);

    expect(await entries(shop, { cursor: 'abc' })).toEqual({ status: 400, body: { error: 'cursor inválido: use o nextCursor da página anterior.' } });
    const txCursor = Buffer.from('1795183392345000.tx_0123456789abcdef01234567').toString('base64url');
    expect((await entries(shop, { cursor: txCursor })).status).toBe(400);
    expect(await entries(shop, { limit: 0 })).toEqual({ status: 400, body: { error: "limit deve ser inteiro entre 1 e 100. Recebido: '0'." } });
    expect(await entries(shop, { createdFrom: 5, createdTo: 5 })).toEqual({ status: 400, body: { error: 'createdTo deve ser maior que createdFrom.' } });
    expect(await entries(shop, { type: 'fee' })).toEqual({ status: 400, body: { error: "Parâmetro de consulta não permitido: 'type'." } });
  });

  it('sums to available and chains on random histories, read page by page', async () => {
    type Step = { kind: 'charge'; cents: number } | { kind: 'withdraw'; cents: number; outcome: 'paid' | 'failed' } | { kind: 'refund'; percent: number; outcome: 'refunded' | 'failed' };
    const step = fc.oneof(
      fc.record({ kind: fc.constant('charge' as const), cents: fc.integer({ min: 100, max: 50_000 }) }),
      fc.record({ kind: fc.constant('withdraw' as const), cents: fc.integer({ min: 100, max: 20_000 }), outcome: fc.constantFrom('paid' as const, 'failed' as const) }),
      fc.record({ kind: fc.constant('refund' as const), percent: fc.integer({ min: 1, max: 100 }), outcome: fc.constantFrom('refunded' as const, 'failed' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 8 }), fc.integer({ min: 1, max: 7 }), async (steps: Step[], pageSize) => {
        const shop = await createMerchant(gateway);
        await relaxLimits(gateway, shop.accountId, { chargeFeeBps: 150 });
        const charges: { id: string; cents: number }[] = [];
        for (const current of steps) {
          gateway.clock.advance(1_000);
          if (current.kind === 'charge') {
            charges.push({ id: await paidCharge(shop, current.cents), cents: current.cents });
          } else if (current.kind === 'withdraw') {
            const sent = await shop.client.POST('/v1/withdraw', { body: { amountCents: current.cents, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } }).catch(() => undefined);
            const id = sent?.data?.transactionId;
            if (!id) continue; // not covered: refused with 422, nothing moved
            const done =
              current.outcome === 'paid'
                ? await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', { params: { path: { transactionId: id } } })
                : await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/reject', {
                    params: { path: { transactionId: id } },
                    body: { refusedCode: 'PROVIDER_REJECTED', refusedReason: 'Recusado.' },
                  });
            expect(done.response.status).toBe(200);
          } else {
            const target = charges[charges.length - 1];
            if (!target) continue;
            const amountCents = Math.max(1, Math.floor((target.cents * current.percent) / 100));
            const refunded = await shop.client.POST('/v1/transactions/{id}/refunds', { params: { path: { id: target.id } }, body: { amountCents } }).catch(() => undefined);
            const refundId = refunded?.data?.refundId;
            if (!refundId) continue; // above what is refundable, or not covered: nothing moved
            const done =
              current.outcome === 'refunded'
                ? await gateway.admin.POST('/admin/v1/sandbox/refunds/{refundId}/settle', { params: { path: { refundId } } })
                : await gateway.admin.POST('/admin/v1/sandbox/refunds/{refundId}/reject', {
                    params: { path: { refundId } },
                    body: { refusedCode: 'PROVIDER_REJECTED', refusedReason: 'Recusada.' },
                  });
            expect(done.response.status).toBe(200);
          }
        }
        const lines = await statement(shop, pageSize);
        expectChained(lines, await availableOf(shop));
        expect(lines).toEqual(await statement(shop, 100));
      }),
      { numRuns: 6, seed: 20261126 },
    );
  });
});
