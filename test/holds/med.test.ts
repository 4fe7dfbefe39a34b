import { describe, expect, it } from 'vitest';
import { createMerchant, ledgerIsConsistent, relaxLimits, useGateway, type MerchantFixture } from '../support/gateway.ts';
import { admin, balanceOf, chargeOf, chargeback, eventsOf, paidCharge, placeHold } from '../support/money.ts';

/**
 * Issue 32, item 6: MED on real rails, on whichever provider the gateway runs (the simulation here; the Efí
 * adapter against the fake provider in `npm run test:psp`). The provider's infraction becomes a hold `med` on
 * the charge naming it and its deadline; the provider's block, the merchant's defence and the outcome follow;
 * a MED devolução the provider makes is the charge's chargeback. Never left for an operator.
 */
const gateway = useGateway();

async function merchant(): Promise<MerchantFixture> {
  const shop = await createMerchant(gateway);
  await relaxLimits(gateway, shop.accountId);
  return shop;
}

const openInfraction = async (chargeId: string, body: Record<string, unknown> = {}) => {
  const opened = await admin.post(gateway, `/sandbox/charges/${chargeId}/infractions`, body);
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  return opened.body as { infractionId: string; holdId: string; status: string; deadlineAt: number };
};
const infractionEvents = async (shop: MerchantFixture, chargeId: string) =>
  (await eventsOf(gateway, shop)).filter((event) => event.transactionId === chargeId).map((event) => event.event);

describe('an infraction the provider reports', () => {
  it('places a hold med naming it and its deadline, announced by transaction.infraction, then transaction.blocked once', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const infraction = await openInfraction(charge.id, { amountCents: 6_000, reason: 'Golpe do falso parente', situation: 'golpe' });
    expect(infraction).toMatchObject({ status: 'open', amountCents: 6_000, transactionId: charge.id, accountId: shop.accountId, holdId: expect.stringMatching(/^hold_/) });
    const holds = await admin.get(gateway, `/accounts/${shop.accountId}/holds`);
    expect(holds.body.holds).toEqual([expect.objectContaining({ holdId: infraction.holdId, reason: 'med', amountCents: 6_000, status: 'active', infractionId: infraction.infractionId, deadlineAt: infraction.deadlineAt })]);
    expect(await balanceOf(gateway, shop)).toMatchObject({ available: 10_000, held: 6_000, withdrawable: 4_000 });
    const opened = (await eventsOf(gateway, shop)).find((event) => event.event === 'transaction.infraction');
    expect(opened).toMatchObject({ hold: { holdId: infraction.holdId, reason: 'med', amountCents: 6_000, infractionId: infraction.infractionId, deadlineAt: infraction.deadlineAt } });

    const blocked = await admin.post(gateway, `/sandbox/infractions/${infraction.infractionId}/block`);
    expect(blocked.body).toMatchObject({ status: 'open', blockedAt: expect.any(Number) });
    expect((await admin.post(gateway, '/infractions/follow')).status).toBe(200);
    expect((await infractionEvents(shop, charge.id)).sort()).toEqual(['transaction.blocked', 'transaction.infraction', 'transaction.paid']);
  });

  it('takes the merchant defence once; refused by the provider, the hold is released and nothing is charged back', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const infraction = await openInfraction(charge.id);
    const defended = await admin.post(gateway, `/infractions/${infraction.infractionId}/defence`, { analysis: 'rejeitado', text: 'O cliente confirmou a compra e recebeu o produto.' });
    expect(defended.status).toBe(200);
    expect(defended.body).toMatchObject({ status: 'defending', providerStatus: 'EM_DEFESA', defence: { analysis: 'rejeitado', text: 'O cliente confirmou a compra e recebeu o produto.' } });
    expect(await admin.post(gateway, `/infractions/${infraction.infractionId}/defence`, { analysis: 'rejeitado', text: 'De novo.' })).toEqual({
      status: 409,
      body: { error: 'A defesa desta infração MED já foi enviada ao provedor.' },
    });
    const refused = await admin.post(gateway, `/sandbox/infractions/${infraction.infractionId}/close`, { status: 'REJEITADA' });
    expect(refused.body).toMatchObject({ status: 'rejected', providerStatus: 'REJEITADA', closedAt: expect.any(Number) });
    expect(await balanceOf(gateway, shop)).toMatchObject({ available: 10_000, held: 0, withdrawable: 10_000 });
    expect(await chargeOf(shop, charge.id)).toMatchObject({ status: 'paid' });
    expect(await admin.post(gateway, `/sandbox/infractions/${infraction.infractionId}/close`, { status: 'ACEITA' })).toMatchObject({ status: 409 });
  });

  it('accepted by the provider: its MED devolução is the chargeback (transaction.chargeback), the hold released', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const infraction = await openInfraction(charge.id, { amountCents: 7_000 });
    await admin.post(gateway, `/sandbox/infractions/${infraction.infractionId}/block`);
    const accepted = await admin.post(gateway, `/sandbox/infractions/${infraction.infractionId}/close`, { status: 'ACEITA' });
    expect(accepted.body).toMatchObject({ status: 'accepted', providerStatus: 'ACEITA' });
    expect(await chargeOf(shop, charge.id)).toMatchObject({ status: 'partially_refunded', refundedCents: 7_000 });
    expect(await balanceOf(gateway, shop)).toMatchObject({ available: 3_000, held: 0, withdrawable: 3_000 });
    const chargebacks = (await eventsOf(gateway, shop)).filter((event) => event.event === 'transaction.chargeback');
    expect(chargebacks).toEqual([expect.objectContaining({ transactionId: charge.id, chargebackCents: 7_000, refundedCents: 7_000, status: 'partially_refunded' })]);
    // Following again books nothing twice.
    expect((await admin.post(gateway, '/infractions/follow')).status).toBe(200);
    expect(await chargeOf(shop, charge.id)).toMatchObject({ refundedCents: 7_000 });
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });

  it("the merchant agreeing ('aceito') accepts it at once: the money goes back", async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const infraction = await openInfraction(charge.id);
    const agreed = await admin.post(gateway, `/infractions/${infraction.infractionId}/defence`, { analysis: 'aceito', text: 'O lojista reconhece a fraude.' });
    expect(agreed.body).toMatchObject({ status: 'accepted' });
    expect(await chargeOf(shop, charge.id)).toMatchObject({ status: 'refunded', refundedCents: 10_000 });
  });

  it('an infraction refused for a malformed defence answers 400 in Portuguese, 404 for an unknown one', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 2_000);
    const infraction = await openInfraction(charge.id);
    const bad = await admin.post(gateway, `/infractions/${infraction.infractionId}/defence`, { analysis: 'talvez', text: 'x' });
    expect(bad.status).toBe(400);
    expect(String(bad.body.error)).toMatch(/^Posição do lojista|^Justificativa/);
    expect((await admin.post(gateway, '/infractions/99999999/defence', { analysis: 'rejeitado', text: 'Sem infração.' })).body).toEqual({ error: 'Infração MED não encontrada.' });
  });
});

