/**
 * Pix Automático through the API Pix adapter (src/provider/efi: `rec`, `solicrec`, `locrec`, `cobr`,
 * `webhookrec`, `webhookcobr`) and its sandbox (the fake's payer bank, `/_fake/...`), in both profiles (`efi`
 * against the fake's Efí profile, `apipix` against its standard one) over mutual TLS, with the harness of the
 * adapter's other suites (test/support/efiProvider.ts) on a manual clock: every port method and mapping, the
 * three consent journeys, cancellations by either side, a cycle's charge paid, refused and retried, refused
 * for good, the standard's refusals, and the callbacks turned into facts. The port is called directly: no
 * gateway, no ledger (the recurrences' service has its own suites).
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { loadConfig, parseReceiverAccount } from '../../src/platform/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { Metrics } from '../../src/platform/metrics.ts';
import { startCallbackListener, type CallbackListener } from '../../src/provider/efi/efi.callbacks.ts';
import { cobrTxidFor } from '../../src/provider/efi/efi.mapping.ts';
import type { ProfileName } from '../../src/provider/efi/provider.profiles.ts';
import { ProviderRefusedRecurringCharge, type ProviderFact, type RegisterRecurrenceInput } from '../../src/provider/port.ts';
import { startEfiTestProvider, type EfiTestProvider } from '../support/efiProvider.ts';

/** Monday 2026-03-02, 09:00 in São Paulo. */
const START_MS = Date.UTC(2026, 2, 2, 12, 0, 0);
const PAYER = { name: 'Maria Pagadora', document: '52998224725', documentType: 'cpf' as const };
const PAYER_ACCOUNT = { ispb: '99999004', branch: '0001', account: '1234567' };
let counter = 0;
const transactionId = (): string => `tx_${(++counter).toString(16).padStart(24, '0')}`;

