/**
 * The fake payment provider (scripts/fakepsp) over real mutual TLS: the handshake, OAuth2, cob, received
 * Pix and their listing, the webhook probe and callbacks to an mTLS listener, sends, refunds, each fault
 * mode, the control API and the balance arithmetic. Every answer body is checked against the upstream
 * contract's schemas (generated/upstream-openapi.json).
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakePspError, startFakePsp, type FakePsp } from '../../scripts/fakepsp/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { parseBrCode } from '../../src/primitives/brcode.ts';
import { END_TO_END_ID_PATTERN } from '../../src/primitives/endToEndId.ts';
import { startCallbackListener, type CallbackListener } from '../support/callbackListener.ts';

const PIX_KEY = 'pagamentos@pixgate.test';
const CLIENT_ID = 'Client_Id_fakepsp_test';
const CLIENT_SECRET = 'Client_Secret_fakepsp_test';
const DAY_MS = 86_400_000;

// ajv-formats is CommonJS: its plugin is the `default` property when imported from ESM.
const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const contract = JSON.parse(readFileSync(new URL('../../generated/upstream-openapi.json', import.meta.url), 'utf8')) as { components: unknown; paths: unknown };
ajv.addSchema({ $id: 'https://pixgate.test/upstream', components: contract.components, paths: contract.paths });

/** Fails with Ajv's errors unless `value` validates against the upstream schema `name`. */
function conforms(name: string, value: unknown): void {
  const validate = ajv.getSchema(`https://pixgate.test/upstream#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name}`);
  validate(value);
  expect(validate.errors ?? [], `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
  // Bodies are checked against the contract's schemas; tests then read fields freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
let fake: FakePsp;
let gateway: Agent;
let listener: CallbackListener;
let token = '';
let tokenExpiresAtMs = 0;
let txidCounter = 0;

const nextTxid = () => `pgtx${String(++txidCounter).padStart(4, '0')}${'0123456789abcdefghijklmnop'.slice(0, 24)}`;
const nextId = (prefix: string) => `${prefix}${++txidCounter}`;
const tick = (ms = 60_000) => clock.advance(ms);

async function call(method: string, path: string, options: { body?: unknown; auth?: string | null; agent?: Agent; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  // The shared token is renewed when a test moved the clock past its hour (token expiry follows the clock).
  if (options.auth === undefined && clock.now() >= tokenExpiresAtMs) token = await newToken();
  const auth = options.auth === undefined ? `Bearer ${token}` : options.auth;
  if (auth !== null) headers.authorization = auth;
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    dispatcher: options.agent ?? gateway,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, body };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function newToken(): Promise<string> {
  const answer = await call('POST', '/oauth/token', { auth: basic(CLIENT_ID, CLIENT_SECRET), body: { grant_type: 'client_credentials' } });
  expect(answer.status).toBe(200);
  conforms('Token', answer.body);
  tokenExpiresAtMs = clock.now() + (answer.body.expires_in as number) * 1000;
  return answer.body.access_token as string;
}

function expectProblem(answer: Answer, status: number, type: string): void {
  expect(answer.status).toBe(status);
  expect(answer.contentType).toMatch(/^application\/problem\+json/);
  conforms('Problema', answer.body);
  expect(answer.body.type).toBe(`https://pix.bcb.gov.br/api/v2/error/${type}`);
}

function expectEfiError(answer: Answer, status: number, nome: string): void {
  expect(answer.status).toBe(status);
  conforms('Erro', answer.body);
  expect(answer.body.nome).toBe(nome);
}

const cobBody = (valor = '12.34', expiracao = 3600) => ({ calendario: { expiracao }, valor: { original: valor }, chave: PIX_KEY });

async function newCob(valor = '12.34', expiracao = 3600): Promise<string> {
  const txid = nextTxid();
  expect((await call('PUT', `/v2/cob/${txid}`, { body: cobBody(valor, expiracao) })).status).toBe(201);
  return txid;
}

/** Items received by the listener so far, flattened. */
const received = () => listener.bodies.flatMap((body) => body.pix);

beforeAll(async () => {
  fake = await startFakePsp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, clock, callbackRetryMs: [20, 40], plainPort: 0 });
  gateway = new Agent({ connect: { ca: fake.certificates.ca, cert: fake.certificates.gatewayClientCert, key: fake.certificates.gatewayClientKey } });
  listener = await startCallbackListener(fake.certificates);
  token = await newToken();
});

afterAll(async () => {
  await fake?.close();
  await gateway?.close();
  await listener?.close();
});

