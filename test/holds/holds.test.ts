import { describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import type { SendWithdrawalInput } from '../../src/provider/port.ts';
import {
  createMerchant,
  relaxLimits,
  useGateway,
  validCustomer,
  type MerchantFixture,
} from '../support/gateway.ts';

const gateway = useGateway();

type Reason = 'med' | 'dispute' | 'protest' | 'administrative';

async function merchantWithLimits(extra: Record<string, unknown> = {}): Promise<MerchantFixture> {
  const merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId, extra);
  return merchant;
}

/** A charge created and paid by the sandbox PSP; returns its id. */
async function paidCharge(merchant: MerchantFixture, amountCents: number): Promise<string> {
  const id = await pendingCharge(merchant, amountCents);
  const paid = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId: id } } });
  expect(paid.response.status).toBe(200);
  return id;
}

async function pendingCharge(merchant: MerchantFixture, amountCents: number): Promise<string> {
  const created = await merchant.client.POST('/v1/pix', { body: { amountCents, customer: validCustomer } });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return created.data.transactionId;
}

async function balance(merchant: MerchantFixture) {
  const admin = await gateway.admin.GET('/admin/v1/accounts/{accountId}/balance', { params: { path: { accountId: merchant.accountId } } });
  const merchantView = await merchant.client.GET('/v1/balance');
  expect(admin.data?.ledgerConsistent, JSON.stringify(admin.data?.violations)).toBe(true);
  expect(merchantView.data?.available).toBe(admin.data?.availableCents);
  expect(merchantView.data?.pending).toBe(0);
  return {
    available: admin.data?.availableCents,
    held: admin.data?.heldCents,
    reserved: admin.data?.reservedCents,
    withdrawable: admin.data?.withdrawableCents,
  };
}

async function placeHold(merchant: MerchantFixture, body: { amountCents: number; reason: Reason; transactionId?: string; note?: string }) {
  return gateway.admin.POST('/admin/v1/accounts/{accountId}/holds', { params: { path: { accountId: merchant.accountId } }, body });
}

async function placed(merchant: MerchantFixture, body: Parameters<typeof placeHold>[1]): Promise<string> {
  const result = await placeHold(merchant, body);
  expect(result.response.status, JSON.stringify(result.error)).toBe(201);
  return result.data?.holdId ?? '';
}

async function release(merchant: MerchantFixture, holdId: string) {
  return gateway.admin.POST('/admin/v1/accounts/{accountId}/holds/{holdId}/release', {
    params: { path: { accountId: merchant.accountId, holdId } },
  });
}

async function chargeback(merchant: MerchantFixture, holdId: string, amountCents?: number) {
  return gateway.admin.POST('/admin/v1/accounts/{accountId}/holds/{holdId}/chargeback', {
    params: { path: { accountId: merchant.accountId, holdId } },
    body: amountCents === undefined ? {} : { amountCents },
  });
}

async function eventsOf(merchant: MerchantFixture) {
  const { data } = await gateway.admin.GET('/admin/v1/accounts/{accountId}/events', {
    params: { path: { accountId: merchant.accountId }, query: { limit: 100 } },
  });
  return (data?.events ?? []).map((e) => e.payload as Record<string, unknown>);
}

async function fundedMerchant(amountCents: number, extra: Record<string, unknown> = {}) {
  const merchant = await merchantWithLimits(extra);
  const chargeId = await paidCharge(merchant, amountCents);
  return { merchant, chargeId };
}

