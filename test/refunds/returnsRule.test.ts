import { describe, expect, it } from 'vitest';
import { createMerchant, ledgerIsConsistent, relaxLimits, useGateway, type MerchantFixture } from '../support/gateway.ts';
import {
  admin,
  balanceOf,
  chargeOf,
  chargeback,
  devolveOutside,
  eventsOf,
  paidCharge,
  placeHold,
  providerForcesMed,
  refundOf,
  releaseHold,
  settleRefund,
} from '../support/money.ts';

/**
 * Issue 32, item 1: what a charge can give back, one rule enforced by the database. Confirmed refunds +
 * refunds in flight + chargebacks (and devoluções made outside the API) never pass the charge's amount,
 * whoever asks and in whatever order: a lost race is the contract's 409/422 with its message, never a 5xx,
 * never money paid twice. Each scenario is one an adversary over-refunded with before the fix.
 */
const gateway = useGateway();

async function merchant(): Promise<MerchantFixture> {
  const shop = await createMerchant(gateway);
  await relaxLimits(gateway, shop.accountId);
  return shop;
}

const remainingText = (cents: string) => `O chargeback excede o que a cobrança ainda pode devolver: restam R$ ${cents}, contando as devoluções em andamento.`;

describe('a chargeback counts the refunds in flight', () => {
  it('refuses a chargeback of the rest while a full refund is in flight; the refund then settles once', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const refund = await refundOf(gateway, shop, charge.id, {});
    expect(refund.status).toBe(201);
    expect(refund.body).toMatchObject({ amountCents: 10_000, status: 'processing' });
    const hold = await placeHold(gateway, shop, { amountCents: 10_000, reason: 'med', transactionId: charge.id });

    const refused = await chargeback(gateway, shop, hold);
    expect(refused).toEqual({ status: 409, body: { error: remainingText('0,00') } });

    expect((await settleRefund(gateway, String(refund.body.refundId))).status).toBe(200);
    expect(await chargeOf(shop, charge.id)).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
    // Available: 10 000 credited (no fee), 10 000 refunded once. The hold still stands over nothing left.
    expect(await balanceOf(gateway, shop)).toMatchObject({ available: 0, held: 10_000 });
    const returns = (await eventsOf(gateway, shop)).filter((event) => event.event === 'transaction.refunded' || event.event === 'transaction.chargeback');
    expect(returns.map((event) => event.event)).toEqual(['transaction.refunded']);
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });

  it('a full refund raced against a chargeback, 10 rounds: one wins each round, never more than the charge', async () => {
    const shop = await merchant();
    // Money beyond the charge's own, so the refund is covered while the hold keeps the charge's amount.
    await paidCharge(gateway, shop, 10_000);
    for (let round = 0; round < 10; round += 1) {
      const charge = await paidCharge(gateway, shop, 10_000);
      const hold = await placeHold(gateway, shop, { amountCents: 10_000, reason: 'dispute', transactionId: charge.id });
      const [refund, taken] = await Promise.all([refundOf(gateway, shop, charge.id, {}), chargeback(gateway, shop, hold)]);
      const won = [refund.status === 201, taken.status === 200].filter(Boolean).length;
      expect(won, JSON.stringify({ refund, taken })).toBe(1);
      if (refund.status === 201) {
        expect(taken.status).toBe(409);
        expect(taken.body.error).toMatch(/^O chargeback excede o que a cobrança ainda pode devolver|^Esta cobrança não pode receber chargeback/);
        expect((await settleRefund(gateway, String(refund.body.refundId))).status).toBe(200);
        // The dispute's hold outlives the refund: released, as an operator would once the case is moot.
        expect((await releaseHold(gateway, shop, hold)).status).toBe(200);
      } else {
        // Refused either on the amount (the chargeback holds the whole charge while in flight) or on the
        // status (the chargeback already settled and the charge reads refunded): both leave nothing doubled.
        expect(refund.status).toBe(422);
        expect([
          'Valor acima do disponível para devolução desta cobrança: restam R$ 0,00 (0 centavos).',
          "Cobrança com status 'refunded' não pode ser devolvida: apenas cobranças pagas (paid ou partially_refunded).",
        ]).toContain(refund.body.error);
      }
      expect(await chargeOf(shop, charge.id)).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
    }
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });

  it("a refund's settlement raced against a chargeback: the chargeback is refused, the refund counted once", async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const refund = await refundOf(gateway, shop, charge.id, {});
    const hold = await placeHold(gateway, shop, { amountCents: 10_000, reason: 'protest', transactionId: charge.id });
    const [settled, taken] = await Promise.all([settleRefund(gateway, String(refund.body.refundId)), chargeback(gateway, shop, hold)]);
    expect(settled.status).toBe(200);
    expect(taken.status).toBe(409);
    expect(await chargeOf(shop, charge.id)).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
  });
});

