import { describe, expect, it } from 'vitest';
import { ProviderFailure, type SendRefundInput } from '../../src/provider/port.ts';
import { createMerchant, ledgerIsConsistent, relaxLimits, useGateway, type MerchantFixture } from '../support/gateway.ts';
import { chargeOf, paidCharge, refundOf, settleRefund } from '../support/money.ts';

/**
 * Issue 32, item 3: a retry of a refund's externalRef while the first request is still asking the provider
 * waits for its outcome, as a withdrawal's retry does. Before, a retry 3 ms after a first whose provider call
 * then failed was answered `200 processing, idempotent` for a refund that ended `aborted`: not listed on the
 * charge, and a later retry created a different one.
 */
const gateway = useGateway();

async function merchant(): Promise<MerchantFixture> {
  const shop = await createMerchant(gateway);
  await relaxLimits(gateway, shop.accountId);
  return shop;
}

/** Holds the provider's next answer to a refund until `release`, then gives `answer` (a failure, or the real call). */
function gateRefunds(answer: 'fail' | 'pass') {
  const original = gateway.provider.sendRefund.bind(gateway.provider);
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const atProvider = new Promise<void>((resolve) => (reached = resolve));
  let calls = 0;
  gateway.provider.sendRefund = async (input: SendRefundInput) => {
    calls += 1;
    if (calls > 1) return original(input);
    reached();
    await released;
    if (answer === 'fail') throw new ProviderFailure('the provider failed this one');
    return original(input);
  };
  return { atProvider, release, restore: () => (gateway.provider.sendRefund = original), calls: () => calls };
}

describe('a retry of a refund while the first is asking the provider', () => {
  it('waits for it: after the provider failed the first (502), the retry creates the refund anew, once', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const gate = gateRefunds('fail');
    try {
      const first = refundOf(gateway, shop, charge.id, { amountCents: 2_000, externalRef: 'devolucao-pedido-9' });
      await gate.atProvider;
      const retry = refundOf(gateway, shop, charge.id, { amountCents: 2_000, externalRef: 'devolucao-pedido-9' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      gate.release();
      const [original, again] = await Promise.all([first, retry]);
      expect(original).toEqual({ status: 502, body: { error: 'Erro ao processar devolução. O valor não foi debitado.' } });
      expect(again.status).toBe(201);
      expect(again.body).toMatchObject({ amountCents: 2_000, status: 'processing', externalRef: 'devolucao-pedido-9' });
      expect(gate.calls()).toBe(2);
      // The refund the retry made is the charge's, and the externalRef names it from now on.
      const read = await chargeOf(shop, charge.id);
      expect(read.refunds?.map((refund) => refund.refundId)).toEqual([again.body.refundId]);
      const later = await refundOf(gateway, shop, charge.id, { amountCents: 2_000, externalRef: 'devolucao-pedido-9' });
      expect(later.status).toBe(200);
      expect(later.body).toMatchObject({ refundId: again.body.refundId, idempotent: true });
      expect((await settleRefund(gateway, String(again.body.refundId))).status).toBe(200);
    } finally {
      gate.restore();
    }
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });

  it('waits for it: after the provider took the first (201), the retry answers it (200, idempotent), the same refund', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const gate = gateRefunds('pass');
    try {
      const first = refundOf(gateway, shop, charge.id, { amountCents: 3_000, externalRef: 'devolucao-pedido-10' });
      await gate.atProvider;
      const retry = refundOf(gateway, shop, charge.id, { amountCents: 3_000, externalRef: 'devolucao-pedido-10' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      gate.release();
      const [original, again] = await Promise.all([first, retry]);
      expect(original.status).toBe(201);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ refundId: original.body.refundId, status: 'processing', idempotent: true });
      expect(gate.calls()).toBe(1);
      expect((await settleRefund(gateway, String(original.body.refundId))).status).toBe(200);
      expect(await chargeOf(shop, charge.id)).toMatchObject({ status: 'partially_refunded', refundedCents: 3_000 });
    } finally {
      gate.restore();
    }
  });
});
