import { Resvg } from '@resvg/resvg-js';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import {
  createMerchant,
  fund,
  relaxLimits,
  useGateway,
  validCustomer,
  type MerchantFixture,
} from '../support/gateway.ts';

/**
 * GET /v1/transactions/{id}/qrcode, checked with decoders independent of the encoder (`qrcode`): PNG through
 * pngjs + jsQR, SVG rasterised by resvg and read by jsQR. The image must carry exactly the `pixPayload`.
 */
const gateway = useGateway();
let merchant: MerchantFixture;
let other: MerchantFixture;

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  other = await createMerchant(gateway, { legalName: 'Outra Loja Ltda' });
});

async function createCharge(amountCents = 12345) {
  const { data } = await merchant.client.POST('/v1/pix', { body: { amountCents, customer: validCustomer } });
  if (!data) throw new Error('charge not created');
  return data;
}

async function get(path: string, apiKey = merchant.apiKey) {
  const response = await fetch(`${gateway.baseUrl}${path}`, { headers: { Authorization: `Bearer ${apiKey}` } });
  return { status: response.status, type: response.headers.get('content-type'), headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

function decodeRgba(width: number, height: number, rgba: Uint8Array | Buffer): string | undefined {
  // jsqr is CommonJS: its default export is the module object, whose `default` is the decoder.
  return jsQR.default(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength), width, height)?.data;
}

function decodePng(bytes: Buffer): { text: string | undefined; width: number } {
  const png = PNG.sync.read(bytes);
  return { text: decodeRgba(png.width, png.height, png.data), width: png.width };
}

describe('GET /v1/transactions/{id}/qrcode', () => {
  it('answers a PNG (512 px by default) whose QR code is exactly the pixPayload', async () => {
    const charge = await createCharge();
    const image = await get(`/v1/transactions/${charge.transactionId}/qrcode`);
    expect(image.status).toBe(200);
    expect(image.type).toBe('image/png');
    expect(image.headers.get('cache-control')).toBe('private, max-age=86400');
    const decoded = decodePng(image.bytes);
    expect(decoded.width).toBe(512);
    expect(decoded.text).toBe(charge.pixPayload);
  });

  it('answers the PNG at the requested size', async () => {
    const charge = await createCharge(100);
    const image = await get(`/v1/transactions/${charge.transactionId}/qrcode?format=png&size=200`);
    expect(image.status).toBe(200);
    const decoded = decodePng(image.bytes);
    expect(decoded.width).toBe(200);
    expect(decoded.text).toBe(charge.pixPayload);
  });

  it('answers an SVG that renders to the same payload', async () => {
    const charge = await createCharge(99_999_99);
    const image = await get(`/v1/transactions/${charge.transactionId}/qrcode?format=svg`);
    expect(image.status).toBe(200);
    expect(image.type).toMatch(/^image\/svg\+xml/);
    const rendered = new Resvg(image.bytes.toString('utf8'), { fitTo: { mode: 'width', value: 600 }, background: 'white' }).render();
    expect(decodeRgba(rendered.width, rendered.height, rendered.pixels)).toBe(charge.pixPayload);
  });

  it('answers 404 for another merchant\'s charge, for a withdrawal and for an unknown id', async () => {
    const charge = await createCharge();
    await relaxLimits(gateway, merchant.accountId);
    await fund(gateway, merchant, 10_000);
    // A provider without a send API (PSP=apipix in `npm run test:psp`) makes no withdrawal to ask about.
    const payouts = gateway.deps.provider.capabilities.payouts;
    const withdrawal = payouts ? await merchant.client.POST('/v1/withdraw', { body: { amountCents: 1000, pixKey: '52998224725', pixKeyType: 'cpf' } }) : undefined;
    if (withdrawal) expect(withdrawal.response.status).toBe(201);
    for (const [path, key] of [
      [`/v1/transactions/${charge.transactionId}/qrcode`, other.apiKey],
      ...(withdrawal ? [[`/v1/transactions/${withdrawal.data?.transactionId ?? ''}/qrcode`, merchant.apiKey] as const] : []),
      ['/v1/transactions/tx_000000000000000000000000/qrcode', merchant.apiKey],
    ] as const) {
      const answer = await get(path, key);
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.bytes.toString('utf8'))).toEqual({ error: messages.transactionNotFound });
    }
  });

  it('answers 400 with the field\'s message for a malformed id, format or size', async () => {
    const charge = await createCharge();
    const cases = [
      ['/v1/transactions/tx_123/qrcode', messages.transactionIdInvalid],
      [`/v1/transactions/${charge.transactionId}/qrcode?format=jpeg`, messages.qrFormat('jpeg')],
      [`/v1/transactions/${charge.transactionId}/qrcode?size=4096`, messages.qrSize('4096')],
      [`/v1/transactions/${charge.transactionId}/qrcode?size=12.5`, messages.qrSize('12.5')],
      [`/v1/transactions/${charge.transactionId}/qrcode?color=red`, messages.unknownQueryParameter('color')],
    ] as const;
    for (const [path, error] of cases) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.bytes.toString('utf8')), path).toEqual({ error });
    }
  });

  it('answers 401 without a key', async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/transactions/tx_000000000000000000000000/qrcode`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: messages.apiKeyMissing });
  });
});
