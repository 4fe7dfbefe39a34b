import { beforeAll, describe, expect, it } from 'vitest';
import { idEnvioFor, txidFor } from '../../src/provider/efi/efi.mapping.ts';
import { createMerchant, fund, ledgerIsConsistent, railsOf, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';
import { railsProfile } from '../support/efiProvider.ts';
import { admin, balanceOf, chargeOf, paidCharge } from '../support/money.ts';
import { messages } from '../../src/messages/merchant.ts';

/**
 * Issue 32, item 7: the books compared with the bank. The fake provider produces each kind of difference on
 * demand (a Pix received silently, a Pix or a send it changes or forgets, a devolução it makes silently, a
 * fee it charges); a run reports each once (a second run only sees it again, the metric counts it once), and
 * an operator resolves it with a note, settling its money where it holds some. The suite ends with the
 * ledger check and a full reconciliation green.
 *
 * On PSP=apipix (issue 35: `npm run test:psp` runs this file on both profiles) the standard has no send API
 * and no balance read: the sends' and the balance's cases are Efí's, and in their place the run is shown to
 * compare no balance and a withdrawal to be refused before any money moves.
 */
const gateway = useGateway({ psp: 'efi' });
const sends = railsProfile() === 'efi';
const HOLDER_CPF = '52998224725';
let merchant: MerchantFixture;
let counter = 0;

const fake = () => railsOf(gateway).fake;
const settled = () => railsOf(gateway).settled();

interface Break {
  breakId: string;
  kind: string;
  key: string;
  status: string;
  seenCount: number;
  balanceCents: number;
  suspenseCents: number;
  transactionId?: string;
  endToEndId?: string;
}

async function run(): Promise<Break[]> {
  const answer = await admin.post(gateway, '/reconciliation/runs', {});
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.breaks as Break[]).filter((found) => found.status === 'open');
}

