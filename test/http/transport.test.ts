import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { createMerchant, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

// No input a client can send produces a 500: after the tests, useGateway expects that the server logged
// no unhandled error.
const gateway = useGateway();
let merchant: MerchantFixture;

beforeAll(async () => {
  merchant = await createMerchant(gateway);
});

async function send(method: string, path: string, init: { body?: string | Buffer; contentType?: string; auth?: boolean } = {}) {
  const headers: Record<string, string> = {};
  if (init.auth !== false) headers.Authorization = `Bearer ${merchant.apiKey}`;
  if (init.contentType) headers['Content-Type'] = init.contentType;
  const response = await fetch(`${gateway.baseUrl}${path}`, { method, headers, body: init.body });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), allow: response.headers.get('allow'), body: JSON.parse(text) as unknown };
}

describe('transport errors are clear JSON 4xx', () => {
  it('malformed JSON is a 400', async () => {
    const result = await send('POST', '/v1/pix', { body: '{"amountCents": 10', contentType: 'application/json' });
    expect(result).toMatchObject({ status: 400, body: { error: messages.malformedJson } });
    expect(result.contentType).toMatch(/^application\/json/);
  });

  it('a JSON string or number body is answered as not an object', async () => {
    for (const body of ['"text"', '42', 'null']) {
      const result = await send('POST', '/v1/pix', { body, contentType: 'application/json' });
      expect(result).toMatchObject({ status: 400, body: { error: messages.bodyNotObject } });
    }
  });

  it('a non-JSON Content-Type is a 415, and so is a missing one', async () => {
    const form = await send('POST', '/v1/pix', { body: 'amountCents=1000', contentType: 'application/x-www-form-urlencoded' });
    expect(form).toMatchObject({ status: 415, body: { error: messages.unsupportedMediaType } });
    const none = await send('POST', '/v1/pix', { body: JSON.stringify({ amountCents: 1000, customer: validCustomer }) });
    expect(none.status).toBe(415);
  });

  it('accepts application/json with a charset', async () => {
    const result = await send('POST', '/v1/pix', {
      body: JSON.stringify({ amountCents: 1000, customer: validCustomer }),
      contentType: 'application/json; charset=utf-8',
    });
    expect(result.status).toBe(201);
  });

  it('a body over 64 KB is a 413', async () => {
    const big = JSON.stringify({ amountCents: 1000, customer: validCustomer, externalRef: 'x'.repeat(70_000) });
    const result = await send('POST', '/v1/pix', { body: big, contentType: 'application/json' });
    expect(result).toMatchObject({ status: 413, body: { error: messages.payloadTooLarge } });
  });

  it('an unknown route is a 404 even without a key', async () => {
    for (const path of ['/v1/nope', '/v2/pix', '/', '/v1/transactions/tx_000000000000000000000000/extra']) {
      const result = await send('GET', path, { auth: false });
      expect(result).toMatchObject({ status: 404, body: { error: messages.routeNotFound } });
    }
  });

  it('an unknown method on a known route is a 405 with Allow', async () => {
    const result = await send('DELETE', '/v1/balance', { auth: false });
    expect(result).toMatchObject({ status: 405, allow: 'GET' });
    expect((result.body as { error: string }).error).toBe(messages.methodNotAllowed('GET'));
    expect((await send('PUT', '/v1/pix', { auth: false })).status).toBe(405);
  });

  it('unknown query parameters are a 400', async () => {
    const result = await send('GET', '/v1/balance?foo=1');
    expect(result).toMatchObject({ status: 400, body: { error: messages.unknownQueryParameter('foo') } });
  });

  it('hostile and odd bodies never produce a 500', async () => {
    const bodies = [
      '{"__proto__": {"admin": true}, "amountCents": 1000}',
      '{"amountCents": 1e400, "customer": {}}',
      '{"amountCents": -0, "customer": null}',
      `{"amountCents": 1000, "customer": ${'['.repeat(500)}${']'.repeat(500)}}`,
      '{"amountCents": 1000, "customer": {"name": "\\u0000", "email": "a@b.c", "phone": "11999999999", "document": {"number": "\\ud800", "type": "cpf"}}}',
      '\u0000',
      '',
    ];
    for (const body of bodies) {
      const result = await send('POST', '/v1/pix', { body, contentType: 'application/json' });
      expect(result.status, body.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(result.status, body.slice(0, 40)).toBeLessThan(500);
      expect(typeof (result.body as { error: unknown }).error).toBe('string');
    }
  });
});

describe('NUL characters (U+0000), which Postgres cannot store', () => {
  const nul = '\u0000';
  const cases: [string, string, Record<string, unknown>, string][] = [
    ['/v1/pix', 'externalRef', { amountCents: 1000, customer: validCustomer, externalRef: `a${nul}b` }, messages.externalRef],
    ['/v1/pix', 'customer.name', { amountCents: 1000, customer: { ...validCustomer, name: `Maria${nul}` } }, messages.customerName],
    ['/v1/withdraw', 'description', { amountCents: 1000, pixKey: '52998224725', pixKeyType: 'cpf', description: nul }, messages.description],
    ['/v1/withdraw', 'pixKey', { amountCents: 1000, pixKey: `a${nul}@b.com`, pixKeyType: 'email', recipientId: 'a'.repeat(24) }, messages.pixKeyInvalid('email')],
    ['/v1/recipients', 'legalName', { legalName: `Jo${nul}ao`, document: '52998224725', documentType: 'cpf', pixKey: '52998224725', pixKeyType: 'cpf' }, messages.legalName],
    ['/v1/recipients', 'label', { legalName: 'Joao', document: '52998224725', documentType: 'cpf', pixKey: '52998224725', pixKeyType: 'cpf', label: nul }, messages.label],
  ];
  for (const [path, field, body, error] of cases) {
    it(`${path} ${field} with a NUL is a 400 with the field's message`, async () => {
      const result = await send('POST', path, { body: JSON.stringify(body), contentType: 'application/json' });
      expect(result).toMatchObject({ status: 400, body: { error } });
    });
  }
});
