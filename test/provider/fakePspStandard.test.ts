/**
 * The fake payment provider's `standard` profile (scripts/fakepsp, `profile: 'standard'`): the Central Bank's
 * API Pix 2.9.0 alone, checked against the standard's own document, vendored as
 * openapi/upstream/bacen-pix-api-2.9.0.yaml (github:bacen/pix-api). API Pix under `/api/v2`; the RFC 6749
 * token request; no Efí extension (paths, `gnExtras`, `{nome, mensagem}`); a PUT on a txid in use revises an
 * ATIVA cob; `devedor` as PessoaFisica / PessoaJuridica; a listing without `pix` when a page is empty;
 * problem+json for every error; the in-process knobs. Every answer body is validated with Ajv against the
 * standard's schemas, and every error answer of the API is checked to be a `Problema`. A few checks at the
 * end show the default profile still plays Efí.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type AnySchema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FakePspError, startFakePsp, type FakePsp } from '../../scripts/fakepsp/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { parseBrCode } from '../../src/primitives/brcode.ts';
import { startCallbackListener, type CallbackListener } from '../support/callbackListener.ts';

const PIX_KEY = 'pagamentos@pixgate.test';
const CLIENT_ID = 'Client_Id_fakepsp_std';
const CLIENT_SECRET = 'Client_Secret_fakepsp_std';
const STANDARD_SCOPES = [
  'cob.write',
  'cob.read',
  'pix.write',
  'pix.read',
  'webhook.write',
  'webhook.read',
  'cobv.write',
  'cobv.read',
  'lotecobv.write',
  'lotecobv.read',
  'payloadlocation.write',
  'payloadlocation.read',
  'rec.write',
  'rec.read',
  'solicrec.write',
  'solicrec.read',
  'cobr.write',
  'cobr.read',
  'payloadlocationrec.write',
  'payloadlocationrec.read',
  'webhookrec.write',
  'webhookrec.read',
  'webhookcobr.write',
  'webhookcobr.read',
];
const PROBLEM_TYPE = 'https://pix.bcb.gov.br/api/v2/error/';

// ---- the standard's schemas ----------------------------------------------------------------------------

type Json = Record<string, unknown>;
interface Standard {
  info: { version: string };
  servers: { url: string }[];
  components: { schemas: Record<string, Json>; requestBodies: Record<string, Json>; securitySchemes: Json };
}

const standard = parse(readFileSync(new URL('../../openapi/upstream/bacen-pix-api-2.9.0.yaml', import.meta.url), 'utf8')) as Standard;

/**
 * Defects of the 2.9.0 document that make its schemas refuse what its own text and examples show; each is
 * undone here, narrowly, so the rest of the schema still applies:
 * - CPF patterns are written as JavaScript regex literals (`"/^\\d{11}$/"`): as a JSON Schema pattern that
 *   matches nothing, so every `PessoaFisica` would fail. The slashes are dropped.
 * - `PixConsultados` requires `cobs` (copied from `CobsConsultadas`), not `pix`; its example has `pix`.
 * - `WebhookCompleto` requires `cnpj` ("Filtro pelo CNPJ do devedor", copied from a query parameter); its
 *   example `webhookResponse1` has `chave`, which is what is required here instead.
 * - `location` (and `loc.location`) is `format: uri`, but the standard's examples and the BR Code carry it
 *   without a scheme (`pix.example.com/qr/v2/...`); `uri` also accepts that form here.
 */
function undoDefects(schemas: Record<string, Json>): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Json;
    if (typeof record.pattern === 'string' && /^\/.*\/$/.test(record.pattern)) record.pattern = record.pattern.slice(1, -1);
    Object.values(record).forEach(visit);
  };
  visit(schemas);
  expect(schemas.PixConsultados?.required).toEqual(['parametros', 'cobs']);
  (schemas.PixConsultados as Json).required = ['parametros'];
  expect(schemas.WebhookCompleto?.required).toEqual(['webhookUrl', 'cnpj', 'criacao']);
  (schemas.WebhookCompleto as Json).required = ['webhookUrl', 'chave', 'criacao'];
}

// ajv-formats is CommonJS: its plugin is the `default` property when imported from ESM.
const addFormats = addFormatsModule.default;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('uri', (value: string) => URL.canParse(value) || URL.canParse(`https://${value}`));
ajv.addFormat('int32', true);
ajv.addFormat('int64', true);
const STANDARD_ID = 'https://pixgate.test/bacen-pix-api';
beforeAll(() => {
  undoDefects(standard.components.schemas);
  ajv.addSchema({ $id: STANDARD_ID, components: { schemas: standard.components.schemas, requestBodies: standard.components.requestBodies } } as AnySchema);
});

/** Ajv's errors for `value` against the standard's schema at `pointer` (under components); [] when valid. */
function errorsFor(pointer: string, value: unknown): unknown[] {
  const validate = ajv.getSchema(`${STANDARD_ID}#/components/${pointer}`);
  if (!validate) throw new Error(`no schema ${pointer}`);
  validate(value);
  return validate.errors ?? [];
}

