import type { LookupAddress } from 'node:dns';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { postWebhook } from '../../src/webhooks/sender.ts';
import { checkWebhookUrl, isAllowedAddress, safeLookup, type UrlPolicy } from '../../src/webhooks/urlSafety.ts';
import { UnsafeWebhookUrl } from '../../src/webhooks/webhook.errors.ts';
import { authOf, rawCall, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { createMerchant, useGateway } from '../support/gateway.ts';
import { startReceiver } from '../support/receiver.ts';

/**
 * Issue 22, defect 9: in development (`npm start`, WEBHOOK_ALLOW_PRIVATE on) a webhook URL could point at
 * the cloud's metadata service, be called, and its answer be shown. Link-local, private, unique-local and
 * metadata addresses (IPv4, IPv6, IPv4-mapped) are refused in every mode, when a URL is registered and when
 * it is connected to (DNS rebinding); development allows loopback receivers only.
 */

const gateway = useGateway();
const development: UrlPolicy = { allowLoopback: true, requireHttps: false };
const production: UrlPolicy = { allowLoopback: false, requireHttps: true };
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let owner: DashboardPerson;

/** Metadata, link-local, private and unique-local addresses, written every way a URL can carry them. */
const REFUSED_EVERYWHERE = [
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.170.2/v2/credentials',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/latest/meta-data/',
  'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
  'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
  'http://100.100.100.200/latest/meta-data/',
  'http://10.0.0.5/ganchos',
  'http://172.16.3.4/ganchos',
  'http://192.168.0.10/ganchos',
  'http://[::ffff:10.0.0.5]/ganchos',
  'http://[fe80::1]/ganchos',
  'http://[fc00::1]/ganchos',
  'http://0.0.0.0:8080/ganchos',
  'http://[::]:8080/ganchos',
];

/** A resolver that answers `addresses` for every name (a DNS server under the attacker's control). */
const resolvingTo =
  (...addresses: string[]) =>
  async (): Promise<LookupAddress[]> =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function reason(url: string, policy: UrlPolicy): Promise<string> {
  try {
    await checkWebhookUrl(url, policy);
    return 'accepted';
  } catch (error) {
    if (error instanceof UnsafeWebhookUrl) return error.reason;
    throw error;
  }
}

beforeAll(async () => {
  receiver = await startReceiver();
  owner = await signUpOwner(gateway);
}, 60_000);

afterAll(async () => {
  await receiver.close();
});

describe('webhook URLs in development (WEBHOOK_ALLOW_PRIVATE on): loopback only', () => {
  it('the test gateway runs with the development rules', () => {
    expect(gateway.deps.config.nodeEnv).not.toBe('production');
    expect(gateway.deps.config.webhookAllowPrivate).toBe(true);
  });

  it('refuses metadata, link-local, private and unique-local URLs from the dashboard (400 beside the URL), storing nothing', async () => {
    for (const url of REFUSED_EVERYWHERE) {
      const answer = await rawCall(gateway, { method: 'POST', path: '/dashboard/api/v1/webhooks', body: { url } }, authOf(owner));
      expect(answer, url).toEqual({ status: 400, body: { error: messages.unsafeWebhookUrl.privateAddress, field: 'url' } });
    }
    const listed = await owner.browser.api.GET('/dashboard/api/v1/webhooks');
    expect(listed.data?.count).toBe(0);
  });

  it('refuses them when a URL is changed, and through the back office', async () => {
    const created = await owner.browser.api.POST('/dashboard/api/v1/webhooks', { body: { url: `${receiver.url}/ganchos` } });
    expect(created.response.status).toBe(201);
    const endpointId = created.data?.endpointId ?? '';
    const changed = await rawCall(gateway, { method: 'PATCH', path: `/dashboard/api/v1/webhooks/${endpointId}`, body: { url: 'http://169.254.169.254/latest/meta-data/' } }, authOf(owner));
    expect(changed).toEqual({ status: 400, body: { error: messages.unsafeWebhookUrl.privateAddress, field: 'url' } });
    const merchant = await createMerchant(gateway);
    const viaBackOffice = await gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks', {
      params: { path: { accountId: merchant.accountId } },
      body: { url: 'http://169.254.169.254/latest/meta-data/' },
    });
    expect(viaBackOffice.response.status).toBe(400);
    await owner.browser.api.DELETE('/dashboard/api/v1/webhooks/{endpointId}', { params: { path: { endpointId } } });
  });

  it('never connects to a metadata address stored before these rules: the test event shows no answer', async () => {
    const created = await owner.browser.api.POST('/dashboard/api/v1/webhooks', { body: { url: `${receiver.url}/antes` } });
    const endpointId = created.data?.endpointId ?? '';
    // A URL registered under the old development rules, still in the database.
    await sql`UPDATE webhook_endpoints SET url = 'http://169.254.169.254/latest/meta-data/' WHERE id = ${endpointId}`.execute(gateway.deps.db);
    const tested = await owner.browser.api.POST('/dashboard/api/v1/webhooks/{endpointId}/test', { params: { path: { endpointId } } });
    expect(tested.data).toMatchObject({ delivered: false, httpStatus: null, error: 'unsafe address', responseExcerpt: null });
    await owner.browser.api.DELETE('/dashboard/api/v1/webhooks/{endpointId}', { params: { path: { endpointId } } });
  });

  it('still accepts a receiver on loopback (127.0.0.1, ::1, localhost), over http, and delivers to it', async () => {
    for (const url of ['http://127.0.0.1:9/ganchos', 'http://[::1]:9/ganchos', 'http://localhost:9/ganchos', 'http://[::ffff:127.0.0.1]:9/ganchos']) {
      expect(await reason(url, development), url).toBe('accepted');
    }
    const created = await owner.browser.api.POST('/dashboard/api/v1/webhooks', { body: { url: `${receiver.url}/local` } });
    const endpointId = created.data?.endpointId ?? '';
    const tested = await owner.browser.api.POST('/dashboard/api/v1/webhooks/{endpointId}/test', { params: { path: { endpointId } } });
    expect(tested.data).toMatchObject({ delivered: true, httpStatus: 200 });
    await owner.browser.api.DELETE('/dashboard/api/v1/webhooks/{endpointId}', { params: { path: { endpointId } } });
  });
});

