import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubLine } from '../../src/platform/logger.ts';
import { ADMIN_TOKEN, createMerchant, startGateway, validCustomer, type Gateway, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 12, point 13: structured JSON logs (pino) with time and level, one access line per request with a
 * request id (echoed in X-Request-Id), the operation, status and duration; no credential, key, secret or
 * personal document in any line.
 */
let gateway: Gateway;
let merchant: MerchantFixture;
const lines: string[] = [];
const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  gateway = await startGateway({ onLog: (line) => lines.push(line) });
  merchant = await createMerchant(gateway);
});
afterAll(async () => {
  expect(gateway.loggedErrors).toEqual([]);
  await gateway.close();
});

describe('access log', () => {
  it('one JSON line per request: ISO time, level, request id (echoed), operation, status, duration', async () => {
    const before = lines.length;
    const response = await fetch(`${gateway.baseUrl}/v1/balance`, {
      headers: { Authorization: `Bearer ${merchant.apiKey}`, 'X-Request-Id': 'req-abc.123' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req-abc.123');
    const access = parsed().slice(before).filter((line) => line.requestId === 'req-abc.123');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 'info',
      listener: 'merchant',
      operation: 'getBalance',
      res: { statusCode: 200 },
      req: { method: 'GET', url: '/v1/balance' },
    });
    expect(String(access[0]!.time)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(typeof access[0]!.durationMs).toBe('number');
    expect((access[0]!.req as { headers: Record<string, string> }).headers.authorization).toBe('[REDACTED]');
  });

  it('a missing or unsafe X-Request-Id is replaced by a generated one', async () => {
    const plain = await fetch(`${gateway.baseUrl}/health`);
    expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await fetch(`${gateway.baseUrl}/health`, { headers: { 'X-Request-Id': 'x'.repeat(300) } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const internal = await fetch(`${gateway.adminBaseUrl}/health`, { headers: { 'X-Request-Id': 'op-1' } });
    expect(internal.headers.get('x-request-id')).toBe('op-1');
  });
});

describe('no secret or personal document in the logs', () => {
  it('keys, operator tokens, webhook secrets, cookies and documents never appear in any line', async () => {
    const before = lines.length;
    const webhook = await gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks', {
      params: { path: { accountId: merchant.accountId } },
      body: { url: 'https://200.160.2.3/hook' },
    });
    const secret = webhook.data?.secret ?? '';
    expect(secret).toMatch(/^whsec_/);
    await merchant.client.POST('/v1/pix', { body: { amountCents: 1000, customer: validCustomer } });
    // A document in a URL (a mistaken query) and credentials in headers.
    await fetch(`${gateway.baseUrl}/v1/transactions?type=52998224725`, {
      headers: { Authorization: `Bearer ${merchant.apiKey}`, Cookie: 'session=abc123secret', 'X-CSRF-Token': 'csrf-secret-value' },
    });
    await fetch(`${gateway.adminBaseUrl}/admin/v1/accounts?x=529.982.247-25`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    // Whatever a developer might pass in a log call's details.
    gateway.deps.logger.info('careless details', {
      apiKey: merchant.apiKey,
      note: `key ${merchant.apiKey} secret ${secret} token ${ADMIN_TOKEN}`,
      document: '11.222.333/0001-81',
      customer: { document: '52998224725' },
      cnpj: '12ABC34501DE35',
      header: 'Basic dXNlcjpwYXNz',
    });
    const written = lines.slice(before).join('\n');
    expect(written.length).toBeGreaterThan(0);
    for (const forbidden of [
      merchant.apiKey,
      merchant.apiKey.slice(5, 30),
      secret,
      secret.slice(6),
      ADMIN_TOKEN,
      'abc123secret',
      'csrf-secret-value',
      '52998224725',
      '529.982.247-25',
      '11.222.333/0001-81',
      '12ABC34501DE35',
      'dXNlcjpwYXNz',
    ]) {
      expect(written, forbidden).not.toContain(forbidden);
    }
    expect(written).toContain('[REDACTED]');
  });

  it('scrubLine leaves ids, end-to-end ids, timestamps and amounts alone', () => {
    const line = JSON.stringify({
      time: '2026-11-21T12:00:00.000Z',
      transactionId: 'tx_0123456789abcdef01234567',
      endToEndId: 'E99999008202611201530a1B2c3D4e5F',
      occurredAt: 1795290000123,
      amountCents: 100000,
      recipientId: '3f9a1c0d7e5b2a4f6c8d0e1f',
    });
    expect(scrubLine(line)).toBe(line);
  });
});