describe('a back-office chargeback on real rails', () => {
  it('is recorded against the MED devolução the provider made, never as a local debit', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 10_000);
    const hold = await placeHold(gateway, shop, { amountCents: 4_000, reason: 'dispute', transactionId: charge.id });
    const sandbox = gateway.deps.sandbox;
    if (!sandbox) throw new Error('a sandbox is needed to play the provider');
    // Without a sandbox (a real provider), nothing is debited while the provider has made no MED devolução.
    gateway.deps.sandbox = undefined;
    try {
      expect(await chargeback(gateway, shop, hold)).toEqual({
        status: 409,
        body: { error: 'O provedor ainda não fez uma devolução MED desta cobrança: no provedor real, o chargeback é registrado a partir da devolução que ele fez.' },
      });
      expect(await balanceOf(gateway, shop)).toMatchObject({ available: 10_000, held: 4_000 });
      // The provider makes it, and its callback is lost: the chargeback records that devolução.
      if (gateway.efi) await gateway.efi.fake.devolve(charge.endToEndId, { valor: '40.00', natureza: 'MED_OPERACIONAL', silent: true });
      else expect(await sandbox.devolve({ endToEndId: charge.endToEndId, amountCents: 4_000, nature: 'MED_OPERACIONAL', id: 'medreal1' })).toBe(true);
      const recorded = await chargeback(gateway, shop, hold);
      expect(recorded.status).toBe(200);
      expect(recorded.body).toMatchObject({ status: 'partially_refunded', refundedCents: 4_000 });
    } finally {
      gateway.deps.sandbox = sandbox;
    }
    expect(await balanceOf(gateway, shop)).toMatchObject({ available: 6_000, held: 0 });
  });
});

describe("an infraction's deadline", () => {
  it('refuses a defence once the deadline the provider gave has passed (409), sending nothing', async () => {
    const shop = await merchant();
    const charge = await paidCharge(gateway, shop, 5_000);
    const infraction = await openInfraction(charge.id);
    // Last in the file: the clock moves past the deadline.
    gateway.clock.advance(infraction.deadlineAt - gateway.clock.now() + 1_000);
    expect(await admin.post(gateway, `/infractions/${infraction.infractionId}/defence`, { analysis: 'rejeitado', text: 'Tarde demais para isto.' })).toEqual({
      status: 409,
      body: { error: 'O prazo para a defesa desta infração MED terminou.' },
    });
    const listed = await admin.get(gateway, `/infractions?accountId=${shop.accountId}`);
    expect((listed.body.infractions as Record<string, unknown>[])[0]).toMatchObject({ infractionId: infraction.infractionId, status: 'open' });
    expect((listed.body.infractions as Record<string, unknown>[])[0]).not.toHaveProperty('defence');
  });
});
