import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { reconcileRefunds } from '../../src/jobs/reconcileRefunds.ts';
import { REFUND_RATE_LIMIT } from '../../src/refunds/refund.service.ts';
import {
  availableOf,
  createMerchant,
  fund,
  ledgerIsConsistent,
  postAsMerchant,
  relaxLimits,
  useGateway,
  validCustomer,
  type MerchantFixture,
} from '../support/gateway.ts';

/**
 * Issue 20: POST /v1/transactions/{id}/refunds over HTTP: the money (taken when accepted, posted when the
 * payer's bank confirms, back when refused), the charge's statuses and events, every refusal with the
 * contract's status and message, idempotency (also under concurrency), reconciliation after a lost answer.
 */
const gateway = useGateway();
const HOLDER_CPF = '52998224725';
const DAY_MS = 86_400_000;

let merchant: MerchantFixture;
beforeAll(async () => {
  merchant = await createMerchant(gateway);
});

/** A merchant whose charges keep the default fee (0,99 %), so the fee kept on a refund shows. */
function merchantWithFees(): Promise<MerchantFixture> {
  return createMerchant(gateway);
}

async function paidCharge(of: MerchantFixture, amountCents: number, externalRef?: string): Promise<string> {
  const created = await of.client.POST('/v1/pix', { body: { amountCents, customer: validCustomer, ...(externalRef ? { externalRef } : {}) } });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  const paid = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId: created.data.transactionId } } });
  if (paid.response.status !== 200) throw new Error(JSON.stringify(paid.error));
  return created.data.transactionId;
}

const refund = (of: MerchantFixture, id: string, body: Record<string, unknown> = {}) => postAsMerchant(gateway, of, `/v1/transactions/${id}/refunds`, body);

async function detail(of: MerchantFixture, id: string) {
  const { data } = await of.client.GET('/v1/transactions/{id}', { params: { path: { id } } });
  if (!data) throw new Error(`transaction ${id} not readable`);
  return data;
}

async function settle(refundId: string) {
  const answer = await gateway.admin.POST('/admin/v1/sandbox/refunds/{refundId}/settle', { params: { path: { refundId } } });
  expect(answer.response.status).toBe(200);
  return answer.data;
}

async function reject(refundId: string, refusedCode = 'BENEFICIARY_ACCOUNT_CLOSED', refusedReason = 'Conta do pagador encerrada.') {
  const answer = await gateway.admin.POST('/admin/v1/sandbox/refunds/{refundId}/reject', { params: { path: { refundId } }, body: { refusedCode, refusedReason } });
  expect(answer.response.status).toBe(200);
  return answer.data;
}

async function eventsOf(of: MerchantFixture) {
  const { data } = await gateway.admin.GET('/admin/v1/accounts/{accountId}/events', { params: { path: { accountId: of.accountId }, query: { limit: 100 } } });
  return (data?.events ?? []).map((e) => e.payload as Record<string, unknown>);
}

async function withdrawableOf(of: MerchantFixture): Promise<number> {
  const balance = await gateway.admin.GET('/admin/v1/accounts/{accountId}/balance', { params: { path: { accountId: of.accountId } } });
  return balance.data?.withdrawableCents ?? -1;
}

