import { beforeAll, describe, expect, it } from 'vitest';
import { amountDueOn, type DueTerms } from '../../src/charges/dueAmount.ts';
import { applyReceivedPix } from '../../src/charges/receivedPix.service.ts';
import { expireDueCharges } from '../../src/jobs/expireCharges.ts';
import { messages } from '../../src/messages/merchant.ts';
import { parseBrCode } from '../../src/primitives/brcode.ts';
import { dayStart } from '../../src/primitives/saoPaulo.ts';
import { createMerchant, postAsMerchant, useGateway, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 36: charges with a due date (API Pix `cobv`) over HTTP: creation with every term, the amount due on a
 * day, every refusal with its Portuguese message, the list, a change and a cancellation, a payment on a late
 * day (fine and interest credited), a payment of another amount left unmatched, the expiry after the last
 * payable day, a refund. On the simulated provider here; on the fake provider's both profiles in `test:psp`.
 */
const gateway = useGateway();
let merchant: MerchantFixture;

/** 12:00 in São Paulo on a day. */
const noonOn = (day: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return dayStart(year, month, date) + 12 * 3_600_000;
};

const customer = { name: 'Maria da Silva', document: { number: '529.982.247-25', type: 'cpf' } };
const address = { street: 'Rua das Flores, 100', city: 'São Paulo', state: 'SP', postalCode: '01001000' };
type Body = Record<string, unknown>;

const monthly = (overrides: Body = {}): Body => ({
  amountCents: 25_000,
  dueDate: '2026-12-10',
  customer: { ...customer, address },
  description: 'Mensalidade de dezembro',
  fine: { mode: 'percent', basisPoints: 200 },
  interest: { mode: 'percent_per_month_calendar_days', basisPoints: 100 },
  discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-12-01', amountCents: 1_000 }] },
  ...overrides,
});

const termsOf = (body: Body): DueTerms => ({
  originalCents: body.amountCents as number,
  dueDate: body.dueDate as string,
  daysAfterDue: (body.daysAfterDue as number | undefined) ?? 30,
  ...(body.fine ? { fine: body.fine as DueTerms['fine'] } : {}),
  ...(body.interest ? { interest: body.interest as DueTerms['interest'] } : {}),
  ...(body.discount ? { discount: body.discount as DueTerms['discount'] } : {}),
  ...(body.rebate ? { rebate: body.rebate as DueTerms['rebate'] } : {}),
});

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${merchant.apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

const create = (body: Body) => postAsMerchant(gateway, merchant, '/v1/due-charges', body);

async function created(body: Body = monthly()): Promise<Body> {
  const answer = await create(body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

async function eventsOf(of: MerchantFixture, transactionId: string): Promise<string[]> {
  const { data } = await gateway.admin.GET('/admin/v1/accounts/{accountId}/events', { params: { path: { accountId: of.accountId }, query: { limit: 100 } } });
  return (data?.events ?? []).filter((event) => (event.payload as Body).transactionId === transactionId).map((event) => event.event);
}

/** The clock at noon on `day` for the duration of `run`, then back. */
async function on<T>(day: string, run: () => Promise<T>): Promise<T> {
  const before = gateway.clock.now();
  gateway.clock.set(noonOn(day));
  try {
    return await run();
  } finally {
    gateway.clock.set(before);
  }
}

beforeAll(async () => {
  merchant = await createMerchant(gateway, { legalName: 'Escola Aprender Ltda' });
});

describe('POST /v1/due-charges', () => {
  it('creates a pending charge with its terms, a BR Code without an amount and the amount due today', async () => {
    const body = monthly({ externalRef: 'mensalidade-dez-1' });
    const charge = await created(body);
    expect(charge).toMatchObject({
      status: 'pending',
      amountCents: 25_000,
      dueDate: '2026-12-10',
      daysAfterDue: 30,
      lastPayableDate: '2027-01-11',
      revision: 0,
      externalRef: 'mensalidade-dez-1',
      description: 'Mensalidade de dezembro',
      customer: { name: 'Maria da Silva', document: { number: '52998224725', type: 'cpf' }, address },
      fine: { mode: 'percent', basisPoints: 200 },
    });
    expect(charge.transactionId).toMatch(/^tx_[0-9a-f]{24}$/);
    // Today (2026-11-21) is before the discount's date: R$ 10,00 off.
    expect(charge.amountDue).toEqual({ date: '2026-11-21', payable: true, amountCents: 24_000, fineCents: 0, interestCents: 0, discountCents: 1_000, rebateCents: 0 });
    const code = parseBrCode(charge.pixPayload as string);
    expect(code).toMatchObject({ kind: 'dynamic' });
    expect(JSON.stringify(code)).toContain('/cobv/');
    expect(charge.pixPayload).not.toMatch(/5303986540/); // no field 54 after the currency: the amount varies by day
    const read = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: charge.transactionId as string } } });
    expect(read.data).toMatchObject({ type: 'pix_in', status: 'pending', amountCents: 25_000 });
  });

  it('answers a repeated externalRef with the original charge (200, idempotent) and creates nothing', async () => {
    const body = monthly({ externalRef: 'mensalidade-dez-2' });
    const first = await created(body);
    const again = await create({ ...body, amountCents: 30_000 });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ transactionId: first.transactionId, amountCents: 25_000, idempotent: true });
    // Its own scope: the same order id names an immediate charge too.
    const immediate = await merchant.client.POST('/v1/pix', {
      body: { amountCents: 1_000, externalRef: 'mensalidade-dez-2', customer: { ...customer, email: 'maria@example.com', phone: '11987654321' } },
    });
    expect(immediate.response.status).toBe(201);
  });

  it.each([
    ['a due date before today', { dueDate: '2026-11-20' }, messages.dueDateInPast('2026-11-21')],
    ['a due date beyond five years', { dueDate: '2031-11-22' }, messages.dueDateTooFar('2031-11-21')],
    ['a malformed due date', { dueDate: '10/12/2026' }, messages.dueDate('10/12/2026')],
    ['a due date no calendar has', { dueDate: '2027-02-30' }, messages.dueDate('2027-02-30')],
    ['a discount date no calendar has', { discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-11-31', amountCents: 100 }] } }, messages.dueDiscount],
    ['daysAfterDue above 365', { daysAfterDue: 366 }, messages.daysAfterDue(366)],
    ['an amount below 100', { amountCents: 99 }, messages.chargeAmount],
    ['an amount above the account range', { amountCents: 10_000_001 }, messages.amountAboveMaximum(10_000_000)],
    ['a description over 140 characters', { description: 'x'.repeat(141) }, messages.dueDescription],
    ['a fixed fine with basis points', { fine: { mode: 'fixed', basisPoints: 200 } }, messages.dueFine],
    ['a fine of another mode', { fine: { mode: 'daily', amountCents: 1 } }, messages.dueFine],
    ['a percent interest with an amount', { interest: { mode: 'percent_per_calendar_day', amountCents: 10 } }, messages.dueInterest],
    ['a discount by dates without dates', { discount: { mode: 'fixed_until_dates', amountCents: 100 } }, messages.dueDiscount],
    ['a per-day discount with dates', { discount: { mode: 'fixed_per_calendar_day_early', dates: [{ date: '2026-12-01', amountCents: 1 }] } }, messages.dueDiscount],
    ['four discount dates', { discount: { mode: 'fixed_until_dates', dates: ['01', '02', '03', '04'].map((d) => ({ date: `2026-12-${d}`, amountCents: 10 })) } }, messages.dueDiscount],
    ['a percent rebate of 0', { rebate: { mode: 'percent', basisPoints: 0 } }, messages.dueRebate],
    ['a discount date after the due date', { discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-12-11', amountCents: 100 }] } }, messages.discountDateAfterDue('2026-12-11')],
    [
      'a discount date given twice',
      { discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-12-01', amountCents: 100 }, { date: '2026-12-01', amountCents: 200 }] } },
      messages.discountDateRepeated('2026-12-01'),
    ],
    ['a discount of the whole amount', { discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-12-01', amountCents: 25_000 }] } }, messages.discountNotBelowAmount],
    ['a rebate of the whole amount', { rebate: { mode: 'fixed', amountCents: 25_000 } }, messages.rebateNotBelowAmount],
    ['an address without a CEP', { customer: { ...customer, address: { ...address, postalCode: '123' } } }, messages.dueCustomerAddress],
    ['a state that is not a UF', { customer: { ...customer, address: { ...address, state: 'XX' } } }, messages.dueCustomerAddress],
    ['a CPF with a wrong check digit', { customer: { ...customer, document: { number: '529.982.247-24', type: 'cpf' } } }, messages.customerCpfInvalid],
    ['no customer', { customer: undefined }, messages.customerMissing],
    ['an unknown field', { dueDay: 10 }, messages.unknownField('dueDay')],
  ])('refuses %s with 400 and its message', async (_case, overrides, message) => {
    const answer = await create(monthly(overrides as Body));
    expect(answer).toEqual({ status: 400, body: { error: message } });
  });

  it('refuses terms whose smallest amount cannot cover the fee', async () => {
    const shop = await createMerchant(gateway);
    await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId: shop.accountId } }, body: { chargeFeeFixedCents: 150 } as never });
    const answer = await postAsMerchant(gateway, shop, '/v1/due-charges', monthly({ amountCents: 1_000, discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-12-01', amountCents: 900 }] } }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^Com desconto e abatimento, o valor a pagar fica abaixo do mínimo permitido \(R\$ \d+,\d{2}\)\.$/);
  });
});

describe('GET /v1/due-charges/{id}', () => {
  it('gives the amount due on any day: the discount early, fine and interest late, nothing after the last payable day', async () => {
    const body = monthly();
    const { transactionId } = await created(body);
    const due = async (date: string) => (await send('GET', `/v1/due-charges/${transactionId as string}?date=${date}`)).body.amountDue as Body;
    expect(await due('2026-12-10')).toEqual({ date: '2026-12-10', payable: true, amountCents: 25_000, fineCents: 0, interestCents: 0, discountCents: 0, rebateCents: 0 });
    // 5 days late: 2 % fine (500) and 1 % a month for 5 of 30 days (41,67 → 42).
    expect(await due('2026-12-15')).toEqual({ date: '2026-12-15', payable: true, amountCents: 25_542, fineCents: 500, interestCents: 42, discountCents: 0, rebateCents: 0 });
    for (const date of ['2026-11-30', '2026-12-24', '2027-01-11']) {
      const expected = amountDueOn(termsOf(body), date);
      expect((await due(date)).amountCents).toBe(expected.payable ? expected.amountCents : undefined);
    }
    expect(await due('2027-01-12')).toEqual({ date: '2027-01-12', payable: false });
  });

  it('answers 404 for an immediate charge or another merchant’s, 400 for a malformed id or date', async () => {
    const immediate = await merchant.client.POST('/v1/pix', { body: { amountCents: 1_000, customer: { ...customer, email: 'maria@example.com', phone: '11987654321' } } });
    expect(await send('GET', `/v1/due-charges/${immediate.data?.transactionId ?? ''}`)).toEqual({ status: 404, body: { error: messages.dueChargeNotFound } });
    const other = await createMerchant(gateway);
    const theirs = await postAsMerchant(gateway, other, '/v1/due-charges', monthly());
    expect(await send('GET', `/v1/due-charges/${theirs.body.transactionId as string}`)).toEqual({ status: 404, body: { error: messages.dueChargeNotFound } });
    expect(await send('GET', '/v1/due-charges/tx_nothex')).toEqual({ status: 400, body: { error: messages.transactionIdInvalid } });
    const { transactionId } = await created();
    expect(await send('GET', `/v1/due-charges/${transactionId as string}?date=amanha`)).toEqual({ status: 400, body: { error: messages.amountDueDate('amanha') } });
    expect(await send('GET', `/v1/due-charges/${transactionId as string}?date=2027-02-29`)).toEqual({ status: 400, body: { error: messages.amountDueDate('2027-02-29') } });
  });
});

describe('GET /v1/due-charges', () => {
  it('lists newest first, by status and due date, page by page', async () => {
    const shop = await createMerchant(gateway);
    const ids: string[] = [];
    for (const dueDate of ['2026-12-05', '2026-12-15', '2027-01-05']) {
      gateway.clock.advance(1_000); // one creation instant each: the list's order is by creation
      ids.push((await postAsMerchant(gateway, shop, '/v1/due-charges', monthly({ dueDate, discount: undefined }))).body.transactionId as string);
    }
    const list = async (query: string) => {
      const response = await fetch(`${gateway.baseUrl}/v1/due-charges${query}`, { headers: { Authorization: `Bearer ${shop.apiKey}` } });
      return { status: response.status, body: (await response.json()) as Body };
    };
    const all = await list('');
    expect((all.body.dueCharges as Body[]).map((charge) => charge.transactionId)).toEqual([...ids].reverse());
    const december = await list('?dueFrom=2026-12-01&dueTo=2026-12-31&status=pending');
    expect((december.body.dueCharges as Body[]).map((charge) => charge.transactionId)).toEqual([ids[1], ids[0]]);
    const first = await list('?limit=2');
    expect(first.body.count).toBe(2);
    const second = await list(`?limit=2&cursor=${first.body.nextCursor as string}`);
    expect((second.body.dueCharges as Body[]).map((charge) => charge.transactionId)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeUndefined();
    expect(await list('?dueFrom=2026-12-31&dueTo=2026-12-01')).toEqual({ status: 400, body: { error: messages.dueRangeEmpty } });
    expect(await list('?status=late')).toEqual({ status: 400, body: { error: messages.dueListStatus('late') } });
    expect(await list('?dueFrom=ontem')).toEqual({ status: 400, body: { error: messages.dueFrom('ontem') } });
    expect(await list('?dueTo=2026-04-31')).toEqual({ status: 400, body: { error: messages.dueTo('2026-04-31') } });
    expect(await list('?cursor=abc')).toEqual({ status: 400, body: { error: messages.cursorInvalid } });
  });
});

describe('PATCH /v1/due-charges/{id} and POST /v1/due-charges/{id}/cancel', () => {
  it('changes a pending charge (revision + 1), removes a term with null, and refuses an empty body', async () => {
    const { transactionId } = await created();
    const changed = await send('PATCH', `/v1/due-charges/${transactionId as string}`, { dueDate: '2026-12-20', fine: null, description: null });
    expect(changed.status).toBe(200);
    // A Sunday due date: fine and interest from Monday the 21st, and 30 days after it.
    expect(changed.body).toMatchObject({ dueDate: '2026-12-20', lastPayableDate: '2027-01-20', revision: 1 });
    expect(changed.body).not.toHaveProperty('fine');
    expect(changed.body).not.toHaveProperty('description');
    expect(await send('PATCH', `/v1/due-charges/${transactionId as string}`, {})).toEqual({ status: 400, body: { error: messages.nothingToChange } });
    expect(await send('PATCH', `/v1/due-charges/${transactionId as string}`, { dueDate: '2026-01-01' })).toEqual({ status: 400, body: { error: messages.dueDateInPast('2026-11-21') } });
    expect(await send('PATCH', `/v1/due-charges/${transactionId as string}`, { fine: { mode: 'fixed' } })).toEqual({ status: 400, body: { error: messages.dueFine } });
    expect((await send('PATCH', `/v1/due-charges/${transactionId as string}`, { dueDate: '2026-12-20' }, { 'Content-Type': 'text/plain' })).status).toBe(415);
  });

  it('cancels a pending charge once (a retry answers it again) and sends transaction.cancelled', async () => {
    const { transactionId } = await created();
    const cancelled = await send('POST', `/v1/due-charges/${transactionId as string}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled' });
    expect((await send('POST', `/v1/due-charges/${transactionId as string}/cancel`)).body).toMatchObject({ status: 'cancelled' });
    expect(await eventsOf(merchant, transactionId as string)).toEqual(['transaction.cancelled']);
    expect(await send('PATCH', `/v1/due-charges/${transactionId as string}`, { amountCents: 100 })).toEqual({
      status: 409,
      body: { error: messages.dueChargeNotChangeable('cancelled') },
    });
  });
});

describe('payment', () => {
  it('a payment on a late day credits the amount due with fine and interest; the charge is refunded as any other', async () => {
    const body = monthly({ externalRef: 'mensalidade-dez-late' });
    const { transactionId } = await created(body);
    const id = transactionId as string;
    const paid = await on('2026-12-15', async () => {
      const answer = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId: id } } });
      expect(answer.response.status, JSON.stringify(answer.error)).toBe(200);
      return (await send('GET', `/v1/due-charges/${id}`)).body;
    });
    // The default fee, 0,99 % of what was paid.
    expect(paid).toMatchObject({ status: 'paid', amountCents: 25_000, paidAmountCents: 25_542, feeCents: 253 });
    expect(paid.paidAt).toBe(noonOn('2026-12-15'));
    const transaction = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } });
    expect(transaction.data).toMatchObject({ status: 'paid', amountCents: 25_542, feeCents: 253, netCents: 25_289 });
    expect(await eventsOf(merchant, id)).toEqual(['transaction.paid']);
    expect(await send('POST', `/v1/due-charges/${id}/cancel`)).toEqual({ status: 409, body: { error: messages.dueChargeNotCancellable('paid') } });
    const refund = await postAsMerchant(gateway, merchant, `/v1/transactions/${id}/refunds`, { amountCents: 542 });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
  });

  it('a Pix of another amount than the amount due that day is not the payment: left unmatched, the charge pending', async () => {
    const { transactionId } = await created(monthly());
    const row = await gateway.deps.db.selectFrom('transactions').selectAll().where('id', '=', transactionId as string).executeTakeFirstOrThrow();
    const endToEndId = await gateway.provider.payAtProvider({ providerRef: row.provider_ref ?? '', amountCents: 25_000, kind: 'due' });
    const pix = await gateway.deps.provider.readReceivedPix(endToEndId ?? '');
    const applied = await applyReceivedPix(gateway.deps, pix!);
    expect(applied).toMatchObject({ outcome: 'unmatched', reason: 'amount_mismatch' });
    expect((await send('GET', `/v1/due-charges/${transactionId as string}`)).body).toMatchObject({ status: 'pending' });
  });

  it('a Pix arriving while a change holds the charge is judged on the changed terms, read under the same lock as the credit', async () => {
    const { transactionId } = await created(monthly({ externalRef: 'mensalidade-dez-race', discount: undefined }));
    const id = transactionId as string;
    const row = await gateway.deps.db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await on('2026-12-05', async () => {
      const endToEndId = await gateway.provider.payAtProvider({ providerRef: row.provider_ref ?? '', amountCents: 30_000, kind: 'due' });
      const pix = await gateway.deps.provider.readReceivedPix(endToEndId ?? '');
      let applying: Promise<unknown> | undefined;
      // A PATCH's database step: the charge and its terms locked, the amount changed from 250,00 to 300,00;
      // the Pix of 300,00 is applied meanwhile (on Postgres it reads the terms while they are held, and waits for
      // the lock to credit; on PGlite it waits for the one connection).
      await gateway.deps.db.transaction().execute(async (trx) => {
        await trx.selectFrom('transactions').select('id').where('id', '=', id).forUpdate().execute();
        await trx.updateTable('due_charges').set({ original_cents: 30_000 }).where('transaction_id', '=', id).execute();
        applying = applyReceivedPix(gateway.deps, pix!);
        await new Promise((resolve) => setTimeout(resolve, 150));
      });
      expect(await applying).toMatchObject({ outcome: 'credited' });
    });
    expect((await send('GET', `/v1/due-charges/${id}`)).body).toMatchObject({ status: 'paid', paidAmountCents: 30_000 });
  });

  it('expires after its last payable day, not before', async () => {
    const { transactionId } = await created(monthly({ dueDate: '2026-11-23', daysAfterDue: 0, discount: undefined }));
    await on('2026-11-23', async () => {
      await expireDueCharges(gateway.deps);
    });
    expect((await send('GET', `/v1/due-charges/${transactionId as string}`)).body).toMatchObject({ status: 'pending' });
    await on('2026-11-24', async () => {
      await expireDueCharges(gateway.deps);
    });
    expect((await send('GET', `/v1/due-charges/${transactionId as string}`)).body).toMatchObject({ status: 'expired' });
    expect(await eventsOf(merchant, transactionId as string)).toEqual(['transaction.expired']);
  });
});
