import { beforeAll, describe, expect, it } from 'vitest';
import { expireDueCharges } from '../../src/jobs/expireCharges.ts';
import { reconcileWithdrawals } from '../../src/jobs/reconcileWithdrawals.ts';
import { idEnvioFor, txidFor } from '../../src/provider/efi/efi.mapping.ts';
import { createMerchant, fund, railsOf, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';
import { eventsOf } from '../support/money.ts';

/**
 * Issue 32 on real rails (PSP=efi against the fake provider, which answers as Efí's SDK types describe):
 * a payout the provider reports made is booked whatever shape its read has (item 4), and a charge past its
 * expiry expires whatever the provider answers to its removal (item 5).
 */
const gateway = useGateway({ psp: 'efi' });
const HOLDER_CPF = '52998224725';
let merchant: MerchantFixture;
let counter = 0;

const efi = () => railsOf(gateway);
const fake = () => efi().fake;

async function read(id: string) {
  const { data } = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } });
  if (!data) throw new Error(`transaction ${id} not readable`);
  return data;
}

beforeAll(async () => {
  merchant = await createMerchant(gateway, { legalName: 'Loja do Titular Ltda' });
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 500_000);
});

describe('payouts settle on the provider word, whatever its read of the receiver carries', () => {
  const withdraw = async () => {
    const created = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 1_500, pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef: `saque-leitura-${++counter}` } });
    expect(created.response.status).toBe(201);
    return created.data!.transactionId;
  };

  it.each([
    ['identificacao and contaBanco (both)', 'both', { name: expect.any(String), document: HOLDER_CPF, bankAccount: { ispb: expect.stringMatching(/^[0-9A-Z]{8}$/), branch: expect.any(String), account: expect.any(String) } }],
    ['identificacao only (name and document, no bank)', 'identificacao', { document: HOLDER_CPF, documentType: 'cpf', bankAccount: { ispb: '', branch: '', account: '' } }],
    ['contaBanco only (the account, the ISPB asked for)', 'contaBanco', { document: HOLDER_CPF, bankAccount: { ispb: expect.stringMatching(/^[0-9A-Z]{8}$/) } }],
    ['neither: what it was sent to, the bank left empty', 'none', { name: 'Loja do Titular Ltda', document: HOLDER_CPF, documentType: 'cpf', bankAccount: { ispb: '', branch: '', account: '' } }],
  ] as const)('REALIZADO by callback with %s: paid, transfer.paid, the beneficiary as known', async (_label, shape, beneficiary) => {
    fake().setSendReadShape(shape);
    try {
      const id = await withdraw();
      await fake().settleEnvio(idEnvioFor(id));
      await efi().settled();
      const paid = await read(id);
      expect(paid).toMatchObject({ status: 'paid', beneficiary });
      const events = (await eventsOf(gateway, merchant)).filter((event) => event.transactionId === id).map((event) => event.event);
      expect(events).toContain('transfer.paid');
    } finally {
      fake().setSendReadShape('both');
    }
  });

  it('REALIZADO whose callback never comes (dropped, then given up): the read by idEnvio books it paid', async () => {
    fake().setSendReadShape('identificacao');
    try {
      const id = await withdraw();
      fake().fault({ operation: 'callback', mode: 'error', status: 500, count: 20 });
      await fake().settleEnvio(idEnvioFor(id));
      await efi().settled();
      fake().clearFaults();
      expect((await read(id)).status).toBe('processing');
      gateway.clock.advance(10_000);
      await reconcileWithdrawals(gateway.deps);
      expect(await read(id)).toMatchObject({ status: 'paid', beneficiary: { document: HOLDER_CPF } });
    } finally {
      fake().setSendReadShape('both');
    }
  });
});

describe('a charge past its expiry expires whatever the provider answers to its removal', () => {
  async function charge(amountCents: number) {
    const externalRef = `pedido-expira-${++counter}`;
    const created = await merchant.client.POST('/v1/pix', { body: { amountCents, externalRef, customer: validCustomer, expiresInDays: 1 } });
    if (!created.data) throw new Error(JSON.stringify(created.error));
    return { id: created.data.transactionId, txid: txidFor({ transactionId: created.data.transactionId, accountId: merchant.accountId, externalRef }) };
  }

  it('the provider failing every removal: expired at its expiresAt all the same, and a Pix reported after that is left to an operator', async () => {
    const unpaid = await charge(1_100);
    const paidInTime = await charge(1_200);
    // Paid just before its expiry; the callback is held (as a slow provider's would be).
    fake().callbacks.hold();
    await fake().pay(paidInTime.txid);
    gateway.clock.advance(86_400_000 + 1_000);
    // The provider answers nothing useful to the removals (and to the reads that would find the payment).
    fake().fault({ operation: 'cob.patch', mode: 'error', status: 503, count: 50 });
    fake().fault({ operation: 'cob.get', mode: 'error', status: 503, count: 50 });
    try {
      expect(await expireDueCharges(gateway.deps)).toBeGreaterThanOrEqual(2);
    } finally {
      fake().clearFaults();
    }
    expect((await read(unpaid.id)).status).toBe('expired');
    expect((await read(paidInTime.id)).status).toBe('expired');
    // The held payment arrives now: not credited to an expired charge, recorded for an operator.
    await fake().callbacks.release();
    await efi().settled();
    expect((await read(paidInTime.id)).status).toBe('expired');
    const { data } = await gateway.admin.GET('/admin/v1/provider/unmatched-pix');
    const item = data?.items.find((unmatched) => unmatched.transactionId === paidInTime.id);
    expect(item).toMatchObject({ reason: 'charge_not_payable', amountCents: 1_200 });
    // An operator returns it to the payer (a devolução at the provider) and closes it: the books agree again.
    await fake().devolve(item!.endToEndId, { valor: '12.00', natureza: 'ORIGINAL', id: 'devolvidomanual1' });
    await efi().settled();
    const after = await gateway.admin.GET('/admin/v1/provider/unmatched-pix');
    expect(after.data?.items.find((unmatched) => unmatched.endToEndId === item!.endToEndId)).toBeUndefined();
  });
});
