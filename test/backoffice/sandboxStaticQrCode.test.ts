import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { createMerchant, useGateway, type MerchantFixture } from '../support/gateway.ts';

/**
 * The back office's sandbox "a payer pays this static QR code" (POST
 * /admin/v1/sandbox/static-qrcodes/{staticQrCodeId}/pay): the same sandboxPayStaticQrCode the dashboard's
 * "Simular pagamento" calls, on any account's code, audited. Every outcome is an answer: credited once,
 * or left unmatched (another amount on a fixed code, a deactivated code), never a 500.
 */
const gateway = useGateway();
let merchant: MerchantFixture;

const pay = (staticQrCodeId: string, body?: Record<string, unknown>) =>
  gateway.admin.POST('/admin/v1/sandbox/static-qrcodes/{staticQrCodeId}/pay', { params: { path: { staticQrCodeId } }, ...(body ? { body } : {}) });

async function code(body: { amountCents?: number; description?: string } = {}): Promise<string> {
  const created = await merchant.client.POST('/v1/static-qrcodes', { body });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return created.data.staticQrCodeId;
}

beforeAll(async () => {
  merchant = await createMerchant(gateway, { legalName: 'Padaria Estática Ltda' });
}, 60_000);

describe('POST /admin/v1/sandbox/static-qrcodes/{staticQrCodeId}/pay', () => {
  it('credits a fixed code once, as the payment of the code, and writes the audit entry', async () => {
    const id = await code({ amountCents: 1_500, description: 'Caixa 1' });
    const paid = await pay(id);
    expect(paid.response.status).toBe(200);
    expect(paid.data).toMatchObject({ outcome: 'credited', payment: { type: 'pix_in', status: 'paid', amountCents: 1_500, staticQrCodeId: id } });
    const read = await merchant.client.GET('/v1/static-qrcodes/{id}', { params: { path: { id } } });
    expect(read.data).toMatchObject({ paymentsCount: 1, receivedCents: 1_500 });
    const entry = await gateway.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'sandbox.staticqrcode.pay').where('target_id', '=', id).executeTakeFirst();
    expect(entry).toMatchObject({ target_type: 'static_qrcode', account_id: merchant.accountId });
    // Another Pix is another payment.
    expect((await pay(id, {})).data).toMatchObject({ outcome: 'credited' });
    expect((await merchant.client.GET('/v1/static-qrcodes/{id}', { params: { path: { id } } })).data).toMatchObject({ paymentsCount: 2, receivedCents: 3_000 });
  });

  it('leaves another amount on a fixed code and a deactivated code unmatched (200, nothing credited)', async () => {
    const id = await code({ amountCents: 1_500 });
    const mismatch = await pay(id, { amountCents: 999 });
    expect(mismatch.response.status).toBe(200);
    expect(mismatch.data).toEqual({ outcome: 'unmatched', reason: 'amount_mismatch', endToEndId: expect.any(String) });
    expect((await merchant.client.POST('/v1/static-qrcodes/{id}/deactivate', { params: { path: { id } } })).response.status).toBe(200);
    gateway.clock.advance(1_000);
    const late = await pay(id);
    expect(late.data).toEqual({ outcome: 'unmatched', reason: 'charge_not_payable', endToEndId: expect.any(String) });
    expect((await merchant.client.GET('/v1/static-qrcodes/{id}', { params: { path: { id } } })).data).toMatchObject({ paymentsCount: 0, receivedCents: 0 });
  });

  it('pays an open code the amount and payer given', async () => {
    const id = await code();
    const payer = { name: 'MARIA DA SILVA', document: '52998224725', documentType: 'cpf' as const, bankAccount: { ispb: '00360305', branch: '0001', account: '123456' } };
    const paid = await pay(id, { amountCents: 4_321, payer });
    expect(paid.data).toMatchObject({ outcome: 'credited', payment: { amountCents: 4_321, payer: { name: 'MARIA DA SILVA', document: '52998224725' } } });
  });

  it('answers an unknown code 404, a malformed id or body 400', async () => {
    const unknown = await pay('sqr_000000000000000000000000');
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toEqual({ error: messages.staticQrCodeNotFound });
    expect((await pay('nao-e-um-id')).response.status).toBe(400);
    const id = await code();
    const bad = await pay(id, { amountCents: 'dez' });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ field: 'amountCents' });
    const extra = await pay(id, { valor: 1 });
    expect(extra.response.status).toBe(400);
  });
});
