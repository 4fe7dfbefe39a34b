import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { authOf, invitePerson, nextTotp, rawCall, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { useGateway, validCustomer } from '../support/gateway.ts';
import { admin } from '../support/money.ts';

/**
 * Issue 32, item 6, in the dashboard: the account's MED infractions (open with their deadline, defended,
 * decided) and the merchant's defence, sent with the authenticator's code, once, to the provider; another
 * merchant's infraction is not found; the audit log names who sent it.
 */
const gateway = useGateway();
let owner: DashboardPerson;
let apiKey: string;

beforeAll(async () => {
  owner = await signUpOwner(gateway, { totp: true });
  const key = await owner.browser.api.POST('/dashboard/api/v1/api-keys', { body: { label: 'loja' } });
  apiKey = key.data?.apiKey ?? '';
});

async function infractionOnPaidCharge(amountCents: number): Promise<{ chargeId: string; infractionId: string }> {
  const created = await gateway.as(apiKey).POST('/v1/pix', { body: { amountCents, customer: validCustomer } });
  const chargeId = created.data?.transactionId ?? '';
  const paid = await owner.browser.api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', { params: { path: { transactionId: chargeId, action: 'pay' } } });
  expect(paid.response.status).toBe(200);
  const opened = await admin.post(gateway, `/sandbox/charges/${chargeId}/infractions`, { reason: 'Transação não reconhecida pelo pagador' });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  return { chargeId, infractionId: String(opened.body.infractionId) };
}

const defencePath = (id: string) => `/dashboard/api/v1/infractions/${id}/defence`;
const listed = async (person: DashboardPerson) => (await rawCall(gateway, { method: 'GET', path: '/dashboard/api/v1/infractions' }, authOf(person))).body as {
  infractions: Record<string, unknown>[];
  count: number;
};

describe('MED infractions in the dashboard', () => {
  it('lists the account’s infractions with their deadline; the defence goes to the provider once, with the code', async () => {
    const { chargeId, infractionId } = await infractionOnPaidCharge(10_000);
    const before = await listed(owner);
    expect(before.infractions[0]).toMatchObject({
      infractionId,
      transactionId: chargeId,
      amountCents: 10_000,
      status: 'open',
      reason: 'Transação não reconhecida pelo pagador',
      deadlineAt: expect.any(Number),
      canDefend: true,
    });
    expect(before.infractions[0]).not.toHaveProperty('holdId');

    const text = 'O cliente confirmou a compra; segue o comprovante de entrega.';
    const wrongCode = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'rejeitado', text, totpCode: '000000' } }, authOf(owner));
    expect(wrongCode).toEqual({ status: 400, body: { error: messages.invalidTotpCode, field: 'totpCode' } });
    const blank = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'rejeitado', text: '     ', totpCode: nextTotp(gateway, owner) } }, authOf(owner));
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ field: 'text' });
    const badAnalysis = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'talvez', text, totpCode: nextTotp(gateway, owner) } }, authOf(owner));
    expect(badAnalysis.status).toBe(400);
    expect(badAnalysis.body).toMatchObject({ field: 'analysis' });

    const viewer = await invitePerson(gateway, owner, 'viewer');
    expect((await listed(viewer)).count).toBe(before.count);
    const refused = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'rejeitado', text, totpCode: '123456' } }, authOf(viewer));
    expect(refused.status).toBe(403);

    const sent = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'rejeitado', text: `  ${text}  `, totpCode: nextTotp(gateway, owner) } }, authOf(owner));
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ infractionId, status: 'defending', canDefend: false, defence: { analysis: 'rejeitado', text, sentAt: expect.any(Number) } });
    const again = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'aceito', text, totpCode: nextTotp(gateway, owner) } }, authOf(owner));
    expect(again).toEqual({ status: 409, body: { error: messages.infractionAlreadyDefended } });

    // The back office sees who sent it; the audit log names the user.
    const inBackOffice = await admin.get(gateway, `/infractions?accountId=${owner.accountId}`);
    expect((inBackOffice.body.infractions as Record<string, unknown>[])[0]).toMatchObject({ infractionId, defence: { by: owner.email } });
    const audit = await admin.get(gateway, `/audit-log?accountId=${owner.accountId}&action=infraction.defended`);
    expect(audit.status, JSON.stringify(audit.body)).toBe(200);
    expect(JSON.stringify(audit.body)).toContain(infractionId);
  });

  it('the merchant agreeing gives the money back: the charge is charged back, the hold ended', async () => {
    const { chargeId, infractionId } = await infractionOnPaidCharge(7_000);
    const agreed = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'aceito', text: 'Concordo com a devolução.', totpCode: nextTotp(gateway, owner) } }, authOf(owner));
    expect(agreed.status).toBe(200);
    expect(agreed.body).toMatchObject({ status: 'accepted', canDefend: false });
    const charge = await gateway.as(apiKey).GET('/v1/transactions/{id}', { params: { path: { id: chargeId } } });
    expect(charge.data).toMatchObject({ status: 'refunded', refundedCents: 7_000 });
    const closed = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'rejeitado', text: 'Mudei de ideia.', totpCode: nextTotp(gateway, owner) } }, authOf(owner));
    expect(closed).toEqual({ status: 409, body: { error: 'A defesa desta infração MED já foi enviada ao provedor.' } });
  });

  it("another merchant's infraction is not found; a closed one says how it ended; two-factor off is 409", async () => {
    const { infractionId } = await infractionOnPaidCharge(3_000);
    const other = await signUpOwner(gateway, { totp: true });
    expect((await listed(other)).count).toBe(0);
    const foreign = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'rejeitado', text: 'Não é minha.', totpCode: nextTotp(gateway, other) } }, authOf(other));
    expect(foreign).toEqual({ status: 404, body: { error: messages.infractionNotFound } });

    expect((await admin.post(gateway, `/sandbox/infractions/${infractionId}/close`, { status: 'CANCELADA_EFI' })).status).toBe(200);
    const cancelled = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'rejeitado', text: 'Tarde demais.', totpCode: nextTotp(gateway, owner) } }, authOf(owner));
    expect(cancelled).toEqual({ status: 409, body: { error: 'Esta infração MED não aceita mais defesa: ela foi cancelada.' } });

    const plain = await signUpOwner(gateway);
    const noTwoFactor = await rawCall(gateway, { method: 'POST', path: defencePath(infractionId), body: { analysis: 'rejeitado', text: 'Sem código.', totpCode: '123456' } }, authOf(plain));
    expect(noTwoFactor.status).toBe(409);
  });
});
