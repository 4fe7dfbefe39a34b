import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { operatorMessages } from '../../src/messages/operator.ts';
import { decodeTlv, withCrc } from '../../src/primitives/brcode.ts';
import { createMerchant, postAsMerchant, relaxLimits, useGateway, availableOf, type MerchantFixture } from '../support/gateway.ts';
import { approve, createRecurrence, recurrenceBody, recurrenceWithCycle, runRecurrences } from '../support/recurrences.ts';
import { addCalendarDays } from '../../src/primitives/businessDays.ts';

/**
 * Issue 37: Pix Automático over HTTP: recurrences created with each consent journey, every refusal with the
 * contract's Portuguese message, the payer's answers (approve, reject, expire, cancel), the merchant's
 * cancellation, and cycles sent, debited, refused and retried, refused for good and cancelled.
 */
const gateway = useGateway();
let merchant: MerchantFixture;
type Body = Record<string, unknown>;

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
});

const create = (overrides: Body = {}) => postAsMerchant(gateway, merchant, '/v1/recurrences', { ...recurrenceBody(gateway), ...overrides });

async function read(path: string) {
  const response = await fetch(`${gateway.baseUrl}${path}`, { headers: { Authorization: `Bearer ${merchant.apiKey}` } });
  return { status: response.status, body: (await response.json()) as Body };
}