/** Fails with Ajv's errors unless `value` validates against the standard's schema `name`. */
function conforms(name: string, value: unknown): void {
  expect(errorsFor(`schemas/${name}`, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

/** Fails unless `value` carries only properties the standard's schema `name` names (no provider extension). */
function onlyStandardFields(name: string, value: object): void {
  const properties = Object.keys((standard.components.schemas[name]?.properties ?? {}) as Json);
  expect(Object.keys(value).filter((key) => !properties.includes(key)), `${name} extensions`).toEqual([]);
}

// ---- talking to the fake -------------------------------------------------------------------------------

interface Answer {
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
  // Bodies are checked against the standard's schemas; tests then read fields freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

interface CallOptions {
  body?: unknown;
  /** A form-encoded body (sent as is). */
  form?: string;
  /** The Authorization header; undefined: the shared bearer token; null: none. */
  auth?: string | null;
  agent?: Agent;
}

const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
let fake: FakePsp;
let gateway: Agent;
let listener: CallbackListener;
let token = '';
let counter = 0;

const nextTxid = () => `stdtx${String(++counter).padStart(4, '0')}${'abcdefghijklmnopqrstuvwxyz'.slice(0, 22)}`;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const credentials = basic(CLIENT_ID, CLIENT_SECRET);

async function send(url: string, method: string, options: CallOptions): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const auth = options.auth === undefined ? `Bearer ${token}` : options.auth;
  if (auth !== null) headers.authorization = auth;
  const response = await fetch(url, {
    method,
    headers,
    body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    dispatcher: options.agent ?? gateway,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', headers: response.headers, text, body };
}

/** Any error of the API is the standard's `Problema`, as problem+json, with a `detail`. */
function expectProblemShape(answer: Answer): void {
  expect(answer.contentType).toMatch(/^application\/problem\+json/);
  conforms('Problema', answer.body);
  expect(answer.body.status).toBe(answer.status);
  expect(answer.body.type).toMatch(new RegExp(`^${PROBLEM_TYPE}[A-Za-z]+$`));
  expect(answer.body.detail).toEqual(expect.any(String));
  expect(answer.body).not.toHaveProperty('nome');
  expect(answer.body).not.toHaveProperty('mensagem');
}

/** A call to API Pix (`apiBaseUrl` + path); every error answer is checked to be a `Problema`. */
async function api(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const answer = await send(`${fake.apiBaseUrl}${path}`, method, options);
  if (answer.status >= 400) expectProblemShape(answer);
  return answer;
}

/** A call at the origin (the token call, the control API, paths outside API Pix). */
async function origin(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const answer = await send(`${fake.url}${path}`, method, options);
  if (answer.status >= 400 && path !== '/oauth/token') expectProblemShape(answer);
  return answer;
}

function expectProblem(answer: Answer, status: number, type: string): void {
  expect(answer.status).toBe(status);
  expect(answer.body.type).toBe(`${PROBLEM_TYPE}${type}`);
}

const requestToken = (form: string, auth: string | null = credentials) => origin('POST', '/oauth/token', { form, auth });

async function newToken(scope?: string): Promise<string> {
  const answer = await requestToken(scope === undefined ? 'grant_type=client_credentials' : `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`);
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

const cobBody = (valor = '12.34', expiracao = 3600, extra: Json = {}) => ({ calendario: { expiracao }, valor: { original: valor }, chave: PIX_KEY, ...extra });

async function newCob(valor = '12.34', extra: Json = {}): Promise<string> {
  const txid = nextTxid();
  const created = await api('PUT', `/cob/${txid}`, { body: cobBody(valor, 3600, extra) });
  expect(created.status).toBe(201);
  conforms('CobGerada', created.body);
  return txid;
}

const period = (fromMs: number, toMs: number) => `inicio=${new Date(fromMs).toISOString()}&fim=${new Date(toMs).toISOString()}`;

/** Callback items received so far, flattened. */
const received = () => listener.bodies.flatMap((body) => body.pix);

beforeAll(async () => {
  fake = await startFakePsp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, clock, callbackRetryMs: [20, 40], plainPort: 0, profile: 'standard' });
  gateway = new Agent({ connect: { ca: fake.certificates.ca, cert: fake.certificates.gatewayClientCert, key: fake.certificates.gatewayClientKey } });
  listener = await startCallbackListener(fake.certificates);
  token = await newToken();
});

afterAll(async () => {
  await fake?.close();
  await gateway?.close();
  await listener?.close();
});

// ---- the tests -----------------------------------------------------------------------------------------

describe('the vendored document', () => {
  it('is API Pix 2.9.0, served under `/api/`, its token URL at the origin', () => {
    expect(standard.info.version).toBe('2.9.0');
    expect(standard.servers[0]?.url).toBe('https://pix.example.com/api/');
    expect(JSON.stringify(standard.components.securitySchemes)).toContain('"tokenUrl":"https://pix.example.com/oauth/token"');
  });
});

describe('where API Pix lives (base path)', () => {
  it('exposes the profile and the base URLs, version inside them', () => {
    expect(fake.profile).toBe('standard');
    expect(fake.apiBaseUrl).toBe(`${fake.url}/api/v2`);
    expect(fake.plainApiBaseUrl).toBe(`${fake.plainUrl}/api/v2`);
  });

  it('serves every operation under /api/v2; the unprefixed /v2 paths and unknown ones answer 404 problem+json', async () => {
    const txid = await newCob();
    expect((await api('GET', `/cob/${txid}`)).status).toBe(200);
    for (const [method, path] of [
      ['GET', `/v2/cob/${txid}`],
      ['PUT', `/v2/cob/${nextTxid()}`],
      ['GET', `/v2/pix?${period(0, clock.now())}`],
      ['GET', `/v2/webhook/${PIX_KEY}`],
      ['GET', `/api/cob/${txid}`],
      ['GET', '/api/v2/nada'],
    ] as const) {
      expectProblem(await origin(method, path, { body: method === 'PUT' ? cobBody() : undefined }), 404, 'NaoEncontrado');
    }
    expectProblem(await api('POST', `/cob/${txid}`, { body: cobBody() }), 405, 'RequisicaoInvalida');
  });

  it('keeps the control API at the origin, and serves API Pix (not the control API) on the plain port', async () => {
    expect((await origin('GET', '/_fake/state', { auth: null })).body).toMatchObject({ cobs: expect.any(Number) });
    const plain = async (url: string) => (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await plain(`${fake.plainApiBaseUrl}/pix?${period(0, clock.now())}`)).toBe(200);
    expect(await plain(`${fake.plainUrl}/v2/pix?${period(0, clock.now())}`)).toBe(404);
    expect(await plain(`${fake.plainUrl}/_fake/state`)).toBe(404);
  });
});

describe('no Efí extensions', () => {
  it('answers 404 problem+json on /v2/gn and /v3/gn, at the origin and under /api/v2', async () => {
    for (const [method, path] of [
      ['GET', '/v2/gn/saldo'],
      ['PUT', '/v3/gn/pix/envio1'],
      ['PUT', '/v2/gn/pix/envio1'],
      ['GET', '/v2/gn/pix/enviados/id-envio/envio1'],
      ['GET', `/v2/gn/pix/enviados?${period(0, clock.now())}`],
      ['GET', `/v2/gn/infracoes?${period(0, clock.now())}`],
      ['POST', '/v2/gn/infracoes/x1/defesa'],
      ['GET', '/api/v2/gn/saldo'],
    ] as const) {
      expectProblem(await origin(method, path, { body: method === 'GET' ? undefined : {} }), 404, 'NaoEncontrado');
    }
  });

  it('rejects the in-process helpers of Efí-only features', async () => {
    await expect(fake.settleEnvio('envio1')).rejects.toThrow(/Efí extension/);
    await expect(fake.rejectEnvio('envio1', 'AC03', 'x')).rejects.toThrow(/Efí extension/);
    await expect(fake.returnEnvio('envio1', '1.00')).rejects.toThrow(/Efí extension/);
    await expect(fake.fileInfraction('E09089356202611211200aaaaaaaaaaa', { valor: '1.00' })).rejects.toThrow(/Efí extension/);
    await expect(fake.blockInfraction('x')).rejects.toThrow(/Efí extension/);
    await expect(fake.closeInfraction('x', 'ACEITA')).rejects.toThrow(/Efí extension/);
    expect(() => fake.alterEnvio('envio1', 'REALIZADO')).toThrow(/Efí extension/);
    expect(() => fake.setSendReadShape('none')).toThrow(/Efí extension/);
  });

  it('refuses Efí settings at start', async () => {
    await expect(startFakePsp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, profile: 'standard', pixSemTxid: true, certificates: fake.certificates })).rejects.toThrow(
      /pixSemTxid/,
    );
  });
});

describe('OAuth2 token (RFC 6749 section 4.4; the standard names only the client-credentials flow)', () => {
  it('issues a Bearer token for a form body with the client in HTTP Basic, granting the standard scopes', async () => {
    const answer = await requestToken('grant_type=client_credentials');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: STANDARD_SCOPES.join(' ') });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const declared = Object.keys((standard.components.securitySchemes as { OAuth2: { flows: { clientCredentials: { scopes: Json } } } }).OAuth2.flows.clientCredentials.scopes);
    expect(STANDARD_SCOPES.filter((scope) => !declared.includes(scope))).toEqual([]);
  });

  it('grants only the asked scopes that are the standard\'s, and a token without a scope is refused 403', async () => {
    const answer = await requestToken(`grant_type=client_credentials&scope=${encodeURIComponent('cob.read pix.send gn.balance.read')}`);
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe('cob.read');
    const readOnly = `Bearer ${answer.body.access_token as string}`;
    const txid = await newCob();
    expect((await api('GET', `/cob/${txid}`, { auth: readOnly })).status).toBe(200);
    expectProblem(await api('PUT', `/cob/${nextTxid()}`, { auth: readOnly, body: cobBody() }), 403, 'AcessoNegado');
    expectProblem(await api('GET', `/pix?${period(0, clock.now())}`, { auth: readOnly }), 403, 'AcessoNegado');
    expect((await requestToken('grant_type=client_credentials&scope=')).body.scope).toBe(STANDARD_SCOPES.join(' '));
  });

  it('answers RFC 6749 section 5.2 errors: invalid_request, unsupported_grant_type, invalid_scope, invalid_client', async () => {
    const expectError = (answer: Answer, status: number, error: string) => {
      expect(answer.status).toBe(status);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(answer.body).toEqual({ error });
      expect(answer.headers.get('cache-control')).toBe('no-store');
    };
    expectError(await origin('POST', '/oauth/token', { body: { grant_type: 'client_credentials' }, auth: credentials }), 400, 'invalid_request');
    expectError(await requestToken(''), 400, 'invalid_request');
    expectError(await requestToken('grant_type='), 400, 'invalid_request');
    expectError(await requestToken('grant_type=client_credentials&grant_type=client_credentials'), 400, 'invalid_request');
    expectError(await requestToken('grant_type=password&username=a&password=b'), 400, 'unsupported_grant_type');
    expectError(await requestToken('grant_type=client_credentials&scope=pix.send'), 400, 'invalid_scope');
    const wrong = await requestToken('grant_type=client_credentials', basic(CLIENT_ID, 'wrong'));
    expectError(wrong, 401, 'invalid_client');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    expectError(await requestToken(`grant_type=client_credentials&client_id=${CLIENT_ID}&client_secret=${CLIENT_SECRET}`, null), 401, 'invalid_client');
  });

  it('refuses API calls without a valid token (401 problem+json), by the clock and after expireTokens()', async () => {
    expectProblem(await api('GET', `/cob/${nextTxid()}`, { auth: null }), 401, 'AcessoNegado');
    expectProblem(await api('GET', `/cob/${nextTxid()}`, { auth: 'Bearer not-a-token' }), 401, 'AcessoNegado');
    const short = await newToken();
    clock.advance(3_600_000);
    expectProblem(await api('GET', `/pix?${period(0, clock.now())}`, { auth: `Bearer ${short}` }), 401, 'AcessoNegado');
    token = await newToken();
    fake.expireTokens();
    expectProblem(await api('GET', `/pix?${period(0, clock.now())}`), 401, 'AcessoNegado');
    token = await newToken();
  });
});