describe('a refund, partial then full', () => {
  it('takes the amount when accepted, refunds the charge when confirmed, keeps the fee, and says so in the events', async () => {
    const shop = await merchantWithFees();
    const chargeId = await paidCharge(shop, 10_000);
    const paid = await detail(shop, chargeId);
    expect(paid).toMatchObject({ status: 'paid', feeCents: 99, netCents: 9_901 });
    expect(paid).not.toHaveProperty('refunds');
    expect(await availableOf(shop)).toBe(9_901);

    gateway.clock.advance(1_000);
    const first = await refund(shop, chargeId, { amountCents: 4_000, externalRef: 'devolucao-1', description: 'Devolução parcial do pedido' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      refundId: expect.stringMatching(/^rf_[0-9a-f]{24}$/),
      transactionId: chargeId,
      amountCents: 4_000,
      status: 'processing',
      createdAt: gateway.clock.now(),
      externalRef: 'devolucao-1',
      description: 'Devolução parcial do pedido',
    });
    const firstId = String(first.body.refundId);
    // Taken from the balance at once; the charge itself is unchanged until the payer's bank confirms.
    expect(await availableOf(shop)).toBe(5_901);
    const inFlight = await detail(shop, chargeId);
    expect(inFlight.status).toBe('paid');
    expect(inFlight).not.toHaveProperty('refundedCents');
    expect(inFlight.refunds).toEqual([
      { refundId: firstId, amountCents: 4_000, status: 'processing', createdAt: gateway.clock.now(), externalRef: 'devolucao-1', description: 'Devolução parcial do pedido' },
    ]);

    gateway.clock.advance(2_000);
    await settle(firstId);
    const partial = await detail(shop, chargeId);
    expect(partial).toMatchObject({ status: 'partially_refunded', refundedCents: 4_000, refundEndToEndId: expect.stringMatching(/^D[0-9A-Z]{8}\d{12}[a-zA-Z0-9]{11}$/) });
    expect(partial.refunds?.[0]).toMatchObject({ refundId: firstId, status: 'refunded', refundedAt: gateway.clock.now(), refundEndToEndId: partial.refundEndToEndId });
    expect(await availableOf(shop)).toBe(5_901);

    // The rest: all that is still refundable (6 000), more than the balance left after the fee was kept.
    await fund(gateway, shop, 1_000);
    const rest = await refund(shop, chargeId, {});
    expect(rest).toMatchObject({ status: 201, body: { amountCents: 6_000, status: 'processing' } });
    expect(rest.body).not.toHaveProperty('externalRef');
    await settle(String(rest.body.refundId));
    const full = await detail(shop, chargeId);
    expect(full).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
    expect(full.refunds?.map((r) => r.refundId)).toEqual([rest.body.refundId, firstId]);
    // 9 901 + 990 (net of the funding charge) − 10 000 refunded: the 99 fee is not returned.
    expect(await availableOf(shop)).toBe(9_901 + 990 - 10_000);

    const events = (await eventsOf(shop)).filter((e) => e.transactionId === chargeId);
    const partialEvent = events.find((e) => e.event === 'transaction.partially_refunded');
    const fullEvent = events.find((e) => e.event === 'transaction.refunded');
    expect(partialEvent).toMatchObject({ status: 'partially_refunded', refundId: firstId, refundedCents: 4_000, refundEndToEndId: partial.refundEndToEndId, category: 'refund' });
    expect(fullEvent).toMatchObject({ status: 'refunded', refundId: rest.body.refundId, refundedCents: 10_000, refundEndToEndId: full.refundEndToEndId });

    // Nothing left to refund.
    expect(await refund(shop, chargeId, { amountCents: 1 })).toEqual({
      status: 422,
      body: { error: "Cobrança com status 'refunded' não pode ser devolvida: apenas cobranças pagas (paid ou partially_refunded)." },
    });
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });
});

describe('a refund that fails', () => {
  it('gives the amount back and leaves the charge as it was, with the reason on the refund', async () => {
    const chargeId = await paidCharge(merchant, 5_000);
    const before = await availableOf(merchant);
    const created = await refund(merchant, chargeId, { amountCents: 2_000 });
    expect(created.status).toBe(201);
    expect(await availableOf(merchant)).toBe(before - 2_000);
    await reject(String(created.body.refundId));
    expect(await availableOf(merchant)).toBe(before);
    const charge = await detail(merchant, chargeId);
    expect(charge.status).toBe('paid');
    expect(charge).not.toHaveProperty('refundedCents');
    expect(charge.refunds).toEqual([
      // API Pix's devolução says why only in words (`motivo`): on a real provider the code is the generic one.
      expect.objectContaining({
        refundId: created.body.refundId,
        status: 'failed',
        refusedCode: gateway.efi ? 'PROVIDER_REJECTED' : 'BENEFICIARY_ACCOUNT_CLOSED',
        refusedReason: 'Conta do pagador encerrada.',
      }),
    ]);
    expect(charge.refunds?.[0]).not.toHaveProperty('refundEndToEndId');
    // A failed refund does not count against what is refundable: all 5 000 still are.
    expect(await refund(merchant, chargeId, { amountCents: 5_001 })).toEqual({
      status: 422,
      body: { error: 'Valor acima do disponível para devolução desta cobrança: restam R$ 50,00 (5000 centavos).' },
    });
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });
});