async function post(path: string, body?: Body) {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${merchant.apiKey}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

describe('POST /v1/recurrences', () => {
  it('creates a recurrence asking the payer\'s bank for consent: created, consent pending with its expiry, next cycle on the start date', async () => {
    const answer = await create({ externalRef: 'assinatura-1' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      status: 'created',
      payer: { name: 'Maria da Silva', document: { type: 'cpf', number: '52998224725' } },
      contract: 'ASSINATURA-000123',
      object: 'Plano Fibra 500 MB',
      periodicity: 'monthly',
      amountCents: 9990,
      retryPolicy: 'three_in_seven_days',
      consent: { journey: 'request', status: 'pending', expiresAt: gateway.clock.now() + 7 * 86_400_000 },
      nextCycleDate: recurrenceBody(gateway).startDate,
      cycles: { total: 0, paid: 0, open: 0, failed: 0 },
      history: [{ status: 'created', at: gateway.clock.now() }],
      recentCycles: [],
      externalRef: 'assinatura-1',
    });
    expect(answer.body.id).toMatch(/^rec_[0-9a-f]{24}$/);
    expect(answer.body).not.toHaveProperty('idempotent');
  });

  it('answers a repeated externalRef with the recurrence it names (200, idempotent), creating nothing', async () => {
    const first = await create({ externalRef: 'assinatura-2' });
    const again = await create({ externalRef: 'assinatura-2', amountCents: 12_345 });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, amountCents: 9990, idempotent: true });
  });

  it('gives the QR code journey a BR Code naming the recurrence\'s location (field 80)', async () => {
    const answer = await create({ consent: { journey: 'qrcode' } });
    expect(answer.status).toBe(201);
    const consent = answer.body.consent as Body;
    expect(consent).toMatchObject({ journey: 'qrcode', status: 'pending' });
    const payload = String(consent.pixPayload);
    expect(payload).toBe(withCrc(payload.slice(0, -8)));
    const field80 = decodeTlv(payload.slice(0, -8)).find((field) => field.tag === '80');
    expect(field80?.value).toMatch(/^0014br\.gov\.bcb\.pix25\d\d.+\/rec\//);
  });

  it('with a first payment, makes an immediate charge named by the recurrence and paid when the payer approves', async () => {
    const answer = await create({ consent: { journey: 'qrcode_with_payment', firstPaymentCents: 4990 } });
    expect(answer.status).toBe(201);
    const consent = answer.body.consent as Body;
    const firstId = String(consent.firstPaymentTransactionId);
    const charge = await read(`/v1/transactions/${firstId}`);
    expect(charge.body).toMatchObject({ type: 'pix_in', status: 'pending', amountCents: 4990, recurrenceId: answer.body.id });
    const approved = await approve(gateway, String(answer.body.id));
    expect(approved).toMatchObject({ status: 'approved', activation: { journey: 'qrcode_with_payment' }, consent: { status: 'accepted' } });
    expect(approved.consent).not.toHaveProperty('pixPayload');
    expect((await read(`/v1/transactions/${firstId}`)).body).toMatchObject({ status: 'paid' });
    const listed = await read(`/v1/transactions?recurrenceId=${String(answer.body.id)}`);
    expect((listed.body.transactions as Body[]).map((item) => item.transactionId)).toEqual([firstId]);
  });

  it.each([
    ['a start less than two days ahead', { startDate: '2026-11-22' }, messages.recurrenceStartTooEarly('2026-11-23')],
    ['a start over a year ahead', { startDate: '2028-01-01' }, messages.recurrenceStartTooFar('2027-11-22')],
    ['a start that is no date', { startDate: '2027-02-30' }, messages.recurrenceStartDate('2027-02-30')],
    ['a malformed start', { startDate: '10/01/2027' }, messages.recurrenceStartDate('10/01/2027')],
    ['an end before the start', { endDate: '2026-11-23' }, messages.recurrenceEndBeforeStart],
    ['both amounts', { minimumAmountCents: 1000 }, messages.recurrenceAmountBoth],
    ['an amount below R$ 1,00', { amountCents: 99 }, messages.chargeAmount],
    ['an unknown periodicity', { periodicity: 'daily' }, messages.recurrencePeriodicity('daily')],
    ['an unknown retry policy', { retryPolicy: 'always' }, messages.recurrenceRetryPolicy('always')],
    ['a contract too long', { contract: 'x'.repeat(36) }, messages.recurrenceContract],
    ['an empty object', { object: '  ' }, messages.recurrenceObject],
    ['no payer', { payer: undefined }, messages.recurrencePayer],
    ['a payer without a name', { payer: { document: { type: 'cpf', number: '52998224725' } } }, messages.recurrencePayerName],
    ['a payer CPF with a wrong check digit', { payer: { name: 'Maria', document: { type: 'cpf', number: '52998224726' } } }, messages.recurrencePayerCpfInvalid],
    ['a payer document of another kind', { payer: { name: 'Maria', document: { type: 'rg', number: '52998224725' } } }, messages.recurrencePayerDocumentType('rg')],
    ['no consent', { consent: undefined }, messages.recurrenceConsent],
    ['an unknown journey', { consent: { journey: 'email' } }, messages.recurrenceJourney('email')],
    ['a request without the payer\'s account', { consent: { journey: 'request' } }, messages.recurrenceConsentMissing('payerAccount', 'request')],
    ['a malformed payer\'s bank', { consent: { journey: 'request', payerAccount: { ispb: '123', account: '1' } } }, messages.recurrencePayerAccount],
    ['a request expiring in 31 days', { consent: { journey: 'request', payerAccount: { ispb: '12345678', account: '1' }, expiresInDays: 31 } }, messages.recurrenceConsentExpiresInDays],
    ['a first payment on the plain QR journey', { consent: { journey: 'qrcode', firstPaymentCents: 1000 } }, messages.recurrenceConsentNotForJourney('firstPaymentCents', 'qrcode')],
    ['the payer\'s account on a QR journey', { consent: { journey: 'qrcode', payerAccount: { ispb: '12345678', account: '1' } } }, messages.recurrenceConsentNotForJourney('payerAccount', 'qrcode')],
    ['a composite QR without its payment', { consent: { journey: 'qrcode_with_payment' } }, messages.recurrenceConsentMissing('firstPaymentCents', 'qrcode_with_payment')],
    ['an unknown field', { currency: 'BRL' }, "Campo não permitido: 'currency'."],
  ])('refuses %s with 400 and its message, creating nothing', async (_case, overrides, message) => {
    const before = await read('/v1/recurrences?limit=100');
    const answer = await create(overrides);
    expect(answer).toEqual({ status: 400, body: { error: message } });
    expect((await read('/v1/recurrences?limit=100')).body.count).toBe(before.body.count);
  });

  // The simulation's scripted answers (the fake provider's faults name its own operations, not these).
  it.skipIf(process.env.PIXGATE_TEST_PSP !== undefined)('answers 502 when the provider fails, storing nothing, and a retry with the same externalRef creates it once', async () => {
    const before = (await read('/v1/recurrences?limit=100')).body.count;
    await gateway.provider.queueOutcome('registerCharge', 'succeed', 1);
    await gateway.provider.queueOutcome('registerCharge', 'fail', 1);
    const failed = await create({ consent: { journey: 'qrcode_with_payment', firstPaymentCents: 2500 }, externalRef: 'falha-provedor' });
    expect(failed).toEqual({ status: 502, body: { error: messages.chargeProviderError } });
    expect((await read('/v1/recurrences?limit=100')).body.count).toBe(before);
    const retried = await create({ consent: { journey: 'qrcode_with_payment', firstPaymentCents: 2500 }, externalRef: 'falha-provedor' });
    expect(retried.status).toBe(201);
    expect((await create({ consent: { journey: 'qrcode' }, externalRef: 'falha-provedor' })).body).toMatchObject({ id: retried.body.id, idempotent: true });
  });

  it('answers an unknown id 404 and a malformed one 400, on every read', async () => {
    for (const path of ['', '/cycles']) {
      expect(await read(`/v1/recurrences/rec_000000000000000000000000${path}`)).toEqual({ status: 404, body: { error: messages.recurrenceNotFound } });
      expect(await read(`/v1/recurrences/rec_XYZ${path}`)).toEqual({ status: 400, body: { error: messages.recurrenceIdInvalid } });
    }
    expect(await post('/v1/recurrences/rec_000000000000000000000000/cancel')).toEqual({ status: 404, body: { error: messages.recurrenceNotFound } });
    expect(await read('/v1/transactions?recurrenceId=rec_1')).toEqual({ status: 400, body: { error: messages.recurrenceIdInvalid } });
    expect(await read('/v1/recurrences?status=active')).toEqual({ status: 400, body: { error: messages.recurrenceListStatus('active') } });
  });
});

