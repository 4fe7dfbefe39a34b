import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import {
  availableOf,
  createMerchant,
  fund,
  relaxLimits,
  useGateway,
  type MerchantFixture,
} from '../support/gateway.ts';

const gateway = useGateway();

async function post(merchant: MerchantFixture, body: Record<string, unknown>) {
  const response = await fetch(`${gateway.baseUrl}/v1/withdraw`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${merchant.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const withdrawal = (amountCents = 1000) => ({ amountCents, pixKey: '52998224725', pixKeyType: 'cpf' });

describe('withdrawals under concurrency', () => {
  it('200 concurrent withdrawals against a balance covering exactly K: K succeed, balance ends at 0, the rest 422', async () => {
    const merchant = await createMerchant(gateway);
    await relaxLimits(gateway, merchant.accountId);
    const K = 37;
    await fund(gateway, merchant, K * (1000 + 100));
    const results = await Promise.all(Array.from({ length: 200 }, () => post(merchant, withdrawal())));
    expect(results.filter((r) => r.status === 201)).toHaveLength(K);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(200 - K);
    for (const r of refused) expect(r).toEqual({ status: 422, body: { error: messages.insufficientBalance } });
    expect(await availableOf(merchant)).toBe(0);
    const listed = await merchant.client.GET('/v1/transactions', { params: { query: { type: 'withdrawal', limit: 100 } } });
    expect(listed.data?.count).toBe(K);
  });

  it('returns of one paid withdrawal at once all count, at the provider and in the ledger, and never pass its amount', async () => {
    // The simulated provider read the amount returned so far and wrote the sum: two returns at once lost one
    // at the provider while the ledger credited both (a balance_differs found by the end-of-suite books check).
    const merchant = await createMerchant(gateway);
    await relaxLimits(gateway, merchant.accountId);
    await fund(gateway, merchant, 10_000);
    const created = await post(merchant, withdrawal(5000));
    const id = String(created.body.transactionId);
    const path = { params: { path: { transactionId: id } } };
    await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', path);
    const before = await availableOf(merchant);
    const returns = await Promise.all(
      [1000, 1000, 1000, 1000, 1000, 1000].map((amountCents) => gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/return', { ...path, body: { amountCents } })),
    );
    expect(returns.map((r) => r.response.status).sort()).toEqual([200, 200, 200, 200, 200, 409]);
    const read = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } });
    expect(read.data).toMatchObject({ status: 'refunded', refundedCents: 5000 });
    expect(await availableOf(merchant)).toBe(before + 5000);
    // What the provider itself says came back (the simulation's table, or the fake provider's read under PSP=efi).
    expect(await gateway.deps.provider.queryWithdrawal(id)).toMatchObject({ state: 'returned', returnedCents: 5000 });
  });
});

describe('withdrawal rate limits (per account, fixed windows)', () => {
  let merchant: MerchantFixture;
  beforeAll(async () => {
    merchant = await createMerchant(gateway);
    await relaxLimits(gateway, merchant.accountId, {
      withdrawalsPerSecond: 1,
      withdrawalsPerMinute: 2,
      withdrawalsPerHour: 10,
    });
    await fund(gateway, merchant, 1_000_000);
  });

  it('admits exactly 1 of 20 concurrent requests in one second', async () => {
    const hour = Math.floor(gateway.clock.now() / 3_600_000 + 1) * 3_600_000;
    gateway.clock.set(hour + 5 * 60_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => post(merchant, withdrawal())));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r).toEqual({ status: 429, body: { error: messages.withdrawPerSecond } });
    }
  });

  it('then 2 per minute, then 10 per UTC hour, each with its message; retries never count', async () => {
    const hour = Math.floor(gateway.clock.now() / 3_600_000 + 1) * 3_600_000;
    gateway.clock.set(hour);
    const first = await post(merchant, { ...withdrawal(), externalRef: 'limits-1' });
    expect(first.status).toBe(201);
    gateway.clock.advance(1000);
    expect((await post(merchant, withdrawal())).status).toBe(201);
    gateway.clock.advance(1000);
    expect(await post(merchant, withdrawal())).toEqual({ status: 429, body: { error: messages.withdrawPerMinute } });
    // A retry of a used externalRef is answered even when every window is full.
    expect((await post(merchant, { ...withdrawal(), externalRef: 'limits-1' })).status).toBe(200);
    let admitted = 2;
    for (let minute = 1; admitted < 10; minute++) {
      gateway.clock.set(hour + minute * 60_000);
      expect((await post(merchant, withdrawal())).status).toBe(201);
      admitted++;
    }
    gateway.clock.set(hour + 20 * 60_000);
    expect(await post(merchant, withdrawal())).toEqual({ status: 429, body: { error: messages.withdrawPerHour } });
    // Close to the end of the hour the message says to wait a few minutes.
    gateway.clock.set(hour + 55 * 60_000);
    expect(await post(merchant, withdrawal())).toEqual({ status: 429, body: { error: messages.withdrawPerHourBurst } });
    gateway.clock.set(hour + 3_600_000);
    expect((await post(merchant, withdrawal())).status).toBe(201);
  });

  it('shares the buckets between the keys of one account', async () => {
    const second = await gateway.admin.POST('/admin/v1/accounts/{accountId}/api-keys', {
      params: { path: { accountId: merchant.accountId } },
      body: {},
    });
    const other = { ...merchant, apiKey: second.data?.apiKey ?? '' };
    gateway.clock.advance(3_600_000);
    expect((await post(merchant, withdrawal())).status).toBe(201);
    expect(await post(other, withdrawal())).toEqual({ status: 429, body: { error: messages.withdrawPerSecond } });
  });
});