describe('holds on the balance', () => {
  it('a hold keeps available unchanged and lowers what can be withdrawn; release gives it back', async () => {
    const { merchant } = await fundedMerchant(10_000);
    const eventsBefore = (await eventsOf(merchant)).length;
    gateway.clock.advance(1_000);
    const hold = await placeHold(merchant, { amountCents: 6_000, reason: 'administrative', note: 'Ofício judicial.' });
    expect(hold.response.status).toBe(201);
    expect(hold.data).toEqual({
      holdId: expect.stringMatching(/^hold_[0-9a-f]{24}$/),
      accountId: merchant.accountId,
      transactionId: null,
      amountCents: 6_000,
      reason: 'administrative',
      note: 'Ofício judicial.',
      status: 'active',
      createdAt: gateway.clock.now(),
      releasedAt: null,
    });
    expect(await balance(merchant)).toEqual({ available: 10_000, held: 6_000, reserved: 0, withdrawable: 4_000 });
    // A hold on the balance as a whole notifies nobody.
    expect(await eventsOf(merchant)).toHaveLength(eventsBefore);

    const withdraw = (amountCents: number) =>
      merchant.client.POST('/v1/withdraw', { body: { amountCents, pixKey: '52998224725', pixKeyType: 'cpf' } });
    const refused = await withdraw(3_901);
    expect(refused.response.status).toBe(422);
    expect(refused.error).toEqual({ error: messages.insufficientBalance });

    gateway.clock.advance(1_000);
    const released = await release(merchant, hold.data?.holdId ?? '');
    expect(released.data).toEqual({ ...hold.data, status: 'released', releasedAt: gateway.clock.now() });
    expect(await balance(merchant)).toEqual({ available: 10_000, held: 0, reserved: 0, withdrawable: 10_000 });
    expect((await withdraw(3_901)).response.status).toBe(201);
    // The withdrawal is processing: its amount + fee wait in pending_out until the PSP settles it.
    expect(await balance(merchant)).toEqual({ available: 10_000 - 4_001, held: 0, reserved: 4_001, withdrawable: 10_000 - 4_001 });
  });

  it('holds add up, may exceed the balance, and withdrawable never goes below 0', async () => {
    const { merchant } = await fundedMerchant(10_000);
    const first = await placed(merchant, { amountCents: 7_000, reason: 'administrative' });
    await placed(merchant, { amountCents: 8_000, reason: 'administrative' });
    expect(await balance(merchant)).toEqual({ available: 10_000, held: 15_000, reserved: 0, withdrawable: 0 });
    const listed = await gateway.admin.GET('/admin/v1/accounts/{accountId}/holds', {
      params: { path: { accountId: merchant.accountId }, query: { status: 'active' } },
    });
    expect(listed.data?.count).toBe(2);
    await release(merchant, first);
    expect(await balance(merchant)).toEqual({ available: 10_000, held: 8_000, reserved: 0, withdrawable: 2_000 });
    const active = await gateway.admin.GET('/admin/v1/accounts/{accountId}/holds', {
      params: { path: { accountId: merchant.accountId }, query: { status: 'active' } },
    });
    expect(active.data?.holds.map((h) => h.amountCents)).toEqual([8_000]);
  });

  it('answers 409 to a second release and to a chargeback of a balance hold, changing nothing', async () => {
    const { merchant } = await fundedMerchant(5_000);
    const holdId = await placed(merchant, { amountCents: 1_000, reason: 'administrative' });
    const onBalance = await chargeback(merchant, holdId);
    expect(onBalance.response.status).toBe(409);
    expect(onBalance.error).toEqual({ error: 'A retenção não é sobre uma cobrança.' });
    expect((await release(merchant, holdId)).response.status).toBe(200);
    const twice = await release(merchant, holdId);
    expect(twice.response.status).toBe(409);
    expect(twice.error).toEqual({ error: 'A retenção já foi liberada.' });
    expect(await balance(merchant)).toEqual({ available: 5_000, held: 0, reserved: 0, withdrawable: 5_000 });
  });

  it("answers 404 for another account's hold", async () => {
    const { merchant } = await fundedMerchant(5_000);
    const other = await merchantWithLimits();
    const holdId = await placed(merchant, { amountCents: 1_000, reason: 'administrative' });
    expect((await release(other, holdId)).response.status).toBe(404);
    expect((await balance(merchant)).held).toBe(1_000);
  });
});

