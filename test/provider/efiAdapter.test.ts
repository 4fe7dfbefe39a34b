import { request } from 'node:https';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakePsp, type FakePsp } from '../../scripts/fakepsp/index.ts';
import { startPrismProxy } from '../../scripts/lib/prism-proxy.ts';
import { fromRoot } from '../../scripts/lib/paths.ts';
import { expireDueCharges } from '../../src/jobs/expireCharges.ts';
import { pollReceivedPix } from '../../src/jobs/providerFacts.ts';
import { reconcileWithdrawals } from '../../src/jobs/reconcileWithdrawals.ts';
import { messages } from '../../src/messages/merchant.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { Metrics } from '../../src/platform/metrics.ts';
import { EfiTransport } from '../../src/provider/efi/efi.client.ts';
import { idEnvioFor, txidFor } from '../../src/provider/efi/efi.mapping.ts';
import { EfiProvider } from '../../src/provider/efi/efi.provider.ts';
import { ProviderFailure } from '../../src/provider/port.ts';
import { availableOf, createMerchant, fund, railsOf, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 21: the Efí adapter (PSP=efi) against the fake provider over real mutual TLS, through the gateway's
 * own HTTP API: every row of "what each provider outcome becomes" (docs/providers.md), each fault knob,
 * the callback listener's handshake, and callbacks that lie. Every suite ends (useGateway) with the full
 * ledger check and the money at psp_settlement compared with what the fake holds.
 */
const gateway = useGateway({ psp: 'efi' });
const HOLDER_CPF = '52998224725';
let merchant: MerchantFixture;
let refCounter = 0;

const efi = () => railsOf(gateway);
const fake = () => efi().fake;
const nextRef = (label: string) => `${label}-${++refCounter}`;

async function newCharge(amountCents: number, externalRef = nextRef('pedido')): Promise<{ transactionId: string; txid: string; pixPayload: string }> {
  const created = await merchant.client.POST('/v1/pix', { body: { amountCents, externalRef, customer: validCustomer } });
  if (!created.data) throw new Error(`charge: ${JSON.stringify(created.error)}`);
  return { ...created.data, txid: txidFor({ transactionId: created.data.transactionId, accountId: merchant.accountId, externalRef }) };
}

async function read(id: string) {
  const { data } = await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } });
  if (!data) throw new Error(`transaction ${id} not readable`);
  return data;
}

async function unmatched() {
  const { data } = await gateway.admin.GET('/admin/v1/provider/unmatched-pix');
  return data?.items ?? [];
}

const requestsTo = (method: string, prefix: string) => fake().requests.filter((r) => r.method === method && r.path.startsWith(prefix));

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 500_000);
});