describe("the sandbox's devolução outside the API counts the refunds in flight", () => {
  it('refuses more than what the refund in flight leaves, takes what it leaves', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const refund = await refundOf(gateway, shop, charge.id, { amountCents: 6_000 });
    expect(refund.status).toBe(201);
    expect(await devolveOutside(gateway, charge.id, 5_000)).toEqual({ status: 409, body: { error: 'A devolução excede o valor da cobrança.' } });
    const outside = await devolveOutside(gateway, charge.id, 4_000);
    expect(outside.status).toBe(200);
    expect(outside.body).toMatchObject({ status: 'partially_refunded', refundedCents: 4_000 });
    expect((await settleRefund(gateway, String(refund.body.refundId))).status).toBe(200);
    expect(await chargeOf(shop, charge.id)).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
    // The merchant paid 10 000 back, once.
    expect(await balanceOf(gateway, shop)).toMatchObject({ available: 0 });
  });

  it('an API refund in flight against the sandbox devolução at once: together never more than the charge', async () => {
    const shop = await merchant();
    for (let round = 0; round < 5; round += 1) {
      const charge = await paidCharge(gateway, shop, 10_000);
      const [refund, outside] = await Promise.all([refundOf(gateway, shop, charge.id, {}), devolveOutside(gateway, charge.id, 10_000)]);
      expect([refund.status, outside.status].sort()).toEqual(refund.status === 201 ? [201, 409] : [200, 422]);
      if (refund.status === 201) expect((await settleRefund(gateway, String(refund.body.refundId))).status).toBe(200);
      expect(await chargeOf(shop, charge.id)).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
    }
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });
});

describe('a provider that confirms a refund a chargeback already took', () => {
  it('books the second payment to suspense as a break, never debiting the merchant twice; settled by a write-off', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const refund = await refundOf(gateway, shop, charge.id, {});
    expect(refund.status).toBe(201);
    // The payer's bank takes the whole Pix back under MED while the refund is in flight (the provider's fault).
    await providerForcesMed(gateway, charge.endToEndId, 10_000);
    expect(await chargeOf(shop, charge.id)).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
    expect(await balanceOf(gateway, shop)).toMatchObject({ available: 0, reserved: 10_000 });

    // Then it confirms the refund too: the payer is repaid twice, by the provider.
    expect((await settleRefund(gateway, String(refund.body.refundId))).status).toBe(200);
    const read = await chargeOf(shop, charge.id);
    expect(read).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
    expect(read.refunds?.[0]).toMatchObject({ refundId: refund.body.refundId, status: 'refunded' });
    // The merchant's reservation came back: it paid 10 000 once (the chargeback).
    expect(await balanceOf(gateway, shop)).toMatchObject({ available: 10_000, reserved: 0 });
    const breaks = await admin.get(gateway, '/reconciliation/breaks?status=open&kind=refund_beyond_charge');
    expect(breaks.body.breaks).toEqual([
      expect.objectContaining({ kind: 'refund_beyond_charge', refundId: refund.body.refundId, transactionId: charge.id, suspenseCents: -10_000, status: 'open' }),
    ]);
    // Suspense is explained by the open break: the check is green.
    expect(await ledgerIsConsistent(gateway)).toEqual([]);

    const breakId = String((breaks.body.breaks as { breakId: string }[])[0]?.breakId);
    expect(await admin.post(gateway, `/reconciliation/breaks/${breakId}/resolve`, { note: 'Nota sem acerto.' })).toMatchObject({ status: 400, body: { field: 'settlement' } });
    const resolved = await admin.post(gateway, `/reconciliation/breaks/${breakId}/resolve`, { note: 'O provedor pagou duas vezes; cobrado do provedor em disputa.', settlement: 'write_off' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', settlement: 'write_off' });
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });
});
