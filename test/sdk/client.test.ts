import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
// The integration kit, imported by the package's exported names (package.json `exports`), as a merchant would.
import { createClient, PixGateError, type PixGateClient } from 'pixgate/client';
import { createMerchant, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

const gateway = useGateway();
let merchant: MerchantFixture;
let pixgate: PixGateClient;

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  pixgate = createClient({ baseUrl: gateway.baseUrl, apiKey: merchant.apiKey });
});

describe('pixgate/client', () => {
  it('creates a charge (201), answers the idempotent replay (200) and reads it back, typed per operation', async () => {
    const created = await pixgate.POST('/v1/pix', { body: { amountCents: 1500, externalRef: 'sdk-1', customer: validCustomer } });
    expect(created.response.status).toBe(201);
    expectTypeOf(created.data.transactionId).toEqualTypeOf<string>();
    expect(created.data).toMatchObject({ status: 'pending', amountCents: 1500 });
    expect(created.data.pixPayload).toMatch(/^000201/);

    const replay = await pixgate.POST('/v1/pix', { body: { amountCents: 1500, externalRef: 'sdk-1', customer: validCustomer } });
    expect(replay.response.status).toBe(200);
    expect(replay.data).toMatchObject({ transactionId: created.data.transactionId, idempotent: true });

    const read = await pixgate.GET('/v1/transactions/{id}', { params: { path: { id: created.data.transactionId } } });
    expect(read.data).toMatchObject({ transactionId: created.data.transactionId, type: 'pix_in', status: 'pending' });
    const list = await pixgate.GET('/v1/transactions', { params: { query: { type: 'pix_in', limit: 5 } } });
    expect(list.data.transactions.map((t) => t.transactionId)).toContain(created.data.transactionId);
    const balance = await pixgate.GET('/v1/balance');
    expect(balance.data).toMatchObject({ available: 0, currency: 'BRL' });
  });

  it('refuses at compile time what the contract refuses (checked by `npm run typecheck`)', () => {
    const typeErrors = () => {
      // @ts-expect-error a field the contract does not have (the server would answer 400)
      void pixgate.POST('/v1/pix', { body: { amountCents: 1000, customer: validCustomer, description: 'x' } });
      // @ts-expect-error amountCents is an integer, not a string
      void pixgate.POST('/v1/pix', { body: { amountCents: '1000', customer: validCustomer } });
      // @ts-expect-error a path the API does not have
      void pixgate.GET('/v1/charges');
      // @ts-expect-error the transaction id is required
      void pixgate.GET('/v1/transactions/{id}');
    };
    expect(typeof typeErrors).toBe('function');
  });

  it('reads a binary answer (the QR code image) with parseAs, typed by it', async () => {
    const { data: charge } = await pixgate.POST('/v1/pix', { body: { amountCents: 1000, customer: validCustomer } });
    const png = await pixgate.GET('/v1/transactions/{id}/qrcode', { params: { path: { id: charge.transactionId } }, parseAs: 'arrayBuffer' });
    expectTypeOf(png.data).toEqualTypeOf<ArrayBuffer>();
    expect(png.response.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(png.data.slice(0, 4))]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const svg = await pixgate.GET('/v1/transactions/{id}/qrcode', { params: { path: { id: charge.transactionId }, query: { format: 'svg' } }, parseAs: 'text' });
    expectTypeOf(svg.data).toEqualTypeOf<string>();
    expect(svg.data).toMatch(/^<\?xml|^<svg/);
  });

  it("rejects a refused request with PixGateError carrying the contract's status and message", async () => {
    const refused = await pixgate.POST('/v1/pix', { body: { amountCents: 50, customer: validCustomer } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PixGateError);
    expect(refused).toMatchObject({ status: 400, operation: 'POST /v1/pix', message: 'amountCents deve ser inteiro ≥ 100 (R$1,00 mínimo).' });

    const unknown = await pixgate
      .GET('/v1/transactions/{id}', { params: { path: { id: 'tx_000000000000000000000000' } } })
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ name: 'PixGateError', status: 404, message: 'Transação não encontrada.' });
  });

  it('rejects a revoked or wrong key with 401 and the contract message', async () => {
    const stranger = createClient({ baseUrl: gateway.baseUrl, apiKey: `pixg_${'0'.repeat(64)}` });
    const refused = await stranger.GET('/v1/balance').catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 401, message: 'API key inválida ou revogada.' });
    expect(() => createClient({ baseUrl: gateway.baseUrl, apiKey: '' })).toThrow(/apiKey/);
  });
});