describe('holds on a paid charge', () => {
  const events: [Reason, string][] = [
    ['med', 'transaction.infraction'],
    ['dispute', 'transaction.dispute'],
    ['protest', 'transaction.protest'],
    ['administrative', 'transaction.blocked'],
  ];
  for (const [reason, event] of events) {
    it(`${reason}: writes ${event} with the hold, in the same transaction as the hold`, async () => {
      const { merchant, chargeId } = await fundedMerchant(2_000);
      gateway.clock.advance(5_000);
      const holdId = await placed(merchant, { amountCents: 1_500, reason, transactionId: chargeId, note: 'Caso 42.' });
      const written = (await eventsOf(merchant)).filter((e) => e.event === event);
      expect(written).toHaveLength(1);
      expect(written[0]).toMatchObject({
        event,
        category: 'dispute',
        transactionId: chargeId,
        type: 'pix_in',
        status: 'paid',
        amountCents: 2_000,
        occurredAt: gateway.clock.now(),
        updatedAt: gateway.clock.now(),
        endToEndId: expect.stringMatching(/^E/),
        payer: expect.any(Object),
        hold: { holdId, amountCents: 1_500, reason },
      });
      expect(written[0]).not.toHaveProperty('chargebackCents');
      const tx = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: chargeId } } });
      expect(tx.data).toMatchObject({ status: 'paid', updatedAt: gateway.clock.now() });
      expect(await balance(merchant)).toEqual({ available: 2_000, held: 1_500, reserved: 0, withdrawable: 500 });
    });
  }

  it('refuses with 409 a hold over the charge amount, on a pending charge, and on a withdrawal; 404 for another account', async () => {
    const { merchant, chargeId } = await fundedMerchant(2_000);
    const eventsBefore = (await eventsOf(merchant)).length;
    const over = await placeHold(merchant, { amountCents: 2_001, reason: 'med', transactionId: chargeId });
    expect(over.response.status).toBe(409);
    expect(over.error).toEqual({ error: 'A retenção sobre uma cobrança não pode exceder o valor dela.' });

    const pending = await pendingCharge(merchant, 1_000);
    const onPending = await placeHold(merchant, { amountCents: 100, reason: 'med', transactionId: pending });
    expect(onPending.response.status).toBe(409);
    expect(onPending.error).toEqual({ error: "Retenções sobre uma transação exigem uma cobrança paga: a transação é do tipo 'pix_in' e está em 'pending'." });

    const withdrawal = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 100, pixKey: '52998224725', pixKeyType: 'cpf' } });
    const onWithdrawal = await placeHold(merchant, { amountCents: 100, reason: 'med', transactionId: withdrawal.data?.transactionId ?? '' });
    expect(onWithdrawal.response.status).toBe(409);
    expect(onWithdrawal.error).toEqual({ error: "Retenções sobre uma transação exigem uma cobrança paga: a transação é do tipo 'withdrawal' e está em 'processing'." });

    const other = await merchantWithLimits();
    const foreign = await placeHold(other, { amountCents: 100, reason: 'med', transactionId: chargeId });
    expect(foreign.response.status).toBe(404);

    expect(await eventsOf(merchant)).toHaveLength(eventsBefore + 2); // the withdrawal's created + processing
    expect(await balance(merchant)).toEqual({ available: 2_000 - 200, held: 0, reserved: 200, withdrawable: 1_800 });
  });
});

