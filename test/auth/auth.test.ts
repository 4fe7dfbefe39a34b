import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { call, itRejectsUnauthorizedCallers, merchantRoutes } from '../support/commonChecks.ts';
import { createMerchant, useGateway, type MerchantFixture } from '../support/gateway.ts';

const gateway = useGateway({ trustProxy: '1' });
let merchant: MerchantFixture;
let revoked: MerchantFixture;
let unapproved: MerchantFixture;
let blocked: MerchantFixture;

async function patchAccount(accountId: string, body: Record<string, unknown>) {
  const result = await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId } }, body });
  expect(result.response.status).toBe(200);
}

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  revoked = await createMerchant(gateway);
  await gateway.admin.POST('/admin/v1/accounts/{accountId}/api-keys/{keyId}/revoke', {
    params: { path: { accountId: revoked.accountId, keyId: revoked.keyId } },
  });
  unapproved = await createMerchant(gateway);
  await patchAccount(unapproved.accountId, { kycStatus: 'pending' });
  blocked = await createMerchant(gateway);
  await patchAccount(blocked.accountId, { blocked: true });
});

describe('authentication and account checks', () => {
  itRejectsUnauthorizedCallers(() => ({ gateway, revoked, unapproved, blocked }));

  it('issues keys of 69 characters: 4-character prefix, underscore, 64 hex; lists only the public prefix', async () => {
    expect(merchant.apiKey).toMatch(/^pixg_[0-9a-f]{64}$/);
    expect(merchant.apiKey).toHaveLength(69);
    const keys = await gateway.admin.GET('/admin/v1/accounts/{accountId}/api-keys', {
      params: { path: { accountId: merchant.accountId } },
    });
    expect(keys.data?.apiKeys[0]?.publicPrefix).toBe(merchant.apiKey.slice(0, 16));
    expect(JSON.stringify(keys.data)).not.toContain(merchant.apiKey);
    const stored = await gateway.deps.db.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(merchant.apiKey);
  });

  it('refuses keys for an account whose KYC is not approved', async () => {
    const result = await gateway.admin.POST('/admin/v1/accounts/{accountId}/api-keys', {
      params: { path: { accountId: unapproved.accountId } },
      body: {},
    });
    expect(result.response.status).toBe(409);
  });

  it('revocation through the back office takes effect on the next request', async () => {
    const fresh = await createMerchant(gateway);
    expect((await fresh.client.GET('/v1/balance')).response.status).toBe(200);
    await gateway.admin.POST('/admin/v1/accounts/{accountId}/api-keys/{keyId}/revoke', {
      params: { path: { accountId: fresh.accountId, keyId: fresh.keyId } },
    });
    const after = await fresh.client.GET('/v1/balance');
    expect(after.response.status).toBe(401);
    expect(after.error).toEqual({ error: messages.apiKeyInvalid });
  });

  it('revocation made by another process takes effect within the cache time (5 s)', async () => {
    const fresh = await createMerchant(gateway);
    expect((await fresh.client.GET('/v1/balance')).response.status).toBe(200);
    // Another server process revokes the key: this process learns it when its cached lookup expires.
    await gateway.deps.db.updateTable('api_keys').set({ revoked_at: new Date(gateway.clock.now()) }).where('id', '=', fresh.keyId).execute();
    gateway.clock.advance(4_000);
    expect((await fresh.client.GET('/v1/balance')).response.status).toBe(200);
    gateway.clock.advance(1_001);
    expect((await fresh.client.GET('/v1/balance')).response.status).toBe(401);
  });

  it('a block made by another process acts within the cache time, well under 30 s', async () => {
    const fresh = await createMerchant(gateway);
    expect((await fresh.client.GET('/v1/balance')).response.status).toBe(200);
    await gateway.deps.db.updateTable('accounts').set({ blocked: true }).where('id', '=', fresh.accountId).execute();
    gateway.clock.advance(5_001);
    expect((await fresh.client.GET('/v1/balance')).error).toEqual({ error: messages.accountBlocked });
  });

  it('unblocking and approving KYC restore access', async () => {
    const fresh = await createMerchant(gateway);
    await patchAccount(fresh.accountId, { blocked: true });
    expect((await fresh.client.GET('/v1/balance')).response.status).toBe(403);
    await patchAccount(fresh.accountId, { blocked: false });
    expect((await fresh.client.GET('/v1/balance')).response.status).toBe(200);
  });

  describe('IP allowlist', () => {
    let listed: MerchantFixture;
    beforeAll(async () => {
      listed = await createMerchant(gateway);
      await patchAccount(listed.accountId, { ipAllowlist: ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32'] });
    });
    // The gateway trusts one proxy hop here (TRUST_PROXY=1): X-Forwarded-For names the client.
    const from = (ip: string) => ({ Authorization: `Bearer ${listed.apiKey}`, 'X-Forwarded-For': ip });

    it('admits listed addresses and ranges, IPv4 and IPv6', async () => {
      for (const ip of ['203.0.113.7', '198.51.100.42', '2001:db8::1']) {
        expect((await call(gateway, { method: 'GET', path: '/v1/balance' }, from(ip))).status).toBe(200);
      }
    });

    it('refuses other addresses with the message of each endpoint family', async () => {
      // Each endpoint its own wording, as the contract gives it: the listing of recipients is not a registration.
      const expected: Record<string, string> = {
        'POST /v1/withdraw': messages.ipNotAllowedWithdraw,
        'POST /v1/recipients': messages.ipNotAllowedRecipients,
      };
      for (const route of merchantRoutes) {
        const result = await call(gateway, route, from('192.0.2.1'));
        expect(result, `${route.method} ${route.path}`).toEqual({
          status: 403,
          body: { error: expected[`${route.method} ${route.path}`] ?? messages.ipNotAllowed },
        });
        expect(messages.ipNotAllowedWithdraw.startsWith('IP de origem não autorizado')).toBe(true);
      }
    });

    it('an emptied allowlist admits everyone again', async () => {
      const open = await createMerchant(gateway);
      await patchAccount(open.accountId, { ipAllowlist: ['203.0.113.7'] });
      expect((await open.client.GET('/v1/balance')).response.status).toBe(403);
      await patchAccount(open.accountId, { ipAllowlist: [] });
      expect((await open.client.GET('/v1/balance')).response.status).toBe(200);
    });
  });
});

describe('cross-merchant isolation', () => {
  it("answers 404 for another merchant's transaction, exactly like an unknown id", async () => {
    const other = await createMerchant(gateway);
    const created = await other.client.POST('/v1/pix', {
      body: { amountCents: 1000, customer: { name: 'A', email: 'a@b.co', phone: '1133334444', document: { number: '52998224725', type: 'cpf' } } },
    });
    const id = created.data?.transactionId ?? '';
    const theirs = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } });
    const unknown = await merchant.client.GET('/v1/transactions/{id}', {
      params: { path: { id: 'tx_ffffffffffffffffffffffff' } },
    });
    expect(theirs.response.status).toBe(404);
    expect(theirs.error).toEqual({ error: messages.transactionNotFound });
    expect(unknown.error).toEqual(theirs.error);
    const list = await merchant.client.GET('/v1/transactions');
    expect(list.data?.transactions.map((tx) => tx.transactionId)).not.toContain(id);
  });
});