describe('charges (API Pix cob)', () => {
  it('registers a cob whose txid derives from the externalRef: pixPayload is its pixCopiaECola, and a retry names the same cob', async () => {
    const externalRef = nextRef('retry');
    const first = await newCharge(2_500, externalRef);
    expect(first.pixPayload).toMatch(/^000201/);
    const retry = await merchant.client.POST('/v1/pix', { body: { amountCents: 2_500, externalRef, customer: validCustomer } });
    expect(retry.response.status).toBe(200);
    expect(retry.data).toMatchObject({ transactionId: first.transactionId, pixPayload: first.pixPayload, idempotent: true });
    // The second PUT of the same txid was refused as a duplicate and read back: one cob at the provider.
    expect(requestsTo('PUT', `/v2/cob/${first.txid}`).map((r) => r.status)).toEqual([201, 409]);
    expect(requestsTo('GET', `/v2/cob/${first.txid}`).map((r) => r.status)).toEqual([200]);
  });

  it('credits a paid cob from the read when the callback arrives, once, though the callback comes three times', async () => {
    const charge = await newCharge(3_000);
    const before = await availableOf(merchant);
    fake().callbacks.duplicate(2);
    const pix = await fake().pay(charge.txid);
    await efi().settled();
    fake().callbacks.duplicate(0);
    expect(await read(charge.transactionId)).toMatchObject({ status: 'paid', endToEndId: pix.endToEndId });
    expect(await availableOf(merchant)).toBe(before + 3_000);
    expect(requestsTo('GET', `/v2/pix/${pix.endToEndId}`).length).toBeGreaterThanOrEqual(1);
  });

  it('credits what the read says when the callback body lies about the amount', async () => {
    const charge = await newCharge(4_000);
    const before = await availableOf(merchant);
    fake().callbacks.lieNext({ valor: '999999.99' });
    await fake().pay(charge.txid);
    await efi().settled();
    expect(await read(charge.transactionId)).toMatchObject({ status: 'paid', amountCents: 4_000 });
    expect(await availableOf(merchant)).toBe(before + 4_000);
  });

  it('leaves a payment of the wrong amount, and one for an unknown txid, to an operator: recorded, counted, nothing credited', async () => {
    const charge = await newCharge(5_000);
    const before = await availableOf(merchant);
    const wrong = await fake().pay(charge.txid, { valor: '49.99' });
    const stray = await fake().receivePix({ valor: '7.00', txid: 'naoexiste00000000000000000001' });
    await efi().settled();
    expect((await read(charge.transactionId)).status).toBe('pending');
    expect(await availableOf(merchant)).toBe(before);
    const open = await unmatched();
    expect(open).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ endToEndId: wrong.endToEndId, reason: 'amount_mismatch', transactionId: charge.transactionId, amountCents: 4_999 }),
        expect.objectContaining({ endToEndId: stray.endToEndId, reason: 'unknown_charge', amountCents: 700 }),
      ]),
    );
    const metrics = await gateway.deps.metrics.registry.getSingleMetricAsString('pixgate_psp_unmatched_pix_total');
    expect(metrics).toMatch(/reason="amount_mismatch"\} 1/);
  });

  it('catches a payment whose callbacks never arrive with the listing of received Pix (the safety net)', async () => {
    const charge = await newCharge(6_000);
    fake().fault({ operation: 'callback', mode: 'error', status: 500, count: 50 });
    await fake().pay(charge.txid);
    await efi().settled();
    fake().clearFaults();
    expect((await read(charge.transactionId)).status).toBe('pending');
    expect(await pollReceivedPix(gateway.deps)).toBeGreaterThan(0);
    expect((await read(charge.transactionId)).status).toBe('paid');
    // Listing again changes nothing.
    await pollReceivedPix(gateway.deps);
    expect((await read(charge.transactionId)).status).toBe('paid');
  });

  it('removes an expired cob at the provider so it cannot be paid late, and credits one paid before its expiry', async () => {
    const late = await newCharge(1_500);
    const early = await newCharge(1_700);
    fake().callbacks.hold();
    await fake().pay(early.txid);
    gateway.clock.advance(3 * 86_400_000);
    await expireDueCharges(gateway.deps);
    expect((await read(late.transactionId)).status).toBe('expired');
    expect((await read(early.transactionId)).status).toBe('paid');
    expect(requestsTo('PATCH', `/v2/cob/${late.txid}`).map((r) => r.status)).toEqual([200]);
    await expect(fake().pay(late.txid)).rejects.toThrow();
    await fake().callbacks.release();
    await efi().settled();
    expect((await read(early.transactionId)).status).toBe('paid');
  });
});

