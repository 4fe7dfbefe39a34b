import { beforeAll, describe, expect, it } from 'vitest';
import { dashboardTexts } from '../../src/messages/fields.ts';
import { messages } from '../../src/messages/merchant.ts';
import { authOf, dashboardCaller, databaseState, invitePerson, rawCall, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { relaxLimits, useGateway } from '../support/gateway.ts';

/**
 * Issue 36, item 5: payment links from the dashboard (POST/GET /dashboard/api/v1/payment-links, GET
 * /payment-links/{linkId} with its payments and totals, POST /payment-links/{linkId}/deactivate), exactly the
 * /v1/payment-links service for the signed-in user's account. Every refusal names the field by the form's
 * label, with `field`; a payment made on the hosted page (/pay/{linkId}) shows among the link's payments.
 */
const gateway = useGateway();
let owner: DashboardPerson;
let developer: DashboardPerson;
let viewer: DashboardPerson;
let other: DashboardPerson;
let pending: DashboardPerson;

type Body = Record<string, unknown>;
const call = dashboardCaller(gateway);

/** What the form sends for a single-use link valid for a week. */
const shirt = (overrides: Body = {}): Body => ({ amountCents: 4_990, description: 'Camiseta azul, tamanho M', reusable: false, expiresInDays: 7, ...overrides });

async function created(as: DashboardPerson, body: Body = shirt()): Promise<Body> {
  const answer = await call('POST', '/payment-links', as, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Body;
}

/** A payer opens the link's page (no session, no key): the charge it was given. */
async function openPage(linkId: string): Promise<string> {
  const response = await fetch(`${gateway.baseUrl}/pay/${linkId}`);
  const html = await response.text();
  expect(response.status, html).toBe(200);
  const charge = /data-charge="(tx_[0-9a-f]{24})"/.exec(html)?.[1];
  if (!charge) throw new Error(`no charge on the page: ${html.slice(0, 200)}`);
  return charge;
}

const detailOf = async (linkId: unknown, as: DashboardPerson = owner) => {
  const answer = await call('GET', `/payment-links/${String(linkId)}`, as);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { link: Body; payments: Body[]; totals: Body };
};

const listed = async (query: Record<string, string>, as: DashboardPerson = owner) => {
  const answer = await call('GET', '/payment-links', as, undefined, query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { paymentLinks: Body[]; count: number; nextCursor?: string };
};

beforeAll(async () => {
  owner = await signUpOwner(gateway);
  // A range and a fee of the account's own, so the amount's refusals can be seen (R$ 5,00 to R$ 10.000,00).
  await relaxLimits(gateway, owner.accountId, { chargeMinCents: 500, chargeMaxCents: 1_000_000, chargeFeeFixedCents: 50 });
  developer = await invitePerson(gateway, owner, 'developer');
  viewer = await invitePerson(gateway, owner, 'viewer');
  other = await signUpOwner(gateway, { legalName: 'Outra Loja Ltda' });
  pending = await signUpOwner(gateway, { approved: false });
}, 60_000);

describe('POST /dashboard/api/v1/payment-links', () => {
  it('creates an active link with its page address (201); the same externalRef answers the original (200)', async () => {
    const body = shirt({ externalRef: 'link-painel-1' });
    const link = await created(owner, body);
    expect(link).toMatchObject({ status: 'active', amountCents: 4_990, description: 'Camiseta azul, tamanho M', reusable: false, paymentsCount: 0, receivedCents: 0 });
    expect(String(link.url)).toBe(`${gateway.baseUrl}/pay/${String(link.linkId)}`);
    expect(link.expiresAt).toBe(Math.floor((gateway.clock.now() + 7 * 86_400_000) / 1000));
    const before = await databaseState(gateway);
    const again = await call('POST', '/payment-links', owner, { ...body, amountCents: 9_999 });
    expect(again).toEqual({ status: 200, body: { ...link, idempotent: true } });
    expect(await databaseState(gateway)).toEqual(before);
    // The same link the API reads.
    expect((await detailOf(link.linkId)).link).toEqual(link);
  });

  it('takes the minimum the form sends: amount and description (a single-use link that never expires)', async () => {
    const link = await created(developer, { amountCents: 1_000, description: 'Aula avulsa' });
    expect(link).toMatchObject({ status: 'active', reusable: false });
    expect(link).not.toHaveProperty('expiresAt');
  });

  const refusals: [string, Body, string, string][] = [
    ['an amount below R$ 1,00', { amountCents: 50 }, 'Valor: o mínimo é R$ 1,00.', 'amountCents'],
    ['an amount below the account minimum', { amountCents: 200 }, 'Valor: o mínimo é R$ 5,00.', 'amountCents'],
    ['an amount above the account maximum', { amountCents: 2_000_000 }, 'Valor: o máximo é R$ 10.000,00.', 'amountCents'],
    ['an amount in reais', { amountCents: 'R$ 10,00' }, 'Valor: informe um valor em reais, por exemplo 150,00.', 'amountCents'],
    ['no amount', { amountCents: undefined }, 'Valor: campo obrigatório.', 'amountCents'],
    ['no description', { description: undefined }, 'Descrição: campo obrigatório.', 'description'],
    ['an empty description', { description: '' }, 'Descrição: campo obrigatório.', 'description'],
    ['a description over 140 characters', { description: 'x'.repeat(141) }, 'Descrição: máximo de 140 caracteres.', 'description'],
    ['single use said in words', { reusable: 'sim' }, 'Uso do link: marque ou desmarque a opção.', 'reusable'],
    ['a validity of 0 days', { expiresInDays: 0 }, 'Validade (dias): o mínimo é 1.', 'expiresInDays'],
    ['a validity over 365 days', { expiresInDays: 366 }, 'Validade (dias): o máximo é 365.', 'expiresInDays'],
    ['a validity of a day and a half', { expiresInDays: 1.5 }, 'Validade (dias): informe um número inteiro, sem letras.', 'expiresInDays'],
    ['an empty reference', { externalRef: '' }, 'Referência: campo obrigatório.', 'externalRef'],
    ['a reference over 100 characters', { externalRef: 'r'.repeat(101) }, 'Referência: máximo de 100 caracteres.', 'externalRef'],
    ['an unknown field', { expiresAt: 1 }, messages.unknownField('expiresAt'), 'expiresAt'],
  ];

  it.each(refusals)('refuses %s with 400, the label and the field, creating nothing', async (_what, overrides, error, field) => {
    const before = await databaseState(gateway);
    const body = Object.fromEntries(Object.entries(shirt(overrides)).filter(([, value]) => value !== undefined));
    expect(await call('POST', '/payment-links', owner, body)).toEqual({ status: 400, body: { error, field } });
    expect(await databaseState(gateway)).toEqual(before);
  });

  it('refuses a description of spaces beside its field, in Portuguese and without the API names', async () => {
    const answer = await call('POST', '/payment-links', owner, shirt({ description: '    ' }));
    expect(answer.status).toBe(400);
    // (The form says "campo obrigatório" before sending: web/dashboard/src/pages/NewPaymentLink.tsx.)
    expect(answer.body).toEqual({ field: 'description', error: 'Descrição: formato inválido; confira o que foi digitado.' });
  });

  it('refuses an account whose KYC is not approved (403), as POST /v1/payment-links does, a viewer (403) and a call without the CSRF token', async () => {
    const before = await databaseState(gateway);
    expect(await call('POST', '/payment-links', pending, shirt())).toEqual({ status: 403, body: { error: messages.accountNotApproved } });
    expect(await call('POST', '/payment-links', viewer, shirt())).toEqual({ status: 403, body: { error: messages.roleNotAllowed } });
    expect(await rawCall(gateway, { method: 'POST', path: '/dashboard/api/v1/payment-links', body: shirt() }, { cookie: authOf(owner).cookie })).toEqual({
      status: 403,
      body: { error: messages.csrfTokenInvalid },
    });
    expect(await databaseState(gateway)).toEqual(before);
  });

  it('never answers 500, whatever is sent: every refusal is a 400 in Portuguese', async () => {
    const nasty: unknown[] = ['', ' ', '\u0000', 'a\u0000b', null, -1, 0, 1.5, 1e21, Number.MAX_SAFE_INTEGER, [], {}, true, 'Ω'.repeat(300), '<script>'];
    for (const name of ['amountCents', 'description', 'reusable', 'expiresInDays', 'externalRef']) {
      for (const value of nasty) {
        const body = shirt({ [name]: value, ...(name === 'externalRef' ? {} : { externalRef: `nasty-${name}-${String(nasty.indexOf(value))}` }) });
        const answer = await call('POST', '/payment-links', owner, body);
        expect([200, 201, 400], JSON.stringify({ body, answer })).toContain(answer.status);
        if (answer.status === 400) expect((answer.body as { error: string }).error).not.toMatch(/\b(must|amountCents|expiresInDays|reusable|externalRef)\b/);
      }
    }
  });
});

describe('GET /dashboard/api/v1/payment-links', () => {
  it('lists the account’s links newest first, by status, page by page; never another account’s', async () => {
    const first = await created(owner, shirt({ description: 'Primeiro link' }));
    gateway.clock.advance(1_000);
    const second = await created(owner, shirt({ description: 'Segundo link', reusable: true, expiresInDays: undefined }));
    const ofOther = await created(other, shirt());
    const all = await listed({ limit: '100' });
    const ids = all.paymentLinks.map((link) => link.linkId);
    expect(ids.indexOf(second.linkId)).toBeLessThan(ids.indexOf(first.linkId));
    expect(ids).not.toContain(ofOther.linkId);
    expect(all.paymentLinks.find((link) => link.linkId === second.linkId)).toMatchObject({ reusable: true, status: 'active', paymentsCount: 0 });

    const page1 = await listed({ limit: '1', status: 'active' });
    expect(page1.paymentLinks.map((link) => link.linkId)).toEqual([ids.find((id) => all.paymentLinks.find((link) => link.linkId === id)?.status === 'active')]);
    expect(page1.nextCursor).toBeTypeOf('string');
    const page2 = await listed({ limit: '1', status: 'active', cursor: page1.nextCursor ?? '' });
    expect(page2.paymentLinks[0]?.linkId).not.toBe(page1.paymentLinks[0]?.linkId);
    // A viewer reads it too.
    expect((await call('GET', '/payment-links', viewer)).status).toBe(200);
  });

  it('filters by every status a link reads as: active, inactive, expired and used', async () => {
    const active = await created(owner, shirt({ description: 'Ativo' }));
    const inactive = await created(owner, shirt({ description: 'Desativado' }));
    expect((await call('POST', `/payment-links/${String(inactive.linkId)}/deactivate`, owner)).status).toBe(200);
    const expired = await created(owner, shirt({ description: 'Expirado', expiresInDays: 1 }));
    // Its day went by (the session's clock stays: the expiry is moved back instead of the clock forward).
    await gateway.deps.db.updateTable('payment_links').set({ expires_at: new Date(gateway.clock.now() - 1_000) }).where('id', '=', String(expired.linkId)).execute();
    const used = await created(owner, shirt({ description: 'Usado' }));
    const charge = await openPage(String(used.linkId));
    expect((await call('POST', `/sandbox/charges/${charge}/pay`, owner)).status).toBe(200);

    const byStatus = async (status: string) => (await listed({ status, limit: '100' })).paymentLinks.map((link) => [link.linkId, link.status]);
    const mine = [active, inactive, expired, used].map((link) => link.linkId);
    const only = (rows: unknown[][]) => rows.filter(([id]) => mine.includes(id));
    expect(only(await byStatus('active'))).toEqual([[active.linkId, 'active']]);
    expect(only(await byStatus('inactive'))).toEqual([[inactive.linkId, 'inactive']]);
    expect(only(await byStatus('expired'))).toEqual([[expired.linkId, 'expired']]);
    expect(only(await byStatus('used'))).toEqual([[used.linkId, 'used']]);
  });

  it.each([
    [{ status: 'ativo' }, 'Situação: escolha uma das opções da lista.', 'status'],
    [{ limit: '0' }, 'Quantidade por página: o mínimo é 1.', 'limit'],
    [{ limit: '101' }, 'Quantidade por página: o máximo é 100.', 'limit'],
    [{ cursor: 'abc' }, dashboardTexts.cursorInvalid, 'cursor'],
    [{ cursor: 'abc', status: 'used' }, dashboardTexts.cursorInvalid, 'cursor'],
    [{ situacao: 'ativo' }, messages.unknownQueryParameter('situacao'), 'situacao'],
  ])('refuses the filter %j with 400, the label and the field', async (query, error, field) => {
    expect(await call('GET', '/payment-links', owner, undefined, query)).toEqual({ status: 400, body: { error, field } });
  });
});

describe('GET /dashboard/api/v1/payment-links/{linkId}', () => {
  it('reads a link with its payments and totals; another account’s or an unknown id is 404, a malformed one 400', async () => {
    const link = await created(owner);
    expect(await detailOf(link.linkId, viewer)).toEqual({ link, payments: [], totals: { chargesCount: 0, pendingCount: 0, paidCount: 0, receivedCents: 0, refundedCents: 0 } });
    const notFound = { status: 404, body: { error: messages.paymentLinkNotFound } };
    expect(await call('GET', `/payment-links/${String(link.linkId)}`, other)).toEqual(notFound);
    expect(await call('GET', '/payment-links/pl_000000000000000000000000', owner)).toEqual(notFound);
    expect(await call('GET', '/payment-links/nao-e-um-id', owner)).toEqual({ status: 400, body: { error: 'Link de pagamento: identificador inválido; escolha um item da lista.', field: 'linkId' } });
  });

  it('shows a payment made on the hosted page and paid by the sandbox among the link’s payments, with its payer', async () => {
    const link = await created(owner, shirt({ reusable: true, expiresInDays: undefined }));
    const linkId = String(link.linkId);
    const chargeId = await openPage(linkId);
    const waiting = await detailOf(linkId);
    expect(waiting.payments).toEqual([{ transactionId: chargeId, status: 'pending', amountCents: 4_990, createdAt: gateway.clock.now() }]);
    expect(waiting.totals).toEqual({ chargesCount: 1, pendingCount: 1, paidCount: 0, receivedCents: 0, refundedCents: 0 });

    gateway.clock.advance(60_000);
    expect((await call('POST', `/sandbox/charges/${chargeId}/pay`, owner)).status).toBe(200);
    // Another payer (another browser: no cookie) gets a charge of their own, still waiting.
    gateway.clock.advance(1_000);
    const secondId = await openPage(linkId);
    expect(secondId).not.toBe(chargeId);

    const paid = await detailOf(linkId);
    expect(paid.link).toMatchObject({ status: 'active', paymentsCount: 1, receivedCents: 4_990 });
    expect(paid.payments.map((payment) => payment.transactionId)).toEqual([secondId, chargeId]);
    expect(paid.payments[1]).toMatchObject({ transactionId: chargeId, status: 'paid', amountCents: 4_990, paidAt: expect.any(Number), payer: { name: expect.any(String), document: expect.stringMatching(/^\d{11}$|^[0-9A-Z]{14}$/), documentType: expect.stringMatching(/^(cpf|cnpj)$/) } });
    expect(paid.payments[0]).not.toHaveProperty('payer');
    expect(paid.totals).toEqual({ chargesCount: 2, pendingCount: 1, paidCount: 1, receivedCents: 4_990, refundedCents: 0 });
    // The payment is a transaction of the account, on its own page.
    expect(await call('GET', `/transactions/${chargeId}`, owner)).toMatchObject({ status: 200, body: { transaction: { type: 'pix_in', status: 'paid' } } });
    // Never another account's.
    expect(await call('GET', `/payment-links/${linkId}`, other)).toEqual({ status: 404, body: { error: messages.paymentLinkNotFound } });
  });
});

describe('POST /dashboard/api/v1/payment-links/{linkId}/deactivate', () => {
  it('deactivates (200, again 200 the same), refuses a viewer (403) and another account’s link (404); the page then says so', async () => {
    const link = await created(owner);
    const linkId = String(link.linkId);
    const before = await databaseState(gateway);
    expect(await call('POST', `/payment-links/${linkId}/deactivate`, other)).toEqual({ status: 404, body: { error: messages.paymentLinkNotFound } });
    expect(await call('POST', `/payment-links/${linkId}/deactivate`, viewer)).toEqual({ status: 403, body: { error: messages.roleNotAllowed } });
    // An account whose KYC is not approved acts on no link, as POST /v1/payment-links/{linkId}/deactivate.
    expect(await call('POST', `/payment-links/${linkId}/deactivate`, pending)).toEqual({ status: 403, body: { error: messages.accountNotApproved } });
    expect(await databaseState(gateway)).toEqual(before);
    const deactivated = await call('POST', `/payment-links/${linkId}/deactivate`, developer);
    expect(deactivated).toMatchObject({ status: 200, body: { linkId, status: 'inactive', deactivatedAt: gateway.clock.now() } });
    expect(await call('POST', `/payment-links/${linkId}/deactivate`, owner)).toEqual(deactivated);
    expect((await fetch(`${gateway.baseUrl}/pay/${linkId}`)).status).toBe(410);
    expect(await call('POST', '/payment-links/nao-e-um-id/deactivate', owner)).toEqual({ status: 400, body: { error: 'Link de pagamento: identificador inválido; escolha um item da lista.', field: 'linkId' } });
  });
});
