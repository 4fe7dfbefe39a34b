import { hasError, parsePix } from 'pix-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeFee } from '../../src/charges/charge.service.ts';
import { applyReceivedPix } from '../../src/charges/receivedPix.service.ts';
import { messages } from '../../src/messages/merchant.ts';
import { parseBrCode } from '../../src/primitives/brcode.ts';
import { sandboxPayStaticQrCode } from '../../src/staticQrCodes/staticQrCode.sandbox.ts';
import { descriptionRoom } from '../../src/staticQrCodes/staticQrCode.service.ts';
import { createMerchant, postAsMerchant, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 36: static QR codes over HTTP: creation (open and fixed amount), idempotency, every refusal with its
 * Portuguese message, the list, the deactivation, the image; every Pix to a code credited once as a paid
 * charge of its own (with its payer when the provider says who), listed and notified as any paid charge;
 * a fixed code paid another amount, an open amount the account refuses and a deactivated code paid left
 * unmatched. On the simulated provider here; on the fake provider's both profiles in `test:psp`.
 */
const gateway = useGateway();
let merchant: MerchantFixture;

type Body = Record<string, unknown>;

async function send(method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; as?: MerchantFixture } = {}) {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${(options.as ?? merchant).apiKey}`,
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

const create = (body: Body, as: MerchantFixture = merchant) => postAsMerchant(gateway, as, '/v1/static-qrcodes', body);

async function created(body: Body = {}, as: MerchantFixture = merchant): Promise<Body & { staticQrCodeId: string; txid: string; pixPayload: string }> {
  const answer = await create(body, as);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Body & { staticQrCodeId: string; txid: string; pixPayload: string };
}

const read = async (id: string) => (await send('GET', `/v1/static-qrcodes/${id}`)).body;

/** A payer pays the code through the sandbox; every callback of the fake provider applied before it answers. */
async function pay(id: string, input: Parameters<typeof sandboxPayStaticQrCode>[2] = {}) {
  const outcome = await sandboxPayStaticQrCode(gateway.deps, id, input);
  await gateway.efi?.settled();
  return outcome;
}

async function paymentsOf(endToEndId: string) {
  return gateway.deps.db.selectFrom('transactions').selectAll().where('end_to_end_id', '=', endToEndId).execute();
}

async function unmatchedReason(endToEndId: string): Promise<string | undefined> {
  const row = await gateway.deps.db.selectFrom('unmatched_pix').select(['reason', 'charge_ref']).where('end_to_end_id', '=', endToEndId).executeTakeFirst();
  return row?.reason;
}

async function eventsOf(of: MerchantFixture, transactionId: string): Promise<Body[]> {
  const { data } = await gateway.admin.GET('/admin/v1/accounts/{accountId}/events', { params: { path: { accountId: of.accountId }, query: { limit: 100 } } });
  return (data?.events ?? []).filter((event) => (event.payload as Body).transactionId === transactionId).map((event) => ({ event: event.event, ...(event.payload as Body) }));
}

/** The standard's Pix has no payer (API Pix 2.1 on): on PSP=apipix the provider never says who paid. */
const payerReported = () => gateway.provider.name !== 'apipix';

const PAYER = {
  name: 'JOAO PAGADOR',
  document: '11144477735',
  documentType: 'cpf' as const,
  bankAccount: { ispb: '00360305', branch: '0001', account: '98765-4' },
};

beforeAll(async () => {
  merchant = await createMerchant(gateway, { legalName: 'Padaria Pão Quente Ltda' });
});

describe('POST /v1/static-qrcodes', () => {
  it('creates an open-amount code: a static BR Code on the receiving key, without amount, naming its txid', async () => {
    const code = await created({ description: 'Doação — Paróquia São José' });
    expect(code).toMatchObject({ status: 'active', description: 'Doação — Paróquia São José', paymentsCount: 0, receivedCents: 0 });
    expect(code).not.toHaveProperty('amountCents');
    expect(code.staticQrCodeId).toMatch(/^sqr_[0-9a-f]{24}$/);
    expect(code.txid).toBe(`s${code.staticQrCodeId.slice(4)}`);
    const parsed = parseBrCode(code.pixPayload);
    expect(parsed).toMatchObject({ kind: 'static', pixKey: gateway.provider.receivingKey, description: 'Doacao Paroquia Sao Jose', txid: code.txid, merchantName: 'PADARIA PAO QUENTE LTDA' });
    expect(parsed.amountCents).toBeUndefined();
    // An outside judge reads it too.
    const judged = parsePix(code.pixPayload);
    expect(hasError(judged)).toBe(false);
    expect(judged).toMatchObject({ type: 'STATIC', pixKey: gateway.provider.receivingKey, transactionAmount: 0 });
    expect(await read(code.staticQrCodeId)).toEqual(code);
  });

  it('creates a fixed-amount code: the amount in field 54', async () => {
    const code = await created({ amountCents: 1_500, description: 'Caixa 1' });
    expect(code).toMatchObject({ status: 'active', amountCents: 1_500 });
    expect(parseBrCode(code.pixPayload)).toMatchObject({ kind: 'static', amountCents: 1_500, description: 'Caixa 1', txid: code.txid });
    expect(parsePix(code.pixPayload)).toMatchObject({ type: 'STATIC', transactionAmount: 15 });
    const bare = await created({});
    expect(parseBrCode(bare.pixPayload)).not.toHaveProperty('description');
  });

  it('answers a repeated externalRef with its code (200, idempotent), deactivated or not, in a scope of its own', async () => {
    const first = await created({ amountCents: 2_000, externalRef: 'loja-centro-caixa-1' });
    const again = await create({ amountCents: 3_000, externalRef: 'loja-centro-caixa-1' });
    expect(again).toEqual({ status: 200, body: { ...first, idempotent: true } });
    await send('POST', `/v1/static-qrcodes/${first.staticQrCodeId}/deactivate`);
    const later = await create({ externalRef: 'loja-centro-caixa-1' });
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ staticQrCodeId: first.staticQrCodeId, status: 'inactive', idempotent: true });
    // Another merchant's code of the same name, and a charge of this merchant's with that externalRef, are their own.
    const other = await createMerchant(gateway);
    expect((await created({ externalRef: 'loja-centro-caixa-1' }, other)).staticQrCodeId).not.toBe(first.staticQrCodeId);
    const charge = await merchant.client.POST('/v1/pix', { body: { amountCents: 1_000, externalRef: 'loja-centro-caixa-1', customer: validCustomer } });
    expect(charge.response.status).toBe(201);
  });

  it.each([
    ['an amount below 100', { amountCents: 99 }, messages.chargeAmount],
    ['an amount given as text', { amountCents: '15.00' }, messages.chargeAmount],
    ['a decimal amount', { amountCents: 150.5 }, messages.chargeAmount],
    ['an amount above the account range', { amountCents: 10_000_001 }, messages.amountAboveMaximum(10_000_000)],
    ['an empty description', { description: '' }, messages.staticDescription],
    ['a description of spaces', { description: '   ' }, messages.staticDescription],
    ['a description over 37 characters', { description: 'x'.repeat(38) }, messages.staticDescription],
    ['a description that is not text', { description: 12 }, messages.staticDescription],
    ['an empty externalRef', { externalRef: '' }, messages.externalRef],
    ['an externalRef over 100 characters', { externalRef: 'r'.repeat(101) }, messages.externalRef],
    ['an unknown field', { amount: 1_000 }, messages.unknownField('amount')],
  ])('refuses %s with 400 and its message', async (_case, body, message) => {
    expect(await create(body as Body)).toEqual({ status: 400, body: { error: message } });
  });

  it('refuses a body that is not a JSON object, malformed JSON and another Content-Type', async () => {
    expect(await send('POST', '/v1/static-qrcodes', { body: '[]' })).toEqual({ status: 400, body: { error: messages.bodyNotObject } });
    expect(await send('POST', '/v1/static-qrcodes', { body: '{"amountCents": 1' })).toEqual({ status: 400, body: { error: messages.malformedJson } });
    expect(await send('POST', '/v1/static-qrcodes', { body: '{}', headers: { 'Content-Type': 'text/plain' } })).toEqual({ status: 415, body: { error: messages.unsupportedMediaType } });
  });

  it('refuses a fixed amount that cannot cover the fee, and answers 429 past the charges’ hourly limit', async () => {
    const shop = await createMerchant(gateway);
    const account = { params: { path: { accountId: shop.accountId } } };
    await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', { ...account, body: { chargeFeeFixedCents: 150 } as never });
    const low = await create({ amountCents: 100 }, shop);
    expect(low.status).toBe(400);
    expect(low.body.error).toMatch(/^Valor abaixo do mínimo permitido \(R\$ \d+,\d{2}\)\.$/);
    await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', { ...account, body: { chargeRatePerHour: 1 } as never });
    await created({ externalRef: 'limite-1' }, shop);
    expect(await create({}, shop)).toEqual({ status: 429, body: { error: messages.chargeRateLimited } });
    // A repeat of an externalRef takes no slot: still answered.
    expect((await create({ externalRef: 'limite-1' }, shop)).status).toBe(200);
  });

  it('keeps 37 characters of description beside any key but a long e-mail one', () => {
    expect(descriptionRoom('7d9f0335-8dcc-4054-9bf9-0dbd61d36906')).toBe(37);
    expect(descriptionRoom('pagamentos@pixgate.test')).toBe(50);
    expect(descriptionRoom(`${'a'.repeat(45)}@pixgate.com.br`)).toBe(13);
    expect(messages.staticDescriptionRoom(13)).toBe('description deve ter no máximo 13 caracteres nesta instalação (cabe no QR code com a chave Pix).');
  });
});

describe('GET /v1/static-qrcodes/{id}', () => {
  it('answers 404 for an unknown or another merchant’s code, 400 for a malformed id', async () => {
    const other = await createMerchant(gateway);
    const theirs = await created({}, other);
    const notFound = { status: 404, body: { error: messages.staticQrCodeNotFound } };
    expect(await send('GET', `/v1/static-qrcodes/${theirs.staticQrCodeId}`)).toEqual(notFound);
    expect(await send('GET', '/v1/static-qrcodes/sqr_000000000000000000000000')).toEqual(notFound);
    expect(await send('GET', '/v1/static-qrcodes/tx_000000000000000000000000')).toEqual({ status: 400, body: { error: messages.staticQrCodeIdInvalid } });
    expect(await send('GET', `/v1/static-qrcodes/${theirs.staticQrCodeId}?date=hoje`)).toEqual({ status: 400, body: { error: messages.unknownQueryParameter('date') } });
  });
});

describe('GET /v1/static-qrcodes', () => {
  it('lists newest first, by status, page by page', async () => {
    const shop = await createMerchant(gateway);
    const ids: string[] = [];
    for (const externalRef of ['caixa-1', 'caixa-2', 'caixa-3']) {
      gateway.clock.advance(1_000); // one creation instant each: the list's order is by creation
      ids.push((await created({ externalRef }, shop)).staticQrCodeId);
    }
    await send('POST', `/v1/static-qrcodes/${ids[1]}/deactivate`, { as: shop });
    const list = (query: string) => send('GET', `/v1/static-qrcodes${query}`, { as: shop });
    const idsOf = (answer: { body: Body }) => (answer.body.staticQrCodes as Body[]).map((code) => code.staticQrCodeId);
    expect(idsOf(await list(''))).toEqual([...ids].reverse());
    expect(idsOf(await list('?status=active'))).toEqual([ids[2], ids[0]]);
    expect(idsOf(await list('?status=inactive'))).toEqual([ids[1]]);
    const first = await list('?limit=2');
    expect(first.body.count).toBe(2);
    const second = await list(`?limit=2&cursor=${first.body.nextCursor as string}`);
    expect(idsOf(second)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeUndefined();
    expect(await list('?status=ativo')).toEqual({ status: 400, body: { error: messages.staticListStatus('ativo') } });
    expect(await list('?limit=0')).toEqual({ status: 400, body: { error: messages.listLimit('0') } });
    expect(await list('?cursor=abc')).toEqual({ status: 400, body: { error: messages.cursorInvalid } });
    expect(await list('?type=pix_in')).toEqual({ status: 400, body: { error: messages.unknownQueryParameter('type') } });
  });
});

describe('POST /v1/static-qrcodes/{id}/deactivate', () => {
  it('deactivates for good, without a body; a second time answers it again; another merchant’s is not found', async () => {
    const code = await created({ amountCents: 1_000 });
    const first = await send('POST', `/v1/static-qrcodes/${code.staticQrCodeId}/deactivate`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ staticQrCodeId: code.staticQrCodeId, status: 'inactive', deactivatedAt: gateway.clock.now() });
    gateway.clock.advance(5_000);
    expect(await send('POST', `/v1/static-qrcodes/${code.staticQrCodeId}/deactivate`, { body: {} })).toEqual(first);
    expect(await read(code.staticQrCodeId)).toEqual(first.body);
    const other = await createMerchant(gateway);
    expect(await send('POST', `/v1/static-qrcodes/${code.staticQrCodeId}/deactivate`, { as: other })).toEqual({ status: 404, body: { error: messages.staticQrCodeNotFound } });
    expect(await send('POST', '/v1/static-qrcodes/sqr_XYZ/deactivate')).toEqual({ status: 400, body: { error: messages.staticQrCodeIdInvalid } });
  });
});

describe('GET /v1/static-qrcodes/{id}/qrcode', () => {
  it('answers the BR Code as a PNG or an SVG image, and refuses bad parameters', async () => {
    const code = await created({ description: 'Balcão' });
    const image = (query: string) => fetch(`${gateway.baseUrl}/v1/static-qrcodes/${code.staticQrCodeId}/qrcode${query}`, { headers: { Authorization: `Bearer ${merchant.apiKey}` } });
    const png = await image('?size=256');
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString('latin1')).toBe('PNG');
    const svg = await image('?format=svg');
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toContain('<svg');
    const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as Body });
    expect(await json(await image('?format=gif'))).toEqual({ status: 400, body: { error: messages.qrFormat('gif') } });
    expect(await json(await image('?size=64'))).toEqual({ status: 400, body: { error: messages.qrSize('64') } });
    expect(await send('GET', '/v1/static-qrcodes/sqr_nothex/qrcode')).toEqual({ status: 400, body: { error: messages.staticQrCodeIdInvalid } });
    const other = await createMerchant(gateway);
    expect(await send('GET', `/v1/static-qrcodes/${code.staticQrCodeId}/qrcode`, { as: other })).toEqual({ status: 404, body: { error: messages.staticQrCodeNotFound } });
  });
});

describe('payments', () => {
  it('credits every Pix to an open code as a paid charge of its own, with its payer, listed and notified', async () => {
    const code = await created({ description: 'Doações' });
    const paid = await pay(code.staticQrCodeId, { amountCents: 2_500, payer: PAYER });
    expect(paid.outcome === 'credited' || paid.outcome === 'already_credited').toBe(true);
    const [payment] = await paymentsOf(paid.endToEndId);
    if (!payment) throw new Error('no payment');
    const rule = await gateway.admin.GET('/admin/v1/accounts/{accountId}', { params: { path: { accountId: merchant.accountId } } });
    const fee = chargeFee(2_500, { fixedCents: rule.data?.chargeFeeFixedCents ?? 0, bps: rule.data?.chargeFeeBps ?? 0 });
    const transaction = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: payment.id } } });
    expect(transaction.data).toMatchObject({
      type: 'pix_in',
      status: 'paid',
      amountCents: 2_500,
      feeCents: fee,
      netCents: 2_500 - fee,
      staticQrCodeId: code.staticQrCodeId,
      endToEndId: paid.endToEndId,
      pixPayload: code.pixPayload,
    });
    if (payerReported()) expect(transaction.data?.payer).toEqual(PAYER);
    else expect(transaction.data).not.toHaveProperty('payer');
    const listed = await merchant.client.GET('/v1/transactions', { params: { query: { limit: 5 } } });
    expect(listed.data?.transactions.find((item) => item.transactionId === payment.id)).toMatchObject({ staticQrCodeId: code.staticQrCodeId, status: 'paid' });
    const events = await eventsOf(merchant, payment.id);
    expect(events.map((event) => event.event)).toEqual(['transaction.paid']);
    expect(events[0]).toMatchObject({ staticQrCodeId: code.staticQrCodeId, amountCents: 2_500, endToEndId: paid.endToEndId });

    gateway.clock.advance(60_000);
    const second = await pay(code.staticQrCodeId, { amountCents: 1_000 });
    expect(second.endToEndId).not.toBe(paid.endToEndId);
    expect(await read(code.staticQrCodeId)).toMatchObject({ status: 'active', paymentsCount: 2, receivedCents: 3_500, lastPaidAt: gateway.clock.now() });
    // GET /v1/transactions lists the code's payments alone, newest first.
    const [latest] = await paymentsOf(second.endToEndId);
    const ofCode = await send('GET', `/v1/transactions?staticQrCodeId=${code.staticQrCodeId}`);
    expect((ofCode.body.transactions as Body[]).map((item) => item.transactionId)).toEqual([latest?.id, payment.id]);
    expect(await send('GET', '/v1/transactions?staticQrCodeId=sqr_123')).toEqual({ status: 400, body: { error: messages.staticQrCodeIdInvalid } });
    const other = await createMerchant(gateway);
    expect((await send('GET', `/v1/transactions?staticQrCodeId=${code.staticQrCodeId}`, { as: other })).body).toMatchObject({ transactions: [], count: 0 });
  });

  it('credits the same Pix once however many times it is read, at once or one after the other', async () => {
    const code = await created({ amountCents: 1_200 });
    const endToEndId = await gateway.provider.payStaticQrCode({ txid: code.txid, amountCents: 1_200 });
    const pix = await gateway.deps.provider.readReceivedPix(endToEndId);
    if (!pix) throw new Error('the provider does not know the Pix');
    expect(pix.chargeRef).toBe(code.txid);
    const outcomes = await Promise.all([applyReceivedPix(gateway.deps, pix), applyReceivedPix(gateway.deps, pix)]);
    const again = await applyReceivedPix(gateway.deps, pix);
    await gateway.efi?.settled();
    // On the fake provider its callback reads the same Pix too: one of all of them credits it.
    for (const outcome of [...outcomes, again]) expect(['credited', 'already_credited']).toContain(outcome.outcome);
    expect(again.outcome).toBe('already_credited');
    expect(outcomes.filter((outcome) => outcome.outcome === 'credited').length).toBeLessThanOrEqual(1);
    expect(await paymentsOf(endToEndId)).toHaveLength(1);
    expect(await read(code.staticQrCodeId)).toMatchObject({ paymentsCount: 1, receivedCents: 1_200 });
  });

  it('leaves unmatched a fixed code paid another amount, and credits its own amount', async () => {
    const code = await created({ amountCents: 1_500 });
    const other = await pay(code.staticQrCodeId, { amountCents: 1_499 });
    expect(other).toMatchObject({ outcome: 'unmatched', reason: 'amount_mismatch' });
    expect(await unmatchedReason(other.endToEndId)).toBe('amount_mismatch');
    expect(await paymentsOf(other.endToEndId)).toHaveLength(0);
    const own = await pay(code.staticQrCodeId);
    expect(own.outcome === 'credited' || own.outcome === 'already_credited').toBe(true);
    expect(await read(code.staticQrCodeId)).toMatchObject({ paymentsCount: 1, receivedCents: 1_500 });
  });

  it('leaves unmatched an open amount the account’s charges refuse', async () => {
    const code = await created({});
    const tiny = await pay(code.staticQrCodeId, { amountCents: 50 });
    expect(tiny).toMatchObject({ outcome: 'unmatched', reason: 'amount_mismatch' });
    const huge = await pay(code.staticQrCodeId, { amountCents: 10_000_001 });
    expect(huge).toMatchObject({ outcome: 'unmatched', reason: 'amount_mismatch' });
    expect(await read(code.staticQrCodeId)).toMatchObject({ paymentsCount: 0, receivedCents: 0 });
  });

  it('leaves unmatched a Pix received after the code was deactivated; one received before still pays it', async () => {
    const code = await created({});
    const before = await gateway.provider.payStaticQrCode({ txid: code.txid, amountCents: 700 });
    gateway.clock.advance(1_000);
    await send('POST', `/v1/static-qrcodes/${code.staticQrCodeId}/deactivate`);
    gateway.clock.advance(1_000);
    const late = await pay(code.staticQrCodeId, { amountCents: 800 });
    expect(late).toMatchObject({ outcome: 'unmatched', reason: 'charge_not_payable' });
    expect(await unmatchedReason(late.endToEndId)).toBe('charge_not_payable');
    const pix = await gateway.deps.provider.readReceivedPix(before);
    const applied = await applyReceivedPix(gateway.deps, pix!);
    expect(['credited', 'already_credited']).toContain(applied.outcome);
    expect(await read(code.staticQrCodeId)).toMatchObject({ status: 'inactive', paymentsCount: 1, receivedCents: 700 });
  });

  it('refunds a payment as any paid charge', async () => {
    const code = await created({});
    const paid = await pay(code.staticQrCodeId, { amountCents: 3_000 });
    const [payment] = await paymentsOf(paid.endToEndId);
    const refund = await postAsMerchant(gateway, merchant, `/v1/transactions/${payment?.id ?? ''}/refunds`, { amountCents: 1_000 });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(await read(code.staticQrCodeId)).toMatchObject({ paymentsCount: 1, receivedCents: 3_000 });
  });
});