describe('withdrawals (Efí send)', () => {
  const withdraw = (extra: Record<string, unknown> = {}) =>
    merchant.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf', externalRef: nextRef('saque'), ...extra } as never });

  it('sends with the holder document; REALIZADO by callback becomes paid with the receiver as beneficiary', async () => {
    const created = await withdraw();
    expect(created.response.status).toBe(201);
    const id = created.data!.transactionId;
    expect(created.data!.status).toBe('processing');
    await fake().settleEnvio(idEnvioFor(id));
    await efi().settled();
    const paid = await read(id);
    expect(paid).toMatchObject({ status: 'paid' });
    expect(paid.beneficiary).toMatchObject({ document: expect.any(String), bankAccount: { ispb: expect.any(String) } });
  });

  it('NAO_REALIZADO (AC03) becomes failed BENEFICIARY_ACCOUNT_INVALID with the money back, even when the callback says REALIZADO', async () => {
    const before = await availableOf(merchant);
    const created = await withdraw();
    const id = created.data!.transactionId;
    fake().callbacks.lieNext({ status: 'REALIZADO' });
    await fake().rejectEnvio(idEnvioFor(id), 'AC03', 'Conta inexistente');
    await efi().settled();
    expect(await read(id)).toMatchObject({ status: 'failed', refusedCode: 'BENEFICIARY_ACCOUNT_INVALID' });
    expect(await availableOf(merchant)).toBe(before);
  });

  it('a refusal before acceptance (4xx) is a failed withdrawal with its reason, nothing debited', async () => {
    const before = await availableOf(merchant);
    fake().fault({ operation: 'envio.put', mode: 'error', status: 400, nome: 'chave_nao_pertence_ao_documento', mensagem: 'A chave não pertence ao documento.' });
    const created = await withdraw();
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ status: 'failed', refusedCode: 'KEY_OWNER_MISMATCH' });
    expect(await availableOf(merchant)).toBe(before);
  });

  it('a provider outage (5xx on every attempt) answers 502 with nothing debited, and the externalRef is reusable', async () => {
    const before = await availableOf(merchant);
    const externalRef = nextRef('outage');
    fake().fault({ operation: 'envio.put', mode: 'error', status: 503, count: 3 });
    const refused = await withdraw({ externalRef });
    expect(refused.response.status).toBe(502);
    expect((refused.error as { error: string }).error).toBe(messages.withdrawProviderError);
    expect(await availableOf(merchant)).toBe(before);
    const retried = await withdraw({ externalRef });
    expect(retried.response.status).toBe(201);
  });

  it('an answer dropped after sending, on every attempt, is failed_unknown (202), settled by reading the send by idEnvio', async () => {
    fake().fault({ operation: 'envio.put', mode: 'drop_after', count: 3 });
    const created = await withdraw();
    expect(created.response.status).toBe(202);
    const id = (created.data as unknown as { transactionId: string }).transactionId;
    expect((await read(id)).status).toBe('failed_unknown');
    await fake().settleEnvio(idEnvioFor(id));
    await efi().settled();
    expect((await read(id)).status).toBe('paid');
  });

  it('one dropped answer, then the retry refused as a duplicate: read back, processing', async () => {
    fake().fault({ operation: 'envio.put', mode: 'drop_after', count: 1 });
    const created = await withdraw();
    expect(created.response.status).toBe(201);
    expect(created.data!.status).toBe('processing');
    expect(requestsTo('PUT', `/v3/gn/pix/${idEnvioFor(created.data!.transactionId)}`).map((r) => r.status).slice(-1)).toEqual([409]);
  });

  it('a send never received (dropped before it was taken) is failed RECONCILED_NOT_SENT after reconciliation', async () => {
    fake().fault({ operation: 'envio.put', mode: 'drop_before', count: 3 });
    const created = await withdraw();
    expect(created.response.status).toBe(202);
    const id = (created.data as unknown as { transactionId: string }).transactionId;
    gateway.clock.advance(60_000);
    await reconcileWithdrawals(gateway.deps);
    expect(await read(id)).toMatchObject({ status: 'failed', refusedCode: 'RECONCILED_NOT_SENT' });
  });

  it('an answer slower than PSP_TIMEOUT_MS on every attempt is a timeout: failed_unknown (never a 502), then settled by the read', async () => {
    const before = await availableOf(merchant);
    fake().fault({ operation: 'envio.put', mode: 'slow', delayMs: 2_500, count: 3 });
    const created = await withdraw();
    expect(created.response.status).toBe(202);
    const id = (created.data as unknown as { transactionId: string }).transactionId;
    expect((await read(id)).status).toBe('failed_unknown');
    // The fake gave up on each request the adapter had abandoned: the read finds no send, the money comes back.
    await new Promise((resolve) => setTimeout(resolve, 600));
    gateway.clock.advance(60_000);
    await reconcileWithdrawals(gateway.deps);
    expect(await read(id)).toMatchObject({ status: 'failed', refusedCode: 'RECONCILED_NOT_SENT' });
    expect(await availableOf(merchant)).toBe(before);
  }, 30_000);

  it('callbacks held and delivered in reverse order, one item per body, change each transaction once', async () => {
    const before = await availableOf(merchant);
    const charge = await newCharge(2_200);
    const first = await withdraw();
    const second = await withdraw();
    fake().callbacks.hold();
    fake().callbacks.reverse(true);
    await fake().pay(charge.txid);
    await fake().settleEnvio(idEnvioFor(first.data!.transactionId));
    await fake().rejectEnvio(idEnvioFor(second.data!.transactionId), 'AC07', 'Conta encerrada');
    fake().callbacks.duplicate(1);
    await fake().callbacks.release();
    fake().callbacks.reverse(false);
    fake().callbacks.duplicate(0);
    await efi().settled();
    expect((await read(charge.transactionId)).status).toBe('paid');
    expect((await read(first.data!.transactionId)).status).toBe('paid');
    expect(await read(second.data!.transactionId)).toMatchObject({ status: 'failed', refusedCode: 'BENEFICIARY_ACCOUNT_CLOSED' });
    // +2 200 charged, -1 000 - fee paid out once, the refused one returned.
    expect(await availableOf(merchant)).toBe(before + 2_200 - (first.data as { totalDeducted: number }).totalDeducted);
  });

  it('a returned send (devolução by the receiving bank) becomes refunded with its D end-to-end id', async () => {
    const created = await withdraw();
    const id = created.data!.transactionId;
    await fake().settleEnvio(idEnvioFor(id));
    await efi().settled();
    await fake().returnEnvio(idEnvioFor(id), '10.00');
    await efi().settled();
    const returned = await read(id);
    expect(returned.status).toBe('refunded');
    expect(returned.refundEndToEndId).toMatch(/^D/);
  });
});

