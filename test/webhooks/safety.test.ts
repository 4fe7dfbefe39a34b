import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/webhooks/sender.ts';
import { operatorMessages } from '../../src/messages/operator.ts';
import { checkWebhookUrl, isPrivateAddress } from '../../src/webhooks/urlSafety.ts';
import { UnsafeWebhookUrl } from '../../src/webhooks/webhook.errors.ts';
import { startReceiver } from '../support/receiver.ts';

const production = { allowLoopback: false, requireHttps: true };
const development = { allowLoopback: true, requireHttps: false };
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function refusal(url: string, policy = production): Promise<string> {
  try {
    await checkWebhookUrl(url, policy);
    return 'accepted';
  } catch (error) {
    // The text the back office shows for the refusal (src/http/errorMapping.ts).
    if (error instanceof UnsafeWebhookUrl) return operatorMessages.unsafeUrl[error.reason];
    throw error;
  }
}

describe('webhook URL safety', () => {
  it('classifies private, loopback, link-local, unique-local and mapped addresses', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fc00::1', 'fd12::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '200.160.2.3', '172.32.0.1', '2001:4860:4860::8888']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('in production requires HTTPS and a public address, checked after DNS resolution', async () => {
    expect(await refusal('http://200.160.2.3/hook')).toBe('A URL do webhook deve usar HTTPS.');
    expect(await refusal('https://127.0.0.1/hook')).toBe('A URL do webhook aponta para um endereço que não é público (privado, local, link-local, reservado ou de uso especial).');
    expect(await refusal('https://[::1]/hook')).toBe('A URL do webhook aponta para um endereço que não é público (privado, local, link-local, reservado ou de uso especial).');
    expect(await refusal('https://169.254.169.254/latest/meta-data')).toBe('A URL do webhook aponta para um endereço que não é público (privado, local, link-local, reservado ou de uso especial).');
    // localhost is a name: it is refused for what it resolves to.
    expect(await refusal('https://localhost/hook')).toBe('A URL do webhook aponta para um endereço que não é público (privado, local, link-local, reservado ou de uso especial).');
    expect(await refusal('ftp://200.160.2.3/x')).toBe('URL do webhook inválida: informe um endereço absoluto (https://…).');
    expect(await refusal('https://user:pw@200.160.2.3/x')).toBe('URL do webhook inválida: informe um endereço absoluto (https://…).');
    expect(await refusal('not a url')).toBe('URL do webhook inválida: informe um endereço absoluto (https://…).');
    expect(await refusal('https://200.160.2.3/hook')).toBe('accepted');
  });

  it('in development allows a localhost receiver over http', async () => {
    expect(await refusal('http://127.0.0.1:8080/hook', development)).toBe('accepted');
  });

  it('refuses again at delivery time: the connection never reaches a private address in production', async () => {
    const refused = await postWebhook(`${receiver.url}/hook`, { 'Content-Type': 'application/json' }, '{}', {
      timeoutMs: 1000,
      policy: production,
    });
    expect(refused).toMatchObject({ status: null, error: 'unsafe address' });
    expect(receiver.received).toHaveLength(0);
    const allowed = await postWebhook(`${receiver.url}/hook`, { 'Content-Type': 'application/json' }, '{}', {
      timeoutMs: 1000,
      policy: development,
    });
    expect(allowed).toMatchObject({ status: 200, error: null });
  });
});

describe('webhook URLs through the back office in production mode', () => {
  it('refuses http and private addresses with 400', async () => {
    const { startGateway, createMerchant } = await import('../support/gateway.ts');
    const gateway = await startGateway();
    try {
      gateway.deps.config.nodeEnv = 'production';
      gateway.deps.config.webhookAllowPrivate = false;
      const merchant = await createMerchant(gateway);
      const create = (url: string) =>
        gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks', {
          params: { path: { accountId: merchant.accountId } },
          body: { url },
        });
      expect((await create('http://200.160.2.3/hook')).error).toEqual({ error: 'A URL do webhook deve usar HTTPS.' });
      expect((await create(`https://127.0.0.1:${new URL(receiver.url).port}/hook`)).error).toEqual({
        error: 'A URL do webhook aponta para um endereço que não é público (privado, local, link-local, reservado ou de uso especial).',
      });
      expect((await create('https://200.160.2.3/hook')).response.status).toBe(201);
    } finally {
      await gateway.close();
    }
  });
});
