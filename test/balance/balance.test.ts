import { beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

const gateway = useGateway();
let merchant: MerchantFixture;

beforeAll(async () => {
  merchant = await createMerchant(gateway);
});

describe('GET /v1/balance', () => {
  it('starts at zero in BRL with pending 0 and updatedAt in milliseconds of the response', async () => {
    const { data } = await merchant.client.GET('/v1/balance');
    expect(data).toEqual({ available: 0, pending: 0, currency: 'BRL', updatedAt: gateway.clock.now() });
  });

  it('is credited with the net amount of a paid charge, never with pending or expired ones', async () => {
    const paidCharge = await merchant.client.POST('/v1/pix', { body: { amountCents: 10_000, customer: validCustomer } });
    const pendingCharge = await merchant.client.POST('/v1/pix', { body: { amountCents: 5_000, customer: validCustomer } });
    const expiredCharge = await merchant.client.POST('/v1/pix', { body: { amountCents: 7_000, customer: validCustomer } });
    await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', {
      params: { path: { transactionId: paidCharge.data?.transactionId ?? '' } },
    });
    await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/expire', {
      params: { path: { transactionId: expiredCharge.data?.transactionId ?? '' } },
    });
    expect(pendingCharge.response.status).toBe(201);
    const { data } = await merchant.client.GET('/v1/balance');
    // Default fee of charges: 0.99 % → 99 cents on R$ 100,00.
    expect(data?.available).toBe(10_000 - 99);
    const check = await gateway.admin.GET('/admin/v1/accounts/{accountId}/balance', {
      params: { path: { accountId: merchant.accountId } },
    });
    expect(check.data).toMatchObject({ availableCents: 9_901, heldCents: 0, ledgerConsistent: true, violations: [] });
  });
});
