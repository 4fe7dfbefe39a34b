/**
 * The fake payment provider's Pix Automático (scripts/fakepsp: recs.ts, cobrs.ts, the control API and the
 * payload location), on both profiles over mutual TLS: a recurrence with its confirmation request accepted
 * (JORNADA_1) or rejected (AP13), its history and its webhookrec callbacks; a recurrence with a location, its
 * `dadosQR` (JORNADA_2, JORNADA_3, JORNADA_4) and its signed payload, approved by a composite QR code that pays
 * a cob; recurring charges (create and its refusals, pay with the received Pix listed and refundable, refuse,
 * retry, the retry rules, the payer's and the receiver's cancellations) and their webhookcobr callbacks; the
 * standard's scopes. Answer bodies are validated with Ajv against the standard's own schemas
 * (openapi/upstream/bacen-pix-api-2.9.0.yaml), a few defects of the document undone first.
 */
import { X509Certificate, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv, type AnySchema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { FAKE_PSP_PROFILES, LOCATION_HOST, RECEBEDOR, RECEBEDOR_CONTA, startFakePsp, type FakePsp, type FakePspProfile } from '../../scripts/fakepsp/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { decodeTlv, PIX_GUI, withCrc } from '../../src/primitives/brcode.ts';
import { startCallbackListener, type CallbackListener } from '../support/callbackListener.ts';

const PIX_KEY = 'recorrencias@pixgate.test';
const CLIENT_ID = 'Client_Id_fakepsp_rec';
const CLIENT_SECRET = 'Client_Secret_fakepsp_rec';
const PROBLEM_TYPE = 'https://pix.bcb.gov.br/api/v2/error/';
const ISPB = '09089356';
const RECURRENCE_SCOPES = 'rec.write rec.read solicrec.write solicrec.read cobr.write cobr.read payloadlocationrec.write payloadlocationrec.read webhookrec.write webhookrec.read webhookcobr.write webhookcobr.read';
const ALL_SCOPES = `cob.write cob.read pix.write pix.read webhook.write webhook.read cobv.write cobv.read payloadlocation.write payloadlocation.read ${RECURRENCE_SCOPES}`;
/** Monday 2026-03-02, 09:00 in São Paulo. */
const START_MS = Date.UTC(2026, 2, 2, 12, 0, 0);

// ---- the standard's schemas ----------------------------------------------------------------------------

type Json = Record<string, unknown>;
const standard = parse(readFileSync(new URL('../../openapi/upstream/bacen-pix-api-2.9.0.yaml', import.meta.url), 'utf8')) as { components: { schemas: Record<string, Json> } };

/**
 * Defects of the 2.9.0 document that make its Pix Automático schemas refuse what its own text and examples
 * show, undone:
 * - CPF patterns written as JavaScript regex literals (`"/^\\d{11}$/"`) match nothing: the slashes go;
 * - `RecBase` requires `retentativa`, `SolicRecBase` `pagador`, `SolicRecCompleta` `rec`,
 *   `PayloadLocationRecGerada` `tipo`: properties no schema defines and no example has (they go);
 *   `RecNotification` requires `atualizacao"` (a stray quote): it becomes `atualizacao`;
 * - `DadosPagadorRec` requires `ispbParticipante` and a `cpf` | `cnpj` at the top of the recurrence, while its
 *   properties and every example put them in `pagador`: they move there;
 * - `PixAutomatico.valor` is a string but `anyOf` object schemas (`PixValorOriginal`, ...): the `anyOf` goes;
 * - the `oneOf` of `RecEncerramento.encerramento` and `CobRAtualizacao.encerramento` has branches that require
 *   nothing, so any value matches both and fails: each branch requires its property;
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
  const drop = (name: string, property: string): void => {
    const schema = schemas[name] as { required: string[] };
    expect(schema.required).toContain(property);
    schema.required = schema.required.filter((item) => item !== property);
  };
  drop('RecBase', 'retentativa');
  drop('SolicRecBase', 'pagador');
  drop('SolicRecCompleta', 'rec');
  drop('PayloadLocationRecGerada', 'tipo');
  drop('RecNotification', 'atualizacao"');
  (schemas.RecNotification as { required: string[] }).required.push('atualizacao');
  const pagador = schemas.DadosPagadorRec as { required?: string[]; oneOf?: Json[]; properties: { pagador: Json } };
  expect(pagador.required).toEqual(['ispbParticipante']);
  schemas.DadosPagadorRec = { type: 'object', properties: { pagador: { ...pagador.properties.pagador, required: ['ispbParticipante'], oneOf: pagador.oneOf } } };
  const valor = (schemas.PixAutomatico?.properties as { valor: Json }).valor;
  expect(valor.type).toBe('string');
  delete valor.anyOf;
  const requireBranches = (encerramento: { oneOf: { properties: Json; required?: string[] }[] }): void => {
    for (const branch of encerramento.oneOf) branch.required = Object.keys(branch.properties);
  };
  requireBranches((schemas.RecEncerramento?.properties as { encerramento: { oneOf: { properties: Json }[] } }).encerramento);
  requireBranches((schemas.CobRAtualizacao?.properties as { encerramento: { oneOf: { properties: Json }[] } }).encerramento);
}

const addFormats = addFormatsModule.default;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('uri', (value: string) => URL.canParse(value) || URL.canParse(`https://${value}`));
ajv.addFormat('int32', true);
ajv.addFormat('int64', true);
const STANDARD_ID = 'https://pixgate.test/bacen-pix-api-rec';
undoDefects(standard.components.schemas);
ajv.addSchema({ $id: STANDARD_ID, components: { schemas: standard.components.schemas } } as AnySchema);

function conforms(name: string, value: unknown): void {
  const validate = ajv.getSchema(`${STANDARD_ID}#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name}`);
  validate(value);
  expect(validate.errors ?? [], `${name}: ${JSON.stringify(value)}`).toEqual([]);
}

/** The fields of a BR Code, by tag; `sub` decodes one of them. */
function brCodeFields(code: string): Map<string, string> {
  expect(withCrc(code.slice(0, -8))).toBe(code);
  return new Map(decodeTlv(code).map((field) => [field.tag, field.value]));
}
const sub = (value: string | undefined): Map<string, string> => new Map(decodeTlv(value ?? '').map((field) => [field.tag, field.value]));

interface Answer {
  status: number;
  contentType: string;
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

  const nextTxid = () => `rtx${profile.slice(0, 1)}${String(++counter).padStart(4, '0')}abcdefghijklmnopqrstu`;
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
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, body };
  }

  /** API Pix: every error answer here is problem+json (Efí's webhook refusals apart, not exercised). */
  async function api(method: string, path: string, options: { body?: unknown; auth?: string | null } = {}): Promise<Answer> {
    const answer = await send(`${fake.apiBaseUrl}${profile === 'efi' ? '/v2' : ''}${path}`, method, options);
    if (answer.status >= 400) {
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
      conforms('Problema', answer.body);
      expect(answer.body.status).toBe(answer.status);
    }
    return answer;
  }

  const control = (path: string, body?: unknown) => send(`${fake.url}${path}`, 'POST', { body: body ?? {}, auth: null });

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

  /** The bodies the listener got at `{webhookUrl}/rec` or `/cobr`. */
  async function delivered(kind: 'rec' | 'cobr'): Promise<Json[]> {
    await fake.flushCallbacks();
    return listener.bare.filter((request) => request.path.endsWith(`/${kind}`)).map((request) => JSON.parse(request.body) as Json);
  }
  async function recItems(idRec: string): Promise<Json[]> {
    return (await delivered('rec')).flatMap((body) => (body.recs as Json[]).filter((item) => item.idRec === idRec));
  }
  async function cobrItems(txid: string): Promise<Json[]> {
    return (await delivered('cobr')).flatMap((body) => (body.cobsr as Json[]).filter((item) => item.txid === txid));
  }

  const devedor = { cpf: '12345678909', nome: 'Fulano de Tal' };
  const destinatario = { agencia: '2569', conta: '550689', cpf: '12345678909', ispbParticipante: '91193552' };
  const recBody = (extra: Json = {}) => ({
    vinculo: { contrato: '63100862', devedor, objeto: 'Serviço de Streaming.' },
    calendario: { dataInicial: '2026-03-05', periodicidade: 'MENSAL' },
    valor: { valorMinimoRecebedor: '50.00' },
    politicaRetentativa: 'PERMITE_3R_7D',
    ...extra,
  });

  async function newRec(body: Json = recBody()): Promise<Answer['body']> {
    const created = await api('POST', '/rec', { body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    conforms('RecGerada', created.body);
    return created.body;
  }

  async function newSolicRec(idRec: string): Promise<Answer['body']> {
    const created = await api('POST', '/solicrec', { body: { idRec, calendario: { dataExpiracaoSolicitacao: new Date(clock.now() + 86_400_000).toISOString() }, destinatario } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    conforms('SolicRecCompleta', created.body);
    return created.body;
  }

  /** A recurrence approved by JORNADA_1 (its request accepted). */
  async function approvedRec(body: Json = recBody()): Promise<string> {
    const rec = await newRec(body);
    const solicitacao = await newSolicRec(rec.idRec);
    expect((await control(`/_fake/solicrec/${solicitacao.idSolicRec}/accept`)).status).toBe(200);
    return rec.idRec as string;
  }

  const cobrBody = (idRec: string, dataDeVencimento: string, extra: Json = {}) => ({
    idRec,
    calendario: { dataDeVencimento },
    valor: { original: '106.07' },
    ajusteDiaUtil: true,
    devedor: { email: 'fulano@exemplo.test', logradouro: 'Alameda Franco 1056', cidade: 'Uberlândia', uf: 'MG', cep: '89256140' },
    recebedor: { ...RECEBEDOR_CONTA },
    infoAdicional: 'Mensalidade de março.',
    ...extra,
  });

  async function newCobR(idRec: string, dataDeVencimento: string, extra: Json = {}): Promise<Answer['body']> {
    const created = await api('PUT', `/cobr/${nextTxid()}`, { body: cobrBody(idRec, dataDeVencimento, extra) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    conforms('CobRGerada', created.body);
    conforms('CobRCompleta', created.body);
    return created.body;
  }

  async function readCobR(txid: string): Promise<Answer['body']> {
    const read = await api('GET', `/cobr/${txid}`);
    expect(read.status).toBe(200);
    conforms('CobRCompleta', read.body);
    return read.body;
  }

  const served = (location: string) => `${fake.url}${location.slice(LOCATION_HOST.length)}`;
  const period = (fromMs: number, toMs: number) => `inicio=${new Date(fromMs).toISOString()}&fim=${new Date(toMs).toISOString()}`;

  beforeAll(async () => {
    fake = await startFakePsp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, pixKey: PIX_KEY, clock, callbackRetryMs: [20, 40], profile, certificates: inject('fakePspCertificates') });
    gateway = new Agent({ connect: { ca: fake.certificates.ca, cert: fake.certificates.gatewayClientCert, key: fake.certificates.gatewayClientKey } });
    listener = await startCallbackListener(fake.certificates);
    token = await newToken(ALL_SCOPES);
    for (const kind of ['webhookrec', 'webhookcobr']) {
      const answer = await api('PUT', `/${kind}`, { body: { webhookUrl: listener.url } });
      if (profile === 'efi') {
        expect(answer.status).toBe(201);
        expect(answer.body).toEqual({ webhookUrl: listener.url, criacao: new Date(clock.now()).toISOString() });
      } else {
        expect(answer.status).toBe(200);
        expect(answer.text).toBe('');
      }
      const read = await api('GET', `/${kind}`);
      expect(read.status).toBe(200);
      conforms(kind === 'webhookrec' ? 'WebhookRecCompleto' : 'WebhookCobRCompleto', read.body);
      expect(read.body.webhookUrl).toBe(listener.url);
    }
  });

  afterAll(async () => {
    await fake?.close();
    await gateway?.close();
    await listener?.close();
  });

  it('refuses a webhookrec URL that is not https, and deletes and restores one', async () => {
    const refused = await send(`${fake.apiBaseUrl}${profile === 'efi' ? '/v2' : ''}/webhookrec`, 'PUT', { body: { webhookUrl: 'http://example.test/hook' } });
    expect(refused.status).toBe(400);
    if (profile === 'standard') expectProblem(refused, 400, 'WebhookRecOperacaoInvalida', 'webhookUrl');
    else expect(refused.body.nome).toBe('valor_invalido');
    expect((await api('DELETE', '/webhookcobr')).status).toBe(204);
    expectProblem(await api('GET', '/webhookcobr'), 404, 'NaoEncontrado');
    expect([200, 201]).toContain((await api('PUT', '/webhookcobr', { body: { webhookUrl: listener.url } })).status);
  });

  it('creates a recurrence and a confirmation request; the payer accepts: APROVADA by JORNADA_1, its history in order, one callback', async () => {
    const rec = await newRec();
    expect(rec.idRec).toMatch(new RegExp(`^RR${ISPB}20260302[a-zA-Z0-9]{11}$`));
    expect(rec).toMatchObject({
      status: 'CRIADA',
      recebedor: { cnpj: RECEBEDOR.cnpj, nome: RECEBEDOR.nome },
      atualizacao: [{ status: 'CRIADA', data: new Date(clock.now()).toISOString() }],
      ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
    });
    const solicitacao = await newSolicRec(rec.idRec);
    expect(solicitacao.idSolicRec).toMatch(new RegExp(`^SC${ISPB}20260302[a-zA-Z0-9]{11}$`));
    expect(solicitacao.status).toBe('ENVIADA');
    expect(solicitacao.atualizacao.map((entry: Json) => entry.status)).toEqual(['CRIADA', 'ENVIADA']);
    expect(solicitacao.recPayload).toMatchObject({ idRec: rec.idRec, recebedor: { cnpj: RECEBEDOR.cnpj, ispbParticipante: ISPB }, valor: { valorMinimoRecebedor: '50.00' } });
    conforms('RecPayload', solicitacao.recPayload);
    const read = await api('GET', `/solicrec/${solicitacao.idSolicRec}`);
    expect(read.body).toEqual(solicitacao);
    // A second active request for the same recurrence; an expiry in the past; an unknown recurrence.
    expectProblem(await api('POST', '/solicrec', { body: { idRec: rec.idRec, calendario: { dataExpiracaoSolicitacao: new Date(clock.now() + 3_600_000).toISOString() }, destinatario } }), 400, 'SolicRecOperacaoInvalida', 'solicrec.idRec');
    expectProblem(
      await api('POST', '/solicrec', { body: { idRec: rec.idRec, calendario: { dataExpiracaoSolicitacao: new Date(clock.now() - 1000).toISOString() }, destinatario } }),
      400,
      'SolicRecOperacaoInvalida',
      'solicrec.calendario.dataExpiracaoSolicitacao',
    );
    expectProblem(await api('POST', '/solicrec', { body: { idRec: `RR${ISPB}20260302abcdefghijk`, calendario: { dataExpiracaoSolicitacao: new Date(clock.now() + 1000).toISOString() }, destinatario } }), 404, 'RecNaoEncontrada');
    // The payer's maximum may not be below the receiver's minimum.
    expect((await control(`/_fake/solicrec/${solicitacao.idSolicRec}/accept`, { valorMaximo: '40.00' })).status).toBe(409);
    clock.advance(60_000);
    const accepted = await control(`/_fake/solicrec/${solicitacao.idSolicRec}/accept`, { valorMaximo: '80.00' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('ACEITA');
    const approved = await api('GET', `/rec/${rec.idRec}`);
    conforms('RecCompleta', approved.body);
    expect(approved.body).toMatchObject({
      status: 'APROVADA',
      ativacao: { tipoJornada: 'JORNADA_1' },
      pagador: { ispbParticipante: destinatario.ispbParticipante, cpf: destinatario.cpf },
      atualizacao: [
        { status: 'CRIADA', data: new Date(clock.now() - 60_000).toISOString() },
        { status: 'APROVADA', data: new Date(clock.now()).toISOString() },
      ],
      solicitacao: [{ idSolicRec: solicitacao.idSolicRec, status: 'ACEITA' }],
    });
    expect(approved.body.dadosQR).toBeUndefined();
    // An accepted request can no longer be cancelled; a second accept is refused.
    expectProblem(await api('PATCH', `/solicrec/${solicitacao.idSolicRec}`, { body: { status: 'CANCELADA' } }), 400, 'SolicRecOperacaoInvalida');
    expect((await control(`/_fake/solicrec/${solicitacao.idSolicRec}/accept`)).status).toBe(409);
    const items = await recItems(rec.idRec);
    expect(items).toHaveLength(1);
    conforms('RecNotification', items[0]);
    expect(items[0]).toMatchObject({ idRec: rec.idRec, status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_1' } });
    const listed = await api('GET', `/rec?${period(START_MS, clock.now())}&status=APROVADA&cpf=${devedor.cpf}`);
    expect(listed.status).toBe(200);
    conforms('RecsConsultadas', listed.body);
    expect(listed.body.recs.map((item: Json) => item.idRec)).toContain(rec.idRec);
    expectProblem(await api('GET', `/rec?${period(START_MS, clock.now())}&cpf=${devedor.cpf}&cnpj=${RECEBEDOR.cnpj}`), 400, 'RecConsultaInvalida');
  });

  it('a request rejected with AP13 rejects the recurrence (encerramento.rejeicao); a cancelled request stays cancelled', async () => {
    const rec = await newRec(recBody({ politicaRetentativa: 'NAO_PERMITE' }));
    expect(rec.idRec).toMatch(new RegExp(`^RN${ISPB}`));
    const solicitacao = await newSolicRec(rec.idRec);
    expect((await control(`/_fake/solicrec/${solicitacao.idSolicRec}/reject`, { codigo: 'AP99' })).status).toBe(400);
    const rejected = await control(`/_fake/solicrec/${solicitacao.idSolicRec}/reject`, { codigo: 'AP13' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.status).toBe('REJEITADA');
    const read = await api('GET', `/rec/${rec.idRec}`);
    conforms('RecCompleta', read.body);
    expect(read.body).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13', descricao: expect.any(String) } } });
    expect(read.body.atualizacao.map((entry: Json) => entry.status)).toEqual(['CRIADA', 'REJEITADA']);
    expectProblem(await api('PATCH', `/rec/${rec.idRec}`, { body: { status: 'CANCELADA' } }), 400, 'RecOperacaoInvalida', 'rec.status');
    const items = await recItems(rec.idRec);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13' } } });
    // The receiver cancels a request while it is pending.
    const other = await newRec();
    const pending = await newSolicRec(other.idRec);
    const cancelled = await api('PATCH', `/solicrec/${pending.idSolicRec}`, { body: { status: 'CANCELADA' } });
    expect(cancelled.status).toBe(201);
    expect(cancelled.body.atualizacao.map((entry: Json) => entry.status)).toEqual(['CRIADA', 'ENVIADA', 'CANCELADA']);
    expect((await control(`/_fake/solicrec/${pending.idSolicRec}/accept`)).status).toBe(409);
  });

  it('the callback knobs reach webhookrec: held until released, sent again when duplicated', async () => {
    fake.callbacks.hold();
    const idRec = await approvedRec();
    expect(await recItems(idRec)).toEqual([]);
    await fake.callbacks.release();
    expect((await recItems(idRec)).map((item) => item.status)).toEqual(['APROVADA']);
    fake.callbacks.duplicate(1);
    try {
      expect((await control(`/_fake/rec/${idRec}/cancel`, { codigo: 'SLDB' })).status).toBe(200);
      expect((await recItems(idRec)).map((item) => item.status)).toEqual(['APROVADA', 'CANCELADA', 'CANCELADA']);
    } finally {
      fake.callbacks.duplicate(0);
    }
    expect(fake.recCallbacks.attempts.filter((attempt) => attempt.body.recs.some((item) => item.idRec === idRec)).every((attempt) => attempt.url === `${listener.url}/rec`)).toBe(true);
  });

  it('answers RecOperacaoInvalida with the violations the document lists', async () => {
    const cases: [Json, string][] = [
      [recBody({ vinculo: { devedor } }), 'rec.vinculo'],
      [recBody({ calendario: { dataInicial: '2026-03-01', periodicidade: 'MENSAL' } }), 'rec.calendario.dataInicial'],
      [recBody({ calendario: { dataInicial: '2026-03-05', dataFinal: '2026-03-04', periodicidade: 'MENSAL' } }), 'rec.calendario.dataFinal'],
      [recBody({ calendario: { dataInicial: '2026-03-05', periodicidade: 'DIARIA' } }), 'rec.calendario.periodicidade'],
      [recBody({ valor: { valorRec: '10.00', valorMinimoRecebedor: '5.00' } }), 'rec.valor'],
      [recBody({ valor: { valorRec: '10,00' } }), 'rec.valor.valorRec'],
      [recBody({ politicaRetentativa: 'SEMPRE' }), 'rec.politicaRetentativa'],
      [recBody({ loc: 999_999 }), 'rec.loc'],
    ];
    for (const [body, propriedade] of cases) expectProblem(await api('POST', '/rec', { body }), 400, 'RecOperacaoInvalida', propriedade);
    expectProblem(await api('GET', `/rec/RR${ISPB}20260302zzzzzzzzzzz`), 404, 'RecNaoEncontrada');
  });

  it('a recurrence with a location: dadosQR JORNADA_2, JORNADA_3 and JORNADA_4, its signed payload, approval by a composite QR code paying the cob', async () => {
    const loc = await api('POST', '/locrec');
    expect(loc.status).toBe(201);
    conforms('PayloadLocationRecCompleta', loc.body);
    expect(loc.body.location).toMatch(/^fakepsp\.local\/qr\/v2\/rec\/[0-9a-f]{32}$/);
    const cobTxid = nextTxid();
    expect((await api('PUT', `/cob/${cobTxid}`, { body: { calendario: { expiracao: 3600 }, valor: { original: '35.00' }, chave: PIX_KEY } })).status).toBe(201);
    const rec = await newRec(recBody({ valor: { valorRec: '35.00' }, loc: loc.body.id, ativacao: { dadosJornada: { txid: cobTxid } } }));
    expect(rec.loc).toEqual({ ...loc.body, idRec: rec.idRec });
    expect(rec.ativacao).toEqual({ tipoJornada: 'AGUARDANDO_DEFINICAO', dadosJornada: { txid: cobTxid } });
    // A location in use by another recurrence.
    expectProblem(await api('POST', '/rec', { body: recBody({ loc: loc.body.id }) }), 400, 'RecOperacaoInvalida', 'rec.loc');

    const jornada2 = await api('GET', `/rec/${rec.idRec}`);
    conforms('RecCompleta', jornada2.body);
    expect(jornada2.body.dadosQR.jornada).toBe('JORNADA_2');
    const fields2 = brCodeFields(jornada2.body.dadosQR.pixCopiaECola);
    expect(sub(fields2.get('26'))).toEqual(new Map([['00', PIX_GUI]]));
    expect(sub(fields2.get('80'))).toEqual(new Map([['00', PIX_GUI], ['25', loc.body.location]]));
    expect(fields2.get('53')).toBe('986');

    const cob = await api('GET', `/cob/${cobTxid}`);
    const jornada3 = await api('GET', `/rec/${rec.idRec}?txid=${cobTxid}`);
    expect(jornada3.body.dadosQR.jornada).toBe('JORNADA_3');
    expect(jornada3.body.dadosQR.pixCopiaECola.startsWith(cob.body.pixCopiaECola.slice(0, -8))).toBe(true);
    const fields3 = brCodeFields(jornada3.body.dadosQR.pixCopiaECola);
    expect(sub(fields3.get('26')).get('25')).toBe(cob.body.location);
    expect(sub(fields3.get('80')).get('25')).toBe(loc.body.location);

    const cobvTxid = nextTxid();
    const cobv = await api('PUT', `/cobv/${cobvTxid}`, { body: { calendario: { dataDeVencimento: '2026-03-10' }, devedor: { nome: 'Fulano de Tal', cpf: '12345678909' }, valor: { original: '35.00' }, chave: PIX_KEY } });
    expect(cobv.status).toBe(201);
    const jornada4 = await api('GET', `/rec/${rec.idRec}?txid=${cobvTxid}`);
    expect(jornada4.body.dadosQR.jornada).toBe('JORNADA_4');
    expect(sub(brCodeFields(jornada4.body.dadosQR.pixCopiaECola).get('26')).get('25')).toBe(cobv.body.location);
    // Another cob than the recurrence's, and a txid of nothing.
    const otherCob = nextTxid();
    expect((await api('PUT', `/cob/${otherCob}`, { body: { calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: PIX_KEY } })).status).toBe(201);
    expectProblem(await api('GET', `/rec/${rec.idRec}?txid=${otherCob}`), 400, 'RecConsultaInvalida', 'txid');
    expectProblem(await api('GET', `/rec/${rec.idRec}?txid=${nextTxid()}`), 400, 'RecConsultaInvalida', 'txid');

    // The payload location: a JWS of RecPayload, signed with a certificate of the fake's CA.
    const payload = await send(served(loc.body.location), 'GET', { auth: null });
    expect(payload.status).toBe(200);
    expect(payload.contentType).toMatch(/^application\/jose/);
    const [header, body, signature] = payload.text.split('.') as [string, string, string];
    const jose = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { x5c: string[] };
    const certificate = new X509Certificate(Buffer.from(jose.x5c[0] as string, 'base64'));
    expect(certificate.verify(new X509Certificate(fake.certificates.ca).publicKey)).toBe(true);
    expect(verify('sha256', Buffer.from(`${header}.${body}`), certificate.publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    const recPayload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Json;
    conforms('RecPayload', recPayload);
    expect(recPayload).toMatchObject({ idRec: rec.idRec, valor: { valorRec: '35.00' }, recebedor: { ispbParticipante: ISPB } });

    // The payer reads the composite QR code: the cob is paid and the recurrence approved.
    expect((await control(`/_fake/rec/${rec.idRec}/approve`, { jornada: 'JORNADA_3', txid: otherCob })).status).toBe(409);
    const approved = await control(`/_fake/rec/${rec.idRec}/approve`, { jornada: 'JORNADA_3' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid: cobTxid } }, pagador: { cpf: devedor.cpf } });
    expect((await api('GET', `/cob/${cobTxid}`)).body.status).toBe('CONCLUIDA');
    expect((await recItems(rec.idRec)).map((item) => item.status)).toEqual(['APROVADA']);
    // Unlinking the location: the recurrence has none (its status unchanged) and shows no dadosQR.
    const unlinked = await api('DELETE', `/locrec/${loc.body.id}/idRec`);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.idRec).toBeUndefined();
    const after = await api('GET', `/rec/${rec.idRec}`);
    expect(after.body.loc).toBeUndefined();
    expect(after.body.dadosQR).toBeUndefined();
    expect(after.body.status).toBe('APROVADA');
    const free = await api('GET', `/locrec?${period(START_MS, clock.now())}&idRecPresente=false`);
    conforms('PayloadLocationRecConsultadas', free.body);
    expect(free.body.loc.map((item: Json) => item.id)).toContain(loc.body.id);
    expect((await send(served(loc.body.location), 'GET', { auth: null })).status).toBe(404);
    expectProblem(await api('GET', '/locrec/999999'), 404, 'PayloadLocationRecNaoEncontrado');
  });

  it('the receiver revises and cancels a recurrence (SLCR, USUARIO_RECEBEDOR); a closed one refuses its payload', async () => {
    const loc = await api('POST', '/locrec');
    const rec = await newRec(recBody({ loc: loc.body.id }));
    const revised = await api('PATCH', `/rec/${rec.idRec}`, { body: { vinculo: { devedor: { nome: 'Fulano de Tal Jr.' } }, calendario: { dataInicial: '2026-03-06' } } });
    expect(revised.status, JSON.stringify(revised.body)).toBe(200);
    conforms('RecGerada', revised.body);
    expect(revised.body).toMatchObject({ vinculo: { devedor: { nome: 'Fulano de Tal Jr.', cpf: devedor.cpf } }, calendario: { dataInicial: '2026-03-06' } });
    expectProblem(await api('PATCH', `/rec/${rec.idRec}`, { body: { calendario: { dataInicial: '2026-03-01' } } }), 400, 'RecOperacaoInvalida', 'rec.calendario.dataInicial');
    expectProblem(await api('PATCH', `/rec/${rec.idRec}`, { body: { status: 'APROVADA' } }), 400, 'RecOperacaoInvalida', 'rec.status');
    expect((await control(`/_fake/rec/${rec.idRec}/approve`, { jornada: 'JORNADA_2' })).status).toBe(200);
    expectProblem(await api('PATCH', `/rec/${rec.idRec}`, { body: { calendario: { dataInicial: '2026-03-07' } } }), 400, 'RecOperacaoInvalida', 'rec.calendario.dataInicial');
    expectProblem(await api('PATCH', `/rec/${rec.idRec}`, { body: { loc: loc.body.id } }), 400, 'RecOperacaoInvalida', 'rec.loc');
    const cancelled = await api('PATCH', `/rec/${rec.idRec}`, { body: { status: 'CANCELADA' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } } });
    expect(cancelled.body.atualizacao.map((entry: Json) => entry.status)).toEqual(['CRIADA', 'APROVADA', 'CANCELADA']);
    const refused = await send(served(loc.body.location), 'GET', { auth: null });
    expect(refused.status).toBe(400);
    expect(refused.body.type).toBe(`${PROBLEM_TYPE}RecPayloadOperacaoInvalida`);
    expect((await recItems(rec.idRec)).map((item) => item.status)).toEqual(['APROVADA', 'CANCELADA']);
  });

  it('creates a cobr for an approved recurrence (the first attempt on the next business day) and refuses the documented cases', async () => {
    const pending = await newRec();
    expectProblem(await api('PUT', `/cobr/${nextTxid()}`, { body: cobrBody(pending.idRec, '2026-03-10') }), 400, 'CobROperacaoInvalida', 'cobr.idRec');
    const idRec = await approvedRec();
    expectProblem(await api('PUT', `/cobr/${nextTxid()}`, { body: cobrBody(idRec, '2026-03-01') }), 400, 'CobROperacaoInvalida', 'cobr.calendario.dataDeVencimento');
    expectProblem(await api('PUT', `/cobr/${nextTxid()}`, { body: cobrBody(idRec, '2026-03-10', { recebedor: { conta: '999', tipoConta: 'CORRENTE' } }) }), 400, 'CobROperacaoInvalida', 'cobr.recebedor.conta');
    expectProblem(await api('PUT', `/cobr/${nextTxid()}`, { body: cobrBody(idRec, '2026-03-10', { valor: { original: '1,00' } }) }), 400, 'CobROperacaoInvalida', 'cobr.valor');
    expectProblem(await api('PUT', `/cobr/${nextTxid()}`, { body: cobrBody(idRec, '2026-03-10', { infoAdicional: 'x'.repeat(141) }) }), 400, 'CobROperacaoInvalida', 'cobr.infoAdicional');
    // Due on Saturday 2026-03-07: the first attempt is scheduled for Monday 2026-03-09.
    const cobr = await newCobR(idRec, '2026-03-07');
    expect(cobr).toMatchObject({
      idRec,
      status: 'ATIVA',
      calendario: { criacao: '2026-03-02', dataDeVencimento: '2026-03-07' },
      valor: { original: '106.07' },
      politicaRetentativa: 'PERMITE_3R_7D',
      recebedor: { ...RECEBEDOR_CONTA, cnpj: RECEBEDOR.cnpj, nome: RECEBEDOR.nome },
      tentativas: [{ dataLiquidacao: '2026-03-09', tipo: 'AGND', status: 'AGENDADA', endToEndId: expect.stringMatching(new RegExp(`^E${ISPB}`)) }],
    });
    expect(cobr.atualizacao.map((entry: Json) => entry.status)).toEqual(['CRIADA', 'ATIVA']);
    expect(cobr.tentativas[0].atualizacao.map((entry: Json) => entry.status)).toEqual(['SOLICITADA', 'AGENDADA']);
    // Without the adjustment the attempt keeps the Saturday (another cycle: April).
    const unadjusted = await newCobR(idRec, '2026-04-11', { ajusteDiaUtil: false });
    expect(unadjusted.tentativas[0].dataLiquidacao).toBe('2026-04-11');
    // A second cobr in the same cycle (dataInicial 2026-03-05, MENSAL: 03-05 to 04-04), a txid in use.
    expectProblem(await api('PUT', `/cobr/${nextTxid()}`, { body: cobrBody(idRec, '2026-03-20') }), 400, 'CobROperacaoInvalida', 'cobr.calendario.dataDeVencimento');
    expectProblem(await api('PUT', `/cobr/${cobr.txid}`, { body: cobrBody(idRec, '2026-05-20') }), 400, 'CobROperacaoInvalida', 'cobr.txid');
    // POST: the provider picks the txid.
    const posted = await api('POST', '/cobr', { body: cobrBody(idRec, '2026-05-12') });
    expect(posted.status).toBe(201);
    expect(posted.body.txid).toMatch(/^[0-9a-f]{32}$/);
    const items = await cobrItems(cobr.txid);
    expect(items).toHaveLength(1);
    conforms('CobRNotification', items[0]);
    expect(items[0]).toMatchObject({ idRec, txid: cobr.txid, status: 'ATIVA', tentativas: [{ tipo: 'AGND', status: 'AGENDADA' }] });
    const listed = await api('GET', `/cobr?${period(START_MS, clock.now())}&idRec=${idRec}`);
    conforms('CobsRConsultadas', listed.body);
    expect(listed.body.cobsr.map((item: Json) => item.txid).sort()).toEqual([cobr.txid, unadjusted.txid, posted.body.txid].sort());
    expectProblem(await api('GET', `/cobr/${nextTxid()}`), 404, 'CobRNaoEncontrado');
  });

  it('the payer pays a cobr: CONCLUIDA, the Pix received, listed, read and refundable, and called back with it', async () => {
    const idRec = await approvedRec();
    const cobr = await newCobR(idRec, '2026-03-10');
    const endToEndId = cobr.tentativas[0].endToEndId as string;
    clock.advance(60_000);
    const paid = await control(`/_fake/cobr/${cobr.txid}/pay`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const read = await readCobR(cobr.txid);
    expect(read).toMatchObject({ status: 'CONCLUIDA', tentativas: [{ status: 'PAGA', endToEndId }], pix: [{ endToEndId, txid: cobr.txid, valor: '106.07' }] });
    expect(read.atualizacao.map((entry: Json) => entry.status)).toEqual(['CRIADA', 'ATIVA', 'CONCLUIDA']);
    const pix = await api('GET', `/pix/${endToEndId}`);
    expect(pix.status).toBe(200);
    expect(pix.body).toMatchObject({ endToEndId, txid: cobr.txid, valor: '106.07' });
    const listed = await api('GET', `/pix?${period(START_MS, clock.now())}&txid=${cobr.txid}`);
    expect(listed.body.pix.map((item: Json) => item.endToEndId)).toEqual([endToEndId]);
    const refund = await api('PUT', `/pix/${endToEndId}/devolucao/rec1`, { body: { valor: '6.07' } });
    expect(refund.status).toBe(201);
    expect((await control(`/_fake/cobr/${cobr.txid}/pay`)).status).toBe(409);
    const items = await cobrItems(cobr.txid);
    expect(items.map((item) => item.status)).toEqual(['ATIVA', 'CONCLUIDA']);
    conforms('CobRNotification', items[1]);
    expect(items[1]).toMatchObject({ pix: [{ endToEndId, valor: '106.07' }] });
    // Not reported on the key's webhook.
    expect(listener.bodies.flatMap((body) => body.pix).some((item) => item.endToEndId === endToEndId)).toBe(false);
  });

  it('a refused attempt with a code that allows a retry waits for retentativa; the retry is paid', async () => {
    const idRec = await approvedRec();
    const cobr = await newCobR(idRec, '2026-03-10');
    expect((await control(`/_fake/cobr/${cobr.txid}/refuse`, { codigo: 'XX99' })).status).toBe(400);
    const refused = await control(`/_fake/cobr/${cobr.txid}/refuse`, { codigo: 'AM02', descricao: 'Valor acima do limite.' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ status: 'ATIVA', tentativas: [{ status: 'REJEITADA', rejeicao: { codigo: 'AM02', descricao: 'Valor acima do limite.' } }] });
    expect((await control(`/_fake/cobr/${cobr.txid}/pay`)).status).toBe(409);
    expectProblem(await api('POST', `/cobr/${cobr.txid}/retentativa/2026-03-02`), 400, 'CobROperacaoInvalida', 'data');
    expectProblem(await api('POST', `/cobr/${cobr.txid}/retentativa/2026-03-18`), 400, 'CobROperacaoInvalida', 'data');
    const retried = await api('POST', `/cobr/${cobr.txid}/retentativa/2026-03-12`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    conforms('CobRCompleta', retried.body);
    expect(retried.body.tentativas[1]).toMatchObject({ dataLiquidacao: '2026-03-12', tipo: 'NTAG', status: 'AGENDADA' });
    expect(retried.body.tentativas[1].endToEndId).not.toBe(cobr.tentativas[0].endToEndId);
    expectProblem(await api('POST', `/cobr/${cobr.txid}/retentativa/2026-03-13`), 400, 'CobROperacaoInvalida', 'cobr.tentativas');
    expect((await control(`/_fake/cobr/${cobr.txid}/pay`)).status).toBe(200);
    const read = await readCobR(cobr.txid);
    expect(read.status).toBe('CONCLUIDA');
    expect(read.pix[0].endToEndId).toBe(retried.body.tentativas[1].endToEndId);
    expect((await cobrItems(cobr.txid)).map((item) => item.status)).toEqual(['ATIVA', 'ATIVA', 'ATIVA', 'CONCLUIDA']);
  });

  it('a code that rejects the cobr ends it REJEITADA; retries are refused under NAO_PERMITE and after three', async () => {
    const idRec = await approvedRec();
    const final = await newCobR(idRec, '2026-03-10');
    const rejected = await control(`/_fake/cobr/${final.txid}/refuse`, { codigo: 'AC05' });
    expect(rejected.body).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AC05' } } });
    conforms('CobRCompleta', rejected.body);
    // A REJEITADA cobr frees its cycle.
    const again = await newCobR(idRec, '2026-03-11');
    for (const data of ['2026-03-12', '2026-03-13', '2026-03-14']) {
      expect((await control(`/_fake/cobr/${again.txid}/refuse`, { codigo: 'AB10' })).body.status).toBe('ATIVA');
      expect((await api('POST', `/cobr/${again.txid}/retentativa/${data}`)).status).toBe(201);
    }
    const last = await control(`/_fake/cobr/${again.txid}/refuse`, { codigo: 'AB10' });
    expect(last.body.status).toBe('REJEITADA');
    expect(last.body.tentativas.map((tentativa: Json) => tentativa.tipo)).toEqual(['AGND', 'NTAG', 'NTAG', 'NTAG']);
    expectProblem(await api('POST', `/cobr/${again.txid}/retentativa/2026-03-15`), 400, 'CobROperacaoInvalida', 'cobr.tentativas');

    const strict = await approvedRec(recBody({ politicaRetentativa: 'NAO_PERMITE' }));
    const once = await newCobR(strict, '2026-03-10');
    expect(once.politicaRetentativa).toBe('NAO_PERMITE');
    expect((await control(`/_fake/cobr/${once.txid}/refuse`, { codigo: 'AM02' })).body.status).toBe('REJEITADA');
    const refused = await api('POST', `/cobr/${once.txid}/retentativa/2026-03-12`);
    expectProblem(refused, 400, 'CobROperacaoInvalida', 'politicaRetentativa');
    expect(refused.body.violacoes.map((violacao: Json) => violacao.razao)).toContain('A política configurada na recorrência não permite retentativa de cobrança.');
  });

  it('the payer cancels the recurrence: its open cobr is cancelled too', async () => {
    const idRec = await approvedRec();
    const cobr = await newCobR(idRec, '2026-03-10');
    expect((await control(`/_fake/rec/${idRec}/cancel`, { codigo: 'SLDB', solicitante: 'USUARIO_RECEBEDOR' })).status).toBe(400);
    const cancelled = await control(`/_fake/rec/${idRec}/cancel`, { codigo: 'SLDB' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLDB' } } });
    conforms('RecCompleta', cancelled.body);
    const read = await readCobR(cobr.txid);
    expect(read).toMatchObject({ status: 'CANCELADA', tentativas: [{ status: 'CANCELADA' }], encerramento: { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'CCLD' } } });
    expect((await recItems(idRec)).map((item) => item.status)).toEqual(['APROVADA', 'CANCELADA']);
    expect((await cobrItems(cobr.txid)).map((item) => item.status)).toEqual(['ATIVA', 'CANCELADA']);
    expectProblem(await api('PUT', `/cobr/${nextTxid()}`, { body: cobrBody(idRec, '2026-04-10') }), 400, 'CobROperacaoInvalida', 'cobr.idRec');
    // The payer cancels one cycle of another recurrence.
    const other = await approvedRec();
    const cycle = await newCobR(other, '2026-03-10');
    const one = await control(`/_fake/cobr/${cycle.txid}/cancel`, { codigo: 'SLBD', solicitante: 'PSP_PAGADOR' });
    expect(one.body).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'PSP_PAGADOR', codigo: 'SLBD' } } });
    expect((await api('GET', `/rec/${other}`)).body.status).toBe('APROVADA');
  });

  it('the receiver cancels a cobr before its first attempt, not on the attempt\'s date', async () => {
    const idRec = await approvedRec();
    const early = await newCobR(idRec, '2026-03-10');
    const cancelled = await api('PATCH', `/cobr/${early.txid}`, { body: { status: 'CANCELADA' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } }, tentativas: [{ status: 'CANCELADA' }] });
    const late = await newCobR(idRec, '2026-03-11');
    clock.set(Date.UTC(2026, 2, 11, 13, 0, 0));
    const before = token;
    token = await newToken(ALL_SCOPES);
    try {
      const refused = await api('PATCH', `/cobr/${late.txid}`, { body: { status: 'CANCELADA' } });
      expectProblem(refused, 400, 'CobROperacaoInvalida');
      expect(refused.body.detail).toBe('Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.');
      expect((await control(`/_fake/cobr/${late.txid}/expire`)).body.status).toBe('EXPIRADA');
    } finally {
      clock.set(START_MS);
      token = before;
    }
  });

  it.runIf(profile === 'standard')('asks for the standard\'s scopes: a token without rec.write gets 403', async () => {
    const readOnly = `Bearer ${await newToken('rec.read cobr.read')}`;
    expectProblem(await api('POST', '/rec', { body: recBody(), auth: readOnly }), 403, 'AcessoNegado');
    expectProblem(await api('PUT', `/cobr/${nextTxid()}`, { body: cobrBody(`RR${ISPB}20260302abcdefghijk`, '2026-03-10'), auth: readOnly }), 403, 'AcessoNegado');
    expectProblem(await api('POST', '/locrec', { auth: readOnly }), 403, 'AcessoNegado');
    expectProblem(await api('PUT', '/webhookrec', { body: { webhookUrl: listener.url }, auth: readOnly }), 403, 'AcessoNegado');
    expect((await api('GET', `/rec?${period(START_MS, clock.now())}`, { auth: readOnly })).status).toBe(200);
  });
});
