import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { dashboardTexts } from '../../src/messages/fields.ts';
import { messages } from '../../src/messages/merchant.ts';
import { authOf, dashboardCaller, databaseState, invitePerson, rawCall, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { relaxLimits, useGateway, validCustomer } from '../support/gateway.ts';

/**
 * Issue 36, item 5: charges with a due date from the dashboard (POST/GET /dashboard/api/v1/due-charges,
 * GET /due-charges/{id}, POST /due-charges/{id}/cancel), exactly the /v1/due-charges service for the signed-in
 * user's account. Every refusal names the field by the form's label, with `field`; no input is a 500.
 */
const gateway = useGateway();
let owner: DashboardPerson;
let viewer: DashboardPerson;
let other: DashboardPerson;
let pending: DashboardPerson;

type Body = Record<string, unknown>;
const call = dashboardCaller(gateway);

const customer = { name: 'Maria da Silva', document: { number: '529.982.247-25', type: 'cpf' } };
const address = { street: 'Rua das Flores, 100', city: 'São Paulo', state: 'SP', postalCode: '01001000' };

/** What the form sends for a monthly fee due on 10/12/2026 (the gateway's clock is at 21/11/2026). */
const monthly = (overrides: Body = {}): Body => ({
  amountCents: 25_000,
  dueDate: '2026-12-10',
  daysAfterDue: 30,
  customer: { ...customer, address },
  description: 'Mensalidade de dezembro',
  fine: { mode: 'percent', basisPoints: 200 },
  interest: { mode: 'percent_per_month_calendar_days', basisPoints: 100 },
  discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-12-05', amountCents: 1_000 }] },
  ...overrides,
});

async function created(as: DashboardPerson, body: Body = monthly()): Promise<Body> {
  const answer = await call('POST', '/due-charges', as, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Body;
}

beforeAll(async () => {
  owner = await signUpOwner(gateway);
  // A range and a fee of the account's own, so the amount's refusals can be seen (R$ 5,00 to R$ 10.000,00, R$ 0,50 a charge).
  await relaxLimits(gateway, owner.accountId, { chargeMinCents: 500, chargeMaxCents: 1_000_000, chargeFeeFixedCents: 50 });
  viewer = await invitePerson(gateway, owner, 'viewer');
  other = await signUpOwner(gateway, { legalName: 'Outra Loja Ltda' });
  pending = await signUpOwner(gateway, { approved: false });
}, 60_000);

describe('POST /dashboard/api/v1/due-charges', () => {
  it('creates a pending charge with its terms and amount due today (201); the same externalRef answers the original (200)', async () => {
    const body = monthly({ externalRef: 'vencimento-painel-1' });
    const charge = await created(owner, body);
    expect(charge).toMatchObject({
      status: 'pending',
      amountCents: 25_000,
      dueDate: '2026-12-10',
      lastPayableDate: '2027-01-11',
      customer: { name: 'Maria da Silva', document: { number: '52998224725', type: 'cpf' }, address },
      fine: { mode: 'percent', basisPoints: 200 },
      // Today is before the discount's date: R$ 10,00 off.
      amountDue: { date: '2026-11-21', payable: true, amountCents: 24_000, discountCents: 1_000 },
    });
    expect(charge.pixPayload).toMatch(/^000201/);
    const before = await databaseState(gateway);
    const again = await call('POST', '/due-charges', owner, body);
    expect(again).toEqual({ status: 200, body: { ...charge, idempotent: true } });
    expect(await databaseState(gateway)).toEqual(before);
    // The same charge is a transaction of the account, with its QR code.
    expect(await call('GET', `/transactions/${String(charge.transactionId)}`, owner)).toMatchObject({ status: 200, body: { transaction: { type: 'pix_in', status: 'pending' } } });
    const qr = await fetch(`${gateway.baseUrl}/dashboard/api/v1/transactions/${String(charge.transactionId)}/qrcode?size=256`, {
      headers: { cookie: `pixgate_session=${authOf(owner).cookie ?? ''}` },
    });
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toBe('image/png');
  });

  it('takes the minimum the form sends: amount, due date, name and CPF', async () => {
    const charge = await created(owner, { amountCents: 1_000, dueDate: '2026-11-21', customer });
    expect(charge).toMatchObject({ daysAfterDue: 30, amountDue: { payable: true, amountCents: 1_000 } });
  });

  const refusals: [string, Body, string | RegExp, string][] = [
    ['an amount below R$ 1,00', { amountCents: 50 }, 'Valor: o mínimo é R$ 1,00.', 'amountCents'],
    ['an amount below the account minimum', { amountCents: 200 }, 'Valor: o mínimo é R$ 5,00.', 'amountCents'],
    ['an amount above the account maximum', { amountCents: 2_000_000 }, 'Valor: o máximo é R$ 10.000,00.', 'amountCents'],
    ['an amount in reais', { amountCents: 'R$ 10,00' }, 'Valor: informe um valor em reais, por exemplo 150,00.', 'amountCents'],
    ['no due date', { dueDate: undefined }, 'Vencimento: campo obrigatório.', 'dueDate'],
    ['a due date before today', { dueDate: '2026-11-20' }, dashboardTexts.dueDateInPast('2026-11-21'), 'dueDate'],
    ['a due date beyond five years', { dueDate: '2031-11-22' }, 'Vencimento: deve ser até 21/11/2031 (no máximo 5 anos à frente).', 'dueDate'],
    ['a due date written the Brazilian way', { dueDate: '10/12/2026' }, 'Vencimento: informe uma data no formato AAAA-MM-DD.', 'dueDate'],
    ['a due date no calendar has', { dueDate: '2027-02-30' }, 'Vencimento: esta data não existe no calendário; confira o dia e o mês.', 'dueDate'],
    ['a due date in month 19', { dueDate: '2027-19-39' }, 'Vencimento: esta data não existe no calendário; confira o dia e o mês.', 'dueDate'],
    ['more than 365 days after the due date', { daysAfterDue: 366 }, 'Dias para pagar após o vencimento: o máximo é 365.', 'daysAfterDue'],
    ['no customer', { customer: undefined }, 'Pagador: campo obrigatório.', 'customer'],
    ['a customer name of spaces', { customer: { ...customer, name: '   ' } }, 'Nome do pagador: informe o nome, não só espaços.', 'customer.name'],
    ['no customer name', { customer: { document: customer.document } }, 'Nome do pagador: campo obrigatório.', 'customer.name'],
    ['a wrong CPF', { customer: { ...customer, document: { number: '123.456.789-00', type: 'cpf' } } }, dashboardTexts.customerCpfInvalid, 'customer.document.number'],
    ['a CEP of 4 digits', { customer: { ...customer, address: { ...address, postalCode: '0100' } } }, 'CEP do pagador: informe os 8 dígitos do CEP, sem traço.', 'customer.address.postalCode'],
    ['an unknown UF', { customer: { ...customer, address: { ...address, state: 'XX' } } }, 'UF do pagador: escolha uma das opções da lista.', 'customer.address.state'],
    ['an address without its city', { customer: { ...customer, address: { street: 'Rua A, 1', state: 'SP', postalCode: '01001000' } } }, 'Cidade do pagador: campo obrigatório.', 'customer.address.city'],
    ['a description over 140 characters', { description: 'x'.repeat(141) }, 'Descrição: máximo de 140 caracteres.', 'description'],
    ['a percent fine given in reais', { fine: { mode: 'percent', amountCents: 500 } }, dashboardTexts.dueTermMalformed.fine, 'fine'],
    ['a fine over 100 %', { fine: { mode: 'percent', basisPoints: 10_001 } }, 'Multa em pontos-base (100 = 1%): o máximo é 10.000.', 'fine.basisPoints'],
    ['interest in reais for a percent mode', { interest: { mode: 'percent_per_month_calendar_days', amountCents: 10 } }, dashboardTexts.dueTermMalformed.interest, 'interest'],
    ['a discount by date without dates', { discount: { mode: 'fixed_until_dates', amountCents: 100 } }, dashboardTexts.dueTermMalformed.discount, 'discount'],
    ['a discount date after the due date', { discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-12-11', amountCents: 100 }] } }, dashboardTexts.discountDateAfterDue('2026-12-11'), 'discount'],
    ['a discount date given twice', { discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-12-01', amountCents: 100 }, { date: '2026-12-01', amountCents: 200 }] } }, dashboardTexts.discountDateRepeated('2026-12-01'), 'discount'],
    ['a discount malformed date', { discount: { mode: 'fixed_until_dates', dates: [{ date: 'amanhã', amountCents: 100 }] } }, 'Desconto até: informe uma data no formato AAAA-MM-DD.', 'discount.dates.0.date'],
    ['a discount date no calendar has', { discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-11-31', amountCents: 100 }] } }, 'Desconto até: esta data não existe no calendário; confira o dia e o mês.', 'discount.dates.0.date'],
    ['a discount of the whole amount', { discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-12-01', amountCents: 25_000 }] } }, dashboardTexts.discountNotBelowAmount, 'discount'],
    ['a rebate of the whole amount', { rebate: { mode: 'fixed', amountCents: 25_000 } }, dashboardTexts.rebateNotBelowAmount, 'rebate'],
    ['a rebate that leaves less than the fee', { amountCents: 600, discount: undefined, rebate: { mode: 'fixed', amountCents: 599 } }, /^Valor: com desconto e abatimento, o valor a pagar fica abaixo do mínimo permitido \(R\$ \d+,\d\d\)\.$/, 'amountCents'],
    ['an unknown field', { juros: 1 }, messages.unknownField('juros'), 'juros'],
  ];

  it.each(refusals)('refuses %s with 400, the label and the field, creating nothing', async (_what, overrides, error, field) => {
    const before = await databaseState(gateway);
    const body = Object.fromEntries(Object.entries(monthly(overrides)).filter(([, value]) => value !== undefined));
    const answer = await call('POST', '/due-charges', owner, body);
    // The form shows the message beside the field; it names the label, never the API's names.
    expect(answer).toEqual({ status: 400, body: { error: expect.any(String), field } });
    const text = (answer.body as { error: string }).error;
    if (error instanceof RegExp) expect(text).toMatch(error);
    else expect(text).toBe(error);
    expect(text).not.toMatch(/\b(amountCents|dueDate|daysAfterDue|customer|fine|interest|discount|rebate|basisPoints|postalCode|pending|paid)\b/);
    expect(await databaseState(gateway)).toEqual(before);
  });

  it('refuses an account whose KYC is not approved (403), as POST /v1/due-charges does, and a viewer (403)', async () => {
    expect(await call('POST', '/due-charges', pending, monthly())).toEqual({ status: 403, body: { error: messages.accountNotApproved } });
    expect(await call('POST', '/due-charges', viewer, monthly())).toEqual({ status: 403, body: { error: messages.roleNotAllowed } });
    // Without the CSRF token: refused before anything is read.
    expect(await rawCall(gateway, { method: 'POST', path: '/dashboard/api/v1/due-charges', body: monthly() }, { cookie: authOf(owner).cookie })).toEqual({
      status: 403,
      body: { error: messages.csrfTokenInvalid },
    });
  });

  it('never answers 500, whatever a form (or anyone) sends: every refusal is a 400 in Portuguese beside its field', async () => {
    // Dates that look like dates, numbers out of every range, texts no one types.
    const dates = fc.constantFrom('2027-02-30', '2027-19-39', '0000-00-00', '9999-12-31', '2026-12-10T00:00:00Z', '', ' 2026-12-10', '2026-12-1', '+02026-12-10');
    const numbers = fc.oneof(fc.constantFrom(0, -1, 1.5, 1e21, Number.MAX_SAFE_INTEGER, 100, 10_000), fc.integer());
    const texts = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('\u0000', ' \u200b ', 'Ω'.repeat(300), '<script>', '529.982.247-25'));
    const anything = fc.oneof(dates, numbers, texts, fc.constant(null), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }), fc.object({ maxDepth: 1 }));
    const term = fc.record(
      { mode: fc.oneof(fc.constantFrom('fixed', 'percent', 'fixed_until_dates', 'percent_until_dates', 'percent_per_month_calendar_days'), texts), amountCents: numbers, basisPoints: numbers, dates: fc.array(fc.record({ date: dates, amountCents: numbers }, { requiredKeys: [] }), { maxLength: 4 }) },
      { requiredKeys: ['mode'] },
    );
    const bodies = fc.record(
      {
        amountCents: fc.oneof(numbers, anything),
        dueDate: fc.oneof(dates, fc.constantFrom('2026-12-10', '2027-01-31'), anything),
        daysAfterDue: fc.oneof(numbers, anything),
        customer: fc.oneof(
          fc.record({ name: texts, document: fc.record({ number: texts, type: fc.constantFrom('cpf', 'cnpj', 'CPF', 'rg') }), address: fc.record({ street: texts, city: texts, state: texts, postalCode: texts }, { requiredKeys: [] }) }, { requiredKeys: [] }),
          anything,
        ),
        description: fc.oneof(texts, anything),
        fine: fc.oneof(term, anything),
        interest: fc.oneof(term, anything),
        discount: fc.oneof(term, anything),
        rebate: fc.oneof(term, anything),
      },
      { requiredKeys: [] },
    );
    const samples = fc.sample(bodies, { numRuns: 60, seed: 36 });
    // And the same with every other field right, so each bad value reaches the service.
    const oneBad = fc.sample(
      fc.tuple(fc.constantFrom('amountCents', 'dueDate', 'daysAfterDue', 'description', 'fine', 'interest', 'discount', 'rebate'), fc.oneof(term, anything)),
      { numRuns: 60, seed: 37 },
    ).map(([name, value]) => monthly({ [name]: value }));
    // And every nasty value in every field, each alone.
    const nasty: unknown[] = ['2027-02-30', '2027-19-39', '0000-00-00', '9999-12-31', '', ' ', '\u0000', null, -1, 0, 1.5, 1e21, [], {}, true, 'Ω'.repeat(300)];
    const fields = ['amountCents', 'dueDate', 'daysAfterDue', 'description', 'externalRef', 'customer', 'fine', 'interest', 'discount', 'rebate'];
    const eachNasty = fields.flatMap((name) => nasty.map((value) => monthly({ [name]: value })));
    const nestedNasty = nasty.flatMap((value) => [
      monthly({ customer: { ...customer, name: value } }),
      monthly({ customer: { ...customer, document: { number: value, type: 'cpf' } } }),
      monthly({ customer: { ...customer, address: { ...address, postalCode: value } } }),
      monthly({ fine: { mode: 'percent', basisPoints: value } }),
      monthly({ interest: { mode: 'fixed_per_business_day', amountCents: value } }),
      monthly({ discount: { mode: 'percent_until_dates', dates: [{ date: value, basisPoints: 100 }] } }),
      monthly({ discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-12-01', amountCents: value }] } }),
      monthly({ rebate: { mode: value, amountCents: 100 } }),
    ]);
    for (const body of [...samples, ...oneBad, ...eachNasty, ...nestedNasty]) {
      const answer = await call('POST', '/due-charges', owner, body);
      expect([200, 201, 400], JSON.stringify({ body, answer })).toContain(answer.status);
      if (answer.status !== 400) continue;
      const refusal = answer.body as { error: string; field?: string };
      expect(refusal.error, JSON.stringify({ body, answer })).not.toMatch(/\b(must|Invalid|amountCents|dueDate|basisPoints)\b/);
      if (/^[A-ZÀ-Ú][^:]*: /.test(refusal.error) && !/^Campo não permitido/.test(refusal.error)) expect(refusal.field, JSON.stringify({ body, answer })).toBeTypeOf('string');
    }
  }, 120_000);
});

describe('GET /dashboard/api/v1/due-charges', () => {
  it('lists the account’s charges with a due date, newest first, by status and due date, page by page; never another account’s', async () => {
    const early = await created(owner, monthly({ dueDate: '2026-12-01', discount: undefined, customer: { ...customer, name: 'Ana Primeira' } }));
    gateway.clock.advance(1_000);
    const late = await created(owner, monthly({ dueDate: '2027-01-15', discount: undefined, customer: { ...customer, name: 'Bruno Segundo' } }));
    const ofOther = await created(other, monthly());
    const all = (await call('GET', '/due-charges', owner)) as { status: number; body: { dueCharges: Body[]; count: number } };
    expect(all.status).toBe(200);
    const ids = all.body.dueCharges.map((charge) => charge.transactionId);
    expect(ids.indexOf(late.transactionId)).toBeLessThan(ids.indexOf(early.transactionId));
    expect(ids).not.toContain(ofOther.transactionId);
    // Each with the customer's name and the amount due today.
    expect(all.body.dueCharges.find((charge) => charge.transactionId === late.transactionId)).toMatchObject({ customer: { name: 'Bruno Segundo' }, amountDue: { payable: true, amountCents: 25_000 } });

    const january = (await call('GET', '/due-charges', owner, undefined, { dueFrom: '2027-01-01', dueTo: '2027-01-31' })).body as { dueCharges: Body[] };
    expect(january.dueCharges.map((charge) => charge.transactionId)).toEqual([late.transactionId]);

    const first = (await call('GET', '/due-charges', owner, undefined, { limit: '1', status: 'pending' })).body as { dueCharges: Body[]; nextCursor?: string };
    expect(first.dueCharges).toHaveLength(1);
    expect(first.nextCursor).toBeTypeOf('string');
    const second = (await call('GET', '/due-charges', owner, undefined, { limit: '1', status: 'pending', cursor: first.nextCursor ?? '' })).body as { dueCharges: Body[] };
    expect(second.dueCharges[0]?.transactionId).not.toBe(first.dueCharges[0]?.transactionId);
    // A viewer reads it too.
    expect((await call('GET', '/due-charges', viewer)).status).toBe(200);
  });

  it.each([
    [{ status: 'paga' }, 'Situação: escolha uma das opções da lista.', 'status'],
    [{ dueFrom: 'ontem' }, 'Vencimento de: informe uma data no formato AAAA-MM-DD.', 'dueFrom'],
    [{ dueTo: '31/12/2026' }, 'Vencimento até: informe uma data no formato AAAA-MM-DD.', 'dueTo'],
    [{ dueFrom: '2026-12-31', dueTo: '2026-12-01' }, dashboardTexts.dueRangeEmpty, 'dueTo'],
    [{ limit: '0' }, 'Quantidade por página: o mínimo é 1.', 'limit'],
    [{ cursor: 'abc' }, dashboardTexts.cursorInvalid, 'cursor'],
    [{ vencimento: 'hoje' }, messages.unknownQueryParameter('vencimento'), 'vencimento'],
    [{ dueFrom: '2027-02-30' }, 'Vencimento de: esta data não existe no calendário; confira o dia e o mês.', 'dueFrom'],
  ])('refuses the filter %j with 400, the label and the field', async (query, error, field) => {
    expect(await call('GET', '/due-charges', owner, undefined, query)).toEqual({ status: 400, body: { error, field } });
  });
});

describe('GET /dashboard/api/v1/due-charges/{transactionId}', () => {
  it('reads one with its amount due today; another account’s, an immediate charge or an unknown id are 404, a malformed one 400', async () => {
    const charge = await created(owner, monthly({ rebate: { mode: 'fixed', amountCents: 500 } }));
    const read = await call('GET', `/due-charges/${String(charge.transactionId)}`, owner);
    expect(read).toEqual({ status: 200, body: charge });
    expect(charge.amountDue).toEqual({ date: '2026-11-21', payable: true, amountCents: 23_500, fineCents: 0, interestCents: 0, discountCents: 1_000, rebateCents: 500 });
    const notFound = { status: 404, body: { error: messages.dueChargeNotFound } };
    expect(await call('GET', `/due-charges/${String(charge.transactionId)}`, other)).toEqual(notFound);
    const immediate = await call('POST', '/charges', owner, { amountCents: 1_000, customer: validCustomer });
    expect(await call('GET', `/due-charges/${String((immediate.body as Body).transactionId)}`, owner)).toEqual(notFound);
    expect(await call('GET', '/due-charges/tx_000000000000000000000000', owner)).toEqual(notFound);
    expect(await call('GET', '/due-charges/nao-e-um-id', owner)).toEqual({ status: 400, body: { error: 'Transação: identificador inválido; escolha um item da lista.', field: 'transactionId' } });
  });
});

describe('POST /dashboard/api/v1/due-charges/{transactionId}/cancel', () => {
  it('cancels a pending charge (200, again 200), refuses a paid one (409, in words) and another account’s (404)', async () => {
    const charge = await created(owner, monthly());
    const id = String(charge.transactionId);
    expect(await call('POST', `/due-charges/${id}/cancel`, other)).toEqual({ status: 404, body: { error: messages.dueChargeNotFound } });
    expect(await call('POST', `/due-charges/${id}/cancel`, viewer)).toEqual({ status: 403, body: { error: messages.roleNotAllowed } });
    const cancelled = await call('POST', `/due-charges/${id}/cancel`, owner);
    expect(cancelled).toMatchObject({ status: 200, body: { transactionId: id, status: 'cancelled' } });
    expect(await call('POST', `/due-charges/${id}/cancel`, owner)).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect(await call('GET', `/transactions/${id}`, owner)).toMatchObject({ status: 200, body: { transaction: { status: 'cancelled' } } });

    // Paid (the sandbox pays the amount due today): no longer cancellable.
    const paid = await created(owner, monthly());
    const paidId = String(paid.transactionId);
    expect((await call('POST', `/sandbox/charges/${paidId}/pay`, owner)).status).toBe(200);
    expect(await call('GET', `/due-charges/${paidId}`, owner)).toMatchObject({ status: 200, body: { status: 'paid', paidAmountCents: 24_000 } });
    expect(await call('POST', `/due-charges/${paidId}/cancel`, owner)).toEqual({ status: 409, body: { error: 'A cobrança não pode ser cancelada: ela está paga.' } });
    expect(await call('POST', '/due-charges/nao-e-um-id/cancel', owner)).toEqual({ status: 400, body: { error: 'Transação: identificador inválido; escolha um item da lista.', field: 'transactionId' } });
  });
});
