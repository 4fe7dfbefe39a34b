import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableOf, createMerchant, fund, postAsMerchant, relaxLimits, startGateway, type Gateway, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 12, point 3: a withdrawal refused by a daily or monthly cap is recorded (201 failed, with its
 * events) but does not keep its externalRef, so after the cap is raised the same request goes through.
 */
let gateway: Gateway;
let merchant: MerchantFixture;
const HOLDER_CPF = '52998224725';

beforeAll(async () => {
  gateway = await startGateway();
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId, { withdrawalDailyCapCents: 5_000 });
  await fund(gateway, merchant, 1_000_000);
});
afterAll(async () => {
  expect(gateway.loggedErrors).toEqual([]);
  await gateway.close();
});

const post = (body: Record<string, unknown>) => postAsMerchant(gateway, merchant, '/v1/withdraw', body);

describe('a cap refusal does not burn its externalRef', () => {
  it('refused over the daily cap; after the cap is raised the same externalRef creates the withdrawal', async () => {
    const body = { amountCents: 8_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef: 'payout-over-cap' };
    const before = await availableOf(merchant);
    const refused = await post(body);
    expect(refused).toMatchObject({ status: 201, body: { status: 'failed', refusedCode: 'DAILY_LIMIT_EXCEEDED' } });
    expect(String(refused.body.refusedReason)).toContain('O externalRef não foi consumido');
    expect(await availableOf(merchant)).toBe(before);

    await relaxLimits(gateway, merchant.accountId, { withdrawalDailyCapCents: 1_000_000 });
    const retry = await post(body);
    expect(retry).toMatchObject({ status: 201, body: { status: 'processing', amountCents: 8_000 } });
    expect(retry.body.transactionId).not.toBe(refused.body.transactionId);
    expect(await availableOf(merchant)).toBe(before - 8_100);

    // From now on the externalRef names the new withdrawal; the refusal stays readable as it was.
    expect(await post(body)).toMatchObject({ status: 200, body: { transactionId: retry.body.transactionId, idempotent: true } });
    const old = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: String(refused.body.transactionId) } } });
    expect(old.data).toMatchObject({ status: 'failed', refusedCode: 'DAILY_LIMIT_EXCEEDED', externalRef: 'payout-over-cap' });
  });
});