describe('the payer\'s answer and the merchant\'s cancellation', () => {
  it('approved by request: approved with its activation and history, in the list by status', async () => {
    const recurrence = await createRecurrence(gateway, merchant);
    const approved = await approve(gateway, recurrence.id);
    expect(approved).toMatchObject({ status: 'approved', consent: { status: 'accepted' }, activation: { journey: 'request' } });
    expect(approved.history.map((entry) => entry.status)).toEqual(['created', 'approved']);
    const listed = await read('/v1/recurrences?status=approved&limit=100');
    expect((listed.body.recurrences as Body[]).some((item) => item.id === recurrence.id)).toBe(true);
  });

  it.each(['AP13', 'AP14'] as const)('rejected by the payer (%s): rejected, with who and why, and no longer cancellable', async (code) => {
    const recurrence = await createRecurrence(gateway, merchant);
    const answered = await gateway.admin.POST('/admin/v1/sandbox/recurrences/{recurrenceId}/consent', { params: { path: { recurrenceId: recurrence.id } }, body: { outcome: 'reject', rejectionCode: code } });
    expect(answered.data).toMatchObject({ status: 'rejected', consent: { status: 'rejected' }, ended: { reason: 'rejected', by: 'payer', code } });
    expect(answered.data).not.toHaveProperty('nextCycleDate');
    expect(await post(`/v1/recurrences/${recurrence.id}/cancel`)).toEqual({ status: 409, body: { error: messages.recurrenceNotCancellable('rejected') } });
    const again = await gateway.admin.POST('/admin/v1/sandbox/recurrences/{recurrenceId}/consent', { params: { path: { recurrenceId: recurrence.id } }, body: { outcome: 'approve' } });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ error: operatorMessages.recurrenceSandboxRefused('rejected') });
  });

  it('expired when the payer never answers the request: found by the follower once the request\'s expiry passes', async () => {
    const recurrence = await createRecurrence(gateway, merchant, { consent: { journey: 'request', payerAccount: { ispb: '12345678', account: '1' }, expiresInDays: 1 } });
    const now = gateway.clock.now();
    try {
      gateway.clock.set(now + 86_400_000 + 1);
      await runRecurrences(gateway);
      expect((await read(`/v1/recurrences/${recurrence.id}`)).body).toMatchObject({ status: 'expired', consent: { status: 'expired' }, ended: { reason: 'expired' } });
    } finally {
      gateway.clock.set(now);
    }
  });

  it('cancelled by the merchant: cancelled (ended.by merchant); a second cancel answers the same, safely', async () => {
    const recurrence = await createRecurrence(gateway, merchant);
    await approve(gateway, recurrence.id);
    const cancelled = await post(`/v1/recurrences/${recurrence.id}/cancel`);
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled', ended: { reason: 'cancelled', by: 'merchant' } } });
    expect((cancelled.body.history as Body[]).map((entry) => entry.status)).toEqual(['created', 'approved', 'cancelled']);
    expect(await post(`/v1/recurrences/${recurrence.id}/cancel`)).toMatchObject({ status: 200, body: { status: 'cancelled' } });
  });

  it('cancelled by the payer: cancelled (ended.by payer, with the code), its open cycle cancelled with it', async () => {
    const { recurrenceId, cycleId } = await recurrenceWithCycle(gateway, merchant);
    const cancelled = await gateway.admin.POST('/admin/v1/sandbox/recurrences/{recurrenceId}/payer-cancel', { params: { path: { recurrenceId } }, body: { cancellationCode: 'SLDB' } });
    expect(cancelled.data).toMatchObject({ status: 'cancelled', ended: { reason: 'cancelled', by: 'payer', code: 'SLDB' } });
    const cycle = await read(`/v1/transactions/${cycleId}`);
    expect(cycle.body).toMatchObject({ status: 'cancelled', recurrenceId });
  });
});

