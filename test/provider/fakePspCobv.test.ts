/**
 * The fake payment provider's charges with a due date (scripts/fakepsp: cobvs.ts, lotes.ts, locations.ts,
 * payload.ts, calendar.ts), on both profiles over mutual TLS: `cobv` (create, read, list, revise, remove, each
 * `CobVOperacaoInvalida` violation the standard lists), `lotecobv` (asynchronous, a NEGADA request beside
 * CRIADA ones), `loc` (made, reused, unlinked), the payer end (on the due day, late with a bigger amount,
 * past the last payable day, a due date on a weekend) with the received Pix listed and called back, and the
 * payload location's signed JWS. Answer bodies are validated with Ajv against the standard's own schemas
 * (openapi/upstream/bacen-pix-api-2.9.0.yaml), a few defects of the document undone first.
 */
import { X509Certificate, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv, type AnySchema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { FAKE_PSP_PROFILES, FakePspError, LOCATION_HOST, RECEBEDOR, lastPayableDay, startFakePsp, type FakePsp, type FakePspProfile } from '../../scripts/fakepsp/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { parseBrCode } from '../../src/primitives/brcode.ts';
import { startCallbackListener, type CallbackListener } from '../support/callbackListener.ts';

const PIX_KEY = 'cobrancas@pixgate.test';
const CLIENT_ID = 'Client_Id_fakepsp_cobv';
const CLIENT_SECRET = 'Client_Secret_fakepsp_cobv';
const PROBLEM_TYPE = 'https://pix.bcb.gov.br/api/v2/error/';
/** Every scope the fake serves (a token request without `scope` gets them all): API Pix's, cobv's and Pix Automático's. */
const ALL_SCOPES =
  'cob.write cob.read pix.write pix.read webhook.write webhook.read cobv.write cobv.read lotecobv.write lotecobv.read payloadlocation.write payloadlocation.read ' +
  'rec.write rec.read solicrec.write solicrec.read cobr.write cobr.read payloadlocationrec.write payloadlocationrec.read webhookrec.write webhookrec.read webhookcobr.write webhookcobr.read';
/** Monday 2026-03-02, 09:00 in São Paulo. */
const START_MS = Date.UTC(2026, 2, 2, 12, 0, 0);

// ---- the standard's schemas ----------------------------------------------------------------------------

type Json = Record<string, unknown>;
const standard = parse(readFileSync(new URL('../../openapi/upstream/bacen-pix-api-2.9.0.yaml', import.meta.url), 'utf8')) as { components: { schemas: Record<string, Json> } };

/**
 * Defects of the 2.9.0 document that make its schemas refuse what its own text and examples show, undone:
 * - CPF patterns written as JavaScript regex literals (`"/^\\d{11}$/"`) match nothing: the slashes go;
 * - `DadosRecebedor` requires `logradouro`, `cidade`, `uf`, `cep` of the charge itself (its `recebedor` already
 *   requires them, and no example has them at the top): that outer `required` goes;
 * - `CobsVConsultadas` requires an `idCob` of each cobv, a property no schema defines: it goes;
 * - `CobVValor.desconto` is `oneOf` dates / `valorPerc`, but its dates branch requires nothing, so a discount
 *   by `valorPerc` (modalidades 3 to 6) matches both and fails: that branch requires `descontoDataFixa`;
 * - `location` is `format: uri` but written without a scheme in every example and in the BR Code.
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
  expect(schemas.DadosRecebedor?.required).toEqual(['logradouro', 'cidade', 'uf', 'cep']);
  delete (schemas.DadosRecebedor as Json).required;
  const items = ((schemas.CobsVConsultadas?.properties as Json).cobs as Json).items as { allOf: Json[] };
  expect(items.allOf[1]).toEqual({ required: ['status', 'txid', 'idCob'] });
  items.allOf[1] = { required: ['status', 'txid'] };
  const desconto = ((schemas.CobVValor?.properties as Json).desconto as { oneOf: Json[] }).oneOf[0] as Json;
  expect(desconto.required).toBeUndefined();
  desconto.required = ['descontoDataFixa'];
}

const addFormats = addFormatsModule.default;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('uri', (value: string) => URL.canParse(value) || URL.canParse(`https://${value}`));
ajv.addFormat('int32', true);
ajv.addFormat('int64', true);
const STANDARD_ID = 'https://pixgate.test/bacen-pix-api-cobv';
undoDefects(standard.components.schemas);
ajv.addSchema({ $id: STANDARD_ID, components: { schemas: standard.components.schemas } } as AnySchema);

function errorsFor(name: string, value: unknown): { instancePath: string; message?: string; params: unknown }[] {
  const validate = ajv.getSchema(`${STANDARD_ID}#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name}`);
  validate(value);
  return (validate.errors ?? []) as { instancePath: string; message?: string; params: unknown }[];
}

function conforms(name: string, value: unknown): void {
  expect(errorsFor(name, value), `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

// ---- the worked examples of `validadeAposVencimento` (profile-free) --------------------------------------

describe('the last payable day (CobDataDeVencimento, examples A to G)', () => {
  it('rolls the due date and the last day forward over weekends and national holidays', () => {
    expect(lastPayableDay('2020-10-20', 4)).toBe('2020-10-26'); // A
    expect(lastPayableDay('2020-12-25', 0)).toBe('2020-12-28'); // B
    expect(lastPayableDay('2020-12-25', 1)).toBe('2020-12-29'); // C
    expect(lastPayableDay('2020-12-25', 3)).toBe('2020-12-31'); // D
    expect(lastPayableDay('2020-12-25', 4)).toBe('2021-01-04'); // E
    expect(lastPayableDay('2021-08-27', 5)).toBe('2021-09-01'); // F
    expect(lastPayableDay('2021-08-28', 5)).toBe('2021-09-06'); // G
    // The holidays that hang on Easter (2026: Carnival 16-17 Feb, Good Friday 3 Apr, Corpus Christi 4 Jun), and 20 November since 2024.
    expect(lastPayableDay('2026-02-14', 0)).toBe('2026-02-18');
    expect(lastPayableDay('2026-04-03', 0)).toBe('2026-04-06');
    expect(lastPayableDay('2026-06-04', 0)).toBe('2026-06-05');
    expect(lastPayableDay('2026-11-20', 0)).toBe('2026-11-23');
    expect(lastPayableDay('2023-11-20', 0)).toBe('2023-11-20');
  });
});

// ---- both profiles -------------------------------------------------------------------------------------

interface Answer {
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
  // Bodies are checked against the standard's schemas; tests then read fields freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

describe.each(FAKE_PSP_PROFILES)('profile %s', (profile: FakePspProfile) => {
  const clock = new ManualClock(START_MS);
  let fake: FakePsp;
  let gateway: Agent;
  let listener: CallbackListener;
  let token = '';
  let counter = 0;

  const nextTxid = () => `vtx${profile.slice(0, 1)}${String(++counter).padStart(4, '0')}abcdefghijklmnopqrstu`;
  const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;

  async function send(url: string, method: string, options: { body?: unknown; form?: string; auth?: string | null } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const auth = options.auth === undefined ? `Bearer ${token}` : options.auth;
    if (auth !== null) headers.authorization = auth;
    const response = await fetch(url, { method, headers, body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)), dispatcher: gateway });
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', headers: response.headers, text, body };
  }

  /** API Pix (`apiBaseUrl`, Efí's paths with their `/v2`): every error answer is problem+json (Efí's 409 `txid_duplicado` apart). */
  async function api(method: string, path: string, options: { body?: unknown; auth?: string | null } = {}): Promise<Answer> {
    const answer = await send(`${fake.apiBaseUrl}${profile === 'efi' ? '/v2' : ''}${path}`, method, options);
    if (answer.status >= 400 && answer.body?.nome !== 'txid_duplicado') {
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
      conforms('Problema', answer.body);
      expect(answer.body.status).toBe(answer.status);
    }
    return answer;
  }

  const control = (method: string, path: string, body?: unknown) => send(`${fake.url}${path}`, method, { body, auth: null });

  function expectProblem(answer: Answer, status: number, type: string, propriedade?: string): void {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.type).toBe(`${PROBLEM_TYPE}${type}`);
    if (propriedade !== undefined) expect(answer.body.violacoes, JSON.stringify(answer.body)).toEqual(expect.arrayContaining([expect.objectContaining({ propriedade })]));
  }

  async function newToken(scope?: string): Promise<string> {
    const answer =
      profile === 'efi'
        ? await send(`${fake.url}/oauth/token`, 'POST', { body: { grant_type: 'client_credentials' }, auth: basic })
        : await send(`${fake.url}/oauth/token`, 'POST', { form: `grant_type=client_credentials${scope === undefined ? '' : `&scope=${encodeURIComponent(scope)}`}`, auth: basic });
    expect(answer.status).toBe(200);
    return answer.body.access_token as string;
  }

  const devedor = { nome: 'Francisco da Silva', cpf: '12345678909', logradouro: 'Alameda Souza, Numero 80, Bairro Braz', cidade: 'Recife', uf: 'PE', cep: '70011750', email: 'francisco@exemplo.test' };
  const cobvBody = (extra: Json = {}, valor: Json = {}, calendario: Json = {}) => ({
    calendario: { dataDeVencimento: '2026-03-10', validadeAposVencimento: 5, ...calendario },
    devedor,
    valor: { original: '123.45', ...valor },
    chave: PIX_KEY,
    solicitacaoPagador: 'Cobrança dos serviços prestados.',
    ...extra,
  });

  async function newCobv(body: Json = cobvBody()): Promise<{ txid: string; body: Answer['body'] }> {
    const txid = nextTxid();
    const created = await api('PUT', `/cobv/${txid}`, { body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    conforms('CobVGerada', created.body);
    return { txid, body: created.body };
  }

  /** Where the fake serves a location written `fakepsp.local/qr/v2/...`. */
  const served = (location: string) => `${fake.url}${location.slice(LOCATION_HOST.length)}`;
  const period = (fromMs: number, toMs: number) => `inicio=${new Date(fromMs).toISOString()}&fim=${new Date(toMs).toISOString()}`;

  beforeAll(async () => {
    fake = await startFakePsp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, clock, callbackRetryMs: [20, 40], profile, certificates: inject('fakePspCertificates') });
    gateway = new Agent({ connect: { ca: fake.certificates.ca, cert: fake.certificates.gatewayClientCert, key: fake.certificates.gatewayClientKey } });
    listener = await startCallbackListener(fake.certificates);
    token = await newToken(ALL_SCOPES);
    const webhook = await api('PUT', `/webhook/${encodeURIComponent(PIX_KEY)}`, { body: { webhookUrl: listener.url } });
    expect([200, 201]).toContain(webhook.status);
  });

  afterAll(async () => {
    await fake?.close();
    await gateway?.close();
    await listener?.close();
  });

  describe('cobv', () => {
    it('creates a cobv (201 CobVGerada: recebedor, a cobv location, a dynamic BR Code) and reads it (CobVCompleta)', async () => {
      const txid = nextTxid();
      const request = cobvBody({ infoAdicionais: [{ nome: 'Pedido', valor: '42' }] }, { multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '0.10' } });
      const created = await api('PUT', `/cobv/${txid}`, { body: request });
      expect(created.status).toBe(201);
      conforms('CobVGerada', created.body);
      const criacao = new Date(clock.now()).toISOString();
      expect(created.body).toEqual({
        calendario: { criacao, dataDeVencimento: '2026-03-10', validadeAposVencimento: 5 },
        txid,
        revisao: 0,
        loc: { id: expect.any(Number), location: created.body.location, tipoCob: 'cobv', txid, criacao },
        location: expect.stringMatching(/^fakepsp\.local\/qr\/v2\/cobv\/[0-9a-f]{32}$/),
        status: 'ATIVA',
        devedor,
        recebedor: RECEBEDOR,
        valor: request.valor,
        chave: PIX_KEY,
        solicitacaoPagador: request.solicitacaoPagador,
        infoAdicionais: [{ nome: 'Pedido', valor: '42' }],
        pixCopiaECola: expect.any(String),
      });
      expect(parseBrCode(created.body.pixCopiaECola)).toMatchObject({ kind: 'dynamic', locationUrl: created.body.location });
      const read = await api('GET', `/cobv/${txid}`);
      expect(read.status).toBe(200);
      conforms('CobVCompleta', read.body);
      expect(read.body).toEqual(created.body);
      expectProblem(await api('GET', `/cobv/${nextTxid()}`), 404, 'CobVNaoEncontrada');
      expectProblem(await api('PATCH', `/cobv/${nextTxid()}`, { body: { solicitacaoPagador: 'x' } }), 404, 'CobVNaoEncontrada');
      // The defaults: validadeAposVencimento 30.
      const bare = await newCobv(cobvBody({}, {}, { validadeAposVencimento: undefined }));
      expect(bare.body.calendario.validadeAposVencimento).toBe(30);
    });

    it('answers each violation the standard lists with 400 CobVOperacaoInvalida and its violacao', async () => {
      const cases: [string, Json, string][] = [
        ['due date before creation', cobvBody({}, {}, { dataDeVencimento: '2026-03-01' }), 'cobv.calendario.dataDeVencimento'],
        ['due date not a date', cobvBody({}, {}, { dataDeVencimento: '2026-02-30' }), 'cobv.calendario.dataDeVencimento'],
        ['validadeAposVencimento below zero', cobvBody({}, {}, { validadeAposVencimento: -1 }), 'cobv.calendario.validadeAposVencimento'],
        ['no calendario', { ...cobvBody(), calendario: undefined }, 'cobv.calendario'],
        ['no devedor', { ...cobvBody(), devedor: undefined }, 'cobv.devedor'],
        ['devedor with cpf and cnpj', cobvBody({ devedor: { nome: 'Dois', cpf: '12345678909', cnpj: '11222333000181' } }), 'cobv.devedor'],
        ['devedor uf too long', cobvBody({ devedor: { ...devedor, uf: 'PER' } }), 'cobv.devedor'],
        ['a key not ours', cobvBody({ chave: 'outra@chave.test' }), 'cobv.chave'],
        ['solicitacaoPagador too long', cobvBody({ solicitacaoPagador: 'x'.repeat(141) }), 'cobv.solicitacaoPagador'],
        ['infoAdicionais without valor', cobvBody({ infoAdicionais: [{ nome: 'Pedido' }] }), 'cobv.infoAdicionais'],
        ['original zero', cobvBody({}, { original: '0.00' }), 'cobv.valor.original'],
        ['original not an amount', cobvBody({}, { original: '12,00' }), 'cobv.valor.original'],
        ['multa modalidade 3', cobvBody({}, { multa: { modalidade: 3, valorPerc: '2.00' } }), 'cobv.valor.multa'],
        ['multa modalidade as text', cobvBody({}, { multa: { modalidade: '2', valorPerc: '2.00' } }), 'cobv.valor.multa'],
        ['juros modalidade 9', cobvBody({}, { juros: { modalidade: 9, valorPerc: '1.00' } }), 'cobv.valor.juros'],
        ['juros without valorPerc', cobvBody({}, { juros: { modalidade: 2 } }), 'cobv.valor.juros'],
        ['abatimento of the whole amount', cobvBody({}, { abatimento: { modalidade: 1, valorPerc: '123.45' } }), 'cobv.valor.abatimento'],
        ['abatimento of 100%', cobvBody({}, { abatimento: { modalidade: 2, valorPerc: '100.00' } }), 'cobv.valor.abatimento'],
        ['desconto of the whole amount', cobvBody({}, { desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-05', valorPerc: '200.00' }] } }), 'cobv.valor.desconto'],
        ['desconto of 100% a day', cobvBody({}, { desconto: { modalidade: 5, valorPerc: '100.00' } }), 'cobv.valor.desconto'],
        ['a discount date after the due date', cobvBody({}, { desconto: { modalidade: 2, descontoDataFixa: [{ data: '2026-03-11', valorPerc: '5.00' }] } }), 'cobv.valor.desconto.descontoDataFixa'],
        ['modalidade 1 with valorPerc', cobvBody({}, { desconto: { modalidade: 1, valorPerc: '5.00', descontoDataFixa: [{ data: '2026-03-05', valorPerc: '5.00' }] } }), 'cobv.valor.desconto.valorPerc'],
        ['modalidade 2 without dates', cobvBody({}, { desconto: { modalidade: 2, descontoDataFixa: [] } }), 'cobv.valor.desconto.descontoDataFixa'],
        ['modalidade 3 without valorPerc', cobvBody({}, { desconto: { modalidade: 3 } }), 'cobv.valor.desconto.valorPerc'],
        ['modalidade 6 with dates', cobvBody({}, { desconto: { modalidade: 6, valorPerc: '0.10', descontoDataFixa: [{ data: '2026-03-05', valorPerc: '5.00' }] } }), 'cobv.valor.desconto.descontoDataFixa'],
        ['desconto modalidade 7', cobvBody({}, { desconto: { modalidade: 7, valorPerc: '1.00' } }), 'cobv.valor.desconto'],
        ['four discount dates', cobvBody({}, { desconto: { modalidade: 1, descontoDataFixa: ['03', '04', '05', '06'].map((day) => ({ data: `2026-03-${day}`, valorPerc: '1.00' })) } }), 'cobv.valor.desconto'],
        ['an unknown location', cobvBody({ loc: { id: 999_999 } }), 'cobv.loc.id'],
      ];
      for (const [name, body, propriedade] of cases) {
        const answer = await api('PUT', `/cobv/${nextTxid()}`, { body });
        expect(answer.status, name).toBe(400);
        expectProblem(answer, 400, 'CobVOperacaoInvalida', propriedade);
      }
      expectProblem(await api('PUT', '/cobv/curto1', { body: cobvBody() }), 400, 'CobVOperacaoInvalida', 'txid');
      // The valid variants of the same rules pass.
      const fine = await newCobv(
        cobvBody(
          {},
          {
            multa: { modalidade: 1, valorPerc: '5.00' },
            juros: { modalidade: 8, valorPerc: '12.00' },
            abatimento: { modalidade: 2, valorPerc: '99.99' },
            desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-10', valorPerc: '123.44' }] },
          },
        ),
      );
      expect(fine.body.valor.desconto).toEqual({ modalidade: 1, descontoDataFixa: [{ data: '2026-03-10', valorPerc: '123.44' }] });
      expect((await newCobv(cobvBody({}, { desconto: { modalidade: 4, valorPerc: '0.50' } }))).body.valor.desconto).toEqual({ modalidade: 4, valorPerc: '0.50' });
    });

    it('PUT on a txid in use: efi 409 txid_duplicado; the standard revises an ATIVA cobv (revisao + 1 when it changed)', async () => {
      const { txid, body: first } = await newCobv();
      const revision = cobvBody({ solicitacaoPagador: 'Nova solicitação' }, { original: '150.00' }, { dataDeVencimento: '2026-03-12', validadeAposVencimento: 2 });
      const again = await api('PUT', `/cobv/${txid}`, { body: revision });
      if (profile === 'efi') {
        expect(again.status).toBe(409);
        expect(again.body).toEqual({ nome: 'txid_duplicado', mensagem: expect.any(String) });
        return;
      }
      expect(again.status).toBe(201);
      conforms('CobVGerada', again.body);
      expect(again.body).toMatchObject({ revisao: 1, valor: { original: '150.00' }, calendario: { criacao: first.calendario.criacao, dataDeVencimento: '2026-03-12', validadeAposVencimento: 2 }, loc: first.loc });
      expect((await api('PUT', `/cobv/${txid}`, { body: revision })).body.revisao).toBe(1);
      expectProblem(await api('PUT', `/cobv/${txid}`, { body: cobvBody({}, {}, { dataDeVencimento: '2026-03-01' }) }), 400, 'CobVOperacaoInvalida', 'cobv.calendario.dataDeVencimento');
      await api('PATCH', `/cobv/${txid}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
      expectProblem(await api('PUT', `/cobv/${txid}`, { body: revision }), 400, 'CobVOperacaoInvalida', 'txid');
    });

    it('one txid, one charge: a cob\'s txid is refused for a cobv and a cobv\'s for a cob', async () => {
      const cobTxid = nextTxid();
      expect((await api('PUT', `/cob/${cobTxid}`, { body: { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: PIX_KEY } })).status).toBe(201);
      const { txid: cobvTxid } = await newCobv();
      const onCob = await api('PUT', `/cobv/${cobTxid}`, { body: cobvBody() });
      const onCobv = await api('PUT', `/cob/${cobvTxid}`, { body: { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: PIX_KEY } });
      if (profile === 'efi') {
        expect([onCob.status, onCob.body.nome, onCobv.status, onCobv.body.nome]).toEqual([409, 'txid_duplicado', 409, 'txid_duplicado']);
      } else {
        expectProblem(onCob, 400, 'CobVOperacaoInvalida', 'txid');
        expectProblem(onCobv, 400, 'CobOperacaoInvalida', 'txid');
      }
      await expect(fake.receivePix({ valor: '1.00', txid: cobvTxid })).rejects.toMatchObject({ status: 409 });
    });

    it('PATCH revises what it names (revisao + 1), keeps the rest, checks the merged rules; removal alone; only ATIVA', async () => {
      const { txid, body: created } = await newCobv(cobvBody({}, { desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-09', valorPerc: '10.00' }] } }));
      const patched = await api('PATCH', `/cobv/${txid}`, { body: { valor: { original: '200.00' }, calendario: { validadeAposVencimento: 10 } } });
      expect(patched.status).toBe(200);
      conforms('CobVGerada', patched.body);
      expect(patched.body).toMatchObject({ revisao: 1, valor: { original: '200.00', desconto: created.valor.desconto }, calendario: { dataDeVencimento: '2026-03-10', validadeAposVencimento: 10 }, devedor });
      const newDebtor = { nome: 'Empresa Exemplo Ltda', cnpj: '12ABC34501DE35' };
      expect((await api('PATCH', `/cobv/${txid}`, { body: { devedor: newDebtor } })).body).toMatchObject({ revisao: 2, devedor: newDebtor });
      expectProblem(await api('PATCH', `/cobv/${txid}`, { body: { calendario: { dataDeVencimento: '2026-03-08' } } }), 400, 'CobVOperacaoInvalida', 'cobv.valor.desconto.descontoDataFixa');
      expectProblem(await api('PATCH', `/cobv/${txid}`, { body: { valor: { original: '10.00' } } }), 400, 'CobVOperacaoInvalida', 'cobv.valor.desconto');
      expectProblem(await api('PATCH', `/cobv/${txid}`, { body: {} }), 400, 'CobVOperacaoInvalida');
      expectProblem(await api('PATCH', `/cobv/${txid}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', solicitacaoPagador: 'x' } }), 400, 'CobVOperacaoInvalida', 'cobv.status');
      expectProblem(await api('PATCH', `/cobv/${txid}`, { body: { status: 'CONCLUIDA' } }), 400, 'CobVOperacaoInvalida', 'cobv.status');
      // A past revision, then the removal.
      const past = await api('GET', `/cobv/${txid}?revisao=0`);
      conforms('CobVCompleta', past.body);
      expect(past.body).toMatchObject({ revisao: 0, valor: { original: '123.45' }, devedor });
      expectProblem(await api('GET', `/cobv/${txid}?revisao=7`), 400, 'CobVConsultaInvalida', 'revisao');
      const removed = await api('PATCH', `/cobv/${txid}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
      expect(removed.status).toBe(200);
      expect(removed.body).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 3 });
      expectProblem(await api('PATCH', `/cobv/${txid}`, { body: { solicitacaoPagador: 'x' } }), 400, 'CobVOperacaoInvalida', 'cobv.status');
      await expect(fake.payCobv(txid, { valor: '200.00', horario: '2026-03-05T12:00:00-03:00' })).rejects.toMatchObject({ status: 409 });
    });

    it('lists cobvs by criacao, with its filters and paging; refuses what the standard calls CobVConsultaInvalida', async () => {
      clock.advance(60_000);
      const from = clock.now();
      const { txid: a } = await newCobv();
      const { txid: b } = await newCobv(cobvBody({ devedor: { nome: 'Empresa', cnpj: '11222333000181' } }));
      await api('PATCH', `/cobv/${b}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
      const all = await api('GET', `/cobv?${period(from, clock.now())}`);
      expect(all.status).toBe(200);
      conforms('CobsVConsultadas', all.body);
      expect(all.body.cobs.map((cobv: { txid: string }) => cobv.txid)).toEqual([a, b]);
      expect(all.body.parametros).toEqual({ inicio: new Date(from).toISOString(), fim: new Date(clock.now()).toISOString(), paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 2 } });
      const byCnpj = await api('GET', `/cobv?${period(from, clock.now())}&cnpj=11222333000181`);
      expect(byCnpj.body.cobs.map((cobv: { txid: string }) => cobv.txid)).toEqual([b]);
      expect((await api('GET', `/cobv?${period(from, clock.now())}&status=ATIVA`)).body.cobs.map((cobv: { txid: string }) => cobv.txid)).toEqual([a]);
      const second = await api('GET', `/cobv?${period(from, clock.now())}&paginacao.itensPorPagina=1&paginacao.paginaAtual=1`);
      expect(second.body.cobs.map((cobv: { txid: string }) => cobv.txid)).toEqual([b]);
      expect(second.body.parametros.paginacao).toEqual({ paginaAtual: 1, itensPorPagina: 1, quantidadeDePaginas: 2, quantidadeTotalDeItens: 2 });
      // An empty listing: the standard counts one page (`Paginacao.quantidadeDePaginas` minimum 1); Efí's profile the pages there are, as its Pix listing does.
      const empty = await api('GET', `/cobv?${period(Date.UTC(2020, 0, 1), Date.UTC(2020, 0, 2))}`);
      expect(empty.body.cobs).toEqual([]);
      expect(empty.body.parametros.paginacao.quantidadeDePaginas).toBe(profile === 'standard' ? 1 : 0);
      if (profile === 'standard') conforms('CobsVConsultadas', empty.body);
      expectProblem(await api('GET', `/cobv?${period(from, clock.now())}&cpf=12345678909&cnpj=11222333000181`), 400, 'CobVConsultaInvalida');
      expectProblem(await api('GET', `/cobv?${period(clock.now(), from - 1)}`), 400, 'CobVConsultaInvalida');
      expectProblem(await api('GET', '/cobv'), 400, 'CobVConsultaInvalida');
      expectProblem(await api('GET', `/cobv?${period(from, clock.now())}&paginacao.paginaAtual=-1`), 400, 'CobVConsultaInvalida');
    });

    it('a token narrowed to cob is refused a cobv (403 on the standard); a token without scope gets them all', async () => {
      const narrow = profile === 'efi' ? await newToken() : await newToken('cob.write cob.read');
      const answer = await api('GET', `/cobv/${nextTxid()}`, { auth: `Bearer ${narrow}` });
      if (profile === 'efi') expect(answer.status).toBe(404);
      else expectProblem(answer, 403, 'AcessoNegado');
      if (profile === 'standard') {
        const defaults = await send(`${fake.url}/oauth/token`, 'POST', { form: 'grant_type=client_credentials', auth: basic });
        expect(defaults.body.scope).toBe(ALL_SCOPES);
        const asked = await send(`${fake.url}/oauth/token`, 'POST', { form: `grant_type=client_credentials&scope=${encodeURIComponent(ALL_SCOPES)}`, auth: basic });
        expect(asked.body.scope).toBe(ALL_SCOPES);
      }
    });
  });

  describe('loc', () => {
    it('makes a location (201), a cobv takes it by loc.id, a second cobv cannot, a cob cannot take a cobv location', async () => {
      const made = await api('POST', '/loc', { body: { tipoCob: 'cobv' } });
      expect(made.status).toBe(201);
      conforms('PayloadLocation', made.body);
      expect(made.body).toEqual({ id: expect.any(Number), location: expect.stringMatching(/^fakepsp\.local\/qr\/v2\/cobv\/[0-9a-f]{32}$/), tipoCob: 'cobv', criacao: new Date(clock.now()).toISOString() });
      expect(made.headers.get('location')).toMatch(new RegExp(`/loc/${made.body.id as number}$`));
      const id = made.body.id as number;
      const { txid, body: cobv } = await newCobv(cobvBody({ loc: { id } }));
      expect(cobv.loc).toEqual({ ...made.body, txid });
      expect(cobv.location).toBe(made.body.location);
      const read = await api('GET', `/loc/${id}`);
      conforms('PayloadLocationCompleta', read.body);
      expect(read.body).toEqual({ ...made.body, txid });

      expectProblem(await api('PUT', `/cobv/${nextTxid()}`, { body: cobvBody({ loc: { id } }) }), 400, 'CobVOperacaoInvalida', 'cobv.loc.id');
      const cobLoc = (await api('POST', '/loc', { body: { tipoCob: 'cob' } })).body;
      const wrongType = await api('PUT', `/cobv/${nextTxid()}`, { body: cobvBody({ loc: { id: cobLoc.id } }) });
      expectProblem(wrongType, 400, 'CobVOperacaoInvalida', 'cobv.loc.id');
      expect(wrongType.body.violacoes[0].razao).toMatch(/tipo "cob"/);
      const cobBody = (loc: number) => ({ calendario: { expiracao: 600 }, valor: { original: '3.00' }, chave: PIX_KEY, loc: { id: loc } });
      expectProblem(await api('PUT', `/cob/${nextTxid()}`, { body: cobBody(id) }), 400, 'CobOperacaoInvalida', 'cob.loc.id');
      expectProblem(await api('PUT', `/cob/${nextTxid()}`, { body: cobBody(999_999) }), 400, 'CobOperacaoInvalida', 'cob.loc.id');
      const cobTxid = nextTxid();
      const cob = await api('PUT', `/cob/${cobTxid}`, { body: cobBody(cobLoc.id) });
      expect(cob.status).toBe(201);
      expect(cob.body.loc).toEqual({ ...cobLoc, txid: cobTxid });
      expect(parseBrCode(cob.body.pixCopiaECola)).toMatchObject({ locationUrl: cobLoc.location, amount: '3.00' });

      expectProblem(await api('POST', '/loc', { body: { tipoCob: 'rec' } }), 400, 'PayloadLocationOperacaoInvalida');
      expectProblem(await api('GET', '/loc/999999'), 404, 'PayloadLocationNaoEncontrado');
    });

    it('unlinks a charge from its location (DELETE /loc/{id}/txid): the cobv shows none, stays ATIVA, the location is free again; moving loc alone is no revision', async () => {
      const { txid, body: cobv } = await newCobv();
      const unlinked = await api('DELETE', `/loc/${cobv.loc.id as number}/txid`);
      expect(unlinked.status).toBe(200);
      conforms('PayloadLocation', unlinked.body);
      expect(unlinked.body).toEqual({ id: cobv.loc.id, location: cobv.location, tipoCob: 'cobv', criacao: cobv.loc.criacao });
      const read = await api('GET', `/cobv/${txid}`);
      expect(read.body).toMatchObject({ status: 'ATIVA', revisao: 0 });
      for (const field of ['loc', 'location', 'pixCopiaECola']) expect(read.body).not.toHaveProperty(field);
      // The standard's CobVGerada requires `location`, which its DELETE /loc/{id}/txid takes away: the only error.
      expect(errorsFor('CobVCompleta', read.body).map((error) => error.params)).toEqual([{ missingProperty: 'location' }]);
      const { body: moved } = await newCobv(cobvBody({ loc: { id: cobv.loc.id } }));
      expect(moved.location).toBe(cobv.location);
      const fresh = (await api('POST', '/loc', { body: { tipoCob: 'cobv' } })).body;
      const relinked = await api('PATCH', `/cobv/${txid}`, { body: { loc: { id: fresh.id } } });
      expect(relinked.status).toBe(200);
      expect(relinked.body).toMatchObject({ revisao: 0, location: fresh.location, loc: { id: fresh.id, txid } });
      const listed = await api('GET', `/loc?${period(START_MS, clock.now())}&tipoCob=cobv&txIdPresente=true`);
      conforms('PayloadLocationConsultadas', listed.body);
      const ids = listed.body.loc.map((loc: { id: number }) => loc.id);
      expect(ids).toEqual(expect.arrayContaining([cobv.loc.id, fresh.id]));
      expect(listed.body.loc.every((loc: { tipoCob: string; txid?: string }) => loc.tipoCob === 'cobv' && loc.txid !== undefined)).toBe(true);
      expectProblem(await api('GET', `/loc?${period(clock.now(), START_MS)}`), 400, 'PayloadLocationConsultaInvalida');
      expectProblem(await api('DELETE', '/loc/999999/txid'), 404, 'PayloadLocationNaoEncontrado');
    });
  });

  describe('lotecobv', () => {
    const loteItem = (txid: string, extra: Json = {}) => ({ txid, ...cobvBody(extra) });

    it('creates a batch asynchronously (202): good requests CRIADA, a bad one NEGADA with its problema; the NEGADA txid is no cobv', async () => {
      const [good1, bad, good2] = [nextTxid(), nextTxid(), nextTxid()];
      fake.holdLoteCobV(true);
      const put = await api('PUT', '/lotecobv/1001', {
        body: { descricao: 'Mensalidades de março', cobsv: [loteItem(good1), loteItem(bad, { devedor: { nome: 'Sem documento' } }), loteItem(good2, { valor: { original: '80.00' } })] },
      });
      expect(put.status).toBe(202);
      expect(put.text).toBe('');
      const waiting = await api('GET', '/lotecobv/1001');
      conforms('LoteCobVConsultado', waiting.body);
      expect(waiting.body.cobsv.map((item: { status: string }) => item.status)).toEqual(['EM_PROCESSAMENTO', 'EM_PROCESSAMENTO', 'EM_PROCESSAMENTO']);
      expectProblem(await api('GET', `/cobv/${good1}`), 404, 'CobVNaoEncontrada');
      expectProblem(await api('PUT', `/cobv/${good1}`, { body: cobvBody() }), 400, 'CobVOperacaoInvalida', 'txid');
      fake.holdLoteCobV(false);

      const done = await api('GET', '/lotecobv/1001');
      conforms('LoteCobVConsultado', done.body);
      const criacao = new Date(clock.now()).toISOString();
      expect(done.body).toEqual({
        id: 1001,
        descricao: 'Mensalidades de março',
        criacao,
        cobsv: [
          { txid: good1, status: 'CRIADA', criacao },
          { txid: bad, status: 'NEGADA', problema: expect.objectContaining({ type: `${PROBLEM_TYPE}CobVOperacaoInvalida`, status: 400, violacoes: [expect.objectContaining({ propriedade: 'cobv.devedor' })] }) },
          { txid: good2, status: 'CRIADA', criacao },
        ],
      });
      conforms('Problema', done.body.cobsv[1].problema);
      const made = await api('GET', `/cobv/${good2}`);
      conforms('CobVCompleta', made.body);
      expect(made.body).toMatchObject({ status: 'ATIVA', valor: { original: '80.00' } });
      expectProblem(await api('GET', `/cobv/${bad}`), 404, 'CobVNaoEncontrada');
      expectProblem(await api('PUT', `/cobv/${bad}`, { body: cobvBody() }), 400, 'CobVOperacaoInvalida', 'txid');
      const inLote = await api('GET', `/cobv?${period(START_MS, clock.now())}&loteCobVId=1001`);
      expect(inLote.body.cobs.map((cobv: { txid: string }) => cobv.txid)).toEqual([good1, good2]);

      // Re-sent with exactly its txids: the NEGADA one is created, the CRIADA ones revised.
      expectProblem(await api('PUT', '/lotecobv/1001', { body: { descricao: 'x', cobsv: [loteItem(good1), loteItem(bad)] } }), 400, 'LoteCobVOperacaoInvalida', 'loteCobV.cobsv');
      const again = await api('PUT', '/lotecobv/1001', { body: { descricao: 'Mensalidades de março (2)', cobsv: [loteItem(good1), loteItem(bad), loteItem(good2, { valor: { original: '90.00' } })] } });
      expect(again.status).toBe(202);
      const redone = await api('GET', '/lotecobv/1001');
      expect(redone.body.descricao).toBe('Mensalidades de março (2)');
      expect(redone.body.cobsv.map((item: { status: string }) => item.status)).toEqual(['CRIADA', 'CRIADA', 'CRIADA']);
      expect((await api('GET', `/cobv/${good2}`)).body).toMatchObject({ revisao: 1, valor: { original: '90.00' } });
      expect((await api('GET', `/cobv/${bad}`)).status).toBe(200);
    });

    it('PATCH revises some cobvs of a batch; refuses a txid not in it; a new batch cannot name a charge in use; lists batches', async () => {
      const [a, b] = [nextTxid(), nextTxid()];
      expect((await api('PUT', '/lotecobv/1002', { body: { descricao: 'Lote 2', cobsv: [loteItem(a), loteItem(b)] } })).status).toBe(202);
      const patch = await api('PATCH', '/lotecobv/1002', { body: { cobsv: [{ txid: b, calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '110.00' } }] } });
      expect(patch.status).toBe(202);
      expect((await api('GET', `/cobv/${b}`)).body).toMatchObject({ revisao: 1, calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '110.00' } });
      expect((await api('GET', `/cobv/${a}`)).body.revisao).toBe(0);
      const badPatch = await api('PATCH', '/lotecobv/1002', { body: { cobsv: [{ txid: a, valor: { original: '0.00' } }] } });
      expect(badPatch.status).toBe(202);
      const lote = await api('GET', '/lotecobv/1002');
      expect(lote.body.cobsv[0]).toMatchObject({ txid: a, status: 'NEGADA', problema: { type: `${PROBLEM_TYPE}CobVOperacaoInvalida` } });
      expectProblem(await api('PATCH', `/cobv/${a}`, { body: { solicitacaoPagador: 'x' } }), 400, 'CobVOperacaoInvalida', 'txid');
      expectProblem(await api('PATCH', '/lotecobv/1002', { body: { cobsv: [{ txid: nextTxid(), valor: { original: '1.00' } }] } }), 400, 'LoteCobVOperacaoInvalida', 'loteCobV.cobsv.txid');
      expectProblem(await api('PATCH', '/lotecobv/9999', { body: { descricao: 'x' } }), 404, 'LoteCobVNaoEncontrado');
      expectProblem(await api('GET', '/lotecobv/9999'), 404, 'LoteCobVNaoEncontrado');
      const { txid: single } = await newCobv();
      expectProblem(await api('PUT', '/lotecobv/1003', { body: { descricao: 'Lote 3', cobsv: [loteItem(single)] } }), 400, 'LoteCobVOperacaoInvalida', 'loteCobV.cobsv.txid');
      expectProblem(await api('PUT', '/lotecobv/1003', { body: { descricao: 'Lote 3', cobsv: [loteItem(a)] } }), 400, 'LoteCobVOperacaoInvalida', 'loteCobV.cobsv.txid');
      expectProblem(await api('PUT', '/lotecobv/1003', { body: { cobsv: [loteItem(nextTxid())] } }), 400, 'LoteCobVOperacaoInvalida', 'loteCobV.descricao');
      expectProblem(await api('PUT', '/lotecobv/1003', { body: { descricao: 'Vazio', cobsv: [] } }), 400, 'LoteCobVOperacaoInvalida', 'loteCobV.cobsv');
      expectProblem(await api('PUT', '/lotecobv/abc', { body: { descricao: 'x', cobsv: [loteItem(nextTxid())] } }), 400, 'LoteCobVOperacaoInvalida');
      const listed = await api('GET', `/lotecobv?${period(START_MS, clock.now())}`);
      conforms('LotesCobVConsultados', listed.body);
      expect(listed.body.lotes.map((item: { id: number }) => item.id)).toEqual([1001, 1002]);
      expectProblem(await api('GET', `/lotecobv?${period(clock.now(), START_MS)}`), 400, 'LoteCobVConsultaInvalida');
    });
  });

  describe('the payer end', () => {
    it('pays on the due day: CONCLUIDA with its Pix, read, listed, called back, refundable; paid once', async () => {
      const { txid } = await newCobv(cobvBody({}, {}, { dataDeVencimento: '2026-03-04', validadeAposVencimento: 0 }));
      expect(fake.cobvLastPayableDay(txid)).toBe('2026-03-04');
      const horario = '2026-03-04T23:59:00.000Z'; // 20:59 in São Paulo
      const pix = await fake.payCobv(txid, { valor: '123.45', horario, infoPagador: 'Boleto de março' });
      conforms('Pix', { ...pix, gnExtras: undefined });
      expect(pix).toMatchObject({ txid, valor: '123.45', horario, chave: PIX_KEY, infoPagador: 'Boleto de março' });
      expect(pix.endToEndId.slice(9, 21)).toBe('202603042359');
      const cobv = await api('GET', `/cobv/${txid}`);
      conforms('CobVCompleta', { ...cobv.body, pix: cobv.body.pix.map((item: Json) => ({ ...item, gnExtras: undefined })) });
      expect(cobv.body).toMatchObject({ status: 'CONCLUIDA', pix: [pix] });
      expect((await api('GET', `/pix/${pix.endToEndId}`)).body).toEqual(pix);
      const listed = await api('GET', `/pix?inicio=2026-03-04T00:00:00Z&fim=2026-03-05T00:00:00Z&txid=${txid}`);
      expect(listed.body.pix).toEqual([pix]);
      await fake.flushCallbacks();
      expect(listener.bodies.flatMap((body) => body.pix).filter((item) => item.endToEndId === pix.endToEndId)).toEqual([pix]);
      const refund = await api('PUT', `/pix/${pix.endToEndId}/devolucao/dev${counter}`, { body: { valor: '23.45' } });
      expect(refund.status).toBe(201);
      expect(refund.body).toMatchObject({ valor: '23.45', status: 'EM_PROCESSAMENTO' });
      await expect(fake.payCobv(txid, { valor: '123.45', horario })).rejects.toMatchObject({ status: 409 });
      expectProblem(await api('PATCH', `/cobv/${txid}`, { body: { solicitacaoPagador: 'x' } }), 400, 'CobVOperacaoInvalida', 'cobv.status');
    });

    it('pays late with a bigger amount (the fake does not check it), refuses after the last payable day, reads the day in São Paulo', async () => {
      const { txid: late } = await newCobv(cobvBody({}, { multa: { modalidade: 2, valorPerc: '2.00' } }, { dataDeVencimento: '2026-03-04', validadeAposVencimento: 2 }));
      expect(fake.cobvLastPayableDay(late)).toBe('2026-03-06');
      const before = fake.balanceCents();
      const pix = await fake.payCobv(late, { valor: '126.33', horario: '2026-03-06T15:00:00-03:00' });
      expect(pix).toMatchObject({ txid: late, valor: '126.33' });
      expect(fake.balanceCents()).toBe(before + 12_633);

      const { txid: expired } = await newCobv(cobvBody({}, {}, { dataDeVencimento: '2026-03-04', validadeAposVencimento: 2 }));
      const refusal = await fake.payCobv(expired, { valor: '130.00', horario: '2026-03-07T03:00:00Z' }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(FakePspError);
      expect((refusal as FakePspError).status).toBe(409);
      expect((refusal as FakePspError).message).toMatch(/past its last payable day.*2026-03-07.*2026-03-06/);
      const viaControl = await control('POST', `/_fake/cobv/${expired}/pay`, { valor: '130.00', horario: '2026-03-09T10:00:00-03:00' });
      expect(viaControl.status).toBe(409);
      expect(viaControl.body.detail).toMatch(/last payable day/);
      expect((await api('GET', `/cobv/${expired}`)).body.status).toBe('ATIVA');
      // 23:30 on the 6th in São Paulo is already the 7th in UTC: still payable.
      const paid = await control('POST', `/_fake/cobv/${expired}/pay`, { valor: '1.00', horario: '2026-03-07T02:30:00Z', pagador: { nome: 'Joana Pagadora', cpf: '11144477735' } });
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ txid: expired, valor: '1.00', horario: '2026-03-07T02:30:00.000Z' });
      if (profile === 'efi') expect(paid.body.gnExtras.pagador).toEqual({ nome: 'Joana Pagadora', cpf: '11144477735' });

      expect((await control('GET', `/_fake/cobv/${late}/last-payable-day`)).body).toEqual({ lastPayableDay: '2026-03-06' });
      expect((await control('POST', `/_fake/cobv/${nextTxid()}/pay`, { valor: '1.00' })).status).toBe(404);
      const { txid: other } = await newCobv();
      expect((await control('POST', `/_fake/cobv/${other}/pay`, {})).status).toBe(400);
      expect((await control('POST', `/_fake/cobv/${other}/pay`, { valor: '1.00', horario: 'amanhã' })).status).toBe(400);
      expect((await control('POST', `/_fake/cobv/${other}/pay`, { valor: '1.00', horario: '2026-03-01T12:00:00Z' })).status).toBe(409);
    });

    it('rolls a due date on a weekend to the Monday: payable on the Monday, not on the Tuesday', async () => {
      const { txid: monday } = await newCobv(cobvBody({}, {}, { dataDeVencimento: '2026-03-07', validadeAposVencimento: 0 }));
      expect(fake.cobvLastPayableDay(monday)).toBe('2026-03-09');
      expect((await fake.payCobv(monday, { valor: '123.45', horario: '2026-03-09T18:00:00-03:00' })).txid).toBe(monday);
      const { txid: tuesday } = await newCobv(cobvBody({}, {}, { dataDeVencimento: '2026-03-07', validadeAposVencimento: 0 }));
      await expect(fake.payCobv(tuesday, { valor: '123.45', horario: '2026-03-10T09:00:00-03:00' })).rejects.toMatchObject({ status: 409 });
      const { txid: goodFriday } = await newCobv(cobvBody({}, {}, { dataDeVencimento: '2026-04-03', validadeAposVencimento: 0 }));
      expect(fake.cobvLastPayableDay(goodFriday)).toBe('2026-04-06');
      const state = await control('GET', '/_fake/state');
      expect(state.body).toMatchObject({ cobvs: expect.any(Number), lotescobv: 2, locs: expect.any(Number) });
    });
  });

  describe('the payload location', () => {
    it('serves the cobv as a JWS signed with the fake\'s key: CobVPayload with the amounts for DPP', async () => {
      const { txid, body: cobv } = await newCobv(
        cobvBody(
          {},
          {
            original: '100.00',
            multa: { modalidade: 2, valorPerc: '2.00' },
            juros: { modalidade: 1, valorPerc: '0.50' },
            abatimento: { modalidade: 1, valorPerc: '1.00' },
            desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-05', valorPerc: '5.00' }] },
          },
          { dataDeVencimento: '2026-03-06', validadeAposVencimento: 10 },
        ),
      );
      const url = served(cobv.location);
      const early = await send(`${url}?codMun=3550308&DPP=2026-03-05`, 'GET', { auth: null });
      expect(early.status).toBe(200);
      expect(early.contentType).toBe('application/jose');
      const [header, payload, signature] = early.text.split('.') as [string, string, string];
      const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
      const jose = decode(header);
      expect(jose).toMatchObject({ alg: 'RS256', typ: 'JWS', kid: expect.any(String), jku: `https://${new URL(fake.url).host}/jwks` });
      const certificate = new X509Certificate(Buffer.from(jose.x5c[0] as string, 'base64'));
      expect(certificate.verify(new X509Certificate(fake.certificates.ca).publicKey)).toBe(true);
      expect(verify('sha256', Buffer.from(`${header}.${payload}`), certificate.publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
      const body = decode(payload);
      conforms('CobVPayload', body);
      expect(body).toEqual({
        calendario: { criacao: cobv.calendario.criacao, apresentacao: new Date(clock.now()).toISOString(), dataDeVencimento: '2026-03-06', validadeAposVencimento: 10 },
        devedor: { nome: devedor.nome, cpf: devedor.cpf },
        recebedor: RECEBEDOR,
        txid,
        revisao: 0,
        status: 'ATIVA',
        valor: { original: '100.00', abatimento: '1.00', desconto: '5.00', final: '94.00' },
        chave: PIX_KEY,
        solicitacaoPagador: cobv.solicitacaoPagador,
      });
      const jwks = await send(`${fake.url}/jwks`, 'GET', { auth: null });
      expect(jwks.body.keys).toEqual([expect.objectContaining({ kty: 'RSA', kid: jose.kid, alg: 'RS256', use: 'sig' })]);

      // Three days late (Monday the 9th after Friday the 6th): multa 2% and 3 × 0.50 of juros.
      const late = decode((await send(`${url}?DPP=2026-03-09`, 'GET', { auth: null })).text.split('.')[1] as string);
      expect(late.valor).toEqual({ original: '100.00', multa: '2.00', juros: '1.50', abatimento: '1.00', final: '102.50' });

      const refused: [string, string][] = [
        ['DPP=2026-03-01', 'DPP'],
        ['DPP=2026-13-01', 'DPP'],
        ['DPP=2026-03-30', 'DPP'],
        ['codMun=123', 'codMun'],
        ['codMun=9912345', 'codMun'],
      ];
      for (const [query, propriedade] of refused) expectProblem(await send(`${url}?${query}`, 'GET', { auth: null }), 400, 'CobPayloadOperacaoInvalida', propriedade);
      expectProblem(await send(`${fake.url}/qr/v2/cobv/${'0'.repeat(32)}`, 'GET', { auth: null }), 404, 'CobPayloadNaoEncontrado');
      await api('PATCH', `/cobv/${txid}`, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
      expectProblem(await send(url, 'GET', { auth: null }), 410, 'CobPayloadNaoEncontrado');
    });

    it('serves a cob\'s payload (CobPayload) at its location too', async () => {
      const txid = nextTxid();
      const cob = (await api('PUT', `/cob/${txid}`, { body: { calendario: { expiracao: 600 }, valor: { original: '7.00' }, chave: PIX_KEY } })).body;
      const answer = await send(served(cob.location), 'GET', { auth: null });
      expect(answer.status).toBe(200);
      const body = JSON.parse(Buffer.from(answer.text.split('.')[1] as string, 'base64url').toString('utf8'));
      conforms('CobPayload', body);
      expect(body).toMatchObject({ txid, revisao: 0, status: 'ATIVA', valor: { original: '7.00' }, calendario: { expiracao: 600 } });
    });
  });
});
