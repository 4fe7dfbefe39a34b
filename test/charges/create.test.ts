import { parsePix, hasError } from 'pix-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { parseBrCode } from '../../src/primitives/brcode.ts';
import { createMerchant, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

const gateway = useGateway();
let merchant: MerchantFixture;

beforeAll(async () => {
  merchant = await createMerchant(gateway, { legalName: 'Padaria São João Ltda' });
});

type Body = Record<string, unknown>;
const charge = (overrides: Body = {}, customer: Body = {}): Body => ({
  amountCents: 1000,
  ...overrides,
  customer: { ...validCustomer, ...customer },
});

async function post(body: unknown, apiKey = merchant.apiKey) {
  const response = await fetch(`${gateway.baseUrl}/v1/pix`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

describe('POST /v1/pix', () => {
  it('creates a pending charge with a BR Code, expiry in seconds and the amount echoed', async () => {
    const { data, response } = await merchant.client.POST('/v1/pix', {
      body: { amountCents: 1234, customer: validCustomer },
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ status: 'pending', amountCents: 1234 });
    expect(data?.transactionId).toMatch(/^tx_[0-9a-f]{24}$/);
    const nowSeconds = Math.floor(gateway.clock.now() / 1000);
    expect(data?.expiresAt).toBe(nowSeconds + 2 * 86_400);
    expect(Object.keys(data ?? {}).sort()).toEqual(['amountCents', 'expiresAt', 'pixPayload', 'status', 'transactionId']);
  });

  it('produces a BR Code that a third-party parser accepts (CRC, lengths, dynamic location)', async () => {
    const { data } = await merchant.client.POST('/v1/pix', { body: { amountCents: 123456, customer: validCustomer } });
    const payload = data?.pixPayload ?? '';
    const parsed = parsePix(payload);
    expect(hasError(parsed)).toBe(false);
    const ours = parseBrCode(payload);
    expect(payload.slice(-4)).toMatch(/^[0-9A-F]{4}$/);
    expect(payload).toContain('54071234.56');
    if (gateway.efi) {
      // On a real provider the BR Code is the provider's own (pixCopiaECola): its location, its receiver's name.
      expect(ours).toMatchObject({ kind: 'dynamic', locationUrl: expect.stringMatching(/^fakepsp\.local\/qr\/v2\//) });
    } else {
      expect(JSON.stringify(ours)).toContain('PADARIA SAO JOAO');
      expect(payload).toContain(`pix.pixgate.com.br/qr/v2/${data?.transactionId.slice(3)}`);
    }
  });

  it('honours expiresInDays from 1 to 30', async () => {
    for (const days of [1, 30]) {
      const { data } = await merchant.client.POST('/v1/pix', {
        body: { amountCents: 500, customer: validCustomer, expiresInDays: days },
      });
      expect(data?.expiresAt).toBe(Math.floor(gateway.clock.now() / 1000) + days * 86_400);
    }
  });

  it('normalises document formatting, case and whitespace', async () => {
    const { response } = await merchant.client.POST('/v1/pix', {
      body: {
        amountCents: 500,
        customer: { ...validCustomer, document: { number: ' 11.222.333/0001-81 ', type: '  CNPJ ' } },
      },
    });
    expect(response.status).toBe(201);
  });

  it('accepts an alphanumeric CNPJ', async () => {
    const result = await post(charge({}, { document: { number: '12.ABC.345/01DE-35', type: 'cnpj' } }));
    expect(result.status).toBe(201);
  });

  const rejections: [string, unknown, string][] = [
    ['amount below 100', charge({ amountCents: 99 }), messages.chargeAmount],
    ['amount not an integer', charge({ amountCents: 10.5 }), messages.chargeAmount],
    ['amount as a string', charge({ amountCents: '1000' }), messages.chargeAmount],
    ['amount missing', { customer: validCustomer }, messages.chargeAmount],
    ['customer.name missing', charge({}, { name: undefined }), messages.customerName],
    ['customer.name blank', charge({}, { name: '   ' }), messages.customerName],
    ['customer.name too long', charge({}, { name: 'x'.repeat(101) }), messages.customerNameTooLong],
    ['customer.document missing', charge({}, { document: undefined }), messages.customerDocumentMissing],
    ['customer.document.number missing', charge({}, { document: { type: 'cpf' } }), messages.customerDocumentMissing],
    ['customer.document.type missing', charge({}, { document: { number: '52998224725' } }), messages.customerDocumentTypeMissing],
    ['customer.document.type unknown', charge({}, { document: { number: '52998224725', type: 'rg' } }), messages.customerDocumentType('rg')],
    ['cpf with 10 digits', charge({}, { document: { number: '5299822472', type: 'cpf' } }), messages.customerCpfLength(10)],
    ['cnpj with 13 digits', charge({}, { document: { number: '1122233300018', type: 'cnpj' } }), messages.customerCnpjLength(13)],
    ['document over 32 characters', charge({}, { document: { number: '5'.repeat(40), type: 'cpf' } }), messages.customerCpfLength(40)],
    ['cnpj over 32 characters', charge({}, { document: { number: '1'.repeat(33), type: 'CNPJ' } }), messages.customerCnpjLength(33)],
    ['document with a forbidden character', charge({}, { document: { number: '529*982*247-25', type: 'cpf' } }), messages.customerDocumentNumber],
    ['cpf check digit', charge({}, { document: { number: '52998224724', type: 'cpf' } }), messages.customerCpfInvalid],
    ['cpf of repeated digits', charge({}, { document: { number: '111.111.111-11', type: 'cpf' } }), messages.customerCpfInvalid],
    ['cnpj check digit', charge({}, { document: { number: '11222333000182', type: 'cnpj' } }), messages.customerCnpjInvalid],
    ['email invalid', charge({}, { email: 'maria@' }), messages.customerEmail],
    ['email missing', charge({}, { email: undefined }), messages.customerEmail],
    ['phone missing', charge({}, { phone: undefined }), messages.customerPhone],
    ['phone with 9 digits', charge({}, { phone: '119876543' }), messages.customerPhone],
    ['phone formatted', charge({}, { phone: '(11) 98765-4321' }), messages.customerPhone],
    ['expiresInDays 0', charge({ expiresInDays: 0 }), messages.expiresInDays(0)],
    ['expiresInDays 31', charge({ expiresInDays: 31 }), messages.expiresInDays(31)],
    ['externalRef too long', charge({ externalRef: 'x'.repeat(101) }), messages.externalRef],
    ['an unknown field', charge({ externalref: 'typo' }), messages.unknownField('externalref')],
    ['an array body', [1, 2], messages.bodyNotObject],
    ['amount above the default maximum', charge({ amountCents: 10_000_001 }), 'Valor acima do máximo (R$ 100.000,00).'],
  ];

  for (const [name, body, message] of rejections) {
    it(`answers 400 with the contract message for ${name}`, async () => {
      const result = await post(body);
      expect(result).toEqual({ status: 400, body: { error: message } });
    });
  }

  it('names the first failing field in the contract order when several fail', async () => {
    const result = await post({ amountCents: 1, customer: { name: '', email: 'x', phone: '1' } });
    expect(result.body.error).toBe(messages.chargeAmount);
  });

  it('applies an account amount range set by the back office', async () => {
    const other = await createMerchant(gateway);
    await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', {
      params: { path: { accountId: other.accountId } },
      body: { chargeMinCents: 500, chargeMaxCents: 20_000 },
    });
    expect(await post(charge({ amountCents: 499 }), other.apiKey)).toEqual({
      status: 400,
      body: { error: 'Valor abaixo do mínimo (R$ 5,00).' },
    });
    expect(await post(charge({ amountCents: 20_001 }), other.apiKey)).toEqual({
      status: 400,
      body: { error: 'Valor acima do máximo (R$ 200,00).' },
    });
    expect((await post(charge({ amountCents: 20_000 }), other.apiKey)).status).toBe(201);
    expect((await post(charge({ amountCents: 500 }), other.apiKey)).status).toBe(201);
  });

  it('refuses an amount that does not cover a fixed fee, naming the smallest permitted amount', async () => {
    const other = await createMerchant(gateway);
    await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', {
      params: { path: { accountId: other.accountId } },
      body: { chargeFeeFixedCents: 150 },
    });
    // 150 fixed + 0.99 %: R$ 1,52 leaves 0 cents, R$ 1,53 leaves 1 cent.
    expect(await post(charge({ amountCents: 152 }), other.apiKey)).toEqual({
      status: 400,
      body: { error: 'Valor abaixo do mínimo permitido (R$ 1,53).' },
    });
    const created = await post(charge({ amountCents: 153 }), other.apiKey);
    expect(created.status).toBe(201);
    const read = await gateway.as(other.apiKey).GET('/v1/transactions/{id}', {
      params: { path: { id: String(created.body.transactionId) } },
    });
    expect(read.data).toMatchObject({ amountCents: 153, feeCents: 152, netCents: 1 });
  });

  it('keeps the platform ceiling of R$ 1.000.000,00 whatever the account range', async () => {
    const other = await createMerchant(gateway);
    await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', {
      params: { path: { accountId: other.accountId } },
      body: { chargeMaxCents: 500_000_000 },
    });
    expect(await post(charge({ amountCents: 100_000_001 }), other.apiKey)).toEqual({
      status: 400,
      body: { error: 'Valor acima do máximo permitido (R$ 1.000.000,00).' },
    });
    expect((await post(charge({ amountCents: 100_000_000 }), other.apiKey)).status).toBe(201);
  });

  it('returns 502 on a provider failure and timeout, creating nothing, and a retry succeeds', async () => {
    const before = await merchant.client.GET('/v1/transactions', { params: { query: { limit: 100 } } });
    gateway.provider.queueOutcome('registerCharge', 'fail');
    expect(await post(charge({ externalRef: 'order-502' }))).toEqual({
      status: 502,
      body: { error: messages.chargeProviderError },
    });
    gateway.provider.queueOutcome('registerCharge', 'timeout');
    expect((await post(charge({ externalRef: 'order-502' }))).status).toBe(502);
    const after = await merchant.client.GET('/v1/transactions', { params: { query: { limit: 100 } } });
    expect(after.data?.count).toBe(before.data?.count);
    const retry = await post(charge({ externalRef: 'order-502' }));
    expect(retry.status).toBe(201);
  });
});