async function metric(kind: string): Promise<number> {
  const text = await (await fetch(`${gateway.adminBaseUrl}/metrics`)).text();
  return Number(new RegExp(`^pixgate_reconciliation_breaks_total\\{kind="${kind}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

async function resolve(found: Break, body: Record<string, unknown>) {
  const answer = await admin.post(gateway, `/reconciliation/breaks/${found.breakId}/resolve`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/**
 * Exactly one open break of `kind`, reported once however many times the day is reconciled: a second run
 * sees the same one again (its count grows), or no longer sees a difference the first one corrected or
 * explained; it never records another. The metric counts it once.
 */
async function reportedOnce(kind: string): Promise<Break> {
  const before = await metric(kind);
  const first = (await run()).filter((found) => found.kind === kind);
  expect(first, kind).toHaveLength(1);
  const again = (await run()).filter((found) => found.kind === kind);
  for (const found of again) expect([found.breakId, found.seenCount]).toEqual([first[0]!.breakId, 2]);
  expect(await metric(kind)).toBe(before + 1);
  const listed = await admin.get(gateway, `/reconciliation/breaks?kind=${kind}&status=open`);
  expect((listed.body.breaks as Break[]).map((found) => found.breakId)).toEqual([first[0]!.breakId]);
  return first[0]!;
}

async function newCharge(amountCents: number) {
  const externalRef = `pedido-conciliacao-${++counter}`;
  const created = await merchant.client.POST('/v1/pix', { body: { amountCents, externalRef, customer: validCustomer } });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return { id: created.data.transactionId, txid: txidFor({ transactionId: created.data.transactionId, accountId: merchant.accountId, externalRef }) };
}

async function withdrawal(): Promise<string> {
  const created = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef: `saque-conciliacao-${++counter}` } });
  expect(created.response.status).toBe(201);
  return created.data!.transactionId;
}

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 200_000);
  // A clean day first: nothing differs.
  expect(await run()).toEqual([]);
});

describe('the reconciliation of the books with the provider', () => {
  it('received but never credited: reported once, and credited now (the callback that went missing)', async () => {
    const charge = await newCharge(2_500);
    await fake().pay(charge.txid, { silent: true });
    expect((await chargeOf(merchant, charge.id)).status).toBe('pending');
    const found = await reportedOnce('received_not_credited');
    expect(found).toMatchObject({ transactionId: charge.id, balanceCents: 0 });
    expect((await chargeOf(merchant, charge.id)).status).toBe('paid');
    expect(await resolve(found, { note: 'Callback perdido; creditado pela conciliação.' })).toMatchObject({ status: 'resolved' });
  });

  it('credited but unknown to the provider: reported once; charged back to the merchant when resolved', async () => {
    const charge = await paidCharge(gateway, merchant, 3_000);
    const before = (await balanceOf(gateway, merchant)).available as number;
    fake().forgetPix(charge.endToEndId);
    const found = await reportedOnce('credited_not_received');
    expect(found).toMatchObject({ transactionId: charge.id, balanceCents: -3_000 });
    expect(await admin.post(gateway, `/reconciliation/breaks/${found.breakId}/resolve`, { note: 'Sem acerto.' })).toMatchObject({ status: 400, body: { field: 'settlement' } });
    await resolve(found, { note: 'O provedor não recebeu este Pix; estornado do lojista.', settlement: 'charge_merchant' });
    expect((await balanceOf(gateway, merchant)).available).toBe(before - 3_000);
  });

  it('an amount differing: reported once; written off', async () => {
    const charge = await paidCharge(gateway, merchant, 10_000);
    fake().alterPixAmount(charge.endToEndId, '90.00');
    const found = await reportedOnce('amount_differs');
    expect(found).toMatchObject({ key: `pix:${charge.endToEndId}`, balanceCents: -1_000 });
    await resolve(found, { note: 'Tarifa descontada pelo provedor no recebimento.', settlement: 'write_off' });
  });

  it.runIf(sends)('sent but booked failed: reported once, the ledger check knowing it; charged to the merchant', async () => {
    const id = await withdrawal();
    await fake().rejectEnvio(idEnvioFor(id), 'AC03', 'Conta inexistente');
    await settled();
    expect((await chargeOf(merchant, id)).status).toBe('failed');
    fake().alterEnvio(idEnvioFor(id), 'REALIZADO');
    const found = await reportedOnce('sent_booked_failed');
    expect(found).toMatchObject({ transactionId: id, balanceCents: -1_000 });
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
    await resolve(found, { note: 'O provedor pagou o saque recusado; cobrado do lojista.', settlement: 'charge_merchant' });
  });

  it.runIf(sends)('booked paid but not sent: reported once; given back to the merchant', async () => {
    const id = await withdrawal();
    await fake().settleEnvio(idEnvioFor(id));
    await settled();
    expect((await chargeOf(merchant, id)).status).toBe('paid');
    fake().alterEnvio(idEnvioFor(id), 'NAO_REALIZADO');
    const found = await reportedOnce('booked_paid_not_sent');
    expect(found).toMatchObject({ transactionId: id, balanceCents: 1_000 });
    await resolve(found, { note: 'O provedor estornou o envio; devolvido ao lojista.', settlement: 'charge_merchant' });
  });

  it('a devolução the ledger does not know: reported once, and booked now as the chargeback', async () => {
    const charge = await paidCharge(gateway, merchant, 4_000);
    await fake().devolve(charge.endToEndId, { valor: '15.00', natureza: 'MED_FRAUDE', silent: true });
    const found = await reportedOnce('devolucao_unknown');
    expect(found).toMatchObject({ transactionId: charge.id, balanceCents: 0 });
    expect(await chargeOf(merchant, charge.id)).toMatchObject({ status: 'partially_refunded', refundedCents: 1_500 });
    await resolve(found, { note: 'MED sem callback; lançado pela conciliação.' });
  });

  it.runIf(!sends)('PSP=apipix: no balance is compared (the standard has no balance read), and a withdrawal is refused 503 before any money moves', async () => {
    fake().adjustBalance(-250);
    expect(await run()).toEqual([]);
    const last = ((await admin.get(gateway, '/reconciliation/runs?limit=1')).body.runs as Record<string, unknown>[])[0];
    expect(last).toMatchObject({ status: 'done' });
    expect(last?.providerBalanceCents).toBeUndefined();
    fake().adjustBalance(250);
    const before = await balanceOf(gateway, merchant);
    const refused = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef: `saque-conciliacao-${++counter}` } });
    expect([refused.response.status, refused.error]).toEqual([503, { error: messages.withdrawalsUnavailable }]);
    expect(await balanceOf(gateway, merchant)).toEqual(before);
    const listed = await merchant.client.GET('/v1/transactions', { params: { query: { type: 'withdrawal' } } });
    expect(listed.response.status).toBe(200);
    expect(JSON.stringify(listed.data)).not.toContain(`saque-conciliacao-${counter}`);
  });

  it.runIf(sends)("a difference in the provider's balance nothing else explains: reported once; booked as the provider's fee", async () => {
    fake().adjustBalance(-250);
    const found = await reportedOnce('balance_differs');
    expect(found).toMatchObject({ balanceCents: -250 });
    await resolve(found, { note: 'Tarifa mensal do provedor.', settlement: 'book_difference' });
    expect(await run()).toEqual([]);
  });

  it('lists the breaks, filtered, and refuses a resolution twice', async () => {
    const resolved = await admin.get(gateway, '/reconciliation/breaks?status=resolved');
    const kinds = (resolved.body.breaks as Break[]).map((found) => found.kind).sort();
    const efiOnly = ['balance_differs', 'booked_paid_not_sent', 'sent_booked_failed'];
    const all = ['amount_differs', 'balance_differs', 'booked_paid_not_sent', 'credited_not_received', 'devolucao_unknown', 'received_not_credited', 'sent_booked_failed'];
    expect(kinds).toEqual(all.filter((kind) => sends || !efiOnly.includes(kind)));
    const one = (resolved.body.breaks as Break[])[0]!;
    expect(await admin.post(gateway, `/reconciliation/breaks/${one.breakId}/resolve`, { note: 'De novo.' })).toEqual({ status: 409, body: { error: 'Esta divergência já foi resolvida.' } });
    const runs = await admin.get(gateway, '/reconciliation/runs?limit=3');
    expect(runs.body.runs).toEqual(expect.arrayContaining([expect.objectContaining({ status: 'done', trigger: 'operator' })]));
    expect(await ledgerIsConsistent(gateway)).toEqual([]);
  });
});