describe('cob', () => {
  it('creates a cob (201 CobGerada, loc with txid and criacao) and reads it (CobCompleta)', async () => {
    const txid = nextTxid();
    const created = await api('PUT', `/cob/${txid}`, { body: cobBody('12.34') });
    expect(created.status).toBe(201);
    conforms('CobGerada', created.body);
    const criacao = new Date(clock.now()).toISOString();
    expect(created.body).toMatchObject({ txid, revisao: 0, status: 'ATIVA', chave: PIX_KEY, valor: { original: '12.34' }, calendario: { criacao, expiracao: 3600 } });
    expect(created.body.loc).toEqual({ id: expect.any(Number), location: created.body.location, tipoCob: 'cob', txid, criacao });
    expect(parseBrCode(created.body.pixCopiaECola)).toMatchObject({ kind: 'dynamic', locationUrl: created.body.location, amount: '12.34' });
    const read = await api('GET', `/cob/${txid}`);
    conforms('CobCompleta', read.body);
    expect(read.body).toEqual(created.body);
    expectProblem(await api('GET', `/cob/${nextTxid()}`), 404, 'CobNaoEncontrado');
    expectProblem(await api('PUT', '/cob/short1', { body: cobBody() }), 400, 'CobOperacaoInvalida');
    expectProblem(await api('PUT', `/cob/${nextTxid()}`, { body: cobBody('0.00') }), 400, 'CobOperacaoInvalida');
    expectProblem(await api('PUT', `/cob/${nextTxid()}`, { body: { ...cobBody(), chave: 'outra@chave.test' } }), 400, 'CobOperacaoInvalida');
  });

  it('PUT on the txid of an ATIVA cob revises it: 201, the new fields, revisao + 1 only when something changed', async () => {
    const txid = await newCob('10.00', { solicitacaoPagador: 'Pedido 41' });
    const first = (await api('GET', `/cob/${txid}`)).body;
    clock.advance(1_000);
    const revision = cobBody('15.00', 600, { devedor: { nome: 'Fulano de Tal', cpf: '12345678909' }, solicitacaoPagador: 'Pedido 42' });
    const revised = await api('PUT', `/cob/${txid}`, { body: revision });
    expect(revised.status).toBe(201);
    conforms('CobGerada', revised.body);
    expect(revised.body).toMatchObject({ txid, revisao: 1, status: 'ATIVA', valor: { original: '15.00' }, calendario: { criacao: first.calendario.criacao, expiracao: 600 } });
    expect(revised.body).toMatchObject({ devedor: { nome: 'Fulano de Tal', cpf: '12345678909' }, solicitacaoPagador: 'Pedido 42', location: first.location, loc: first.loc });
    expect(parseBrCode(revised.body.pixCopiaECola)).toMatchObject({ locationUrl: first.location, amount: '15.00' });

    expect((await api('PUT', `/cob/${txid}`, { body: revision })).body.revisao).toBe(1);
    const bare = await api('PUT', `/cob/${txid}`, { body: { calendario: {}, valor: { original: '15.00' }, chave: PIX_KEY } });
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({ revisao: 2, calendario: { expiracao: 86_400 } });
    expect(bare.body).not.toHaveProperty('devedor');
    expect(bare.body).not.toHaveProperty('solicitacaoPagador');
    expectProblem(await api('PUT', `/cob/${txid}`, { body: cobBody('0.00') }), 400, 'CobOperacaoInvalida');
    const read = await api('GET', `/cob/${txid}`);
    conforms('CobCompleta', read.body);
    expect(read.body).toEqual(bare.body);
  });

  it('PUT or PATCH on a cob that is not ATIVA: 400 CobOperacaoInvalida with violacoes', async () => {
    const paid = await newCob('3.00');
    await fake.pay(paid);
    const onPaid = await api('PUT', `/cob/${paid}`, { body: cobBody('4.00') });
    expectProblem(onPaid, 400, 'CobOperacaoInvalida');
    expect(onPaid.body.violacoes).toEqual([expect.objectContaining({ propriedade: 'txid', valor: paid })]);
    expectProblem(await api('PATCH', `/cob/${paid}`, { body: { solicitacaoPagador: 'x' } }), 400, 'CobOperacaoInvalida');
    expect((await api('GET', `/cob/${paid}`)).body).toMatchObject({ status: 'CONCLUIDA', valor: { original: '3.00' } });

    const removed = await newCob('5.00');
    const removal = await api('PATCH', `/cob/${removed}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    expect(removal.status).toBe(200);
    conforms('CobGerada', removal.body);
    expect(removal.body).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    expectProblem(await api('PUT', `/cob/${removed}`, { body: cobBody('5.00') }), 400, 'CobOperacaoInvalida');
    expectProblem(await api('PATCH', `/cob/${removed}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } }), 400, 'CobOperacaoInvalida');
    expectProblem(await api('PATCH', `/cob/${nextTxid()}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } }), 404, 'CobNaoEncontrado');
    await expect(fake.pay(removed)).rejects.toBeInstanceOf(FakePspError);
  });
});

describe('devedor (PessoaFisica / PessoaJuridica)', () => {
  const valid = [
    { nome: 'Fulano de Tal', cpf: '12345678909' },
    { nome: 'Empresa Exemplo Ltda', cnpj: '12ABC34501DE35' },
    { nome: 'Outra Empresa', cnpj: '11222333000181' },
  ];
  const invalid = [
    { nome: 'Dois Documentos', cpf: '12345678909', cnpj: '11222333000181' },
    { cpf: '12345678909' },
    { nome: 'Sem Documento' },
    { nome: 'CPF Curto', cpf: '1234567890' },
    { nome: 'CPF Com Letra', cpf: '1234567890A' },
    { nome: 'CNPJ Minusculo', cnpj: '12abc34501de35' },
    { nome: 'x'.repeat(201), cpf: '12345678909' },
    'Fulano',
  ];

  it('takes what the standard\'s schema takes and refuses what it refuses', () => {
    for (const devedor of valid) expect(errorsFor('schemas/CobSolicitada', cobBody('1.00', 60, { devedor }))).toEqual([]);
    for (const devedor of invalid) expect(errorsFor('schemas/CobSolicitada', cobBody('1.00', 60, { devedor })), JSON.stringify(devedor)).not.toEqual([]);
  });

  it('keeps a valid devedor and returns it in every read of the cob, paid or revised', async () => {
    for (const devedor of valid) {
      const txid = nextTxid();
      const created = await api('PUT', `/cob/${txid}`, { body: cobBody('2.00', 3600, { devedor: { ...devedor, email: 'not@kept.test' } }) });
      expect(created.status).toBe(201);
      conforms('CobGerada', created.body);
      expect(created.body.devedor).toEqual(devedor);
      const patched = await api('PATCH', `/cob/${txid}`, { body: { solicitacaoPagador: 'Obrigado' } });
      expect(patched.body.devedor).toEqual(devedor);
      await fake.pay(txid);
      const read = await api('GET', `/cob/${txid}`);
      conforms('CobCompleta', read.body);
      expect(read.body).toMatchObject({ status: 'CONCLUIDA', devedor });
    }
  });

  it('refuses an invalid devedor on PUT and PATCH: 400 CobOperacaoInvalida with a violacao on cob.devedor', async () => {
    for (const devedor of invalid) {
      const answer = await api('PUT', `/cob/${nextTxid()}`, { body: cobBody('2.00', 3600, { devedor }) });
      expectProblem(answer, 400, 'CobOperacaoInvalida');
      expect(answer.body.violacoes).toEqual([expect.objectContaining({ propriedade: 'cob.devedor', razao: expect.any(String) })]);
    }
    const txid = await newCob();
    expectProblem(await api('PATCH', `/cob/${txid}`, { body: { devedor: invalid[0] } }), 400, 'CobOperacaoInvalida');
    expect((await api('GET', `/cob/${txid}`)).body).not.toHaveProperty('devedor');
  });
});

describe('received Pix and the listing', () => {
  it('shows a received Pix as the standard\'s Pix alone (no gnExtras), in the cob, its read and the listing', async () => {
    const txid = await newCob('25.00');
    const pix = await fake.pay(txid, { infoPagador: 'Pedido 42', pagador: { nome: 'Joana', cpf: '12345678909' } });
    conforms('Pix', pix);
    onlyStandardFields('Pix', pix);
    expect(pix).toEqual({ endToEndId: expect.any(String), txid, valor: '25.00', chave: PIX_KEY, horario: new Date(clock.now()).toISOString(), infoPagador: 'Pedido 42' });
    const read = await api('GET', `/pix/${pix.endToEndId}`);
    conforms('Pix', read.body);
    expect(read.body).toEqual(pix);
    const cob = await api('GET', `/cob/${txid}`);
    conforms('CobCompleta', cob.body);
    expect(cob.body.pix).toEqual([pix]);
    const listing = await api('GET', `/pix?${period(clock.now(), clock.now())}&txid=${txid}`);
    conforms('PixConsultados', listing.body);
    expect(listing.body.pix).toEqual([pix]);
    expectProblem(await api('GET', '/pix/E09089356202611211200aaaaaaaaaaa'), 404, 'PixNaoEncontrado');
  });

  it('omits `pix` on a page that holds none (parametros kept, at least one page) and pages the rest', async () => {
    const empty = await api('GET', `/pix?${period(Date.UTC(2020, 0, 1), Date.UTC(2020, 0, 2))}`);
    expect(empty.status).toBe(200);
    conforms('PixConsultados', empty.body);
    expect(empty.body).not.toHaveProperty('pix');
    expect(empty.body.parametros).toEqual({
      inicio: '2020-01-01T00:00:00.000Z',
      fim: '2020-01-02T00:00:00.000Z',
      paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 0 },
    });
    clock.advance(60_000);
    const from = clock.now();
    await fake.receivePix({ valor: '1.00' });
    await fake.receivePix({ valor: '2.00' });
    const pageOne = await api('GET', `/pix?${period(from, clock.now())}&paginacao.itensPorPagina=1&paginacao.paginaAtual=1`);
    conforms('PixConsultados', pageOne.body);
    expect(pageOne.body.pix).toHaveLength(1);
    expect(pageOne.body.parametros.paginacao).toEqual({ paginaAtual: 1, itensPorPagina: 1, quantidadeDePaginas: 2, quantidadeTotalDeItens: 2 });
    const beyond = await api('GET', `/pix?${period(from, clock.now())}&paginacao.itensPorPagina=1&paginacao.paginaAtual=5`);
    conforms('PixConsultados', beyond.body);
    expect(beyond.body).not.toHaveProperty('pix');
    expectProblem(await api('GET', `/pix?${period(clock.now(), clock.now() - 1)}`), 400, 'PixConsultaInvalida');
    expectProblem(await api('GET', '/pix'), 400, 'PixConsultaInvalida');
  });

  it('forgetPix and alterPixAmount still act on reads, listing and balance', async () => {
    const pix = await fake.receivePix({ valor: '7.00', txid: nextTxid() });
    const balance = fake.balanceCents();
    expect(fake.alterPixAmount(pix.endToEndId, '6.50')).toMatchObject({ valor: '6.50' });
    expect((await api('GET', `/pix/${pix.endToEndId}`)).body.valor).toBe('6.50');
    expect(fake.balanceCents()).toBe(balance - 50);
    fake.forgetPix(pix.endToEndId);
    expectProblem(await api('GET', `/pix/${pix.endToEndId}`), 404, 'PixNaoEncontrado');
    const listing = await api('GET', `/pix?${period(clock.now(), clock.now())}`);
    expect((listing.body.pix ?? []).map((item: { endToEndId: string }) => item.endToEndId)).not.toContain(pix.endToEndId);
    expect(fake.balanceCents()).toBe(balance - 700);
  });
});

describe('devolução and MED', () => {
  it('takes a devolução (201 Devolucao), settles and rejects it, refuses what the standard lists as PixDevolucaoInvalida', async () => {
    const pix = await fake.pay(await newCob('20.00'));
    const balance = fake.balanceCents();
    const path = (id: string) => `/pix/${pix.endToEndId}/devolucao/${id}`;
    const first = await api('PUT', path('dev1'), { body: { valor: '12.00', descricao: 'Devolução do pedido' } });
    expect(first.status).toBe(201);
    conforms('Devolucao', first.body);
    expect(first.body).toMatchObject({ id: 'dev1', valor: '12.00', natureza: 'ORIGINAL', status: 'EM_PROCESSAMENTO', descricao: 'Devolução do pedido' });
    expectProblem(await api('PUT', path('dev1'), { body: { valor: '1.00' } }), 400, 'PixDevolucaoInvalida');
    expectProblem(await api('PUT', path('dev2'), { body: { valor: '8.01' } }), 400, 'PixDevolucaoInvalida');
    expectProblem(await api('PUT', path('dev3'), { body: { valor: '1.00', natureza: 'MED_FRAUDE' } }), 400, 'PixDevolucaoInvalida');
    expectProblem(await api('GET', path('naoexiste')), 404, 'PixDevolucaoNaoEncontrada');

    const settled = await fake.settleDevolucao(pix.endToEndId, 'dev1');
    conforms('Devolucao', settled);
    expect(settled).toMatchObject({ status: 'DEVOLVIDO', horario: { liquidacao: expect.any(String) } });
    expect(fake.balanceCents()).toBe(balance - 1_200);
    const read = await api('GET', path('dev1'));
    conforms('Devolucao', read.body);
    expect(read.body).toEqual(settled);
    expect((await api('PUT', path('dev2'), { body: { valor: '8.00' } })).status).toBe(201);
    const rejected = await fake.rejectDevolucao(pix.endToEndId, 'dev2', 'Conta do pagador encerrada');
    conforms('Devolucao', rejected);
    expect(rejected).toMatchObject({ status: 'NAO_REALIZADO', motivo: 'Conta do pagador encerrada' });
    const withRefunds = await api('GET', `/pix/${pix.endToEndId}`);
    conforms('Pix', withRefunds.body);
    onlyStandardFields('Pix', withRefunds.body);
    for (const devolucao of withRefunds.body.devolucoes) onlyStandardFields('Devolucao', devolucao);
  });

  it('MED: a devolução the provider makes (natureza MED_OPERACIONAL / MED_FRAUDE in devolucoes), debited at once', async () => {
    const pix = await fake.pay(await newCob('50.00'));
    const balance = fake.balanceCents();
    const med = await fake.med(pix.endToEndId, '20.00');
    conforms('Devolucao', med);
    expect(med).toMatchObject({ natureza: 'MED_OPERACIONAL', status: 'DEVOLVIDO', valor: '20.00' });
    const fraud = await fake.devolve(pix.endToEndId, { valor: '5.00', natureza: 'MED_FRAUDE', id: 'medfraude1' });
    conforms('Devolucao', fraud);
    expect(fake.balanceCents()).toBe(balance - 2_500);
    await expect(fake.med(pix.endToEndId, '25.01')).rejects.toMatchObject({ status: 409 });
    const read = await api('GET', `/pix/${pix.endToEndId}`);
    conforms('Pix', read.body);
    expect(read.body.devolucoes.map((item: { natureza: string }) => item.natureza)).toEqual(['MED_OPERACIONAL', 'MED_FRAUDE']);
  });
});

describe('webhook and callbacks', () => {
  it('PUT /webhook/{chave} answers 200 without a body; GET shows it; violations are WebhookOperacaoInvalida; DELETE 204', async () => {
    const put = await api('PUT', `/webhook/${encodeURIComponent(PIX_KEY)}`, { body: { webhookUrl: listener.url } });
    expect(put.status).toBe(200);
    expect(put.text).toBe('');
    expect(errorsFor('schemas/WebhookSolicitado', { webhookUrl: listener.url })).toEqual([]);
    const read = await api('GET', `/webhook/${encodeURIComponent(PIX_KEY)}`);
    conforms('WebhookCompleto', read.body);
    expect(read.body).toEqual({ webhookUrl: listener.url, chave: PIX_KEY, criacao: new Date(clock.now()).toISOString() });
    expect(listener.paths).toEqual([]);

    const otherKey = await api('PUT', '/webhook/outra%40chave.test', { body: { webhookUrl: listener.url } });
    expectProblem(otherKey, 400, 'WebhookOperacaoInvalida');
    expect(otherKey.body.violacoes).toEqual([expect.objectContaining({ propriedade: 'chave' })]);
    expectProblem(await api('PUT', `/webhook/${encodeURIComponent(PIX_KEY)}`, { body: { webhookUrl: 'http://127.0.0.1/webhook' } }), 400, 'WebhookOperacaoInvalida');
    expectProblem(await api('PUT', `/webhook/${encodeURIComponent(PIX_KEY)}`, { body: {} }), 400, 'WebhookOperacaoInvalida');
    expect((await api('DELETE', `/webhook/${encodeURIComponent(PIX_KEY)}`)).status).toBe(204);
    expectProblem(await api('GET', `/webhook/${encodeURIComponent(PIX_KEY)}`), 404, 'WebhookNaoEncontrado');
    expect((await api('PUT', `/webhook/${encodeURIComponent(PIX_KEY)}`, { body: { webhookUrl: listener.url } })).status).toBe(200);
  });

  it('calls back `{webhookUrl}/pix` with `{pix: [Pix]}`: received Pix with a txid, devoluções reaching a final status, MED', async () => {
    const before = listener.bodies.length;
    const txid = await newCob('9.00');
    const pix = await fake.pay(txid, { infoPagador: 'Pedido 77' });
    const untied = await fake.receivePix({ valor: '3.00' });
    await api('PUT', `/pix/${pix.endToEndId}/devolucao/cb1`, { body: { valor: '2.00' } });
    await fake.settleDevolucao(pix.endToEndId, 'cb1');
    await fake.med(pix.endToEndId, '1.00');
    await fake.flushCallbacks();
    const bodies = listener.bodies.slice(before);
    expect(listener.paths.slice(-bodies.length).every((path) => path === '/webhook/pix')).toBe(true);
    for (const body of bodies) {
      expect(errorsFor('requestBodies/WebhookPixBody/content/application~1json/schema', body)).toEqual([]);
      expect(Object.keys(body)).toEqual(['pix']);
      for (const item of body.pix) {
        conforms('Pix', item);
        onlyStandardFields('Pix', item);
      }
    }
    const items = bodies.flatMap((body) => body.pix);
    expect(items.find((item) => item.devolucoes === undefined)).toEqual({ endToEndId: pix.endToEndId, txid, chave: PIX_KEY, valor: '9.00', horario: pix.horario, infoPagador: 'Pedido 77' });
    expect(items.filter((item) => item.devolucoes !== undefined).map((item) => [item.devolucoes?.[0]?.id, item.devolucoes?.[0]?.status, item.devolucoes?.[0]?.natureza])).toEqual([
      ['cb1', 'DEVOLVIDO', 'ORIGINAL'],
      [expect.any(String), 'DEVOLVIDO', 'MED_OPERACIONAL'],
    ]);
    expect(received().some((item) => item.endToEndId === untied.endToEndId)).toBe(false);
  });
});

describe('faults', () => {
  it('error: problem+json, also when the rule names an Efí error (never {nome, mensagem})', async () => {
    fake.fault({ operation: 'cob.put', mode: 'error' });
    const txid = nextTxid();
    expectProblem(await api('PUT', `/cob/${txid}`, { body: cobBody() }), 503, 'ServicoIndisponivel');
    expectProblem(await api('GET', `/cob/${txid}`), 404, 'CobNaoEncontrado');
    fake.fault({ operation: 'pix.list', mode: 'error', status: 422, nome: 'pagamento_negado', mensagem: 'Negado pela análise de risco.' });
    const named = await api('GET', `/pix?${period(0, clock.now())}`);
    expect(named.status).toBe(422);
    expect(named.body.detail).toBe('Negado pela análise de risco.');
    fake.fault({ operation: 'token', mode: 'error', status: 500 });
    expectProblem(await origin('POST', '/oauth/token', { form: 'grant_type=client_credentials', auth: credentials }), 500, 'ErroInternoDoServidor');
  });

  it('drop_before, drop_after, garbled and callback faults behave as in the efi profile', async () => {
    fake.fault({ operation: 'cob.put', mode: 'drop_before' });
    const never = nextTxid();
    await expect(api('PUT', `/cob/${never}`, { body: cobBody() })).rejects.toThrow();
    expect((await api('GET', `/cob/${never}`)).status).toBe(404);
    fake.fault({ operation: 'cob.put', mode: 'drop_after' });
    const made = nextTxid();
    await expect(api('PUT', `/cob/${made}`, { body: cobBody() })).rejects.toThrow();
    expect((await api('GET', `/cob/${made}`)).status).toBe(200);
    expect(fake.requests.filter((served) => served.path === `/api/v2/cob/${made}`).map((served) => served.status)).toEqual([0, 200]);
    fake.fault({ operation: 'cob.get', mode: 'garbled' });
    const garbled = await api('GET', `/cob/${made}`);
    expect(garbled.status).toBe(200);
    expect(() => JSON.parse(garbled.text)).toThrow();

    fake.fault({ operation: 'callback', mode: 'error' });
    const pix = await fake.pay(await newCob('2.50'));
    await fake.flushCallbacks();
    expect(received().filter((item) => item.endToEndId === pix.endToEndId)).toHaveLength(1);
    expect(fake.faults()).toEqual([]);
  });
});

describe('the efi profile (default) is unchanged', () => {
  it('keeps /v2 paths at the origin, Efí extensions and 409 txid_duplicado; devedor follows the standard there too', async () => {
    const efi = await startFakePsp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, clock, certificates: fake.certificates });
    try {
      expect(efi.profile).toBe('efi');
      expect(efi.apiBaseUrl).toBe(efi.url);
      expect(efi.plainApiBaseUrl).toBeUndefined();
      const tokenAnswer = await send(`${efi.url}/oauth/token`, 'POST', { body: { grant_type: 'client_credentials' }, auth: credentials });
      expect(tokenAnswer.status).toBe(200);
      const auth = `Bearer ${tokenAnswer.body.access_token as string}`;
      const txid = nextTxid();
      expect((await send(`${efi.url}/v2/cob/${txid}`, 'PUT', { body: cobBody(), auth })).status).toBe(201);
      const duplicate = await send(`${efi.url}/v2/cob/${txid}`, 'PUT', { body: cobBody('20.00'), auth });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toEqual({ nome: 'txid_duplicado', mensagem: expect.any(String) });
      expect((await send(`${efi.url}/api/v2/cob/${txid}`, 'GET', { auth })).status).toBe(404);
      expect((await send(`${efi.url}/v2/gn/saldo`, 'GET', { auth })).status).toBe(200);
      const pix = await efi.pay(txid);
      expect(pix.gnExtras?.pagador).toEqual(expect.objectContaining({ nome: expect.any(String) }));
      const both = await send(`${efi.url}/v2/cob/${nextTxid()}`, 'PUT', { body: cobBody('1.00', 60, { devedor: { nome: 'X', cpf: '12345678909', cnpj: '11222333000181' } }), auth });
      expect(both.status).toBe(400);
      expect(both.body.type).toBe(`${PROBLEM_TYPE}CobOperacaoInvalida`);
    } finally {
      await efi.close();
    }
  });
});
