import { beforeAll, describe, expect, it } from 'vitest';
import { pollReceivedPix } from '../../src/jobs/providerFacts.ts';
import { messages } from '../../src/messages/merchant.ts';
import { EfiTransport } from '../../src/provider/efi/efi.client.ts';
import { txidFor } from '../../src/provider/efi/efi.mapping.ts';
import { ProviderFailure, ProviderLacks, type RegisterChargeInput } from '../../src/provider/port.ts';
import { availableOf, createMerchant, fund, railsOf, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 35: the adapter on the standard's own terms (PSP=apipix) against the fake provider in its `standard`
 * profile (scripts/fakepsp, written from the Central Bank's API Pix 2.9.0 document): the base URL that ends
 * with the version, RFC 6749's form token request, a txid read before it is used (a PUT on an ATIVA cob would
 * revise it), a 400 `CobOperacaoInvalida`, the cob carrying its `devedor`, a listing page without `pix`, a MED
 * devolução, and withdrawals refused before any money moves. Every suite ends (useGateway) with the full
 * ledger check and the money at psp_settlement compared with what the fake holds. The same money-in suites
 * run on this profile in `npm run test:psp` (PIXGATE_TEST_PSP=apipix).
 */
const gateway = useGateway({ psp: 'apipix' });
let merchant: MerchantFixture;
let counter = 0;

const efi = () => railsOf(gateway);
const fake = () => efi().fake;
const requestsTo = (method: string, path: string) => fake().requests.filter((r) => r.method === method && r.path === path);

function chargeInput(amountCents: number): RegisterChargeInput {
  const nowMs = gateway.clock.now();
  counter += 1;
  return { transactionId: `tx_apipix${String(counter).padStart(17, '0')}`, accountId: 'acc_apipix', externalRef: `pedido-direto-${counter}`, amountCents, createdAtMs: nowMs, expiresAtMs: nowMs + 86_400_000 };
}

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 100_000);
});

