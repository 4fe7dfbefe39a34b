import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { createMerchant, startGateway, type Gateway, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 12, point 6: the IP allowlist is checked before the account's KYC and blocked status, so a stolen key
 * used from a foreign address learns nothing about the account; each endpoint keeps the contract's wording.
 */
let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway({ authCacheTtlMs: 0, trustProxy: 'loopback' });
});
afterAll(async () => {
  expect(gateway.loggedErrors).toEqual([]);
  await gateway.close();
});

async function patch(merchant: MerchantFixture, body: Record<string, unknown>) {
  const result = await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId: merchant.accountId } }, body: body as never });
  expect(result.response.status).toBe(200);
}

const call = (merchant: MerchantFixture, method: string, path: string, ip: string) =>
  fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${merchant.apiKey}`, 'X-Forwarded-For': ip, ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
    ...(method === 'POST' ? { body: '{}' } : {}),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> }));

describe('IP allowlist before the account checks', () => {
  it('a blocked account, called from outside its allowlist, answers the IP refusal, not "Conta suspensa"', async () => {
    const merchant = await createMerchant(gateway);
    await patch(merchant, { ipAllowlist: ['203.0.113.7'], blocked: true });
    expect(await call(merchant, 'GET', '/v1/balance', '198.51.100.9')).toEqual({ status: 403, body: { error: messages.ipNotAllowed } });
    expect(await call(merchant, 'GET', '/v1/balance', '203.0.113.7')).toEqual({ status: 403, body: { error: messages.accountBlocked } });
  });

  it('an account with KYC not approved, called from outside its allowlist, answers the IP refusal', async () => {
    const merchant = await createMerchant(gateway);
    await patch(merchant, { ipAllowlist: ['203.0.113.7'], kycStatus: 'rejected' });
    expect(await call(merchant, 'GET', '/v1/transactions', '198.51.100.9')).toEqual({ status: 403, body: { error: messages.ipNotAllowed } });
    expect(await call(merchant, 'GET', '/v1/transactions', '203.0.113.7')).toEqual({ status: 403, body: { error: messages.accountNotApproved } });
  });

  it('each endpoint its own wording: the recipient listing uses the general text, the registration its own', async () => {
    const merchant = await createMerchant(gateway);
    await patch(merchant, { ipAllowlist: ['203.0.113.7'] });
    expect((await call(merchant, 'GET', '/v1/recipients', '198.51.100.9')).body).toEqual({ error: messages.ipNotAllowed });
    expect((await call(merchant, 'POST', '/v1/recipients', '198.51.100.9')).body).toEqual({ error: messages.ipNotAllowedRecipients });
    expect((await call(merchant, 'POST', '/v1/withdraw', '198.51.100.9')).body).toEqual({ error: messages.ipNotAllowedWithdraw });
  });
});
