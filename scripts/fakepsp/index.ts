/**
 * A stateful fake of PixGate's payment provider, for development and tests: the Central Bank's API Pix
 * 2.9.0 (cob, cobv and its batches, payload locations and what they serve, received Pix, refunds, webhook
 * registration and callbacks) and Efí's Pix send, over mutual TLS, as openapi/upstream/psp.yaml and psp-protocols.md describe them, plus a control API (`/_fake/...`)
 * and in-process methods for the payer end and the provider's back office, scripted faults and callback
 * knobs. Nothing is persisted: a restart starts empty.
 *
 * Files: certificates.ts (the CAs and certificates, node-forge), state.ts (money and received Pix, the
 * balance rules), cobs.ts, cobvs.ts (charges with a due date), lotes.ts (their batches), locations.ts
 * (`loc`), payload.ts (the locations as the payer's bank reads them: signed JWS), calendar.ts (business
 * days and holidays), amounts.ts (a cobv's amount on a date), listing.ts, sends.ts, dict.ts (the fake DICT), callbacks.ts (delivery, retries, knobs),
 * recs.ts (Pix Automático: `rec`, `solicrec`, `locrec`, webhookrec), cobrs.ts (`cobr`, webhookcobr), recurrenceTypes.ts (their bodies),
 * probe.ts (the webhook registration probe), api.ts / control.ts (routes), server.ts (HTTPS front, faults),
 * main.ts (a standalone process: `node scripts/fakepsp/main.ts`).
 *
 * Time: every horario, expiry, token expiry and `autoSettleMs` reads `options.clock`; callback retry delays
 * and `slow` faults are real time (they pace network traffic), and so is certificate validity.
 *
 * Profiles (`options.profile`, one value the state carries as `options.profile`): `efi` (default) plays Efí
 * as above; `standard` plays the Central Bank's API Pix 2.9.0 alone (openapi/upstream/bacen-pix-api-2.9.0.yaml):
 * API Pix under `/api/v2`, the RFC 6749 token request, no Efí extension (its routes answer 404, its helpers
 * reject), problem+json for every error. The token call and the control API stay at the origin in both.
 *
 * cobv's payer end (`payCobv`, `POST /_fake/cobv/:txid/pay`): the payer's bank works out juros, multa and
 * discounts, so the payment carries the amount it paid, and the fake does not check it (any amount is
 * received, even one that matches nothing: whether it is right is PixGate's call); it only refuses a cobv
 * that is not ATIVA or a `horario` past the cobv's last payable day (calendar.ts).
 *
 * Pix Automático (recs.ts, cobrs.ts): `rec`, `solicrec`, `cobr`, `locrec` and the webhooks `webhookrec` /
 * `webhookcobr` in both profiles; the payer's bank through the control API (control.ts). Their callbacks travel
 * by two more dispatchers (`{webhookUrl}/rec` with `{recs}`, `{webhookUrl}/cobr` with `{cobsr}`); the callback
 * knobs (`fake.callbacks`: duplicate, reverse, hold / release; `POST /_fake/callbacks`) and `callback` faults
 * apply to the three alike, `lieNext` to the key's callbacks only; `fake.recCallbacks` and `fake.cobrCallbacks`
 * list their attempts and abandoned bodies, `flushCallbacks` waits for all three.
 */
import { TokenStore, apiPrefix, apiRoutes } from './api.ts';
import { CallbackDispatcher, liePix } from './callbacks.ts';
import { generateCertificates, writeCertificates } from './certificates.ts';
import { controlRoutes } from './control.ts';
import { FaultBook } from './faults.ts';
import { payloadRoutes } from './payload.ts';
import { listenHttps, listenPlain, type FrontContext, type Listening } from './server.ts';
import type { CobRCallback, CobRNotification, RecCallback, RecNotification } from './recurrenceTypes.ts';
import { FakePspState } from './state.ts';
import { FAKE_PSP_PROFILES, type CallbackControls, type FakePsp, type FakePspOptions, type ServedRequest } from './types.ts';

export type * from './types.ts';
export type * from './recurrenceTypes.ts';
export { RECEBEDOR_CONTA, COBR_REJECTION_CODES, FINAL_REJECTION_CODES } from './cobrs.ts';
export { FakePspError } from './replies.ts';
export { FAKE_PSP_PROFILES } from './types.ts';
export { CERTIFICATE_FILES, generateCertificates, readCertificates, writeCertificates } from './certificates.ts';
export { adjustedDueDate, isBusinessDay, lastPayableDay, nationalHolidays } from './calendar.ts';
export { LOCATION_HOST } from './locations.ts';
export { RECEBEDOR } from './cobvs.ts';

