import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { createMerchant, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

const gateway = useGateway();
let merchant: MerchantFixture;

beforeAll(async () => {
  merchant = await createMerchant(gateway);
});

async function createCharge(amountCents = 1000, externalRef?: string) {
  gateway.clock.advance(1000);
  const { data } = await merchant.client.POST('/v1/pix', {
    body: { amountCents, customer: validCustomer, ...(externalRef ? { externalRef } : {}) },
  });
  if (!data) throw new Error('charge not created');
  return data;
}

async function raw(path: string) {
  const response = await fetch(`${gateway.baseUrl}${path}`, { headers: { Authorization: `Bearer ${merchant.apiKey}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('GET /v1/transactions/{id}', () => {
  it('reads a pending charge with settlement fields omitted, never null, and paidAt null', async () => {
    const charge = await createCharge(1500, 'read-1');
    const { data, response } = await merchant.client.GET('/v1/transactions/{id}', {
      params: { path: { id: charge.transactionId } },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      transactionId: charge.transactionId,
      type: 'pix_in',
      status: 'pending',
      amountCents: 1500,
      feeCents: 15,
      netCents: 1485,
      externalRef: 'read-1',
      pixPayload: charge.pixPayload,
      expiresAt: charge.expiresAt,
      paidAt: null,
      createdAt: gateway.clock.now(),
      updatedAt: gateway.clock.now(),
    });
    for (const field of ['endToEndId', 'payer', 'beneficiary', 'refundEndToEndId', 'refusedCode', 'refusedReason']) {
      expect(data).not.toHaveProperty(field);
    }
  });

  it('shows endToEndId and payer once the charge is paid, with paidAt in milliseconds', async () => {
    const charge = await createCharge(2000);
    gateway.clock.advance(5000);
    const paid = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', {
      params: { path: { transactionId: charge.transactionId } },
      body: {},
    });
    expect(paid.response.status).toBe(200);
    const { data } = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: charge.transactionId } } });
    expect(data?.status).toBe('paid');
    expect(data?.paidAt).toBe(gateway.clock.now());
    expect(data?.endToEndId).toMatch(/^E[0-9A-Z]{8}\d{12}[a-zA-Z0-9]{11}$/);
    expect(data?.payer).toMatchObject({ documentType: 'cpf', bankAccount: { ispb: expect.any(String) } });
    expect(data).not.toHaveProperty('beneficiary');
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    for (const id of ['abc', 'tx_123', 'TX_5F2B9C0E7A41D3E8B6C19A70', 'tx_5f2b9c0e7a41d3e8b6c19a7g', `tx_${'0'.repeat(25)}`]) {
      expect(await raw(`/v1/transactions/${encodeURIComponent(id)}`)).toEqual({
        status: 400,
        body: { error: messages.transactionIdInvalid },
      });
    }
    expect(await raw('/v1/transactions/tx_5f2b9c0e7a41d3e8b6c19a70')).toEqual({
      status: 404,
      body: { error: messages.transactionNotFound },
    });
  });
});

describe('GET /v1/transactions', () => {
  it('lists newest first with count, default limit 50 and maximum 100', async () => {
    const listed = await createMerchant(gateway);
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) {
      gateway.clock.advance(10);
      const { data } = await listed.client.POST('/v1/pix', { body: { amountCents: 100 + i, customer: validCustomer } });
      ids.push(data?.transactionId ?? '');
    }
    const byDefault = await listed.client.GET('/v1/transactions');
    expect(byDefault.data?.count).toBe(50);
    expect(byDefault.data?.transactions.map((tx) => tx.transactionId)).toEqual(ids.slice(-50).reverse());
    const all = await listed.client.GET('/v1/transactions', { params: { query: { limit: 100 } } });
    expect(all.data?.count).toBe(55);
    const three = await listed.client.GET('/v1/transactions', { params: { query: { limit: 3, type: 'pix_in' } } });
    expect(three.data?.transactions.map((tx) => tx.transactionId)).toEqual(ids.slice(-3).reverse());
    const withdrawals = await listed.client.GET('/v1/transactions', { params: { query: { type: 'withdrawal' } } });
    expect(withdrawals.data).toEqual({ transactions: [], count: 0 });
    for (const tx of all.data?.transactions ?? []) expect(tx.pixPayload).toEqual(expect.any(String));
  });

  it('answers invalid type and limit values with a documented 400', async () => {
    const cases: [string, string][] = [
      ['type=pix', messages.listType('pix')],
      ['type=', messages.listType('')],
      ['limit=0', messages.listLimit('0')],
      ['limit=101', messages.listLimit('101')],
      ['limit=abc', messages.listLimit('abc')],
      ['limit=1.5', messages.listLimit('1.5')],
      ['limit=-1', messages.listLimit('-1')],
      ['other=1', messages.unknownQueryParameter('other')],
    ];
    for (const [query, error] of cases) {
      expect(await raw(`/v1/transactions?${query}`), query).toEqual({ status: 400, body: { error } });
    }
  });
});