describe('refunds (API Pix devolução)', () => {
  it('asks for a devolução with the refund id; DEVOLVIDO by callback refunds the charge, NAO_REALIZADO fails it', async () => {
    const charge = await newCharge(8_000);
    await fake().pay(charge.txid);
    await efi().settled();
    const first = await merchant.client.POST('/v1/transactions/{id}/refunds', { params: { path: { id: charge.transactionId } }, body: { amountCents: 3_000 } });
    expect(first.response.status).toBe(201);
    const refundId = first.data!.refundId;
    await gateway.provider.settleRefund(refundId);
    await efi().settled();
    expect(await read(charge.transactionId)).toMatchObject({ status: 'partially_refunded', refundedCents: 3_000 });
    const second = await merchant.client.POST('/v1/transactions/{id}/refunds', { params: { path: { id: charge.transactionId } }, body: { amountCents: 1_000 } });
    await gateway.provider.rejectRefund(second.data!.refundId, 'PROVIDER_REJECTED', 'Saldo insuficiente na conta.');
    await efi().settled();
    const after = await read(charge.transactionId);
    expect(after.refundedCents).toBe(3_000);
    expect(after.refunds?.find((r) => r.refundId === second.data!.refundId)?.status).toBe('failed');
  });
});

describe('transport', () => {
  it('reuses one token, and fetches a new one once when the provider refuses it', async () => {
    const tokens = () => requestsTo('POST', '/oauth/token').length;
    const before = tokens();
    await newCharge(1_000);
    await newCharge(1_000);
    expect(tokens()).toBe(before);
    fake().expireTokens();
    await newCharge(1_000);
    expect(tokens()).toBe(before + 1);
  });

  it('counts every call by upstream operation and outcome', async () => {
    await newCharge(1_000);
    const histogram = await gateway.deps.metrics.registry.getSingleMetricAsString('pixgate_psp_request_duration_seconds');
    expect(histogram).toMatch(/pixgate_psp_request_duration_seconds_count\{operation="createCob",outcome="ok"\} [1-9]/);
    expect(histogram).toMatch(/pixgate_psp_request_duration_seconds_count\{operation="requestToken",outcome="ok"\} [1-9]/);
  });

  it('refused credentials fail at once: one token request, no retry, and the secret is never logged', async () => {
    const clock = new ManualClock();
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });
    const deps = { clock, logger, metrics: new Metrics({ defaultMetrics: false }) };
    const certificates = fake().certificates;
    const transport = new EfiTransport(
      { baseUrl: fake().url, tokenUrl: `${fake().url}/oauth/token`, clientId: 'Client_Id_pixgate_test', clientSecret: 'wrong-secret-never-logged', cert: certificates.gatewayClientCert, key: certificates.gatewayClientKey, ca: certificates.ca, attempts: 3, retryBaseMs: 1 },
      deps,
    );
    const adapter = new EfiProvider(transport, { pixKey: 'pagamentos@pixgate.test' }, deps);
    const before = requestsTo('POST', '/oauth/token').length;
    await expect(adapter.registerCharge({ transactionId: 'tx_000000000000000000000002', accountId: 'acc', amountCents: 100, createdAtMs: 0, expiresAtMs: 86_400_000 })).rejects.toBeInstanceOf(ProviderFailure);
    expect(requestsTo('POST', '/oauth/token').length).toBe(before + 1);
    expect(lines.join('\n')).toContain('requestToken');
    expect(lines.join('\n')).not.toContain('wrong-secret-never-logged');
    await transport.close();
  });

  it('refuses a provider whose server certificate is not signed by PSP_CA (nothing sent)', async () => {
    const clock = new ManualClock();
    const deps = { clock, logger: createLogger({ level: 'silent' }), metrics: new Metrics({ defaultMetrics: false }) };
    const certificates = fake().certificates;
    const transport = new EfiTransport(
      { baseUrl: fake().url, tokenUrl: `${fake().url}/oauth/token`, clientId: 'x', clientSecret: 'y', cert: certificates.gatewayClientCert, key: certificates.gatewayClientKey, ca: certificates.webhookServerCa, attempts: 1 },
      deps,
    );
    const adapter = new EfiProvider(transport, { pixKey: 'k' }, deps);
    await expect(adapter.registerCharge({ transactionId: 'tx_000000000000000000000001', accountId: 'acc', amountCents: 100, createdAtMs: 0, expiresAtMs: 86_400_000 })).rejects.toBeInstanceOf(ProviderFailure);
    await transport.close();
  });

  it('opens the circuit after repeated failures: calls then fail at once, without reaching the provider', async () => {
    const clock = new ManualClock();
    const deps = { clock, logger: createLogger({ level: 'silent' }), metrics: new Metrics({ defaultMetrics: false }) };
    const certificates = fake().certificates;
    const transport = new EfiTransport(
      {
        baseUrl: fake().url,
        tokenUrl: `${fake().url}/oauth/token`,
        clientId: 'Client_Id_pixgate_test',
        clientSecret: 'Client_Secret_pixgate_test_0123456789',
        cert: certificates.gatewayClientCert,
        key: certificates.gatewayClientKey,
        ca: certificates.ca,
        attempts: 1,
        breakerThreshold: 3,
        breakerResetMs: 60_000,
      },
      deps,
    );
    const adapter = new EfiProvider(transport, { pixKey: 'pagamentos@pixgate.test' }, deps);
    fake().fault({ operation: 'envio.get', mode: 'error', status: 503, count: 5 });
    for (let i = 0; i < 5; i += 1) expect(await adapter.queryWithdrawal('tx_00000000000000000000000a')).toEqual({ state: 'unknown' });
    const reached = requestsTo('GET', '/v2/gn/pix/enviados/id-envio/tx00000000000000000000000a').length;
    expect(transport.circuit).toBe('open');
    expect(await adapter.queryWithdrawal('tx_00000000000000000000000a')).toEqual({ state: 'unknown' });
    expect(requestsTo('GET', '/v2/gn/pix/enviados/id-envio/tx00000000000000000000000a').length).toBe(reached);
    fake().clearFaults();
    await transport.close();
  });
});