const DEFAULT_ISPB = '09089356';
const DEFAULT_RETRY_MS = [50, 100, 200, 400, 800, 1600];
/** How often a timer settles what `autoSettleMs` made due (requests also do it). */
const AUTO_SETTLE_POLL_MS = 25;

export async function startFakePsp(options: FakePspOptions): Promise<FakePsp> {
  for (const name of ['clientId', 'clientSecret', 'pixKey'] as const) {
    if (typeof options[name] !== 'string' || options[name] === '') throw new TypeError(`startFakePsp: ${name} is required`);
  }
  const profile = options.profile ?? 'efi';
  if (!FAKE_PSP_PROFILES.includes(profile)) throw new TypeError(`startFakePsp: profile is one of ${FAKE_PSP_PROFILES.join(', ')}`);
  if (profile !== 'efi' && options.pixSemTxid === true) throw new TypeError('startFakePsp: pixSemTxid is an Efí setting (profile efi only)');
  const ispb = options.ispb ?? DEFAULT_ISPB;
  if (!/^[0-9A-Z]{8}$/.test(ispb)) throw new TypeError('startFakePsp: ispb is 8 characters [0-9A-Z]');
  const autoSettleMs = options.autoSettleMs ?? null;
  if (autoSettleMs !== null && (!Number.isFinite(autoSettleMs) || autoSettleMs < 0)) throw new TypeError('startFakePsp: autoSettleMs is >= 0 or null');
  const clock = options.clock ?? { now: () => Date.now() };
  const certificates = options.certificates ?? (await generateCertificates());
  const faults = new FaultBook();
  const queue: { dispatcher?: CallbackDispatcher; rec?: CallbackDispatcher<RecNotification, RecCallback>; cobr?: CallbackDispatcher<CobRNotification, CobRCallback> } = {};
  const state = new FakePspState({
    profile,
    pixKey: options.pixKey,
    ispb,
    clock,
    autoSettleMs,
    pixSemTxid: options.pixSemTxid ?? false,
    notify: (item) => queue.dispatcher?.enqueue(item),
    notifyRec: (item) => queue.rec?.enqueue(item),
    notifyCobr: (item) => queue.cobr?.enqueue(item),
  });
  const delivery = {
    cert: certificates.callbackClientCert,
    key: certificates.callbackClientKey,
    ca: certificates.webhookServerCa,
    retryMs: options.callbackRetryMs ?? DEFAULT_RETRY_MS,
    faults,
  };
  const callbacks = new CallbackDispatcher({ ...delivery, webhookUrl: () => state.webhookUrl(), suffix: '/pix', envelope: (items) => ({ pix: items }), lieWith: liePix });
  const recCallbacks = new CallbackDispatcher<RecNotification, RecCallback>({ ...delivery, webhookUrl: () => state.recs.webhookUrl(), suffix: '/rec', envelope: (items) => ({ recs: items }) });
  const cobrCallbacks = new CallbackDispatcher<CobRNotification, CobRCallback>({ ...delivery, webhookUrl: () => state.cobrs.webhookUrl(), suffix: '/cobr', envelope: (items) => ({ cobsr: items }) });
  queue.dispatcher = callbacks;
  queue.rec = recCallbacks;
  queue.cobr = cobrCallbacks;
  const others = [recCallbacks, cobrCallbacks];
  /** The knobs reach the three dispatchers; `lieNext`, `attempts`, `abandoned` are the key's. */
  const controls: CallbackControls = {
    duplicate: (times) => [callbacks, ...others].forEach((dispatcher) => dispatcher.duplicate(times)),
    reverse: (on) => [callbacks, ...others].forEach((dispatcher) => dispatcher.reverse(on)),
    hold: () => [callbacks, ...others].forEach((dispatcher) => dispatcher.hold()),
    release: async () => {
      await Promise.all([callbacks, ...others].map((dispatcher) => dispatcher.release()));
    },
    lieNext: (lie) => callbacks.lieNext(lie),
    attempts: callbacks.attempts,
    abandoned: callbacks.abandoned,
  };
  const tokens = new TokenStore(clock, options.tokenTtlSeconds ?? 3600);
  const requests: ServedRequest[] = [];
  const probeTls = { ca: certificates.webhookServerCa, cert: certificates.callbackClientCert, key: certificates.callbackClientKey };
  const front: FrontContext = {
    routes: [
      ...apiRoutes({ state, tokens, clientId: options.clientId, clientSecret: options.clientSecret, pixKey: options.pixKey, probeTls }),
      ...controlRoutes({ state, faults, callbacks, recurrenceCallbacks: others, tokens }),
      ...payloadRoutes(state, certificates),
    ],
    state,
    faults,
    tokens,
    requests,
  };
  const host = options.host ?? '127.0.0.1';
  const servers: Listening[] = [await listenHttps(front, certificates, host, options.port ?? 0)];
  const https = servers[0] as Listening;
  let plainUrl: string | undefined;
  if (options.plainPort !== undefined) {
    const plain = await listenPlain(front, host, options.plainPort);
    servers.push(plain);
    plainUrl = plain.url;
  }
  const sweeper = autoSettleMs === null ? undefined : setInterval(() => state.sweep(), Math.max(1, Math.min(autoSettleMs, AUTO_SETTLE_POLL_MS)));
  sweeper?.unref();

  /** In-process calls answer like the control API: a refusal rejects with FakePspError. */
  const run = <T>(action: () => T): Promise<T> =>
    new Promise<T>((resolve) => {
      state.sweep();
      resolve(action());
    });
  /** Efí's extensions have no standard counterpart: their helpers throw (reject, when async) in the standard profile. */
  const efiOnly = <T>(name: string, action: () => T): T => {
    if (profile !== 'efi') throw new TypeError(`fake PSP: ${name} is an Efí extension, not part of the standard profile`);
    return action();
  };
  const apiBaseUrl = (origin: string): string => (profile === 'efi' ? origin : `${origin}${apiPrefix(profile)}`);

  const fake: FakePsp = {
    url: https.url,
    profile,
    apiBaseUrl: apiBaseUrl(https.url),
    certificates,
    writeCertificates: (dir) => writeCertificates(certificates, dir),
    pay: (txid, input) => run(() => state.pay(txid, input ?? {})),
    receivePix: (input) => run(() => state.receivePix(input)),
    payCobv: (txid, input) => run(() => state.payCobv(txid, input)),
    cobvLastPayableDay: (txid) => state.cobvs.lastPayableDay(txid),
    holdLoteCobV: (hold) => state.lotes.hold(hold),
    settleEnvio: (idEnvio, recebedor, settleOptions) => run(() => efiOnly('settleEnvio', () => state.sends.settle(idEnvio, recebedor, settleOptions?.silent === true))),
    rejectEnvio: (idEnvio, codigo, motivo) => run(() => efiOnly('rejectEnvio', () => state.sends.reject(idEnvio, codigo, motivo))),
    returnEnvio: (idEnvio, valor) => run(() => efiOnly('returnEnvio', () => state.sends.returnSend(idEnvio, valor))),
    settleDevolucao: (e2eid, id) => run(() => state.settleDevolucao(e2eid, id)),
    rejectDevolucao: (e2eid, id, motivo) => run(() => state.rejectDevolucao(e2eid, id, motivo)),
    med: (e2eid, valor) => run(() => state.med(e2eid, valor)),
    devolve: (e2eid, input) => run(() => state.devolve(e2eid, input)),
    fileInfraction: (e2eid, input) => run(() => efiOnly('fileInfraction', () => state.infractions.file(e2eid, input))),
    blockInfraction: (id) => run(() => efiOnly('blockInfraction', () => state.infractions.block(id))),
    closeInfraction: (id, status) => run(() => efiOnly('closeInfraction', () => state.infractions.close(id, status))),
    forgetPix: (e2eid) => state.forgetPix(e2eid),
    alterPixAmount: (e2eid, valor) => state.alterPixAmount(e2eid, valor),
    alterEnvio: (idEnvio, status) => efiOnly('alterEnvio', () => state.sends.alter(idEnvio, status)),
    adjustBalance: (cents) => state.adjustBalance(cents),
    setSendReadShape: (shape) =>
      efiOnly('setSendReadShape', () => {
        state.sends.readShape = shape;
      }),
    setKeyOwner: (chave, owner) => state.dict.set(chave, owner),
    fault: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    callbacks: controls,
    recCallbacks,
    cobrCallbacks,
    flushCallbacks: async () => {
      await Promise.all([callbacks.flush(), recCallbacks.flush(), cobrCallbacks.flush()]);
    },
    expireTokens: () => tokens.expireAll(),
    balanceCents: () => state.balanceCents(),
    requests,
    close: async () => {
      if (sweeper) clearInterval(sweeper);
      await Promise.all([callbacks.close(), recCallbacks.close(), cobrCallbacks.close()]);
      await Promise.all(servers.map((server) => server.close()));
    },
  };
  if (plainUrl !== undefined) {
    fake.plainUrl = plainUrl;
    fake.plainApiBaseUrl = apiBaseUrl(plainUrl);
  }
  return fake;
}