describe('refusals', () => {
  let chargeId: string;
  beforeAll(async () => {
    chargeId = await paidCharge(merchant, 3_000);
  });

  it('404 for an unknown id and for another merchant’s charge; 400 for a malformed id', async () => {
    const other = await createMerchant(gateway);
    const notFound = { status: 404, body: { error: 'Transação não encontrada.' } };
    expect(await refund(merchant, 'tx_0123456789abcdef01234567', {})).toEqual(notFound);
    expect(await refund(other, chargeId, {})).toEqual(notFound);
    expect(await refund(merchant, 'tx_nothex', {})).toEqual({ status: 400, body: { error: 'transactionId inválido.' } });
  });

  it('400 for each invalid field, with the message of the field', async () => {
    const amount = { status: 400, body: { error: 'amountCents deve ser inteiro ≥ 1 (valor em centavos).' } };
    expect(await refund(merchant, chargeId, { amountCents: 0 })).toEqual(amount);
    expect(await refund(merchant, chargeId, { amountCents: 10.5 })).toEqual(amount);
    expect(await refund(merchant, chargeId, { amountCents: '100' })).toEqual(amount);
    expect(await refund(merchant, chargeId, { description: 'x'.repeat(141) })).toEqual({ status: 400, body: { error: 'description deve ser texto de no máximo 140 caracteres.' } });
    expect(await refund(merchant, chargeId, { externalRef: 'r'.repeat(101) })).toEqual({ status: 400, body: { error: 'externalRef deve ser texto de 1 a 100 caracteres.' } });
    expect(await refund(merchant, chargeId, { amount: 100 })).toEqual({ status: 400, body: { error: "Campo não permitido: 'amount'." } });
    expect((await detail(merchant, chargeId)).refunds).toBeUndefined();
  });

  it('422 for a withdrawal, a charge not paid, an amount above what is refundable, past 90 days, and without balance', async () => {
    const funded = await createMerchant(gateway);
    await relaxLimits(gateway, funded.accountId);
    await fund(gateway, funded, 50_000);
    // A provider without a send API (PSP=apipix in `npm run test:psp`) makes no withdrawal: those parts are Efí's.
    const payouts = gateway.deps.provider.capabilities.payouts;
    if (payouts) {
      const withdrawal = await funded.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
      expect(await refund(funded, withdrawal.data?.transactionId ?? '', {})).toEqual({ status: 422, body: { error: 'Apenas cobranças (pix_in) podem ser devolvidas.' } });
    }

    const pending = await funded.client.POST('/v1/pix', { body: { amountCents: 1_000, customer: validCustomer } });
    expect(await refund(funded, pending.data?.transactionId ?? '', {})).toEqual({
      status: 422,
      body: { error: "Cobrança com status 'pending' não pode ser devolvida: apenas cobranças pagas (paid ou partially_refunded)." },
    });

    // What is refundable counts the refunds in flight.
    const charge = await paidCharge(funded, 1_000);
    expect(await refund(funded, charge, { amountCents: 600 })).toMatchObject({ status: 201 });
    expect(await refund(funded, charge, { amountCents: 401 })).toEqual({
      status: 422,
      body: { error: 'Valor acima do disponível para devolução desta cobrança: restam R$ 4,00 (400 centavos).' },
    });

    const old = await paidCharge(funded, 1_000);
    gateway.clock.advance(90 * DAY_MS + 1);
    expect(await refund(funded, old, { amountCents: 100 })).toEqual({
      status: 422,
      body: { error: 'Prazo de devolução encerrado: uma cobrança pode ser devolvida em até 90 dias após o pagamento.' },
    });

    // Without balance: the withdrawable balance is spent by a withdrawal.
    if (!payouts) return;
    const poor = await createMerchant(gateway);
    await relaxLimits(gateway, poor.accountId);
    const sold = await paidCharge(poor, 2_000);
    const spent = await poor.client.POST('/v1/withdraw', { body: { amountCents: 1_500, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
    expect(spent.response.status).toBe(201);
    expect(await withdrawableOf(poor)).toBe(400);
    expect(await refund(poor, sold, { amountCents: 500 })).toEqual({ status: 422, body: { error: 'Saldo insuficiente para realizar a devolução.' } });
    expect(await availableOf(poor)).toBe(400);
    expect((await detail(poor, sold)).refunds).toBeUndefined();
  });

  it('a hold counts: the refund needs available less the holds', async () => {
    const held = await createMerchant(gateway);
    await relaxLimits(gateway, held.accountId);
    const sold = await paidCharge(held, 2_000);
    const placed = await gateway.admin.POST('/admin/v1/accounts/{accountId}/holds', {
      params: { path: { accountId: held.accountId } },
      body: { amountCents: 1_500, reason: 'dispute', transactionId: sold },
    });
    expect(placed.response.status).toBe(201);
    expect(await refund(held, sold, { amountCents: 600 })).toEqual({ status: 422, body: { error: 'Saldo insuficiente para realizar a devolução.' } });
    expect(await refund(held, sold, { amountCents: 500 })).toMatchObject({ status: 201 });
  });
});

describe('the provider', () => {
  it('502 when it fails before accepting: nothing debited, the externalRef free for the retry', async () => {
    const chargeId = await paidCharge(merchant, 2_000);
    const before = await availableOf(merchant);
    gateway.provider.queueOutcome('sendRefund', 'fail');
    const body = { amountCents: 700, externalRef: 'devolucao-502' };
    expect(await refund(merchant, chargeId, body)).toEqual({ status: 502, body: { error: 'Erro ao processar devolução. O valor não foi debitado.' } });
    expect(await availableOf(merchant)).toBe(before);
    expect((await detail(merchant, chargeId)).refunds).toBeUndefined();
    const retry = await refund(merchant, chargeId, body);
    expect(retry).toMatchObject({ status: 201, body: { amountCents: 700, externalRef: 'devolucao-502' } });
    expect(await availableOf(merchant)).toBe(before - 700);
  });

  it('no answer in time: 201 processing, then reconciliation settles it from the provider’s record', async () => {
    const chargeId = await paidCharge(merchant, 2_000);
    const before = await availableOf(merchant);
    gateway.provider.queueOutcome('sendRefund', 'timeout');
    const taken = await refund(merchant, chargeId, { amountCents: 300 });
    expect(taken).toMatchObject({ status: 201, body: { status: 'processing' } });
    gateway.provider.queueOutcome('sendRefund', 'timeout_unsent');
    const lost = await refund(merchant, chargeId, { amountCents: 200 });
    expect(lost).toMatchObject({ status: 201, body: { status: 'processing' } });
    expect(await availableOf(merchant)).toBe(before - 500);

    expect(await gateway.provider.settleRefund(String(taken.body.refundId))).toBe(true);
    gateway.clock.advance(10_000);
    await reconcileRefunds(gateway.deps);
    const charge = await detail(merchant, chargeId);
    const byId = new Map(charge.refunds?.map((r) => [r.refundId, r]));
    expect(byId.get(String(taken.body.refundId))?.status).toBe('refunded');
    expect(byId.get(String(lost.body.refundId))).toMatchObject({ status: 'failed', refusedCode: 'RECONCILED_NOT_SENT' });
    expect(charge).toMatchObject({ status: 'partially_refunded', refundedCents: 300 });
    expect(await availableOf(merchant)).toBe(before - 300);
  });

  it('a refund left initiating by a crash is finished by reconciliation', async () => {
    const chargeId = await paidCharge(merchant, 2_000);
    const before = await availableOf(merchant);
    const created = await refund(merchant, chargeId, { amountCents: 400 });
    // As if the process had died after reserving and before recording the provider's answer.
    await sql`UPDATE refunds SET status = 'initiating', next_check_at = ${new Date(gateway.clock.now() + 30_000)} WHERE id = ${String(created.body.refundId)}`.execute(gateway.deps.db);
    expect((await detail(merchant, chargeId)).refunds).toBeUndefined();
    gateway.clock.advance(31_000);
    await reconcileRefunds(gateway.deps);
    expect((await detail(merchant, chargeId)).refunds?.[0]).toMatchObject({ refundId: created.body.refundId, status: 'processing' });
    expect(await availableOf(merchant)).toBe(before - 400);
  });
});

describe('idempotency', () => {
  it('the same externalRef answers the original with 200, and names what differs', async () => {
    const chargeId = await paidCharge(merchant, 3_000);
    const other = await paidCharge(merchant, 3_000);
    const body = { amountCents: 500, externalRef: 'devolucao-idem', description: 'Troca' };
    const created = await refund(merchant, chargeId, body);
    expect(created.status).toBe(201);
    const before = await availableOf(merchant);
    const again = await refund(merchant, chargeId, body);
    expect(again).toEqual({ status: 200, body: { ...created.body, idempotent: true } });
    const different = await refund(merchant, other, { ...body, amountCents: 600 });
    expect(different).toEqual({ status: 200, body: { ...created.body, idempotent: true, mismatchedFields: ['transactionId', 'amountCents'] } });
    expect(await availableOf(merchant)).toBe(before);
    // The same value in another account, or for a charge, is another key.
    const shop = await createMerchant(gateway);
    const theirs = await paidCharge(shop, 1_000, 'devolucao-idem');
    expect(await refund(shop, theirs, body)).toMatchObject({ status: 201 });
  });

  it('20 parallel refunds of one charge never refund more than its amount', async () => {
    const chargeId = await paidCharge(merchant, 10_000);
    const before = await availableOf(merchant);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => refund(merchant, chargeId, { amountCents: 1_000, externalRef: `paralela-${i}` })));
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(10);
    expect(answers.filter((a) => a.status === 422).every((a) => String(a.body.error).startsWith('Valor acima do disponível para devolução'))).toBe(true);
    expect(answers.filter((a) => a.status !== 201 && a.status !== 422)).toEqual([]);
    expect(await availableOf(merchant)).toBe(before - 10_000);
    await Promise.all(created.map((a) => settle(String(a.body.refundId))));
    expect(await detail(merchant, chargeId)).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
  });

  it('the same externalRef in parallel creates one refund', async () => {
    const chargeId = await paidCharge(merchant, 10_000);
    const before = await availableOf(merchant);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(merchant, chargeId, { amountCents: 1_000, externalRef: 'mesma-devolucao' })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
    expect(new Set(answers.map((a) => a.body.refundId)).size).toBe(1);
    expect(await availableOf(merchant)).toBe(before - 1_000);
    expect((await detail(merchant, chargeId)).refunds).toHaveLength(1);
  });
});

describe('rate limit', () => {
  it(`${REFUND_RATE_LIMIT.limit} refunds per UTC hour per account, then 429; refused ones use no slot`, async () => {
    const busy = await createMerchant(gateway);
    await relaxLimits(gateway, busy.accountId);
    // Start at the top of an hour so the whole run stays in one window.
    gateway.clock.advance(3_600_000 - (gateway.clock.now() % 3_600_000));
    const chargeId = await paidCharge(busy, 1_000);
    expect(await refund(busy, chargeId, { amountCents: 1_001 })).toMatchObject({ status: 422 });
    for (let i = 0; i < REFUND_RATE_LIMIT.limit; i += 1) {
      const answer = await refund(busy, chargeId, { amountCents: 1 });
      if (answer.status !== 201) throw new Error(`refund ${i}: ${JSON.stringify(answer)}`);
    }
    expect(await refund(busy, chargeId, { amountCents: 1 })).toEqual({ status: 429, body: { error: 'Limite de devoluções atingido. Tente em 1 hora.' } });
    gateway.clock.advance(3_600_000);
    expect(await refund(busy, chargeId, { amountCents: 1 })).toMatchObject({ status: 201 });
  });
});

describe('the ledger check', () => {
  it('reports a refund whose status does not match its transfers', async () => {
    const chargeId = await paidCharge(merchant, 1_000);
    const created = await refund(merchant, chargeId, { amountCents: 100 });
    const id = String(created.body.refundId);
    await sql`UPDATE refunds SET status = 'refunded' WHERE id = ${id}`.execute(gateway.deps.db);
    expect(await ledgerIsConsistent(gateway)).toContainEqual(expect.stringContaining(`refund ${id} of ${chargeId} (refunded): expected its pending transfer of 100 posted`));
    await sql`UPDATE refunds SET status = 'processing' WHERE id = ${id}`.execute(gateway.deps.db);
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });
});