describe('the callback listener (mutual TLS)', () => {
  const post = (options: { cert?: string; key?: string }) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(`${efi().listenerUrl}/pix`);
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', ca: fake().certificates.webhookServerCa, ...options, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{"pix":[]}');
    });

  it('accepts the provider certificate, and refuses a forged one or none at the handshake', async () => {
    const certificates = fake().certificates;
    expect(await post({ cert: certificates.callbackClientCert, key: certificates.callbackClientKey })).toBe(200);
    await expect(post({ cert: certificates.forgedClientCert, key: certificates.forgedClientKey })).rejects.toThrow();
    await expect(post({})).rejects.toThrow();
  });
});

/**
 * The upstream contract (issue 35): Prism's validating proxy between the adapter and the fake, requests and
 * answers validated, and every finding it reports counted (an undocumented status is only Prism's warning,
 * in `sl-violations`: it fails here as an error does). Walked on both profiles: every path the adapter takes,
 * its error answers (a 404 read, a reused txid, the PATCH-400 of a paid cob) included.
 */
describe('the upstream contract (Prism between the adapter and the fake)', () => {
  /** The findings so far of the proxy the running walk goes through. */
  let proxyFindings: () => string[] = () => [];

  async function throughPrism(profile: 'efi' | 'apipix', walk: (adapter: EfiProvider, upstream: FakePsp, clock: ManualClock) => Promise<void>): Promise<string[]> {
    const clock = new ManualClock();
    const deps = { clock, logger: createLogger({ level: 'silent' }), metrics: new Metrics({ defaultMetrics: false }) };
    const upstream = await startFakePsp({ clientId: 'prism', clientSecret: 'prism-secret', pixKey: 'prism@pixgate.test', clock, plainPort: 0, profile: profile === 'apipix' ? 'standard' : 'efi' });
    // Prism validates the contract's paths (`/v2/cob/{txid}`); on the standard the fake serves them below
    // `/api`, where a provider's base URL ends (the standard's server is `https://pix.example.com/api/`).
    const origin = upstream.plainUrl!;
    const proxy = await startPrismProxy(profile === 'apipix' ? `${origin}/api` : origin, { spec: fromRoot('generated', 'upstream-openapi.json'), validateRequest: true });
    const transport = new EfiTransport(
      { baseUrl: proxy.baseUrl, apiPixUrl: `${proxy.baseUrl}/v2`, tokenUrl: `${origin}/oauth/token`, tokenFormat: profile === 'apipix' ? 'form' : 'json', clientId: 'prism', clientSecret: 'prism-secret', attempts: 1 },
      deps,
    );
    const adapter = new EfiProvider(transport, { pixKey: 'prism@pixgate.test', profile }, deps);
    proxyFindings = () => proxy.violations();
    try {
      await walk(adapter, upstream, clock);
      expect(proxy.bypassed()).toEqual([]);
      return proxy.violations();
    } finally {
      await transport.close();
      await proxy.stop();
      await upstream.close();
    }
  }

  const charge = (clock: ManualClock, transactionId: string, amountCents: number) => ({
    transactionId,
    accountId: 'acc',
    externalRef: `ref-${transactionId}`,
    amountCents,
    createdAtMs: clock.now(),
    expiresAtMs: clock.now() + 86_400_000,
    debtor: { name: 'Maria da Silva', documentType: 'cpf' as const, document: '52998224725' },
  });

  /** The money-in walk both profiles share: cob (with its reuse and its errors), received Pix, listing, devolução, removal. */
  async function moneyIn(adapter: EfiProvider, upstream: FakePsp, clock: ManualClock): Promise<void> {
    const first = await adapter.registerCharge(charge(clock, 'tx_00000000000000000000000b', 1_234));
    const again = await adapter.registerCharge(charge(clock, 'tx_00000000000000000000000b', 1_234));
    expect(again.providerRef).toBe(first.providerRef);
    const pix = await upstream.pay(first.providerRef);
    expect(await adapter.readReceivedPix(pix.endToEndId)).toMatchObject({ amountCents: 1_234, chargeRef: first.providerRef });
    expect(await adapter.readReceivedPix('E00000000202611291200000000000x')).toBeUndefined();
    const listed = [];
    for await (const received of adapter.listReceivedPix(clock.now() - 60_000, clock.now() + 60_000)) listed.push(received);
    expect(listed.map((p) => p.endToEndId)).toContain(pix.endToEndId);
    for await (const received of adapter.listReceivedPix(clock.now() + 86_400_000, clock.now() + 2 * 86_400_000)) listed.push(received);
    // A paid cob's txid is not reused (a 409 on Efí, read first on the standard); its removal is a PATCH-400.
    const next = await adapter.registerCharge(charge(clock, 'tx_00000000000000000000000b', 1_234));
    expect(next.providerRef).not.toBe(first.providerRef);
    expect(await adapter.removeCharge({ transactionId: 'tx_00000000000000000000000b', providerRef: first.providerRef })).toMatchObject({ state: 'paid' });
    await adapter.sendRefund({ refundId: 'rf_00000000000000000000000c', endToEndId: pix.endToEndId, amountCents: 234 });
    expect((await adapter.queryRefund({ refundId: 'rf_00000000000000000000000c', endToEndId: pix.endToEndId })).state).toBe('accepted');
    expect((await adapter.queryRefund({ refundId: 'rf_00000000000000000000000f', endToEndId: pix.endToEndId })).state).toBe('not_found');
    const other = await adapter.registerCharge(charge(clock, 'tx_00000000000000000000000e', 100));
    expect(await adapter.removeCharge({ transactionId: 'tx_00000000000000000000000e', providerRef: other.providerRef })).toEqual({ state: 'removed' });
    await dueCharges(adapter, upstream);
  }

  const dueCharge = (transactionId: string, amountCents: number) => ({
    transactionId,
    accountId: 'acc_prism',
    externalRef: `boleto-${transactionId}`,
    amountCents,
    createdAtMs: Date.UTC(2026, 10, 21, 12),
    dueDate: '2026-12-10',
    daysAfterDue: 30,
    terms: {
      fine: { mode: 'percent' as const, basisPoints: 200 },
      interest: { mode: 'percent_per_month_calendar_days' as const, basisPoints: 100 },
      discount: { mode: 'fixed_until_dates' as const, dates: [{ date: '2026-12-01', amountCents: 1_000 }] },
      rebate: { mode: 'fixed' as const, amountCents: 500 },
    },
    debtor: {
      name: 'Maria da Silva',
      email: 'maria@example.com',
      document: { number: '52998224725', type: 'cpf' as const },
      address: { street: 'Rua das Flores, 100', city: 'São Paulo', state: 'SP', postalCode: '01001000' },
    },
    description: 'Mensalidade de dezembro',
  });

  /** Charges with a due date (cobv): every term, a retry naming the same cobv, a revision, a payment, a removal. */
  async function dueCharges(adapter: EfiProvider, upstream: FakePsp): Promise<void> {
    const first = await adapter.registerDueCharge(dueCharge('tx_0000000000000000000000d1', 25_000));
    expect(first.locationUrl).toContain('/cobv/');
    expect((await adapter.registerDueCharge(dueCharge('tx_0000000000000000000000d1', 25_000))).providerRef).toBe(first.providerRef);
    expect(await adapter.reviseDueCharge({ ...dueCharge('tx_0000000000000000000000d1', 26_000), providerRef: first.providerRef })).toBe(true);
    const pix = await upstream.payCobv(first.providerRef, { valor: '255.00' });
    expect(await adapter.readReceivedPix(pix.endToEndId)).toMatchObject({ amountCents: 25_500, chargeRef: first.providerRef });
    expect(await adapter.reviseDueCharge({ ...dueCharge('tx_0000000000000000000000d1', 27_000), providerRef: first.providerRef })).toBe(false);
    expect(await adapter.removeCharge({ transactionId: 'tx_0000000000000000000000d1', providerRef: first.providerRef, kind: 'due' })).toMatchObject({ state: 'paid' });
    const other = await adapter.registerDueCharge(dueCharge('tx_0000000000000000000000d2', 10_000));
    expect(await adapter.removeCharge({ transactionId: 'tx_0000000000000000000000d2', providerRef: other.providerRef, kind: 'due' })).toEqual({ state: 'removed' });
    // A batch (lotecobv): a new cobv created, one the provider refuses (due before its creation) with its words.
    const items = [dueCharge('tx_0000000000000000000000d3', 12_000), { ...dueCharge('tx_0000000000000000000000d4', 25_000), dueDate: '2020-01-02' }];
    await adapter.registerDueChargeBatch({ batchRef: '7', description: 'Mensalidades', items });
    let states = await adapter.readDueChargeBatch({ batchRef: '7', items });
    for (let round = 0; round < 20 && [...states.values()].some((state) => state.state === 'processing'); round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      states = await adapter.readDueChargeBatch({ batchRef: '7', items });
    }
    expect(states.get('tx_0000000000000000000000d3')).toMatchObject({ state: 'created', charge: { locationUrl: expect.stringContaining('/cobv/') } });
    expect(states.get('tx_0000000000000000000000d4')).toMatchObject({ state: 'refused', problem: expect.any(String) });
  }

  it('profile efi: every request and answer conforms to openapi/upstream/psp.yaml, sends and balance included', async () => {
    const violations = await throughPrism('efi', async (adapter, upstream, clock) => {
      await moneyIn(adapter, upstream, clock);
      await adapter.sendWithdrawal({
        transactionId: 'tx_00000000000000000000000d',
        amountCents: 500,
        pixKey: '52998224725',
        pixKeyType: 'cpf',
        description: 'Saque',
        expectedBeneficiary: { name: 'Maria', document: '52998224725', documentType: 'cpf' },
      });
      expect((await adapter.queryWithdrawal('tx_00000000000000000000000d')).state).toBe('accepted');
      await upstream.settleEnvio(idEnvioFor('tx_00000000000000000000000d'));
      expect((await adapter.queryWithdrawal('tx_00000000000000000000000d')).state).toBe('paid');
      const sends = [];
      for await (const send of adapter.listSends(clock.now() - 60_000, clock.now() + 60_000)) sends.push(send);
      expect(sends).toHaveLength(1);
      const balance = await adapter.balance();
      expect(balance.availableCents + balance.blockedMedCents + balance.blockedOtherCents).toBe(upstream.balanceCents());
    });
    expect(violations).toEqual([]);
  }, 90_000);

  it('profile apipix: every request and answer of the money-in walk conforms, against the fake speaking the standard alone; a warning is a finding', async () => {
    let clean: string[] = [];
    const violations = await throughPrism('apipix', async (adapter, upstream, clock) => {
      await moneyIn(adapter, upstream, clock);
      // The standard's webhook PUT probes nothing (Efí's probes the URL, walked by the gateway's own listener).
      await adapter.registerWebhook('https://callbacks.pixgate.test/efi');
      clean = proxyFindings();
      // Then a deliberate one: an answer with a status the contract does not document is only Prism's
      // warning (`sl-violations`), and it fails the check as an error would.
      upstream.fault({ operation: 'cob.get', mode: 'error', status: 418 });
      await expect(adapter.registerCharge(charge(clock, 'tx_000000000000000000000011', 100))).rejects.toBeInstanceOf(ProviderFailure);
    });
    expect(clean).toEqual([]);
    expect(violations).toEqual([expect.stringMatching(/^GET \/v2\/cob\/\S+ -> 418: .*Warning/)]);
  }, 90_000);
});