describe('the standard profile (PSP=apipix)', () => {
  it('speaks below the base URL that ends with the version, and offers no send, balance or infraction API (Pix Automático it does)', () => {
    expect(fake().profile).toBe('standard');
    expect(efi().config).toMatchObject({ kind: 'apipix', baseUrl: `${fake().url}/api/v2`, tokenFormat: 'form' });
    expect(efi().adapter.capabilities).toEqual({ payouts: false, balance: false, infractions: false, recurrences: true });
    const paths = fake().requests.map((r) => r.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => !path.startsWith('/api/v2/') && path !== '/oauth/token')).toEqual([]);
  });

  it('asks for the token with a form body: a JSON one is refused by the standard fake', async () => {
    const deps = { clock: gateway.clock, logger: gateway.deps.logger, metrics: gateway.deps.metrics };
    const certificates = fake().certificates;
    const json = new EfiTransport(
      { baseUrl: fake().url, apiPixUrl: `${fake().url}/api/v2`, tokenUrl: `${fake().url}/oauth/token`, tokenFormat: 'json', clientId: efi().config.clientId, clientSecret: efi().config.clientSecret, cert: certificates.gatewayClientCert, key: certificates.gatewayClientKey, ca: certificates.ca, attempts: 1 },
      deps,
    );
    try {
      await expect(json.accessToken()).rejects.toMatchObject({ kind: 'token_refused', status: 400 });
    } finally {
      await json.close();
    }
  });

  it('creates the cob with the customer as devedor, reading the txid first; a retry reuses the cob without a second PUT', async () => {
    const externalRef = `pedido-apipix-${++counter}`;
    const created = await merchant.client.POST('/v1/pix', { body: { amountCents: 2_500, externalRef, customer: validCustomer } });
    expect(created.response.status).toBe(201);
    const txid = txidFor({ transactionId: created.data!.transactionId, accountId: merchant.accountId, externalRef });
    expect(requestsTo('GET', `/api/v2/cob/${txid}`).map((r) => r.status)).toEqual([404]);
    expect(requestsTo('PUT', `/api/v2/cob/${txid}`).map((r) => r.status)).toEqual([201]);
    const cob = await efi().transport.client.GET('/v2/cob/{txid}', { params: { path: { txid } }, headers: { Authorization: `Bearer ${await efi().transport.accessToken()}` } });
    expect(cob.data?.devedor).toEqual({ nome: validCustomer.name, [validCustomer.document.type]: validCustomer.document.number.replace(/\D/g, '') });

    const input = chargeInput(1_000);
    const first = await efi().adapter.registerCharge(input);
    const again = await efi().adapter.registerCharge(input);
    expect(again).toEqual(first);
    expect(requestsTo('PUT', `/api/v2/cob/${first.providerRef}`).map((r) => r.status)).toEqual([201]);
    expect(requestsTo('GET', `/api/v2/cob/${first.providerRef}`).map((r) => r.status)).toEqual([404, 200]);
  });

  it('never revises a cob that is no longer ATIVA: the next txid is used', async () => {
    const input = chargeInput(1_200);
    const first = await efi().adapter.registerCharge(input);
    expect(await efi().adapter.removeCharge({ transactionId: input.transactionId, providerRef: first.providerRef })).toEqual({ state: 'removed' });
    const next = await efi().adapter.registerCharge(input);
    expect(next.providerRef).toBe(txidFor(input, 1));
    expect(requestsTo('PUT', `/api/v2/cob/${first.providerRef}`)).toHaveLength(1);
  });

  it('a 400 CobOperacaoInvalida for a txid nobody holds is the request refused, not a reuse', async () => {
    const input = { ...chargeInput(1_300), debtor: { name: 'Fulano', documentType: 'cpf' as const, document: '123' } };
    await expect(efi().adapter.registerCharge(input)).rejects.toBeInstanceOf(ProviderFailure);
    const txid = txidFor(input, 0);
    expect(requestsTo('PUT', `/api/v2/cob/${txid}`).map((r) => r.status)).toEqual([400]);
    expect(requestsTo('PUT', `/api/v2/cob/${txidFor(input, 1)}`)).toEqual([]);
  });

  it('reads a listing page without `pix` as holding no Pix', async () => {
    const now = gateway.clock.now();
    const inicio = new Date(now + 86_400_000).toISOString();
    const fim = new Date(now + 2 * 86_400_000).toISOString();
    const page = await efi().transport.client.GET('/v2/pix', { params: { query: { inicio, fim } }, headers: { Authorization: `Bearer ${await efi().transport.accessToken()}` } });
    expect(page.response.status).toBe(200);
    expect(page.data).not.toHaveProperty('pix');
    const listed = [];
    for await (const pix of efi().adapter.listReceivedPix(now + 86_400_000, now + 2 * 86_400_000)) listed.push(pix);
    expect(listed).toEqual([]);
    expect(await pollReceivedPix(gateway.deps)).toBeGreaterThanOrEqual(0);
  });

  it('credits a paid charge, refunds it, and books a MED devolução the provider made', async () => {
    const created = await merchant.client.POST('/v1/pix', { body: { amountCents: 5_000, externalRef: `pedido-apipix-${++counter}`, customer: validCustomer } });
    const transactionId = created.data!.transactionId;
    const txid = txidFor({ transactionId, accountId: merchant.accountId, externalRef: `pedido-apipix-${counter}` });
    const pix = await fake().pay(txid);
    await efi().settled();
    const paid = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: transactionId } } });
    expect(paid.data).toMatchObject({ status: 'paid', endToEndId: pix.endToEndId });
    const refunded = await merchant.client.POST('/v1/transactions/{id}/refunds', { params: { path: { id: transactionId } }, body: { amountCents: 1_000 } });
    expect(refunded.response.status).toBe(201);
    await fake().devolve(pix.endToEndId, { valor: '15.00', natureza: 'MED_FRAUDE' });
    await efi().settled();
    const after = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: transactionId } } });
    expect(after.data).toMatchObject({ status: 'partially_refunded' });
    expect((after.data as { refundedCents?: number }).refundedCents).toBeGreaterThanOrEqual(1_500);
  });

  it('refuses a withdrawal 503 before any money moves; the adapter sends nothing', async () => {
    const before = await availableOf(merchant);
    const answer = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: '52998224725', pixKeyType: 'cpf', externalRef: 'saque-apipix' } });
    expect([answer.response.status, answer.error]).toEqual([503, { error: messages.withdrawalsUnavailable }]);
    expect(await availableOf(merchant)).toBe(before);
    await expect(
      efi().adapter.sendWithdrawal({ transactionId: 'tx_apipix00000000000000099', amountCents: 100, pixKey: '52998224725', pixKeyType: 'cpf', expectedBeneficiary: { name: 'Maria', document: '52998224725', documentType: 'cpf' } }),
    ).rejects.toBeInstanceOf(ProviderLacks);
    expect(await efi().adapter.queryWithdrawal('tx_apipix00000000000000099')).toEqual({ state: 'not_found' });
    await expect(efi().adapter.balance()).rejects.toBeInstanceOf(ProviderLacks);
    expect(fake().requests.filter((r) => r.path.includes('/gn/'))).toEqual([]);
  });
});
