/**
 * Money steps the books tests (issue 32) share, through the merchant API and the back office exactly as a
 * merchant and an operator take them, on whichever provider the gateway runs (the simulation, or the Efí
 * adapter against the fake provider).
 */
import { expect } from 'vitest';
import { insertDevolucao } from '../../src/provider/simulatedBooks.repository.ts';
import { applyProviderDevolucoes } from '../../src/refunds/providerDevolucao.service.ts';
import { ADMIN_TOKEN, postAsMerchant, validCustomer, type Gateway, type MerchantFixture } from './gateway.ts';
import { generateEndToEndId } from '../../src/primitives/endToEndId.ts';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function adminCall(gateway: Gateway, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${gateway.adminBaseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export const admin = {
  post: (gateway: Gateway, path: string, body?: unknown) => adminCall(gateway, 'POST', `/admin/v1${path}`, body ?? {}),
  get: (gateway: Gateway, path: string) => adminCall(gateway, 'GET', `/admin/v1${path}`),
};

/** A charge of `amountCents` paid by the provider's payer end; its id and end-to-end id. */
export async function paidCharge(gateway: Gateway, of: MerchantFixture, amountCents: number): Promise<{ id: string; endToEndId: string }> {
  const created = await of.client.POST('/v1/pix', { body: { amountCents, customer: validCustomer } });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  const paid = await admin.post(gateway, `/sandbox/charges/${created.data.transactionId}/pay`);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return { id: created.data.transactionId, endToEndId: String(paid.body.endToEndId) };
}

export const refundOf = (gateway: Gateway, of: MerchantFixture, chargeId: string, body: Record<string, unknown> = {}) =>
  postAsMerchant(gateway, of, `/v1/transactions/${chargeId}/refunds`, body);

export const settleRefund = (gateway: Gateway, refundId: string) => admin.post(gateway, `/sandbox/refunds/${refundId}/settle`);

export async function placeHold(gateway: Gateway, of: MerchantFixture, body: Record<string, unknown>): Promise<string> {
  const placed = await admin.post(gateway, `/accounts/${of.accountId}/holds`, body);
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return String(placed.body.holdId);
}

export const chargeback = (gateway: Gateway, of: MerchantFixture, holdId: string, amountCents?: number) =>
  admin.post(gateway, `/accounts/${of.accountId}/holds/${holdId}/chargeback`, amountCents === undefined ? {} : { amountCents });

export const releaseHold = (gateway: Gateway, of: MerchantFixture, holdId: string) => admin.post(gateway, `/accounts/${of.accountId}/holds/${holdId}/release`);

/** The sandbox's devolução made outside the API (at the provider's own app). */
export const devolveOutside = (gateway: Gateway, chargeId: string, amountCents: number) => admin.post(gateway, `/sandbox/charges/${chargeId}/refund`, { amountCents });

export async function chargeOf(of: MerchantFixture, id: string) {
  const { data } = await of.client.GET('/v1/transactions/{id}', { params: { path: { id } } });
  if (!data) throw new Error(`transaction ${id} not readable`);
  return data;
}

export async function balanceOf(gateway: Gateway, of: MerchantFixture) {
  const answer = await admin.get(gateway, `/accounts/${of.accountId}/balance`);
  expect(answer.body.ledgerConsistent, JSON.stringify(answer.body.violations)).toBe(true);
  return { available: answer.body.availableCents, held: answer.body.heldCents, reserved: answer.body.reservedCents, withdrawable: answer.body.withdrawableCents };
}

export async function eventsOf(gateway: Gateway, of: MerchantFixture): Promise<Record<string, unknown>[]> {
  const answer = await admin.get(gateway, `/accounts/${of.accountId}/events?limit=100`);
  return ((answer.body.events ?? []) as { payload: Record<string, unknown> }[]).map((event) => event.payload);
}

/**
 * A provider that breaks its own rule: it makes a MED devolução of a Pix whose devoluções (refunds in flight
 * included) already take all of it, and PixGate learns of it (the callback, or a read). The fake is told to
 * force it; the simulation's own record is written past its check.
 */
export async function providerForcesMed(gateway: Gateway, endToEndId: string, amountCents: number): Promise<void> {
  if (gateway.efi) {
    await gateway.efi.fake.devolve(endToEndId, { valor: (amountCents / 100).toFixed(2), natureza: 'MED_FRAUDE', force: true });
    await gateway.efi.settled();
  } else {
    await gateway.deps.db.transaction().execute((trx) =>
      insertDevolucao(trx, {
        id: `medforced${Date.now().toString(36)}`,
        endToEndId,
        rtrId: generateEndToEndId({ ispb: '99999008', atMs: gateway.clock.now(), kind: 'D' }),
        natureza: 'MED_FRAUDE',
        amountCents,
        at: new Date(gateway.clock.now()),
      }),
    );
  }
  const pix = await gateway.deps.provider.readReceivedPix(endToEndId);
  if (pix) await applyProviderDevolucoes(gateway.deps, pix);
}