describe.each<ProfileName>(['efi', 'apipix'])('Pix Automático on the %s profile', (profile) => {
  const clock = new ManualClock(START_MS);
  const logger = createLogger({ level: 'silent' });
  const deps = { clock, logger, metrics: new Metrics({ defaultMetrics: false }) };
  let efi: EfiTestProvider;
  let listener: CallbackListener;
  const facts: ProviderFact[] = [];
  const prefix = profile === 'efi' ? '/v2' : '/api/v2';

  const adapter = () => efi.adapter;
  const sandbox = () => efi.sandbox;
  const requestsTo = (method: string, path: string) => efi.fake.requests.filter((r) => r.method === method && r.path === `${prefix}${path}`);

  function recurrence(consent: RegisterRecurrenceInput['consent'], options: Partial<RegisterRecurrenceInput> = {}): RegisterRecurrenceInput {
    return {
      recurrenceId: `rec_${++counter}`,
      accountId: 'acc_recorrencias',
      payer: PAYER,
      contract: `contrato-${counter}`,
      object: 'Assinatura mensal',
      periodicity: 'monthly',
      startDate: '2026-03-02',
      amountCents: 4_990,
      retryPolicy: 'three_in_seven_days',
      consent,
      createdAtMs: clock.now(),
      ...options,
    };
  }

  const byRequest = (): RegisterRecurrenceInput['consent'] => ({ journey: 'request', payerAccount: PAYER_ACCOUNT, expiresAtMs: clock.now() + 3 * 86_400_000 });

  /** A recurrence approved by the payer (request journey), ready for its cycles' charges. */
  async function approved(options: Partial<RegisterRecurrenceInput> = {}): Promise<string> {
    const registered = await adapter().registerRecurrence(recurrence(byRequest(), options));
    expect(await sandbox().answerConsent(registered.providerRef, { outcome: 'approve' })).toBe(true);
    return registered.providerRef;
  }

  async function cycle(recurrenceRef: string, dueDate = '2026-03-10', amountCents = 4_990): Promise<{ transactionId: string; providerRef: string }> {
    const id = transactionId();
    const { providerRef } = await adapter().registerRecurringCharge({
      transactionId: id,
      recurrenceRef,
      dueDate,
      amountCents,
      retryPolicy: 'three_in_seven_days',
      description: 'Mensalidade de março',
      createdAtMs: clock.now(),
    });
    return { transactionId: id, providerRef };
  }

  beforeAll(async () => {
    efi = await startEfiTestProvider({} as Kysely<Database>, deps, {}, profile);
    const certificates = efi.fake.certificates;
    listener = await startCallbackListener(
      { host: '127.0.0.1', port: 0, cert: certificates.webhookServerCert, key: certificates.webhookServerKey, clientCa: certificates.webhookClientCa },
      deps,
      async (body) => {
        facts.push(...(await adapter().verifyCallback(body)));
      },
    );
    await adapter().registerWebhook(listener.url);
  });

  afterAll(async () => {
    await listener?.close();
    await efi?.close();
  });

  it('offers recurrences, and registers the webhookrec and webhookcobr with the key\'s URL', () => {
    expect(adapter().capabilities.recurrences).toBe(true);
    const ok = profile === 'efi' ? 201 : 200;
    expect(requestsTo('PUT', '/webhookrec').map((r) => r.status)).toEqual([ok]);
    expect(requestsTo('PUT', '/webhookcobr').map((r) => r.status)).toEqual([ok]);
  });

  it('request journey: POST /rec then POST /solicrec; the payer accepts (JORNADA_1)', async () => {
    const registered = await adapter().registerRecurrence(recurrence(byRequest()));
    expect(registered.providerRef).toMatch(/^RR0908935620260302[a-zA-Z0-9]{11}$/);
    expect(registered.consentRef).toMatch(/^SC[0-9A-Z]{8}20260302[a-zA-Z0-9]{11}$/);
    expect(registered.pixPayload).toBeUndefined();
    expect(requestsTo('POST', '/locrec')).toEqual([]);
    expect(await adapter().readRecurrence({ providerRef: registered.providerRef, consentRef: registered.consentRef })).toEqual({
      status: 'created',
      consentStatus: 'pending',
      history: [{ status: 'created', atMs: START_MS }],
    });
    clock.advance(60_000);
    expect(await sandbox().answerConsent(registered.providerRef, { outcome: 'approve' })).toBe(true);
    const read = await adapter().readRecurrence({ providerRef: registered.providerRef });
    expect(read).toEqual({
      status: 'approved',
      consentStatus: 'accepted',
      activation: { journey: 'request', atMs: START_MS + 60_000 },
      history: [
        { status: 'created', atMs: START_MS },
        { status: 'approved', atMs: START_MS + 60_000 },
      ],
    });
    // Answered once only: the consent no longer waits.
    expect(await sandbox().answerConsent(registered.providerRef, { outcome: 'approve' })).toBe(false);
  });

  it('request journey: the payer rejects it (AP13); a receiver\'s cancellation then answers false', async () => {
    const registered = await adapter().registerRecurrence(recurrence(byRequest(), { amountCents: undefined, minimumAmountCents: 1_000, retryPolicy: 'none' }));
    expect(registered.providerRef).toMatch(/^RN/);
    expect(await sandbox().answerConsent(registered.providerRef, { outcome: 'reject', code: 'AP13' })).toBe(true);
    const read = await adapter().readRecurrence({ providerRef: registered.providerRef, consentRef: registered.consentRef });
    expect(read).toMatchObject({ status: 'rejected', consentStatus: 'rejected', ended: { reason: 'rejected', by: 'payer', code: 'AP13' } });
    expect(read?.ended?.description).toEqual(expect.any(String));
    expect(read?.activation).toBeUndefined();
    expect(read?.history.map((entry) => entry.status)).toEqual(['created', 'rejected']);
    expect(await adapter().cancelRecurrence(registered.providerRef)).toBe(false);
  });

  it('request journey: the consent request expires (the payer never answers), by the sandbox or by its date', async () => {
    const registered = await adapter().registerRecurrence(recurrence(byRequest()));
    expect(await sandbox().answerConsent(registered.providerRef, { outcome: 'expire' })).toBe(true);
    expect(await adapter().readRecurrence({ providerRef: registered.providerRef })).toMatchObject({ status: 'created', consentStatus: 'expired' });

    const late = await adapter().registerRecurrence(recurrence({ journey: 'request', payerAccount: PAYER_ACCOUNT, expiresAtMs: clock.now() + 3_600_000 }));
    clock.advance(2 * 3_600_000);
    try {
      expect(await adapter().readRecurrence({ providerRef: late.providerRef, consentRef: late.consentRef })).toMatchObject({ status: 'created', consentStatus: 'expired' });
    } finally {
      clock.set(START_MS + 60_000);
    }
    // With no request pending, the sandbox lets the recurrence itself expire at the provider: ended, reason expired.
    expect(await sandbox().answerConsent(late.providerRef, { outcome: 'expire' })).toBe(true);
    expect(await adapter().readRecurrence({ providerRef: late.providerRef, consentRef: late.consentRef })).toMatchObject({
      status: 'expired',
      consentStatus: 'expired',
      ended: { reason: 'expired' },
    });
    const expiredRec = await adapter().registerRecurrence(recurrence({ journey: 'qrcode' }));
    expect(await sandbox().answerConsent(expiredRec.providerRef, { outcome: 'expire' })).toBe(true);
    expect(await adapter().readRecurrence({ providerRef: expiredRec.providerRef })).toMatchObject({ status: 'expired', ended: { reason: 'expired' } });
  });

  it('QR journey 2: a location, then the recurrence\'s own BR Code as pixPayload; the payer scans it (JORNADA_2)', async () => {
    const before = requestsTo('POST', '/locrec').length;
    const registered = await adapter().registerRecurrence(recurrence({ journey: 'qrcode' }));
    expect(requestsTo('POST', '/locrec')).toHaveLength(before + 1);
    expect(registered.consentRef).toBeUndefined();
    expect(registered.pixPayload).toMatch(/^000201/);
    expect(registered.pixPayload).toContain('/qr/v2/rec/');
    expect(registered.locationUrl).toBeUndefined();
    expect(await adapter().readRecurrence({ providerRef: registered.providerRef })).toEqual({ status: 'created', history: [{ status: 'created', atMs: clock.now() }] });
    expect(await sandbox().answerConsent(registered.providerRef, { outcome: 'approve' })).toBe(true);
    expect(await adapter().readRecurrence({ providerRef: registered.providerRef })).toMatchObject({ status: 'approved', activation: { journey: 'qrcode', atMs: clock.now() } });
  });

  it('QR journey 3: the composite BR Code of a cob and the recurrence (`?txid=`); approving it pays the cob (JORNADA_3)', async () => {
    const nowMs = clock.now();
    const cob = await adapter().registerCharge({ transactionId: transactionId(), accountId: 'acc_recorrencias', amountCents: 4_990, createdAtMs: nowMs, expiresAtMs: nowMs + 86_400_000 });
    const registered = await adapter().registerRecurrence(recurrence({ journey: 'qrcode_with_payment', chargeRef: cob.providerRef, firstPaymentCents: 4_990 }));
    expect(efi.fake.requests.some((r) => r.method === 'GET' && r.path === `${prefix}/rec/${registered.providerRef}`)).toBe(true);
    expect(registered.pixPayload).toMatch(/^000201/);
    // The cob's own location (field 26) and the recurrence's (field 80) in one code.
    expect(registered.pixPayload).toContain(cob.locationUrl);
    expect(registered.pixPayload).toContain('/qr/v2/rec/');
    expect(await sandbox().answerConsent(registered.providerRef, { outcome: 'approve' })).toBe(true);
    expect(await adapter().readRecurrence({ providerRef: registered.providerRef })).toMatchObject({ status: 'approved', activation: { journey: 'qrcode_with_payment' } });
  });

  it('the receiver cancels an approved recurrence (SLCR, by merchant); a repeat answers false', async () => {
    const idRec = await approved();
    expect(await adapter().cancelRecurrence(idRec)).toBe(true);
    const read = await adapter().readRecurrence({ providerRef: idRec });
    expect(read).toMatchObject({ status: 'cancelled', activation: { journey: 'request' }, ended: { reason: 'cancelled', by: 'merchant', code: 'SLCR' } });
    expect(read?.history.map((entry) => entry.status)).toEqual(['created', 'approved', 'cancelled']);
    expect(await adapter().cancelRecurrence(idRec)).toBe(false);
  });

  it('the payer and the payer\'s bank cancel approved recurrences; the open cycle is cancelled with them', async () => {
    const byPayer = await approved();
    const open = await cycle(byPayer);
    expect(await sandbox().cancelRecurrenceAsPayer(byPayer, 'SLDB')).toBe(true);
    expect(await adapter().readRecurrence({ providerRef: byPayer })).toMatchObject({ status: 'cancelled', ended: { reason: 'cancelled', by: 'payer', code: 'SLDB' } });
    expect(await adapter().readRecurringCharge(open.providerRef)).toMatchObject({ state: 'cancelled', cancelledBy: 'payer', refusal: { code: 'CCLD' } });
    expect(await sandbox().cancelRecurrenceAsPayer(byPayer, 'SLDB')).toBe(false);

    const byBank = await approved();
    expect(await sandbox().cancelRecurrenceAsPayer(byBank, 'FRUD', 'payer_bank')).toBe(true);
    expect(await adapter().readRecurrence({ providerRef: byBank })).toMatchObject({ status: 'cancelled', ended: { reason: 'cancelled', by: 'payer_bank', code: 'FRUD' } });
  });

  it('unknown recurrences and charges: undefined and not_found', async () => {
    expect(await adapter().readRecurrence({ providerRef: 'RN0908935620260302aaaaaaaaaaa' })).toBeUndefined();
    expect(await adapter().readRecurringCharge(cobrTxidFor('tx_ffffffffffffffffffffffff'))).toEqual({ state: 'not_found' });
  });

  it('a cycle\'s charge: PUT /cobr with the transaction\'s txid, read, paid by the payer\'s bank; the Pix is readable', async () => {
    const idRec = await approved();
    const charge = await cycle(idRec, '2026-03-10', 4_990);
    expect(charge.providerRef).toBe(cobrTxidFor(charge.transactionId));
    expect(charge.providerRef).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    // A retry of the same cycle's charge names the same cobr (the provider's refusal read back).
    const again = await adapter().registerRecurringCharge({ transactionId: charge.transactionId, recurrenceRef: idRec, dueDate: '2026-03-10', amountCents: 4_990, retryPolicy: 'three_in_seven_days', createdAtMs: clock.now() });
    expect(again).toEqual({ providerRef: charge.providerRef });
    expect(requestsTo('PUT', `/cobr/${charge.providerRef}`).map((r) => r.status)).toEqual([201, 400]);
    expect(await adapter().readRecurringCharge(charge.providerRef)).toEqual({
      state: 'active',
      attempts: [{ date: '2026-03-10', kind: 'scheduled', status: 'scheduled' }],
      payments: [],
    });
    const endToEndId = await sandbox().debitCycle(charge.providerRef);
    expect(endToEndId).toMatch(/^E/);
    expect(await adapter().readRecurringCharge(charge.providerRef)).toEqual({
      state: 'completed',
      attempts: [{ date: '2026-03-10', kind: 'scheduled', status: 'paid', endToEndId }],
      payments: [endToEndId],
    });
    expect(await adapter().readReceivedPix(endToEndId as string)).toMatchObject({ endToEndId, chargeRef: charge.providerRef, amountCents: 4_990 });
    // Nothing open any more.
    expect(await sandbox().debitCycle(charge.providerRef)).toBe(false);
  });

  it('the provider refuses a cycle\'s charge (CobROperacaoInvalida): a recurrence not approved, a second one in the cycle', async () => {
    const pending = await adapter().registerRecurrence(recurrence(byRequest()));
    await expect(cycle(pending.providerRef)).rejects.toBeInstanceOf(ProviderRefusedRecurringCharge);
    const idRec = await approved();
    await cycle(idRec, '2026-03-10');
    await expect(cycle(idRec, '2026-03-12')).rejects.toBeInstanceOf(ProviderRefusedRecurringCharge);
  });

  it('an attempt refused with a retryable code (AM02), another asked (NTAG), then paid', async () => {
    const idRec = await approved();
    const charge = await cycle(idRec, '2026-03-10');
    expect(await sandbox().debitCycle(charge.providerRef, { code: 'AM02', description: 'Saldo insuficiente' })).toBeUndefined();
    expect(await adapter().readRecurringCharge(charge.providerRef)).toEqual({
      state: 'active',
      attempts: [{ date: '2026-03-10', kind: 'scheduled', status: 'refused', refusal: { code: 'AM02', description: 'Saldo insuficiente' } }],
      payments: [],
    });
    expect(await adapter().retryRecurringCharge(charge.providerRef, '2026-03-12')).toBe(true);
    // One attempt open at a time: a second retry is refused.
    expect(await adapter().retryRecurringCharge(charge.providerRef, '2026-03-13')).toBe(false);
    const retried = await adapter().readRecurringCharge(charge.providerRef);
    expect(retried).toMatchObject({ state: 'active', attempts: [{ status: 'refused' }, { date: '2026-03-12', kind: 'retry', status: 'scheduled' }] });
    const endToEndId = await sandbox().debitCycle(charge.providerRef);
    expect(await adapter().readRecurringCharge(charge.providerRef)).toMatchObject({
      state: 'completed',
      attempts: [{ status: 'refused' }, { kind: 'retry', status: 'paid', endToEndId }],
      payments: [endToEndId],
    });
  });

  it('an attempt refused with a final code (AC05) rejects the charge; no retry then', async () => {
    const idRec = await approved();
    const charge = await cycle(idRec, '2026-03-10');
    expect(await sandbox().debitCycle(charge.providerRef, { code: 'AC05' })).toBeUndefined();
    const read = await adapter().readRecurringCharge(charge.providerRef);
    expect(read).toMatchObject({ state: 'rejected', refusal: { code: 'AC05' }, attempts: [{ kind: 'scheduled', status: 'refused', refusal: { code: 'AC05' } }], payments: [] });
    expect(await adapter().retryRecurringCharge(charge.providerRef, '2026-03-12')).toBe(false);
  });

  it('a retry is refused under NAO_PERMITE', async () => {
    const idRec = await approved({ retryPolicy: 'none' });
    expect(idRec).toMatch(/^RN/);
    const charge = await cycle(idRec, '2026-03-10');
    expect(await sandbox().debitCycle(charge.providerRef, { code: 'AM02' })).toBeUndefined();
    expect(await adapter().readRecurringCharge(charge.providerRef)).toMatchObject({ state: 'rejected', refusal: { code: 'AM02' } });
    expect(await adapter().retryRecurringCharge(charge.providerRef, '2026-03-12')).toBe(false);
  });

  it('the receiver cancels a cycle before its attempt\'s date, not on it; the payer cancels one too', async () => {
    const early = await cycle(await approved(), '2026-03-10');
    expect(await adapter().cancelRecurringCharge(early.providerRef)).toBe(true);
    expect(await adapter().readRecurringCharge(early.providerRef)).toMatchObject({ state: 'cancelled', cancelledBy: 'merchant', refusal: { code: 'SLCR' }, attempts: [{ status: 'cancelled' }] });
    expect(await adapter().cancelRecurringCharge(early.providerRef)).toBe(true);

    const due = await cycle(await approved(), '2026-03-03');
    clock.set(Date.UTC(2026, 2, 3, 12, 0, 0));
    try {
      expect(await adapter().cancelRecurringCharge(due.providerRef)).toBe(false);
      expect(await adapter().readRecurringCharge(due.providerRef)).toMatchObject({ state: 'active' });
    } finally {
      clock.set(START_MS + 60_000);
    }

    const byPayer = await cycle(await approved(), '2026-03-10');
    expect(await sandbox().cancelCycleAsPayer(byPayer.providerRef, 'SLBD')).toBe(true);
    expect(await adapter().readRecurringCharge(byPayer.providerRef)).toMatchObject({ state: 'cancelled', cancelledBy: 'payer', refusal: { code: 'SLBD' } });
    expect(await sandbox().cancelCycleAsPayer(byPayer.providerRef, 'SLBD')).toBe(false);
  });

  it('the provider\'s callbacks ({recs}, {cobsr}) become recurrence_changed and recurring_charge_changed facts', async () => {
    const idRec = await approved();
    const charge = await cycle(idRec, '2026-03-10');
    await sandbox().debitCycle(charge.providerRef);
    await efi.fake.flushCallbacks();
    await listener.idle();
    expect(facts).toContainEqual({ kind: 'recurrence_changed', recurrenceRef: idRec });
    expect(facts).toContainEqual({ kind: 'recurring_charge_changed', chargeRef: charge.providerRef });
    // Only the ids are taken (once per body), never what the body says of them.
    expect(
      await adapter().verifyCallback({
        recs: [{ idRec, status: 'CANCELADA' }, { idRec }, { status: 'APROVADA' }],
        cobsr: [{ txid: charge.providerRef, status: 'CONCLUIDA', pix: [{ endToEndId: 'E1', valor: '999.00' }] }, null],
      }),
    ).toEqual([
      { kind: 'recurrence_changed', recurrenceRef: idRec },
      { kind: 'recurring_charge_changed', chargeRef: charge.providerRef },
    ]);
  });
});