describe('cycles', () => {
  it('sends the first cycle when its window opens, debits it on its date and credits it as a charge', async () => {
    const before = await availableOf(merchant);
    const { recurrenceId, cycleId } = await recurrenceWithCycle(gateway, merchant);
    const listed = await read(`/v1/recurrences/${recurrenceId}/cycles`);
    expect(listed.body).toMatchObject({ count: 1, cycles: [{ transactionId: cycleId, recurrenceId, sequence: 1, amountCents: 9990, status: 'scheduled' }] });
    const debited = await gateway.admin.POST('/admin/v1/sandbox/recurrence-cycles/{transactionId}/debit', { params: { path: { transactionId: cycleId } }, body: { outcome: 'pay' } });
    expect(debited.data).toMatchObject({ status: 'paid', attempts: [{ kind: 'scheduled', status: 'paid' }] });
    const charge = await read(`/v1/transactions/${cycleId}`);
    expect(charge.body).toMatchObject({ type: 'pix_in', status: 'paid', amountCents: 9990, recurrenceId });
    expect(await availableOf(merchant)).toBe(before + Number(charge.body.netCents));
    const recurrence = await read(`/v1/recurrences/${recurrenceId}`);
    expect(recurrence.body).toMatchObject({ cycles: { total: 1, paid: 1, open: 0, failed: 0 } });
    expect(String((recurrence.body as Body).nextCycleDate) > String((listed.body.cycles as Body[])[0]?.dueDate)).toBe(true);
  });

  it('retries a refused debit the next day, then credits it paid on the retry', async () => {
    const { cycleId } = await recurrenceWithCycle(gateway, merchant);
    const refused = await gateway.admin.POST('/admin/v1/sandbox/recurrence-cycles/{transactionId}/debit', { params: { path: { transactionId: cycleId } }, body: { outcome: 'refuse', refusalCode: 'AM02' } });
    expect(refused.data).toMatchObject({
      status: 'retrying',
      refusalCode: 'AM02',
      attempts: [{ kind: 'scheduled', status: 'refused', refusalCode: 'AM02' }, { kind: 'retry', status: 'scheduled' }],
    });
    const paid = await gateway.admin.POST('/admin/v1/sandbox/recurrence-cycles/{transactionId}/debit', { params: { path: { transactionId: cycleId } }, body: { outcome: 'pay' } });
    expect(paid.data).toMatchObject({ status: 'paid', attempts: [{ status: 'refused' }, { kind: 'retry', status: 'paid' }] });
  });

  it('fails a cycle refused with a code the standard makes final, without a retry', async () => {
    const { cycleId } = await recurrenceWithCycle(gateway, merchant);
    const refused = await gateway.admin.POST('/admin/v1/sandbox/recurrence-cycles/{transactionId}/debit', { params: { path: { transactionId: cycleId } }, body: { outcome: 'refuse', refusalCode: 'AC05' } });
    expect(refused.data).toMatchObject({ status: 'failed', refusalCode: 'AC05', attempts: [{ status: 'refused' }] });
    expect((await read(`/v1/transactions/${cycleId}`)).body).toMatchObject({ status: 'failed' });
  });

  it('fails a refused cycle at once when the recurrence allows no retry', async () => {
    const recurrence = await createRecurrence(gateway, merchant, { retryPolicy: 'none' });
    await approve(gateway, recurrence.id);
    await runRecurrences(gateway);
    const cycles = await read(`/v1/recurrences/${recurrence.id}/cycles`);
    const cycleId = String((cycles.body.cycles as Body[])[0]?.transactionId);
    const refused = await gateway.admin.POST('/admin/v1/sandbox/recurrence-cycles/{transactionId}/debit', { params: { path: { transactionId: cycleId } }, body: { outcome: 'refuse', refusalCode: 'AM02' } });
    expect(refused.data).toMatchObject({ status: 'failed', attempts: [{ status: 'refused' }] });
  });

  it('cancels one cycle the payer cancels, keeping the recurrence', async () => {
    const { recurrenceId, cycleId } = await recurrenceWithCycle(gateway, merchant);
    const cancelled = await gateway.admin.POST('/admin/v1/sandbox/recurrence-cycles/{transactionId}/payer-cancel', { params: { path: { transactionId: cycleId } }, body: { cancellationCode: 'ACCT' } });
    expect(cancelled.data).toMatchObject({ status: 'cancelled', cancelledBy: 'payer', refusalCode: 'ACCT' });
    expect((await read(`/v1/recurrences/${recurrenceId}`)).body).toMatchObject({ status: 'approved', cycles: { failed: 1 } });
    const again = await gateway.admin.POST('/admin/v1/sandbox/recurrence-cycles/{transactionId}/debit', { params: { path: { transactionId: cycleId } }, body: { outcome: 'pay' } });
    expect(again.response.status).toBe(409);
  });
});