describe('the address rules in every mode', () => {
  it('refuse metadata, link-local, private and unique-local literals in development and in production', async () => {
    for (const url of REFUSED_EVERYWHERE) {
      expect(await reason(url, development), url).toBe('privateAddress');
      expect(await reason(url.replace(/^http:/, 'https:'), production), url).toBe('privateAddress');
    }
  });

  it('allow loopback only where the policy says so', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect(isAllowedAddress(address, development), address).toBe(true);
      expect(isAllowedAddress(address, production), address).toBe(false);
    }
    for (const address of ['169.254.169.254', 'fd00:ec2::254', '::ffff:169.254.169.254', '10.0.0.1', '0.0.0.0', '::']) {
      expect(isAllowedAddress(address, development), address).toBe(false);
    }
    expect(isAllowedAddress('200.160.2.3', development)).toBe(true);
  });

  it('refuse a name that resolves to a metadata or private address, at registration', async () => {
    for (const address of ['169.254.169.254', 'fd00:ec2::254', '192.168.1.1']) {
      const policy = { ...development, resolve: resolvingTo(address) };
      expect(await reason('http://metadata.exemplo.test/latest', policy), address).toBe('privateAddress');
    }
    // One private address among public ones is enough to refuse.
    expect(await reason('http://misto.exemplo.test/', { ...development, resolve: resolvingTo('200.160.2.3', '169.254.169.254') })).toBe('privateAddress');
    expect(await reason('http://publico.exemplo.test/', { ...development, resolve: resolvingTo('200.160.2.3') })).toBe('accepted');
  });

  it('refuse at connection time a name that resolved publicly at registration and privately now (DNS rebinding)', async () => {
    for (const policy of [development, production]) {
      const rebound = { ...policy, resolve: resolvingTo('169.254.169.254', 'fd00:ec2::254') };
      const result = await postWebhook('http://rebind.exemplo.test/latest/meta-data/', {}, '{}', { timeoutMs: 1000, policy: rebound });
      expect(result).toMatchObject({ status: null, error: 'unsafe address', responseExcerpt: null });
    }
    // The socket's lookup answers only the allowed addresses of a mixed answer.
    const lookup = safeLookup({ ...development, resolve: resolvingTo('10.0.0.1', '127.0.0.1') });
    const addresses = await new Promise<unknown>((resolve, reject) => lookup('x.test', { all: true }, (error, found) => (error ? reject(error) : resolve(found))));
    expect(addresses).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  it('connects in development to a name that resolves to loopback, and to nothing else', async () => {
    const port = new URL(receiver.url).port;
    const before = receiver.received.length;
    const local = await postWebhook(`http://receptor.exemplo.test:${port}/nome`, { 'Content-Type': 'application/json' }, '{}', {
      timeoutMs: 1000,
      policy: { ...development, resolve: resolvingTo('127.0.0.1') },
    });
    expect(local).toMatchObject({ status: 200, error: null });
    expect(receiver.received.length).toBe(before + 1);
  });
});