describe('PSP_RECEIVER_ACCOUNT and the cobr txid', () => {
  it('reads agencia/conta/tipoConta (agencia may be empty) and refuses anything else at start', () => {
    expect(parseReceiverAccount('0001/1234567/CORRENTE')).toEqual({ branch: '0001', account: '1234567', type: 'CORRENTE' });
    expect(parseReceiverAccount('/98765-4/PAGAMENTO')).toEqual({ account: '98765-4', type: 'PAGAMENTO' });
    for (const bad of ['0001/1234567', '00001/1/CORRENTE', '0001//POUPANCA', '0001/1/SALARIO']) expect(parseReceiverAccount(bad)).toBeUndefined();
    const efi = {
      NODE_ENV: 'test',
      PSP: 'efi',
      PSP_BASE_URL: 'https://pix-h.api.efipay.com.br',
      PSP_CLIENT_ID: 'id',
      PSP_CLIENT_SECRET: 'secret',
      PSP_CERT: 'c.pem',
      PSP_KEY: 'k.pem',
      PSP_PIX_KEY: 'pix@pixgate.com.br',
      PSP_WEBHOOK_CERT: 'w.pem',
      PSP_WEBHOOK_KEY: 'wk.pem',
      PSP_WEBHOOK_CLIENT_CA: 'ca.pem',
    };
    expect(loadConfig(efi).psp).toMatchObject({ receiverAccount: undefined });
    expect(loadConfig({ ...efi, PSP_RECEIVER_ACCOUNT: '0001/1234567/CORRENTE' }).psp).toMatchObject({ receiverAccount: { branch: '0001', account: '1234567', type: 'CORRENTE' } });
    expect(() => loadConfig({ ...efi, PSP_RECEIVER_ACCOUNT: '0001-1234567' })).toThrow(/PSP_RECEIVER_ACCOUNT/);
  });

  it('derives a cobr txid of 26-35 alphanumerics from the transaction, its own prefix apart from a cob\'s', () => {
    expect(cobrTxidFor('tx_0123456789abcdef01234567')).toBe('pga0123456789abcdef01234567');
    const hashed = cobrTxidFor('tx_short');
    expect(hashed).toMatch(/^pga[0-9a-f]{32}$/);
    expect(cobrTxidFor('tx_short')).toBe(hashed);
  });
});
