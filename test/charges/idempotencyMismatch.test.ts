import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, startGateway, validCustomer, type Gateway, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 12, point 2 (charges): a reused externalRef with a different request is still answered with the
 * original (200, idempotent, nothing created), and the answer now names what differs (`mismatchedFields`);
 * a warning is logged and counted.
 */
let gateway: Gateway;
let merchant: MerchantFixture;
const logLines: string[] = [];

beforeAll(async () => {
  gateway = await startGateway({ onLog: (line) => logLines.push(line) });
  merchant = await createMerchant(gateway);
});
afterAll(async () => {
  expect(gateway.loggedErrors).toEqual([]);
  await gateway.close();
});

const charge = (externalRef: string, extra: Record<string, unknown> = {}) => ({ amountCents: 1000, customer: validCustomer, externalRef, ...extra });

async function chargeCount(): Promise<number> {
  const { data } = await merchant.client.GET('/v1/transactions', { params: { query: { type: 'pix_in', limit: 100 } } });
  return data?.count ?? -1;
}

describe('POST /v1/pix retry that is not the same request', () => {
  it('1,000 then 55,555 cents with one externalRef: 200 with the original and mismatchedFields [amountCents]', async () => {
    const first = await merchant.client.POST('/v1/pix', { body: charge('order-55555') });
    expect(first.response.status).toBe(201);
    const count = await chargeCount();
    const second = await merchant.client.POST('/v1/pix', { body: charge('order-55555', { amountCents: 55_555 }) });
    expect(second.response.status).toBe(200);
    expect(second.data).toEqual({ ...first.data, idempotent: true, mismatchedFields: ['amountCents'] });
    expect(await chargeCount()).toBe(count);
  });

  it('names every field that differs: document number, document type, expiry', async () => {
    await merchant.client.POST('/v1/pix', { body: charge('order-fields') });
    const second = await merchant.client.POST('/v1/pix', {
      body: charge('order-fields', {
        amountCents: 2000,
        expiresInDays: 5,
        customer: { ...validCustomer, document: { number: '11.222.333/0001-81', type: 'cnpj' } },
      }),
    });
    expect(second.data).toMatchObject({ mismatchedFields: ['amountCents', 'customer.document.number', 'customer.document.type', 'expiresInDays'] });
  });

  it('compares normalised values: formatting, case and the default expiry are the same request', async () => {
    const first = await merchant.client.POST('/v1/pix', { body: charge('order-same') });
    const same = await merchant.client.POST('/v1/pix', {
      body: charge('order-same', {
        expiresInDays: 2,
        customer: { ...validCustomer, name: 'Outro Nome', document: { number: '52998224725', type: ' CPF ' } },
      }),
    });
    expect(same.response.status).toBe(200);
    expect(same.data).toEqual({ ...first.data, idempotent: true });
    expect(same.data).not.toHaveProperty('mismatchedFields');
  });

  it('logs a warning without the values and counts it in /metrics', async () => {
    const before = logLines.length;
    await merchant.client.POST('/v1/pix', { body: charge('order-log') });
    await merchant.client.POST('/v1/pix', { body: charge('order-log', { amountCents: 7777 }) });
    const warnings = logLines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ operation: 'createCharge', accountId: merchant.accountId, mismatchedFields: ['amountCents'] });
    expect(JSON.stringify(warnings[0])).not.toContain('7777');
    const metrics = await (await fetch(`${gateway.adminBaseUrl}/metrics`)).text();
    expect(Number(/^pixgate_idempotency_mismatches_total\{operation="createCharge"\} (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(3);
  });
});