describe('POST /v1/recurrences/{id}/cycles (a variable amount)', () => {
  it('sends the next cycle with the merchant\'s amount, within the payer\'s maximum and the floor, once its window opens', async () => {
    const recurrence = await createRecurrence(gateway, merchant, { amountCents: undefined, minimumAmountCents: 5000 });
    const path = `/v1/recurrences/${recurrence.id}/cycles`;
    expect(await post(path, { amountCents: 10_000 })).toEqual({ status: 409, body: { error: messages.cycleNotApproved('created') } });
    await approve(gateway, recurrence.id, { payerMaximumCents: 20_000 });
    expect((await read(`/v1/recurrences/${recurrence.id}`)).body).toMatchObject({ status: 'approved', minimumAmountCents: 5000 });
    // The scheduler sends no variable cycle by itself.
    await runRecurrences(gateway);
    expect((await read(path)).body).toMatchObject({ count: 0 });
    expect(await post(path, { amountCents: 4999 })).toEqual({ status: 400, body: { error: messages.cycleBelowMinimum(5000) } });
    const sent = await post(path, { amountCents: 18_735 });
    expect(sent).toMatchObject({ status: 201, body: { sequence: 1, amountCents: 18_735, status: 'scheduled', recurrenceId: recurrence.id } });
    // The next one's window (ten days before a month later) is not open yet.
    const next = String((await read(`/v1/recurrences/${recurrence.id}`)).body.nextCycleDate);
    expect((await post(path, { amountCents: 10_000 })).body.error).toBe(messages.cycleTooEarly(next, addCalendarDays(next, -10)));
  });

  // The standard's read of a recurrence has no field for the payer's maximum: PixGate knows it only from a
  // provider that reports it (the simulation); on API Pix the payer's bank refuses a debit above it.
  it.skipIf(process.env.PIXGATE_TEST_PSP !== undefined)('refuses an amount above the maximum the payer accepted, when the provider reports it', async () => {
    const variable = await createRecurrence(gateway, merchant, { amountCents: undefined });
    await approve(gateway, variable.id, { payerMaximumCents: 20_000 });
    expect((await read(`/v1/recurrences/${variable.id}`)).body).toMatchObject({ payerMaximumCents: 20_000 });
    expect(await post(`/v1/recurrences/${variable.id}/cycles`, { amountCents: 20_001 })).toEqual({ status: 400, body: { error: messages.cycleAboveMaximum(20_000) } });
  });

  it('refuses a fixed-amount recurrence, an unknown one, and bad input', async () => {
    const variable = await createRecurrence(gateway, merchant, { amountCents: undefined });
    await approve(gateway, variable.id);
    expect(await post(`/v1/recurrences/${variable.id}/cycles`, { amountCents: 'muito' })).toEqual({ status: 400, body: { error: messages.chargeAmount } });
    const fixed = await createRecurrence(gateway, merchant);
    await approve(gateway, fixed.id);
    expect(await post(`/v1/recurrences/${fixed.id}/cycles`, { amountCents: 10_000 })).toEqual({ status: 409, body: { error: messages.cycleFixedAmount } });
    expect(await post('/v1/recurrences/rec_000000000000000000000000/cycles', { amountCents: 10_000 })).toEqual({ status: 404, body: { error: messages.recurrenceNotFound } });
  });
});