describe('mutual TLS', () => {
  const attempt = async (connect: { ca: string; cert?: string; key?: string; minVersion?: 'TLSv1'; maxVersion?: 'TLSv1.1' }) => {
    const agent = new Agent({ connect });
    try {
      return await call('GET', '/_fake/state', { agent, auth: null });
    } finally {
      await agent.close();
    }
  };

  it('refuses at the handshake a client without a certificate, one with the forged certificate, and one from another CA', async () => {
    const { ca, forgedClientCert, forgedClientKey, callbackClientCert, callbackClientKey } = fake.certificates;
    await expect(attempt({ ca })).rejects.toThrow();
    await expect(attempt({ ca, cert: forgedClientCert, key: forgedClientKey })).rejects.toThrow();
    await expect(attempt({ ca, cert: callbackClientCert, key: callbackClientKey })).rejects.toThrow();
    expect((await call('GET', '/_fake/state', { auth: null })).status).toBe(200);
  });

  it('refuses TLS below 1.2', async () => {
    const { ca, gatewayClientCert, gatewayClientKey } = fake.certificates;
    await expect(attempt({ ca, cert: gatewayClientCert, key: gatewayClientKey, maxVersion: 'TLSv1.1', minVersion: 'TLSv1' })).rejects.toThrow();
  });

  it('writes the certificates as PEM files, keys readable by the owner only', async () => {
    const { mkdtempSync, rmSync, statSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/fakepsp-`);
    try {
      const files = await fake.writeCertificates(dir);
      expect(readFileSync(files.ca, 'utf8')).toBe(fake.certificates.ca);
      expect(statSync(files.gatewayClientKey).mode & 0o777).toBe(0o600);
      expect(statSync(files.gatewayClientCert).mode & 0o777).toBe(0o644);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('OAuth2 client credentials', () => {
  it('issues a bearer token for the right credentials only, and every API path needs one', async () => {
    expectProblem(await call('POST', '/oauth/token', { auth: basic(CLIENT_ID, 'wrong'), body: { grant_type: 'client_credentials' } }), 401, 'AcessoNegado');
    expectProblem(await call('POST', '/oauth/token', { auth: basic(CLIENT_ID, CLIENT_SECRET), body: { grant_type: 'password' } }), 400, 'RequisicaoInvalida');
    expectProblem(await call('GET', `/v2/cob/${nextTxid()}`, { auth: null }), 401, 'AcessoNegado');
    expectProblem(await call('GET', `/v2/cob/${nextTxid()}`, { auth: 'Bearer not-a-token' }), 401, 'AcessoNegado');
  });

  it('lets a token expire by the clock, and expireTokens() refuses every issued one', async () => {
    const short = await newToken();
    tick(3_600_000);
    expectProblem(await call('GET', '/v2/gn/saldo', { auth: `Bearer ${short}` }), 401, 'AcessoNegado');
    token = await newToken();
    expect((await call('GET', '/v2/gn/saldo')).status).toBe(200);
    fake.expireTokens();
    expect((await call('GET', '/v2/gn/saldo')).status).toBe(401);
    token = await newToken();
  });
});

describe('charges (cob)', () => {
  it('creates a cob with a real dynamic BR Code, reads it, refuses a duplicate txid (409 txid_duplicado) and bad requests', async () => {
    const txid = nextTxid();
    const created = await call('PUT', `/v2/cob/${txid}`, { body: cobBody('12.34') });
    expect(created.status).toBe(201);
    conforms('Cob', created.body);
    expect(created.body).toMatchObject({ txid, revisao: 0, status: 'ATIVA', chave: PIX_KEY, valor: { original: '12.34' }, calendario: { expiracao: 3600, criacao: new Date(clock.now()).toISOString() } });
    expect(created.body.location).toMatch(/^fakepsp\.local\/qr\/v2\/[0-9a-f]{32}$/);
    expect(created.body.loc).toMatchObject({ location: created.body.location, tipoCob: 'cob' });
    const brCode = parseBrCode(created.body.pixCopiaECola);
    expect(brCode).toMatchObject({ kind: 'dynamic', locationUrl: created.body.location, amount: '12.34', pointOfInitiationMethod: '12' });

    expectEfiError(await call('PUT', `/v2/cob/${txid}`, { body: cobBody('12.34') }), 409, 'txid_duplicado');
    expectProblem(await call('PUT', '/v2/cob/short1', { body: cobBody() }), 400, 'CobOperacaoInvalida');
    expectProblem(await call('PUT', `/v2/cob/${nextTxid()}`, { body: cobBody('0.00') }), 400, 'CobOperacaoInvalida');
    expectProblem(await call('PUT', `/v2/cob/${nextTxid()}`, { body: { ...cobBody(), chave: 'outra@chave.test' } }), 400, 'CobOperacaoInvalida');
    expectProblem(await call('PUT', `/v2/cob/${nextTxid()}`, { body: cobBody('1.00', 0) }), 400, 'CobOperacaoInvalida');

    const read = await call('GET', `/v2/cob/${txid}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    expectProblem(await call('GET', `/v2/cob/${nextTxid()}`), 404, 'CobNaoEncontrado');
  });

  it('removes an ATIVA cob (revisao + 1) and refuses to change it again or to take its payment', async () => {
    const txid = await newCob();
    const removed = await call('PATCH', `/v2/cob/${txid}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    expect(removed.status).toBe(200);
    conforms('Cob', removed.body);
    expect(removed.body).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    expectProblem(await call('PATCH', `/v2/cob/${txid}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } }), 400, 'CobOperacaoInvalida');
    await expect(fake.pay(txid)).rejects.toBeInstanceOf(FakePspError);
    expectProblem(await call('PATCH', `/v2/cob/${nextTxid()}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } }), 404, 'CobNaoEncontrado');
  });
});

describe('received Pix', () => {
  it('pays a cob: CONCLUIDA with its Pix, readable, paid once, not after its expiry', async () => {
    const txid = await newCob('25.00');
    const pix = await fake.pay(txid);
    conforms('Pix', pix);
    expect(pix.endToEndId).toMatch(END_TO_END_ID_PATTERN);
    expect(pix.endToEndId.slice(0, 21)).toBe(`E09089356${new Date(clock.now()).toISOString().replace(/\D/g, '').slice(0, 12)}`);
    expect(pix).toMatchObject({ txid, valor: '25.00', chave: PIX_KEY, horario: new Date(clock.now()).toISOString(), gnExtras: { pagador: { nome: expect.any(String), cpf: expect.any(String), codigoBanco: expect.any(String) } } });
    const cob = await call('GET', `/v2/cob/${txid}`);
    expect(cob.body).toMatchObject({ status: 'CONCLUIDA', pix: [pix] });
    const read = await call('GET', `/v2/pix/${pix.endToEndId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(pix);
    await expect(fake.pay(txid)).rejects.toMatchObject({ status: 409 });
    expectProblem(await call('GET', '/v2/pix/E09089356202611211200aaaaaaaaaaa'), 404, 'PixNaoEncontrado');

    const expiring = await newCob('1.00', 60);
    tick(61_000);
    await expect(fake.pay(expiring)).rejects.toMatchObject({ status: 409 });
    expect((await call('GET', `/v2/cob/${expiring}`)).body.status).toBe('ATIVA');
  });

  it('pays a different amount when told to (the wrong-amount knob) and takes a Pix tied to no cob of ours', async () => {
    const txid = await newCob('30.00');
    const wrong = await fake.pay(txid, { valor: '29.99', pagador: { nome: 'Joana', cnpj: '12ABC34501DE35' } });
    expect(wrong).toMatchObject({ valor: '29.99', gnExtras: { pagador: { nome: 'Joana', cnpj: '12ABC34501DE35' } } });
    const stray = await fake.receivePix({ valor: '7.00', txid: 'naoexiste0001' });
    const loose = await fake.receivePix({ valor: '3.00' });
    expect(loose.txid).toBeUndefined();
    expect((await call('GET', `/v2/pix/${stray.endToEndId}`)).body).toMatchObject({ txid: 'naoexiste0001', valor: '7.00' });
    await expect(fake.receivePix({ valor: '1.00', txid })).rejects.toMatchObject({ status: 409 });
  });

  it('lists received Pix by period, inclusive, ordered by horario, in pages; refuses a listing without inicio/fim', async () => {
    tick(DAY_MS);
    const start = clock.now();
    const paid = [];
    for (const valor of ['1.00', '2.00', '3.00']) {
      paid.push(await fake.pay(await newCob(valor)));
      tick();
    }
    const inicio = new Date(start).toISOString();
    const fim = paid[2]!.horario;
    const page = async (query: string) => {
      const answer = await call('GET', `/v2/pix?${query}`);
      expect(answer.status).toBe(200);
      conforms('PixPagina', answer.body);
      return answer.body;
    };
    const first = await page(`inicio=${inicio}&fim=${fim}&paginacao.itensPorPagina=2`);
    expect(first.parametros.paginacao).toEqual({ paginaAtual: 0, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 });
    expect(first.pix.map((pix: { endToEndId: string }) => pix.endToEndId)).toEqual([paid[0]!.endToEndId, paid[1]!.endToEndId]);
    const second = await page(`inicio=${inicio}&fim=${fim}&paginacao.itensPorPagina=2&paginacao.paginaAtual=1`);
    expect(second.pix.map((pix: { endToEndId: string }) => pix.endToEndId)).toEqual([paid[2]!.endToEndId]);
    const byTxid = await page(`inicio=${inicio}&fim=${encodeURIComponent(fim.replace('Z', '+00:00'))}&txid=${paid[1]!.txid}`);
    expect(byTxid.pix).toHaveLength(1);
    const exactStart = await page(`inicio=${paid[1]!.horario}&fim=${paid[1]!.horario}`);
    expect(exactStart.pix).toHaveLength(1);

    expectProblem(await call('GET', `/v2/pix?inicio=${inicio}`), 400, 'PixConsultaInvalida');
    expectProblem(await call('GET', `/v2/pix?inicio=ontem&fim=${fim}`), 400, 'PixConsultaInvalida');
    expectProblem(await call('GET', `/v2/pix?inicio=${inicio}&fim=${fim}&paginacao.itensPorPagina=1001`), 400, 'PixConsultaInvalida');
  });
});

describe('webhook registration and callbacks', () => {
  it('refuses a URL that is not https, or whose listener takes calls without a client certificate, or fails the test POST', async () => {
    expectEfiError(await call('PUT', `/v2/webhook/${PIX_KEY}`, { body: { webhookUrl: 'http://127.0.0.1:1/hook' } }), 400, 'valor_invalido');
    expectEfiError(await call('PUT', '/v2/webhook/outra@chave.test', { body: { webhookUrl: listener.url } }), 400, 'chave_invalida');
    const open = await startCallbackListener(fake.certificates, false);
    try {
      expectEfiError(await call('PUT', `/v2/webhook/${PIX_KEY}`, { body: { webhookUrl: open.url } }), 400, 'webhook_invalido');
    } finally {
      await open.close();
    }
    expectEfiError(await call('PUT', `/v2/webhook/${PIX_KEY}`, { body: { webhookUrl: 'https://127.0.0.1:1/hook' } }), 400, 'webhook_invalido');
    expectProblem(await call('GET', `/v2/webhook/${PIX_KEY}`), 404, 'WebhookNaoEncontrado');
  });

  it('registers an mTLS listener after probing it, then calls back {webhookUrl}/pix with a paid cob', async () => {
    const registered = await call('PUT', `/v2/webhook/${PIX_KEY}`, { body: { webhookUrl: listener.url } });
    expect(registered.status).toBe(201);
    expect(listener.bare).toEqual([{ path: '/webhook', body: JSON.stringify({ evento: 'teste_webhook' }) }]);
    const read = await call('GET', `/v2/webhook/${PIX_KEY}`);
    conforms('Webhook', read.body);
    expect(read.body).toEqual({ webhookUrl: listener.url, chave: PIX_KEY, criacao: new Date(clock.now()).toISOString() });

    const pix = await fake.pay(await newCob('10.00'));
    await fake.flushCallbacks();
    const body = listener.bodies.at(-1)!;
    conforms('Callback', body);
    expect(body.pix).toEqual([{ endToEndId: pix.endToEndId, txid: pix.txid, valor: '10.00', chave: PIX_KEY, horario: pix.horario, gnExtras: pix.gnExtras }]);
  });

  it('the listener refuses the forged certificate at the handshake, and takes the real one', async () => {
    const post = (tls: { cert?: string; key?: string }) =>
      new Promise<number>((resolve, reject) => {
        const outgoing = request(`${listener.url}/pix`, { method: 'POST', ca: fake.certificates.webhookServerCa, agent: false, ...tls }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        outgoing.on('error', reject);
        outgoing.end('{"pix":[]}');
      });
    await expect(post({ cert: fake.certificates.forgedClientCert, key: fake.certificates.forgedClientKey })).rejects.toThrow();
    await expect(post({})).rejects.toThrow();
    expect(await post({ cert: fake.certificates.callbackClientCert, key: fake.certificates.callbackClientKey })).toBe(200);
  });

  it('retries a callback answered 500, then gives up after the last delay', async () => {
    listener.failNext(2);
    const first = await fake.pay(await newCob('4.00'));
    await fake.flushCallbacks();
    expect(received().filter((item) => item.endToEndId === first.endToEndId)).toHaveLength(1);
    expect(fake.callbacks.attempts.filter((attempt) => attempt.body.pix[0]?.endToEndId === first.endToEndId).map((attempt) => attempt.status)).toEqual([500, 500, 200]);

    listener.failNext(3);
    const lost = await fake.pay(await newCob('5.00'));
    await fake.flushCallbacks();
    expect(received().some((item) => item.endToEndId === lost.endToEndId)).toBe(false);
    expect(fake.callbacks.abandoned.at(-1)).toMatchObject({ url: listener.url, attempts: 3, body: { pix: [{ endToEndId: lost.endToEndId }] } });
  });

  it('duplicates, holds and reverses, and lies on the next callback while reads keep the truth', async () => {
    fake.callbacks.duplicate(2);
    const twice = await fake.pay(await newCob('6.00'));
    await fake.flushCallbacks();
    fake.callbacks.duplicate(0);
    expect(received().filter((item) => item.endToEndId === twice.endToEndId)).toHaveLength(3);

    fake.callbacks.hold();
    fake.callbacks.reverse(true);
    const early = await fake.pay(await newCob('7.00'));
    await new Promise((resolve) => setImmediate(resolve));
    const late = await fake.pay(await newCob('8.00'));
    await fake.flushCallbacks();
    expect(received().some((item) => item.endToEndId === early.endToEndId || item.endToEndId === late.endToEndId)).toBe(false);
    const before = listener.bodies.length;
    await fake.callbacks.release();
    fake.callbacks.reverse(false);
    expect(listener.bodies.slice(before).map((body) => body.pix[0]?.endToEndId)).toEqual([late.endToEndId, early.endToEndId]);

    fake.callbacks.lieNext({ valor: '999999.99' });
    const honest = await fake.pay(await newCob('9.00'));
    await fake.flushCallbacks();
    expect(received().find((item) => item.endToEndId === honest.endToEndId)?.valor).toBe('999999.99');
    expect((await call('GET', `/v2/pix/${honest.endToEndId}`)).body.valor).toBe('9.00');
  });
});

describe('sends (Efí Pix send)', () => {
  const envio = (valor: string, favorecido: Record<string, string>, chave = PIX_KEY) => ({ valor, pagador: { chave, infoPagador: 'Saque' }, favorecido });

  it('takes a send (EM_PROCESSAMENTO, nothing debited), settles it REALIZADO with the receiver, and calls back SOLICITACAO', async () => {
    await fake.receivePix({ valor: '100.00' });
    const before = fake.balanceCents();
    const idEnvio = nextId('envio');
    const accepted = await call('PUT', `/v3/gn/pix/${idEnvio}`, { body: envio('15.00', { chave: '52998224725', cpf: '52998224725' }) });
    expect(accepted.status).toBe(201);
    conforms('EnvioAceito', accepted.body);
    expect(accepted.body).toMatchObject({ idEnvio, valor: '15.00', status: 'EM_PROCESSAMENTO', horario: { solicitacao: new Date(clock.now()).toISOString() } });
    expect(fake.balanceCents()).toBe(before);
    const pending = await call('GET', `/v2/gn/pix/enviados/id-envio/${idEnvio}`);
    conforms('PixEnviado', pending.body);
    expect(pending.body).toMatchObject({ endToEndId: accepted.body.e2eId, status: 'EM_PROCESSAMENTO', chave: '52998224725', favorecido: { chave: '52998224725' } });
    expect(pending.body.favorecido.identificacao).toBeUndefined();

    tick();
    const settled = await fake.settleEnvio(idEnvio);
    expect(fake.balanceCents()).toBe(before - 1_500);
    const read = await call('GET', `/v2/gn/pix/enviados/id-envio/${idEnvio}`);
    conforms('PixEnviado', read.body);
    expect(read.body).toEqual(settled);
    // As Efí's SDK types the read: the name and document in `identificacao`, the account in `contaBanco`,
    // its ISPB only when asked with exibirCodigoBanco=true.
    expect(read.body).toMatchObject({
      status: 'REALIZADO',
      horario: { liquidacao: new Date(clock.now()).toISOString() },
      favorecido: {
        identificacao: { cpf: '52998224725', nome: expect.any(String) },
        contaBanco: { cpf: '52998224725', nome: expect.any(String), agencia: expect.any(String), conta: expect.any(String), tipoConta: 'cacc' },
      },
    });
    expect(read.body.favorecido.contaBanco.codigoBanco).toBeUndefined();
    const withBank = await call('GET', `/v2/gn/pix/enviados/id-envio/${idEnvio}?exibirCodigoBanco=true`);
    conforms('PixEnviado', withBank.body);
    expect(withBank.body.favorecido.contaBanco).toMatchObject({ codigoBanco: expect.stringMatching(/^[0-9A-Z]{8}$/) });
    await fake.flushCallbacks();
    expect(received().find((item) => item.gnExtras?.idEnvio === idEnvio)).toEqual({
      endToEndId: accepted.body.e2eId,
      chave: PIX_KEY,
      tipo: 'SOLICITACAO',
      status: 'REALIZADO',
      valor: '15.00',
      horario: new Date(clock.now()).toISOString(),
      gnExtras: { idEnvio },
    });
    await expect(fake.settleEnvio(idEnvio)).rejects.toMatchObject({ status: 409 });
  });

  it('refuses a reused idEnvio, another payer key and a key of another document (the fake DICT)', async () => {
    const idEnvio = nextId('envio');
    expect((await call('PUT', `/v2/gn/pix/${idEnvio}`, { body: envio('1.00', { chave: 'fulano@exemplo.test' }) })).status).toBe(201);
    expectEfiError(await call('PUT', `/v3/gn/pix/${idEnvio}`, { body: envio('1.00', { chave: 'fulano@exemplo.test' }) }), 409, 'id_envio_duplicado');
    expectEfiError(await call('PUT', `/v3/gn/pix/${nextId('envio')}`, { body: envio('1.00', { chave: 'fulano@exemplo.test' }, 'outra@chave.test') }), 400, 'chave_invalida');
    expectEfiError(await call('PUT', `/v3/gn/pix/${nextId('envio')}`, { body: envio('1.00', { chave: '52998224725', cpf: '11144477735' }) }), 400, 'chave_nao_pertence_ao_documento');
    fake.setKeyOwner('+5511987654321', { nome: 'Ciclana', cnpj: '11222333000181' });
    expectEfiError(await call('PUT', `/v3/gn/pix/${nextId('envio')}`, { body: envio('1.00', { chave: '+5511987654321', cpf: '52998224725' }) }), 400, 'chave_nao_pertence_ao_documento');
    const owned = nextId('envio');
    expect((await call('PUT', `/v3/gn/pix/${owned}`, { body: envio('1.00', { chave: '+5511987654321', cnpj: '11222333000181' }) })).status).toBe(201);
    expect((await fake.settleEnvio(owned)).favorecido?.identificacao).toMatchObject({ nome: 'Ciclana', cnpj: '11222333000181' });
    expectEfiError(await call('PUT', `/v3/gn/pix/${nextId('envio')}`, { body: envio('0.00', { chave: '52998224725' }) }), 400, 'valor_invalido');
    expectProblem(await call('GET', '/v2/gn/pix/enviados/id-envio/naoexiste'), 404, 'PixEnviadoNaoEncontrado');
  });

  it('rejects a send (NAO_REALIZADO with gnExtras.erro, horario null in the callback), returns a paid one, and fails one the balance cannot cover (AM04)', async () => {
    const rejected = nextId('envio');
    await call('PUT', `/v3/gn/pix/${rejected}`, { body: envio('2.00', { chave: '52998224725' }) });
    const before = fake.balanceCents();
    const failed = await fake.rejectEnvio(rejected, 'AC03', 'Conta inexistente');
    expect(failed).toMatchObject({ status: 'NAO_REALIZADO', gnExtras: { erro: { codigo: 'AC03', motivo: 'Conta inexistente', origem: expect.any(String) } } });
    expect(fake.balanceCents()).toBe(before);
    await fake.flushCallbacks();
    expect(received().find((item) => item.gnExtras?.idEnvio === rejected)).toMatchObject({ status: 'NAO_REALIZADO', horario: null, gnExtras: { erro: { codigo: 'AC03' } } });

    const returned = nextId('envio');
    await call('PUT', `/v3/gn/pix/${returned}`, { body: envio('10.00', { chave: '52998224725' }) });
    await fake.settleEnvio(returned);
    const afterSend = fake.balanceCents();
    await fake.returnEnvio(returned, '4.00');
    await expect(fake.returnEnvio(returned, '6.01')).rejects.toMatchObject({ status: 409 });
    expect(fake.balanceCents()).toBe(afterSend + 400);
    const read = await call('GET', `/v2/gn/pix/enviados/id-envio/${returned}`);
    conforms('PixEnviado', read.body);
    expect(read.body.devolucoes).toEqual([expect.objectContaining({ valor: '4.00', status: 'DEVOLVIDO', rtrId: expect.stringMatching(/^D09089356\d{12}[A-Za-z0-9]{11}$/) })]);
    await fake.flushCallbacks();
    expect(received().find((item) => item.gnExtras?.idEnvio === returned && item.devolucoes)).toMatchObject({ tipo: 'SOLICITACAO', devolucoes: [{ valor: '4.00', status: 'DEVOLVIDO' }] });

    const tooMuch = nextId('envio');
    const balance = fake.balanceCents();
    await call('PUT', `/v3/gn/pix/${tooMuch}`, { body: envio(((balance + 100) / 100).toFixed(2), { chave: '52998224725' }) });
    expect(await fake.settleEnvio(tooMuch)).toMatchObject({ status: 'NAO_REALIZADO', gnExtras: { erro: { codigo: 'AM04' } } });
    expect(fake.balanceCents()).toBe(balance);
  });
});

describe('refunds (devolução) and MED', () => {
  it('takes a refund EM_PROCESSAMENTO, settles it DEVOLVIDO (debited, called back), frees a rejected one, refuses totals above the Pix', async () => {
    const pix = await fake.pay(await newCob('20.00'));
    const balance = fake.balanceCents();
    const path = (id: string) => `/v2/pix/${pix.endToEndId}/devolucao/${id}`;
    const first = await call('PUT', path('dev1'), { body: { valor: '12.00', descricao: 'Devolução do pedido' } });
    expect(first.status).toBe(201);
    conforms('Devolucao', first.body);
    expect(first.body).toMatchObject({ id: 'dev1', valor: '12.00', status: 'EM_PROCESSAMENTO', rtrId: expect.stringMatching(/^D09089356/) });
    expect(fake.balanceCents()).toBe(balance);
    expectProblem(await call('PUT', path('dev1'), { body: { valor: '1.00' } }), 400, 'PixDevolucaoInvalida');
    expectProblem(await call('PUT', path('dev2'), { body: { valor: '8.01' } }), 400, 'PixDevolucaoInvalida');
    expectProblem(await call('PUT', '/v2/pix/E09089356202611211200bbbbbbbbbbb/devolucao/x1', { body: { valor: '1.00' } }), 404, 'PixNaoEncontrado');
    expectProblem(await call('GET', path('naoexiste')), 404, 'PixDevolucaoNaoEncontrada');

    const settled = await fake.settleDevolucao(pix.endToEndId, 'dev1');
    expect(settled).toMatchObject({ status: 'DEVOLVIDO', horario: { liquidacao: expect.any(String) } });
    expect(fake.balanceCents()).toBe(balance - 1_200);
    expect((await call('GET', path('dev1'))).body).toEqual(settled);
    await fake.flushCallbacks();
    expect(received().find((item) => item.endToEndId === pix.endToEndId && item.devolucoes?.[0]?.id === 'dev1')).toMatchObject({ devolucoes: [{ status: 'DEVOLVIDO', valor: '12.00' }] });

    expect((await call('PUT', path('dev2'), { body: { valor: '8.00' } })).status).toBe(201);
    expect(await fake.rejectDevolucao(pix.endToEndId, 'dev2', 'Conta do pagador encerrada')).toMatchObject({ status: 'NAO_REALIZADO', motivo: 'Conta do pagador encerrada' });
    expect(fake.balanceCents()).toBe(balance - 1_200);
    expect((await call('PUT', path('dev3'), { body: { valor: '8.00', natureza: 'ORIGINAL' } })).status).toBe(201);
    const read = await call('GET', `/v2/pix/${pix.endToEndId}`);
    conforms('Pix', read.body);
    expect(read.body.devolucoes.map((refund: { id: string; status: string }) => [refund.id, refund.status])).toEqual([
      ['dev1', 'DEVOLVIDO'],
      ['dev2', 'NAO_REALIZADO'],
      ['dev3', 'EM_PROCESSAMENTO'],
    ]);
  });

  it('refuses a refund more than 90 days after the Pix; a MED is DEVOLVIDO at once and debited', async () => {
    const pix = await fake.pay(await newCob('50.00'));
    const balance = fake.balanceCents();
    const med = await fake.med(pix.endToEndId, '20.00');
    conforms('Devolucao', med);
    expect(med).toMatchObject({ natureza: 'MED_OPERACIONAL', status: 'DEVOLVIDO', valor: '20.00' });
    expect(fake.balanceCents()).toBe(balance - 2_000);
    await expect(fake.med(pix.endToEndId, '30.01')).rejects.toMatchObject({ status: 409 });
    tick(91 * DAY_MS);
    token = await newToken();
    expectProblem(await call('PUT', `/v2/pix/${pix.endToEndId}/devolucao/late1`, { body: { valor: '1.00' } }), 400, 'PixDevolucaoInvalida');
  });
});

describe('faults', () => {
  const put = (txid: string) => call('PUT', `/v2/cob/${txid}`, { body: cobBody() });

  it('error: 503 ServicoIndisponivel with a correlationId and nothing done; with nome, an Efí error', async () => {
    fake.fault({ operation: 'cob.put', mode: 'error' });
    const txid = nextTxid();
    const answer = await put(txid);
    expectProblem(answer, 503, 'ServicoIndisponivel');
    expect(answer.body.correlationId).toEqual(expect.any(String));
    expect((await call('GET', `/v2/cob/${txid}`)).status).toBe(404);
    fake.fault({ operation: 'envio.put', mode: 'error', status: 422, nome: 'pagamento_negado', mensagem: 'Negado pela análise de risco.' });
    expectEfiError(await call('PUT', `/v3/gn/pix/${nextId('envio')}`, { body: { valor: '1.00', pagador: { chave: PIX_KEY }, favorecido: { chave: '52998224725' } } }), 422, 'pagamento_negado');
  });

  it('drop_before: the connection dies and nothing happened; drop_after: it dies after the cob was made', async () => {
    fake.fault({ operation: 'cob.put', mode: 'drop_before' });
    const never = nextTxid();
    await expect(put(never)).rejects.toThrow();
    expect((await call('GET', `/v2/cob/${never}`)).status).toBe(404);
    fake.fault({ operation: 'cob.put', mode: 'drop_after' });
    const made = nextTxid();
    await expect(put(made)).rejects.toThrow();
    expect((await call('GET', `/v2/cob/${made}`)).status).toBe(200);
    expect(fake.requests.filter((served) => served.path === `/v2/cob/${made}`).map((served) => served.status)).toEqual([0, 200]);
  });

  it('slow: answers normally after the delay; garbled: does the work and answers an unparseable body', async () => {
    fake.fault({ operation: 'cob.get', mode: 'slow', delayMs: 150 });
    const txid = await newCob();
    const started = performance.now();
    expect((await call('GET', `/v2/cob/${txid}`)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    fake.fault({ operation: 'cob.put', mode: 'garbled' });
    const garbled = nextTxid();
    const answer = await put(garbled);
    expect(answer.status).toBe(201);
    expect(() => JSON.parse(answer.text)).toThrow();
    expect((await call('GET', `/v2/cob/${garbled}`)).status).toBe(200);
  });

  it('a rule applies `count` times then is gone; clearFaults removes the rest', async () => {
    fake.fault({ operation: 'saldo.get', mode: 'error', status: 500, count: 2 });
    fake.fault({ operation: 'pix.get', mode: 'error', count: 5 });
    expect(fake.faults()).toEqual([expect.objectContaining({ operation: 'saldo.get', count: 2 }), expect.objectContaining({ operation: 'pix.get', count: 5 })]);
    expectProblem(await call('GET', '/v2/gn/saldo'), 500, 'ErroInternoDoServidor');
    expect(fake.faults()[0]).toMatchObject({ operation: 'saldo.get', count: 1 });
    expect((await call('GET', '/v2/gn/saldo')).status).toBe(500);
    expect((await call('GET', '/v2/gn/saldo')).status).toBe(200);
    fake.clearFaults();
    expect(fake.faults()).toEqual([]);
    fake.fault({ operation: 'token', mode: 'error' });
    expect((await call('POST', '/oauth/token', { auth: basic(CLIENT_ID, CLIENT_SECRET), body: { grant_type: 'client_credentials' } })).status).toBe(503);
  });

  it('callback faults fail one delivery attempt, which is retried (drop_after: delivered, retried anyway)', async () => {
    fake.fault({ operation: 'callback', mode: 'error' });
    const first = await fake.pay(await newCob('2.50'));
    await fake.flushCallbacks();
    expect(received().filter((item) => item.endToEndId === first.endToEndId)).toHaveLength(1);
    fake.fault({ operation: 'callback', mode: 'drop_after' });
    const second = await fake.pay(await newCob('2.60'));
    await fake.flushCallbacks();
    expect(received().filter((item) => item.endToEndId === second.endToEndId)).toHaveLength(2);
  });
});

describe('control API and the plain-HTTP port', () => {
  const control = (method: string, path: string, body?: unknown) => call(method, path, { body, auth: null });

  it('drives the provider without a token: pay, settle, faults, callbacks, DICT, state', async () => {
    const txid = await newCob('3.00');
    const paid = await control('POST', `/_fake/cobs/${txid}/pay`, {});
    expect(paid.status).toBe(200);
    conforms('Pix', paid.body);
    expect((await control('POST', `/_fake/cobs/${txid}/pay`, {})).status).toBe(409);
    expect((await control('POST', `/_fake/cobs/${nextTxid()}/pay`, {})).status).toBe(404);
    expect((await control('POST', '/_fake/pix', { valor: '1.00' })).status).toBe(200);
    expect((await control('POST', '/_fake/envios/naoexiste/settle', {})).status).toBe(404);
    expect((await control('POST', '/_fake/faults', { operation: 'cob.put', mode: 'explode' })).status).toBe(400);
    expect((await control('POST', '/_fake/faults', { operation: 'cob.get', mode: 'error', count: 2 })).body).toEqual({ faults: [{ operation: 'cob.get', mode: 'error', count: 2 }] });
    expect((await control('DELETE', '/_fake/faults')).body).toEqual({ faults: [] });
    expect((await control('POST', '/_fake/dict', { chave: 'beltrano@exemplo.test', nome: 'Beltrano', cpf: '11144477735' })).status).toBe(200);
    expect((await control('POST', '/_fake/callbacks', { hold: true })).body).toMatchObject({ hold: true });
    await fake.pay(await newCob('1.50'));
    expect((await control('POST', '/_fake/callbacks/release')).body).toMatchObject({ hold: false });
    expect((await control('POST', '/_fake/callbacks/flush')).status).toBe(200);
    const state = await control('GET', '/_fake/state');
    expect(state.body).toMatchObject({ balanceCents: fake.balanceCents(), saldo: (fake.balanceCents() / 100).toFixed(2), webhookUrl: listener.url });
    expect(state.body.cobs).toBeGreaterThan(0);
    expect((await control('POST', '/_fake/tokens/expire')).status).toBe(200);
    expect((await call('GET', '/v2/gn/saldo')).status).toBe(401);
    token = await newToken();
  });

  it('serves the API, not the control API, over plain HTTP', async () => {
    const plain = async (path: string, auth?: string) => {
      const response = await fetch(`${fake.plainUrl}${path}`, { headers: auth ? { authorization: auth } : {} });
      return response.status;
    };
    expect(await plain('/v2/gn/saldo', `Bearer ${token}`)).toBe(200);
    expect(await plain('/_fake/state')).toBe(404);
  });
});

describe('money', () => {
  it('moves the balance only on receipt, settlement, return and MED, and saldo reports it', async () => {
    const at = () => fake.balanceCents();
    const start = at();
    const pix = await fake.pay(await newCob('40.00'));
    expect(at()).toBe(start + 4_000);
    const idEnvio = nextId('envio');
    await call('PUT', `/v3/gn/pix/${idEnvio}`, { body: { valor: '10.00', pagador: { chave: PIX_KEY }, favorecido: { chave: '52998224725' } } });
    await call('PUT', `/v2/pix/${pix.endToEndId}/devolucao/m1`, { body: { valor: '5.00' } });
    expect(at()).toBe(start + 4_000);
    await fake.settleEnvio(idEnvio);
    expect(at()).toBe(start + 3_000);
    await fake.settleDevolucao(pix.endToEndId, 'm1');
    expect(at()).toBe(start + 2_500);
    await fake.returnEnvio(idEnvio, '10.00');
    expect(at()).toBe(start + 3_500);
    await fake.med(pix.endToEndId, '1.00');
    expect(at()).toBe(start + 3_400);
    const saldo = await call('GET', '/v2/gn/saldo');
    expect(saldo.body).toEqual({ saldo: (at() / 100).toFixed(2), bloqueios: { judicial: '0.00', med: '0.00', total: '0.00' } });
  });

  it('autoSettleMs settles sends and refunds that long after acceptance, by the clock', async () => {
    const autoClock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
    const auto = await startFakePsp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, clock: autoClock, certificates: fake.certificates, autoSettleMs: 5_000 });
    try {
      const pix = await auto.receivePix({ valor: '30.00', txid: 'auto1' });
      const agent = new Agent({ connect: { ca: auto.certificates.ca, cert: auto.certificates.gatewayClientCert, key: auto.certificates.gatewayClientKey } });
      const autoCall = async (method: string, path: string, body?: unknown, auth?: string) => {
        const response = await fetch(`${auto.url}${path}`, { method, dispatcher: agent, headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
        return (await response.json()) as Record<string, unknown>;
      };
      const { access_token: accessToken } = await autoCall('POST', '/oauth/token', { grant_type: 'client_credentials' }, basic(CLIENT_ID, CLIENT_SECRET));
      const bearer = `Bearer ${String(accessToken)}`;
      await autoCall('PUT', '/v3/gn/pix/auto1', { valor: '10.00', pagador: { chave: PIX_KEY }, favorecido: { chave: '52998224725' } }, bearer);
      await autoCall('PUT', `/v2/pix/${pix.endToEndId}/devolucao/auto1`, { valor: '5.00' }, bearer);
      autoClock.advance(4_999);
      expect((await autoCall('GET', '/v2/gn/pix/enviados/id-envio/auto1', undefined, bearer)).status).toBe('EM_PROCESSAMENTO');
      autoClock.advance(1);
      expect((await autoCall('GET', '/v2/gn/pix/enviados/id-envio/auto1', undefined, bearer)).status).toBe('REALIZADO');
      expect((await autoCall('GET', `/v2/pix/${pix.endToEndId}/devolucao/auto1`, undefined, bearer)).status).toBe('DEVOLVIDO');
      expect(auto.balanceCents()).toBe(1_500);
      await agent.close();
    } finally {
      await auto.close();
    }
  });
});
