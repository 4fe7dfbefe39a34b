import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { authOf, dashboardCaller, databaseState, invitePerson, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { relaxLimits, useGateway } from '../support/gateway.ts';

/**
 * Issue 36, item 5 (static QR codes): the dashboard's "QR codes estáticos" (POST/GET
 * /dashboard/api/v1/static-qrcodes, GET /static-qrcodes/{id} with its payments, POST /{id}/deactivate, GET
 * /{id}/qrcode as a PNG or SVG download) and the sandbox's "Simular pagamento", exactly the
 * /v1/static-qrcodes service for the signed-in user's account. Refusals name the form's label with `field`;
 * another account's code is 404; no input is a 500.
 */
const gateway = useGateway();
let owner: DashboardPerson;
let developer: DashboardPerson;
let viewer: DashboardPerson;
let other: DashboardPerson;
let pending: DashboardPerson;

type Body = Record<string, unknown>;
const call = dashboardCaller(gateway);

async function created(as: DashboardPerson, body: Body = { amountCents: 1_500, description: 'Caixa 1' }): Promise<Body> {
  const answer = await call('POST', '/static-qrcodes', as, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Body;
}

const notFound = { status: 404, body: { error: messages.staticQrCodeNotFound } };
const badId = { status: 400, body: { error: 'QR code estático: identificador inválido; escolha um item da lista.', field: 'staticQrCodeId' } };
const UNKNOWN = 'sqr_000000000000000000000000';

async function image(as: DashboardPerson, id: string, query = ''): Promise<Response> {
  return fetch(`${gateway.baseUrl}/dashboard/api/v1/static-qrcodes/${id}/qrcode${query}`, { headers: { cookie: `pixgate_session=${authOf(as).cookie ?? ''}` } });
}

beforeAll(async () => {
  owner = await signUpOwner(gateway);
  // The account's own range (R$ 5,00 to R$ 10.000,00), so the amount's refusals can be seen.
  await relaxLimits(gateway, owner.accountId, { chargeMinCents: 500, chargeMaxCents: 1_000_000 });
  developer = await invitePerson(gateway, owner, 'developer');
  viewer = await invitePerson(gateway, owner, 'viewer');
  other = await signUpOwner(gateway, { legalName: 'Outra Loja Ltda' });
  pending = await signUpOwner(gateway, { approved: false });
}, 60_000);

describe('POST /dashboard/api/v1/static-qrcodes', () => {
  it('creates a fixed-amount code (201) and an open one; the same externalRef answers the code it names (200)', async () => {
    const fixed = await created(owner, { amountCents: 1_500, description: 'Caixa 1', externalRef: 'caixa-1' });
    expect(fixed).toMatchObject({ status: 'active', amountCents: 1_500, description: 'Caixa 1', paymentsCount: 0, receivedCents: 0 });
    expect(fixed.staticQrCodeId).toMatch(/^sqr_[0-9a-f]{24}$/);
    expect(fixed.pixPayload).toMatch(/^000201/);
    const before = await databaseState(gateway);
    expect(await call('POST', '/static-qrcodes', owner, { amountCents: 9_999, externalRef: 'caixa-1' })).toEqual({ status: 200, body: { ...fixed, idempotent: true } });
    expect(await databaseState(gateway)).toEqual(before);
    const open = await created(developer, {});
    expect(open).not.toHaveProperty('amountCents');
    expect(open).not.toHaveProperty('description');
  });

  const refusals: [string, Body, string, string][] = [
    ['an amount below R$ 1,00', { amountCents: 50 }, 'Valor: o mínimo é R$ 1,00.', 'amountCents'],
    ['an amount below the account minimum', { amountCents: 200 }, 'Valor: o mínimo é R$ 5,00.', 'amountCents'],
    ['an amount above the account maximum', { amountCents: 2_000_000 }, 'Valor: o máximo é R$ 10.000,00.', 'amountCents'],
    ['an amount in reais', { amountCents: '15,00' }, 'Valor: informe um valor em reais, por exemplo 150,00.', 'amountCents'],
    ['an amount with centavos fractions', { amountCents: 150.5 }, 'Valor: informe um valor em reais, por exemplo 150,00.', 'amountCents'],
    ['a description that does not fit the QR code', { description: 'x'.repeat(38) }, 'Descrição: máximo de 37 caracteres.', 'description'],
    ['a description of spaces', { description: '   ' }, 'Descrição: formato inválido; confira o que foi digitado.', 'description'],
    ['an empty reference', { externalRef: '' }, 'Referência: campo obrigatório.', 'externalRef'],
    ['an unknown field', { valor: 10 }, messages.unknownField('valor'), 'valor'],
  ];

  it.each(refusals)('refuses %s with 400, the label and the field, creating nothing', async (_what, body, error, field) => {
    const before = await databaseState(gateway);
    const answer = await call('POST', '/static-qrcodes', owner, body);
    expect(answer).toEqual({ status: 400, body: { error, field } });
    expect(await databaseState(gateway)).toEqual(before);
  });

  it('refuses an account whose KYC is not approved and a viewer (403); never answers 500', async () => {
    expect(await call('POST', '/static-qrcodes', pending, {})).toEqual({ status: 403, body: { error: messages.accountNotApproved } });
    expect(await call('POST', '/static-qrcodes', viewer, {})).toEqual({ status: 403, body: { error: messages.roleNotAllowed } });
    const nasty: unknown[] = ['', ' ', '\u0000', null, -1, 0, 1.5, 1e21, [], {}, true, 'Ω'.repeat(300), Number.MAX_SAFE_INTEGER];
    for (const name of ['amountCents', 'description', 'externalRef']) {
      for (const value of nasty) {
        const answer = await call('POST', '/static-qrcodes', owner, { [name]: value });
        expect([200, 201, 400], JSON.stringify({ name, value, answer })).toContain(answer.status);
        if (answer.status === 400) expect((answer.body as { field?: string }).field, JSON.stringify(answer)).toBe(name);
      }
    }
  });
});

describe('GET /dashboard/api/v1/static-qrcodes', () => {
  it('lists the account’s codes newest first, by status, page by page; never another account’s', async () => {
    const first = await created(owner, { description: 'Primeiro' });
    gateway.clock.advance(1_000);
    const second = await created(owner, { description: 'Segundo' });
    const ofOther = await created(other, {});
    const all = (await call('GET', '/static-qrcodes', viewer)) as { status: number; body: { staticQrCodes: Body[] } };
    expect(all.status).toBe(200);
    const ids = all.body.staticQrCodes.map((code) => code.staticQrCodeId);
    expect(ids.indexOf(second.staticQrCodeId)).toBeLessThan(ids.indexOf(first.staticQrCodeId));
    expect(ids).not.toContain(ofOther.staticQrCodeId);
    const page = (await call('GET', '/static-qrcodes', owner, undefined, { limit: '1', status: 'active' })).body as { staticQrCodes: Body[]; nextCursor?: string };
    expect(page.staticQrCodes).toHaveLength(1);
    const next = (await call('GET', '/static-qrcodes', owner, undefined, { limit: '1', status: 'active', cursor: page.nextCursor ?? '' })).body as { staticQrCodes: Body[] };
    expect(next.staticQrCodes[0]?.staticQrCodeId).not.toBe(page.staticQrCodes[0]?.staticQrCodeId);
  });

  it.each([
    [{ status: 'ativo' }, 'Situação: escolha uma das opções da lista.', 'status'],
    [{ limit: '0' }, 'Quantidade por página: o mínimo é 1.', 'limit'],
    [{ cursor: 'abc' }, 'A página pedida não existe mais: volte à primeira página.', 'cursor'],
    [{ situacao: 'ativo' }, messages.unknownQueryParameter('situacao'), 'situacao'],
  ])('refuses the filter %j with 400, the label and the field', async (query, error, field) => {
    expect(await call('GET', '/static-qrcodes', owner, undefined, query)).toEqual({ status: 400, body: { error, field } });
  });
});

describe('GET /dashboard/api/v1/static-qrcodes/{staticQrCodeId} and its image', () => {
  it('reads one with its payments (none yet); another account’s or an unknown id is 404, a malformed one 400', async () => {
    const code = await created(owner);
    const id = String(code.staticQrCodeId);
    expect(await call('GET', `/static-qrcodes/${id}`, viewer)).toEqual({ status: 200, body: { ...code, payments: [] } });
    expect(await call('GET', `/static-qrcodes/${id}`, other)).toEqual(notFound);
    expect(await call('GET', `/static-qrcodes/${UNKNOWN}`, owner)).toEqual(notFound);
    expect(await call('GET', '/static-qrcodes/nao-e-um-id', owner)).toEqual(badId);
  });

  it('serves the image as a PNG or SVG download named pixgate-qr-<id>; another account’s is 404', async () => {
    const id = String((await created(owner)).staticQrCodeId);
    const png = await image(viewer, id);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('content-disposition')).toBe(`attachment; filename="pixgate-qr-${id}.png"`);
    expect([...new Uint8Array(await png.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const svg = await image(owner, id, '?format=svg');
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('content-disposition')).toBe(`attachment; filename="pixgate-qr-${id}.svg"`);
    expect(await svg.text()).toMatch(/^<svg /);
    const small = await image(owner, id, '?size=128');
    expect(small.status).toBe(200);
    expect((await image(other, id)).status).toBe(404);
    expect(await call('GET', `/static-qrcodes/${id}/qrcode`, owner, undefined, { format: 'jpg' })).toEqual({ status: 400, body: { error: 'Formato: escolha uma das opções da lista.', field: 'format' } });
    expect(await call('GET', `/static-qrcodes/${id}/qrcode`, owner, undefined, { size: '2000' })).toEqual({ status: 400, body: { error: 'Tamanho: o máximo é 1.024.', field: 'size' } });
    expect(await call('GET', '/static-qrcodes/nao-e-um-id/qrcode', owner)).toEqual(badId);
  });
});

describe('POST /dashboard/api/v1/static-qrcodes/{staticQrCodeId}/deactivate', () => {
  it('deactivates (200, again 200); a viewer is 403, another account 404, a malformed id 400', async () => {
    const id = String((await created(owner)).staticQrCodeId);
    expect(await call('POST', `/static-qrcodes/${id}/deactivate`, viewer)).toEqual({ status: 403, body: { error: messages.roleNotAllowed } });
    expect(await call('POST', `/static-qrcodes/${id}/deactivate`, other)).toEqual(notFound);
    const deactivated = await call('POST', `/static-qrcodes/${id}/deactivate`, developer);
    expect(deactivated).toMatchObject({ status: 200, body: { staticQrCodeId: id, status: 'inactive', deactivatedAt: expect.any(Number) } });
    expect(await call('POST', `/static-qrcodes/${id}/deactivate`, owner)).toEqual(deactivated);
    expect(await call('POST', `/static-qrcodes/${UNKNOWN}/deactivate`, owner)).toEqual(notFound);
    expect(await call('POST', '/static-qrcodes/nao-e-um-id/deactivate', owner)).toEqual(badId);
    // An account whose KYC is not approved cannot act on its codes, as the API's.
    expect(await call('POST', `/static-qrcodes/${UNKNOWN}/deactivate`, pending)).toEqual({ status: 403, body: { error: messages.accountNotApproved } });
  });
});

describe('POST /dashboard/api/v1/sandbox/static-qrcodes/{staticQrCodeId}/pay', () => {
  it('pays the code once: the payment is in the code’s payments and totals, the balance credited', async () => {
    const code = await created(owner);
    const id = String(code.staticQrCodeId);
    const balanceBefore = ((await call('GET', '/overview', owner)).body as { balance: { availableCents: number } }).balance.availableCents;
    const paid = await call('POST', `/sandbox/static-qrcodes/${id}/pay`, developer);
    expect(paid).toMatchObject({ status: 200, body: { outcome: 'credited', payment: { type: 'pix_in', status: 'paid', amountCents: 1_500, staticQrCodeId: id } } });
    const { endToEndId, payment } = paid.body as { endToEndId: string; payment: { transactionId: string; netCents: number } };
    const read = (await call('GET', `/static-qrcodes/${id}`, viewer)).body as Body & { payments: Body[] };
    expect(read).toMatchObject({ paymentsCount: 1, receivedCents: 1_500, lastPaidAt: expect.any(Number) });
    expect(read.payments).toEqual([
      {
        transactionId: payment.transactionId,
        status: 'paid',
        amountCents: 1_500,
        feeCents: expect.any(Number),
        netCents: payment.netCents,
        paidAt: expect.any(Number),
        endToEndId,
        payer: expect.objectContaining({ name: 'PAGADOR SANDBOX' }),
      },
    ]);
    const balanceAfter = ((await call('GET', '/overview', owner)).body as { balance: { availableCents: number } }).balance.availableCents;
    expect(balanceAfter - balanceBefore).toBe(payment.netCents);
    // Listed with the account's transactions, as any charge.
    expect(await call('GET', `/transactions/${payment.transactionId}`, owner)).toMatchObject({ status: 200, body: { transaction: { status: 'paid', staticQrCodeId: id } } });
  });

  it('an open code takes the amount typed; another amount on a fixed code or a deactivated code is left unmatched (200), crediting nothing', async () => {
    const open = String((await created(owner, {})).staticQrCodeId);
    expect(await call('POST', `/sandbox/static-qrcodes/${open}/pay`, owner, { amountCents: 2_500 })).toMatchObject({ status: 200, body: { outcome: 'credited', payment: { amountCents: 2_500 } } });
    expect(await call('POST', `/sandbox/static-qrcodes/${open}/pay`, owner, {})).toMatchObject({ status: 200, body: { outcome: 'credited', payment: { amountCents: 1_000 } } });
    const fixed = String((await created(owner)).staticQrCodeId);
    const mismatch = await call('POST', `/sandbox/static-qrcodes/${fixed}/pay`, owner, { amountCents: 999 });
    expect(mismatch).toEqual({ status: 200, body: { outcome: 'unmatched', reason: 'amount_mismatch', endToEndId: expect.any(String) } });
    expect(await call('POST', `/static-qrcodes/${fixed}/deactivate`, owner)).toMatchObject({ status: 200 });
    gateway.clock.advance(1_000);
    const late = await call('POST', `/sandbox/static-qrcodes/${fixed}/pay`, owner);
    expect(late).toEqual({ status: 200, body: { outcome: 'unmatched', reason: 'charge_not_payable', endToEndId: expect.any(String) } });
    expect(await call('GET', `/static-qrcodes/${fixed}`, owner)).toMatchObject({ status: 200, body: { paymentsCount: 0, receivedCents: 0, payments: [] } });
    const withPayer = await call('POST', `/sandbox/static-qrcodes/${open}/pay`, owner, {
      amountCents: 700,
      payer: { name: 'MARIA DA SILVA', document: '52998224725', documentType: 'cpf', bankAccount: { ispb: '00360305', branch: '0001', account: '123456' } },
    });
    expect(withPayer).toMatchObject({ status: 200, body: { outcome: 'credited', payment: { payer: { name: 'MARIA DA SILVA' } } } });
  });

  it('refuses another account’s code (404, nothing paid), a viewer (403), a bad body or id (400)', async () => {
    const ofOther = String((await created(other)).staticQrCodeId);
    const before = await databaseState(gateway);
    expect(await call('POST', `/sandbox/static-qrcodes/${ofOther}/pay`, owner)).toEqual(notFound);
    expect(await call('POST', `/sandbox/static-qrcodes/${UNKNOWN}/pay`, owner)).toEqual(notFound);
    expect(await call('POST', `/sandbox/static-qrcodes/${ofOther}/pay`, viewer)).toEqual({ status: 403, body: { error: messages.roleNotAllowed } });
    expect(await call('POST', `/sandbox/static-qrcodes/${ofOther}/pay`, owner, { amountCents: 'dez' })).toEqual({
      status: 400,
      body: { error: 'Valor: informe um valor em reais, por exemplo 150,00.', field: 'amountCents' },
    });
    expect(await call('POST', `/sandbox/static-qrcodes/${ofOther}/pay`, owner, { valor: 1 })).toEqual({ status: 400, body: { error: messages.unknownField('valor'), field: 'valor' } });
    expect(await call('POST', '/sandbox/static-qrcodes/nao-e-um-id/pay', owner)).toEqual(badId);
    expect(await databaseState(gateway)).toEqual(before);
    expect(await call('GET', `/static-qrcodes/${ofOther}`, other)).toMatchObject({ status: 200, body: { paymentsCount: 0 } });
  });
});