describe('chargebacks', () => {
  it('partial: debits the amount from available and held, releases the rest, partially_refunded, transaction.chargeback', async () => {
    const { merchant, chargeId } = await fundedMerchant(10_000);
    const holdId = await placed(merchant, { amountCents: 6_000, reason: 'med', transactionId: chargeId });
    gateway.clock.advance(10_000);
    const result = await chargeback(merchant, holdId, 4_000);
    expect(result.response.status).toBe(200);
    expect(result.data).toMatchObject({
      transactionId: chargeId,
      status: 'partially_refunded',
      refundedCents: 4_000,
      amountCents: 10_000,
      updatedAt: gateway.clock.now(),
    });
    expect(await balance(merchant)).toEqual({ available: 6_000, held: 0, reserved: 0, withdrawable: 6_000 });
    const hold = await gateway.admin.GET('/admin/v1/accounts/{accountId}/holds', { params: { path: { accountId: merchant.accountId } } });
    expect(hold.data?.holds[0]).toMatchObject({ holdId, status: 'released', releasedAt: gateway.clock.now() });
    const written = (await eventsOf(merchant)).filter((e) => e.event === 'transaction.chargeback');
    expect(written).toEqual([
      expect.objectContaining({
        event: 'transaction.chargeback',
        category: 'chargeback',
        transactionId: chargeId,
        status: 'partially_refunded',
        refundedCents: 4_000,
        chargebackCents: 4_000,
      }),
    ]);
    expect(written[0]).not.toHaveProperty('hold');
    const read = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: chargeId } } });
    expect(read.data).toMatchObject({ status: 'partially_refunded', refundedCents: 4_000 });

    // A second case on what is left: by default the whole hold is charged back, the charge is refunded.
    const second = await placed(merchant, { amountCents: 6_000, reason: 'dispute', transactionId: chargeId });
    gateway.clock.advance(1_000);
    const whole = await chargeback(merchant, second);
    expect(whole.data).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
    expect(await balance(merchant)).toEqual({ available: 0, held: 0, reserved: 0, withdrawable: 0 });
    const chargebacks = (await eventsOf(merchant)).filter((e) => e.event === 'transaction.chargeback');
    expect(chargebacks.map((e) => [e.status, e.refundedCents, e.chargebackCents])).toEqual([
      ['refunded', 10_000, 6_000],
      ['partially_refunded', 4_000, 4_000],
    ]);
  });

  it('takes back the gross amount of a charge that paid a fee (the fee is not returned to the merchant)', async () => {
    const merchant = await merchantWithLimits({ chargeFeeBps: 99 });
    const chargeId = await paidCharge(merchant, 10_000); // fee 99, net 9_901
    await paidCharge(merchant, 1_000); // fee 10, net 990
    expect((await balance(merchant)).available).toBe(10_891);
    const holdId = await placed(merchant, { amountCents: 10_000, reason: 'med', transactionId: chargeId });
    const result = await chargeback(merchant, holdId);
    expect(result.data).toMatchObject({ status: 'refunded', refundedCents: 10_000, netCents: 9_901, feeCents: 99 });
    expect(await balance(merchant)).toEqual({ available: 891, held: 0, reserved: 0, withdrawable: 891 });
  });

  it('answers 409, changing nothing, over the hold, over what is left of the charge, without balance, or twice', async () => {
    const { merchant, chargeId } = await fundedMerchant(10_000);
    const first = await placed(merchant, { amountCents: 4_000, reason: 'med', transactionId: chargeId });
    expect((await chargeback(merchant, first)).response.status).toBe(200);
    const tooMuch = { error: 'O chargeback excede a retenção ou o valor da cobrança.' };

    const hold = await placed(merchant, { amountCents: 7_000, reason: 'med', transactionId: chargeId });
    const before = await balance(merchant);
    expect(before).toEqual({ available: 6_000, held: 7_000, reserved: 0, withdrawable: 0 });
    const overHold = await chargeback(merchant, hold, 7_001);
    expect(overHold.response.status).toBe(409);
    expect(overHold.error).toEqual(tooMuch);
    const overCharge = await chargeback(merchant, hold); // 4_000 + 7_000 > 10_000
    expect(overCharge.response.status).toBe(409);
    expect(overCharge.error).toEqual({ error: 'O chargeback excede o que a cobrança ainda pode devolver: restam R$ 60,00, contando as devoluções em andamento.' });
    expect(await balance(merchant)).toEqual(before);

    // The money left the account before the chargeback: the available balance does not cover it.
    await release(merchant, hold);
    const spent = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 5_000, pixKey: '52998224725', pixKeyType: 'cpf' } });
    expect(spent.response.status).toBe(201);
    const late = await placed(merchant, { amountCents: 3_000, reason: 'protest', transactionId: chargeId });
    expect(await balance(merchant)).toEqual({ available: 900, held: 3_000, reserved: 5_100, withdrawable: 0 });
    const uncovered = await chargeback(merchant, late);
    expect(uncovered.response.status).toBe(409);
    expect(uncovered.error).toEqual({ error: 'O saldo disponível não cobre o chargeback.' });
    expect((await chargeback(merchant, late, 900)).data).toMatchObject({ status: 'partially_refunded', refundedCents: 4_900 });
    expect(await balance(merchant)).toEqual({ available: 0, held: 0, reserved: 5_100, withdrawable: 0 });
    const again = await chargeback(merchant, late, 100);
    expect(again.response.status).toBe(409);
    expect(again.error).toEqual({ error: 'A retenção já foi liberada.' });
    const read = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: chargeId } } });
    expect(read.data).toMatchObject({ status: 'partially_refunded', refundedCents: 4_900 });
  });

  it('refuses to release a hold while its chargeback is being asked of the provider; the chargeback then ends it', async () => {
    const { merchant, chargeId } = await fundedMerchant(10_000);
    const hold = await placed(merchant, { amountCents: 6_000, reason: 'med', transactionId: chargeId });
    const sandbox = gateway.deps.sandbox!;
    const original = sandbox.devolve.bind(sandbox);
    let atProvider: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (atProvider = resolve));
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    sandbox.devolve = async (input) => {
      atProvider();
      await answered;
      return original(input);
    };
    try {
      const taking = chargeback(merchant, hold, 3_000);
      await reached;
      const refused = await release(merchant, hold);
      expect(refused.response.status).toBe(409);
      expect(refused.error).toEqual({ error: 'Um chargeback desta retenção já está em andamento no provedor.' });
      answer();
      expect((await taking).data).toMatchObject({ status: 'partially_refunded', refundedCents: 3_000 });
    } finally {
      sandbox.devolve = original;
    }
    expect(await balance(merchant)).toEqual({ available: 7_000, held: 0, reserved: 0, withdrawable: 7_000 });
    const again = await release(merchant, hold);
    expect(again.error).toEqual({ error: 'A retenção já foi liberada.' });
  });

  it('never takes money reserved for a withdrawal in flight at the PSP', async () => {
    const { merchant, chargeId } = await fundedMerchant(10_000);
    const original = gateway.provider.sendWithdrawal.bind(gateway.provider);
    let letGo: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    let arrived: () => void = () => undefined;
    const atProvider = new Promise<void>((resolve) => (arrived = resolve));
    gateway.provider.sendWithdrawal = async (input: SendWithdrawalInput) => {
      arrived();
      await gate;
      return original(input);
    };
    try {
      const withdrawal = merchant.client.POST('/v1/withdraw', { body: { amountCents: 9_900, pixKey: '52998224725', pixKeyType: 'cpf' } });
      await atProvider;
      expect(await balance(merchant)).toEqual({ available: 0, held: 0, reserved: 10_000, withdrawable: 0 });
      // MED opened while the whole balance is on its way out: the hold may be placed, the chargeback must wait.
      const holdId = await placed(merchant, { amountCents: 5_000, reason: 'med', transactionId: chargeId });
      const result = await chargeback(merchant, holdId);
      expect(result.response.status).toBe(409);
      expect(result.error).toEqual({ error: 'O saldo disponível não cobre o chargeback.' });
      letGo();
      expect((await withdrawal).response.status).toBe(201);
      expect(await balance(merchant)).toEqual({ available: 0, held: 5_000, reserved: 10_000, withdrawable: 0 });
    } finally {
      letGo();
      gateway.provider.sendWithdrawal = original;
    }
  });
});
