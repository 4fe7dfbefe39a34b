/**
 * Charges with a due date (`cobv`, the standard's tag CobV; psp-protocols.md section 16): `PUT`, `PATCH`,
 * `GET {base}/cobv/{txid}` (`?revisao=n` reads a past revision) and `GET {base}/cobv?inicio&fim` (by
 * `criacao`; filters `cpf` | `cnpj`, `status`, `locationPresente`, `loteCobVId`, `paginacao.*`), written from
 * openapi/upstream/bacen-pix-api-2.9.0.yaml (`CobVSolicitada`, `CobVRevisada`, `CobVGerada`, `CobVCompleta`,
 * `CobsVConsultadas` and the violations it lists under `CobVOperacaoInvalida`).
 *
 * Per profile, as cobs.ts does for cob: a PUT on a txid in use answers Efí's 409 `txid_duplicado` (efi); on
 * the standard it revises an ATIVA cobv (the request replaces its fields, `revisao` + 1 when something
 * changed) and refuses any other. Every other refusal is problem+json in both (`CobVOperacaoInvalida` 400,
 * `CobVNaoEncontrada` 404, `CobVConsultaInvalida` 400). One txid names one charge of the receiver: a txid of a
 * cob is refused here (and a cobv's there), the same way as a txid in use.
 *
 * Fields: `calendario.dataDeVencimento` (required, a date not before the day of creation in
 * America/Sao_Paulo), `validadeAposVencimento` (integer >= 0, default 30); `devedor` (required: `nome` and
 * exactly one of `cpf` / `cnpj`, with `email`, `logradouro`, `cidade`, `uf`, `cep` kept when given);
 * `loc.id` (a free `cobv` location, else one is made); `valor.original` (not zero) and `multa`, `juros`,
 * `abatimento`, `desconto` checked against their schema and the listed rules (an abatimento or a desconto
 * of the whole amount or 100 %, a discount date after the due date, modalidade 1/2 with `valorPerc` or
 * without dates, 3..6 without `valorPerc` or with dates); `chave` (ours), `solicitacaoPagador` (<= 140),
 * `infoAdicionais` (<= 50 of `{nome <= 50, valor <= 200}`). `modalidade` is an integer, as the schema types
 * it (the document's example `cobBody1` writes "2": refused). A PATCH changes the fields it names (its
 * `calendario` may name one of the two; its `valor` replaces the parts it names); the removal
 * (`{"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"}`) comes alone; only an ATIVA cobv changes. `revisao`
 * counts changes; a change of `loc` alone does not count (the standard's `Revisao`).
 *
 * The answer (`CobVGerada`) shows the fake's merchant as `recebedor` and a dynamic BR Code for the cobv's
 * location without an amount (the amount due depends on the payment date: the payer's bank reads it from
 * the payload, payload.ts). A cobv in a batch whose request is EM_PROCESSAMENTO or NEGADA cannot be changed
 * by PUT/PATCH `/cobv/{txid}` (the standard's first violation); lotes.ts creates and revises through
 * `applyFromLote`.
 *
 * Payment (the payer end, state.ts): an ATIVA cobv is payable on any day up to its last payable day
 * (calendar.ts), whatever the amount: the payer's bank works out juros, multa and discounts; PixGate
 * decides whether the amount is right.
 */
import { buildDynamicBrCode } from '../../src/primitives/brcode.ts';
import { lastPayableDay, parseDate, saoPauloDate } from './calendar.ts';
import { amountsOn } from './amounts.ts';
import { listingQuery, page } from './listing.ts';
import type { LocationBook } from './locations.ts';
import { efiError, problem, refuse, type Violacao } from './replies.ts';
import type {
  Clock,
  CobStatus,
  CobsVConsultadas,
  CobV,
  CobVPayload,
  CobVValor,
  DescontoCobV,
  DevedorCobV,
  FakePspProfile,
  InfoAdicional,
  LoteCobVItem,
  ModalidadeValor,
  Pix,
  RecebedorCobranca,
} from './types.ts';
import { CNPJ_PATTERN, CPF_PATTERN, TXID_PATTERN, VALOR_PATTERN, isObject, iso, valorCents } from './values.ts';

/** The fake's merchant, shown as every cobv's `recebedor` (a valid CNPJ; a plausible address). */
export const RECEBEDOR: Readonly<RecebedorCobranca> = {
  nome: 'PixGate Pagamentos Ltda',
  cnpj: '11222333000181',
  logradouro: 'Avenida Paulista, 1000, Bela Vista',
  cidade: 'São Paulo',
  uf: 'SP',
  cep: '01310100',
};

const REMOVED = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
const DEFAULT_VALIDADE = 30;
const INT32_MAX = 2_147_483_647;

/** What a revision changes (history is kept of it, `loc` apart). */
interface CobVContents {
  dataDeVencimento: string;
  validadeAposVencimento: number;
  devedor: DevedorCobV;
  valor: CobVValor;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
}

export interface CobVRecord {
  txid: string;
  createdAtMs: number;
  revisao: number;
  status: CobStatus;
  contents: CobVContents;
  /** Absent once `DELETE /loc/{id}/txid` unlinked it. */
  locId?: number;
  paidBy: string[];
  /** The batch that created it. */
  loteId?: number;
  /** `history[n]`: the contents and status at revision n. */
  history: { contents: CobVContents; status: CobStatus }[];
}

export interface CobVBookOptions {
  pixKey: string;
  clock: Clock;
  profile: FakePspProfile;
  locations: LocationBook;
  /** Whether a cob of ours holds the txid. */
  cobHas(txid: string): boolean;
  /** The status of the txid's request in a batch, when one holds it. */
  loteStatus(txid: string): LoteCobVItem['status'] | undefined;
}

const invalid = (detail: string, violacoes?: Violacao[]): never => refuse(problem(400, 'CobVOperacaoInvalida', detail, violacoes));

export class CobVBook {
  private readonly cobvs = new Map<string, CobVRecord>();
  private readonly options: CobVBookOptions;

  constructor(options: CobVBookOptions) {
    this.options = options;
  }

  get size(): number {
    return this.cobvs.size;
  }

  has(txid: string): boolean {
    return this.cobvs.has(txid);
  }

  private now(): number {
    return this.options.clock.now();
  }

  /** `PUT {base}/cobv/{txid}`: 201. */
  put(txid: string, body: unknown): CobV {
    checkTxid(txid);
    this.guardLote(txid);
    const existing = this.cobvs.get(txid);
    if (existing === undefined) {
      if (this.options.cobHas(txid)) this.txidInUse(txid, this.options.profile === 'efi');
      return this.create(txid, body);
    }
    if (this.options.profile === 'efi') refuse(efiError(409, 'txid_duplicado', `Já existe uma cobrança com o txid ${txid}.`));
    return this.replace(existing, body);
  }

  /** `PATCH {base}/cobv/{txid}`: 200. */
  revise(txid: string, body: unknown): CobV {
    this.guardLote(txid);
    return this.reviseRecord(this.record(txid), body);
  }

  /** A batch's request, once processed: `put` creates or replaces (both profiles), `patch` revises. */
  applyFromLote(txid: string, body: unknown, loteId: number, kind: 'put' | 'patch'): CobV {
    const existing = this.cobvs.get(txid);
    if (kind === 'patch') return this.reviseRecord(existing ?? this.record(txid), body);
    if (existing !== undefined) return this.replace(existing, body);
    if (this.options.cobHas(txid)) this.txidInUse(txid, false);
    return this.create(txid, body, loteId);
  }

  /** One txid, one charge: the standard's `CobVOperacaoInvalida`, or Efí's 409 (a PUT of profile efi). */
  private txidInUse(txid: string, efi: boolean): never {
    if (efi) refuse(efiError(409, 'txid_duplicado', `Já existe uma cobrança com o txid ${txid}.`));
    return invalid(`txid ${txid} is in use by a cob of this receiver`, [{ razao: 'O txid já está em uso por outra cobrança deste recebedor.', propriedade: 'txid', valor: txid }]);
  }

  private guardLote(txid: string): void {
    const status = this.options.loteStatus(txid);
    if (status === 'EM_PROCESSAMENTO' || status === 'NEGADA') {
      const razao = `Este txid está associado a um lote e no referido lote, o status desta cobrança está atribuído como ${status}.`;
      invalid(`the txid's request in its batch is ${status}`, [{ razao, propriedade: 'txid', valor: txid }]);
    }
  }

  private record(txid: string): CobVRecord {
    return this.cobvs.get(txid) ?? refuse(problem(404, 'CobVNaoEncontrada', `no cobv ${txid}`));
  }

  private create(txid: string, body: unknown, loteId?: number): CobV {
    const nowMs = this.now();
    const violacoes: Violacao[] = [];
    const { contents, locId } = this.request(body, txid, saoPauloDate(nowMs), violacoes);
    if (violacoes.length > 0 || contents === undefined) return invalid('the cobv request is invalid', violacoes);
    const record: CobVRecord = {
      txid,
      createdAtMs: nowMs,
      revisao: 0,
      status: 'ATIVA',
      contents,
      locId: this.options.locations.bind(locId ?? this.options.locations.create('cobv').id, txid).id,
      paidBy: [],
      history: [{ contents, status: 'ATIVA' }],
    };
    if (loteId !== undefined) record.loteId = loteId;
    this.cobvs.set(txid, record);
    return this.view(record);
  }

  /** The standard's PUT on an existing cobv: only an ATIVA one; its fields become the request's. */
  private replace(record: CobVRecord, body: unknown): CobV {
    if (record.status !== 'ATIVA') {
      const razao = `A cobrança já existe, está ${record.status}, e a presente requisição busca alterá-la.`;
      invalid(`the cobv is ${record.status}: only an ATIVA cobv can change`, [{ razao, propriedade: 'txid', valor: record.txid }]);
    }
    const violacoes: Violacao[] = [];
    const { contents, locId } = this.request(body, record.txid, saoPauloDate(record.createdAtMs), violacoes);
    if (violacoes.length > 0 || contents === undefined) return invalid('the cobv request is invalid', violacoes);
    this.moveTo(record, locId);
    this.change(record, contents, record.status);
    return this.view(record);
  }

  private reviseRecord(record: CobVRecord, body: unknown): CobV {
    if (!isObject(body)) return invalid('the body must be a JSON object');
    if (record.status !== 'ATIVA') {
      invalid(`the cobv is ${record.status}: only an ATIVA cobv can change`, [{ razao: 'A cobrança não está ATIVA, e a presente requisição busca alterá-la.', propriedade: 'cobv.status', valor: record.status }]);
    }
    if (body.status !== undefined) {
      if (body.status !== REMOVED) invalid(`status can only become ${REMOVED}`, [{ razao: 'O campo cobv.status não respeita o schema.', propriedade: 'cobv.status', valor: String(body.status) }]);
      if (Object.keys(body).length > 1) {
        invalid('the removal is sent alone, not mixed with edits', [
          { razao: 'A cobrança está ATIVA, e a presente requisição propõe alterar seu status para REMOVIDA_PELO_USUARIO_RECEBEDOR juntamente com outras alterações.', propriedade: 'cobv.status' },
        ]);
      }
      this.change(record, record.contents, REMOVED);
      return this.view(record);
    }
    const violacoes: Violacao[] = [];
    const current = record.contents;
    const given = partialFields(body, false, violacoes);
    const merged: CobVContents = {
      ...current,
      ...withoutUndefined({ devedor: given.devedor, solicitacaoPagador: given.solicitacaoPagador, infoAdicionais: given.infoAdicionais }),
      dataDeVencimento: given.dataDeVencimento ?? current.dataDeVencimento,
      validadeAposVencimento: given.validadeAposVencimento ?? current.validadeAposVencimento,
      valor: { ...current.valor, ...given.valor },
    };
    if (body.chave !== undefined && body.chave !== this.options.pixKey) violacoes.push(foreignKey(body.chave));
    const locId = body.loc === undefined ? undefined : this.options.locations.check(body.loc, 'cobv', record.txid, violacoes, 'cobv');
    if (given.count === 0 && body.loc === undefined && violacoes.length === 0) invalid('nothing to revise');
    if (violacoes.length === 0) checkRules(merged, saoPauloDate(record.createdAtMs), violacoes);
    if (violacoes.length > 0) return invalid('the revision is invalid', violacoes);
    this.moveTo(record, locId);
    this.change(record, merged, record.status);
    return this.view(record);
  }

  /** A new revision when the contents or the status changed. */
  private change(record: CobVRecord, contents: CobVContents, status: CobStatus): void {
    if (canonical(contents) === canonical(record.contents) && status === record.status) return;
    record.contents = contents;
    record.status = status;
    record.revisao += 1;
    record.history.push({ contents, status });
  }

  /** Moves the cobv to a checked location (the old one is freed); undefined: it keeps its own. */
  private moveTo(record: CobVRecord, locId: number | undefined): void {
    if (locId === undefined || locId === record.locId) return;
    this.options.locations.release(record.locId);
    record.locId = this.options.locations.bind(locId, record.txid).id;
  }

  /** The whole request (`CobVSolicitada`), checked; `createdDate` is the cobv's day of creation. */
  private request(body: unknown, txid: string, createdDate: string, violacoes: Violacao[]): { contents?: CobVContents; locId?: number } {
    if (!isObject(body)) {
      violacoes.push({ razao: 'O corpo deve ser um objeto JSON.', propriedade: 'cobv' });
      return {};
    }
    const fields = partialFields(body, true, violacoes);
    if (body.chave !== this.options.pixKey) violacoes.push(typeof body.chave === 'string' && body.chave.length <= 77 ? foreignKey(body.chave) : { razao: 'O campo cobv.chave não respeita o schema.', propriedade: 'cobv.chave' });
    const locId = body.loc === undefined ? undefined : this.options.locations.check(body.loc, 'cobv', txid, violacoes, 'cobv');
    if (fields.dataDeVencimento === undefined || fields.devedor === undefined || fields.valor?.original === undefined) return {};
    const contents: CobVContents = {
      dataDeVencimento: fields.dataDeVencimento,
      validadeAposVencimento: fields.validadeAposVencimento ?? DEFAULT_VALIDADE,
      devedor: fields.devedor,
      valor: fields.valor as CobVValor,
      ...withoutUndefined({ solicitacaoPagador: fields.solicitacaoPagador, infoAdicionais: fields.infoAdicionais }),
    };
    if (violacoes.length === 0) checkRules(contents, createdDate, violacoes);
    return locId === undefined ? { contents } : { contents, locId };
  }

  /** `GET {base}/cobv/{txid}[?revisao=n]`. */
  read(txid: string, revisao: string | null, pixOf: (e2eid: string) => Pix | undefined): CobV {
    const record = this.record(txid);
    if (revisao === null) return this.view(record, pixOf);
    const n = /^\d{1,9}$/.test(revisao) ? Number(revisao) : -1;
    const past = record.history[n];
    if (past === undefined) {
      refuse(problem(400, 'CobVConsultaInvalida', `no revision ${revisao} of cobv ${txid}`, [{ razao: 'O parâmetro revisao corresponde a uma revisão inexistente.', propriedade: 'revisao', valor: revisao }]));
    }
    if (n === record.revisao) return this.view(record, pixOf);
    return this.view(record, undefined, { ...past, revisao: n });
  }

  /** `GET {base}/cobv`. */
  list(query: URLSearchParams, pixOf: (e2eid: string) => Pix | undefined): CobsVConsultadas {
    const consulta = (detail: string): never => refuse(problem(400, 'CobVConsultaInvalida', detail));
    const listing = listingQuery(query, consulta);
    const cpf = query.get('cpf');
    const cnpj = query.get('cnpj');
    const status = query.get('status');
    const locationPresente = query.get('locationPresente');
    const loteCobVId = query.get('loteCobVId');
    if (cpf !== null && cnpj !== null) consulta('cpf and cnpj cannot be used together');
    if (cpf !== null && !CPF_PATTERN.test(cpf)) consulta('cpf is 11 digits');
    if (cnpj !== null && !CNPJ_PATTERN.test(cnpj)) consulta('cnpj is 14 characters [0-9A-Z]');
    if (locationPresente !== null && locationPresente !== 'true' && locationPresente !== 'false') consulta('locationPresente is true or false');
    if (loteCobVId !== null && !/^\d{1,15}$/.test(loteCobVId)) consulta('loteCobVId is an integer');
    const matching = [...this.cobvs.values()]
      .filter((record) => record.createdAtMs >= listing.inicioMs && record.createdAtMs <= listing.fimMs)
      .filter((record) => cpf === null || record.contents.devedor.cpf === cpf)
      .filter((record) => cnpj === null || record.contents.devedor.cnpj === cnpj)
      .filter((record) => status === null || record.status === status)
      .filter((record) => locationPresente === null || (record.locId !== undefined) === (locationPresente === 'true'))
      .filter((record) => loteCobVId === null || record.loteId === Number(loteCobVId))
      .sort((a, b) => a.createdAtMs - b.createdAtMs);
    const { items, paginacao } = page(matching, listing, this.options.profile);
    const parametros: CobsVConsultadas['parametros'] = { inicio: listing.inicio, fim: listing.fim, paginacao };
    if (cpf !== null) parametros.cpf = cpf;
    if (cnpj !== null) parametros.cnpj = cnpj;
    if (status !== null) parametros.status = status;
    if (locationPresente !== null) parametros.locationPresente = locationPresente === 'true';
    if (loteCobVId !== null) parametros.loteCobVId = Number(loteCobVId);
    return { parametros, cobs: items.map((record) => this.view(record, pixOf)) };
  }

  /** The cobv a payer may pay at `horarioMs`: 404 unknown, 409 not ATIVA, before its creation or past its last payable day. */
  payable(txid: string, horarioMs: number): CobVRecord {
    const record = this.record(txid);
    const refused = (detail: string): never => refuse(problem(409, 'OperacaoInvalida', detail));
    if (record.status !== 'ATIVA') refused(`the cobv is ${record.status}: it takes no payment`);
    if (horarioMs < record.createdAtMs) refused(`horario ${iso(horarioMs)} is before the cobv was created (${iso(record.createdAtMs)})`);
    const day = saoPauloDate(horarioMs);
    const last = this.lastPayableDay(record);
    if (day > last) {
      refused(`the cobv is past its last payable day: ${day} (America/Sao_Paulo) is after ${last} (due ${record.contents.dataDeVencimento}, validadeAposVencimento ${record.contents.validadeAposVencimento})`);
    }
    return record;
  }

  lastPayableDay(record: CobVRecord | string): string {
    const found = typeof record === 'string' ? this.record(record) : record;
    return lastPayableDay(found.contents.dataDeVencimento, found.contents.validadeAposVencimento);
  }

  markPaid(record: CobVRecord, endToEndId: string): void {
    record.status = 'CONCLUIDA';
    record.paidBy.push(endToEndId);
  }

  /** `DELETE /loc/{id}/txid`: the cobv no longer shows a location (its status is unchanged). */
  unlink(txid: string): void {
    const record = this.cobvs.get(txid);
    if (record !== undefined) delete record.locId;
  }

  /** The cobv at a location, for its payload. */
  atLocation(locId: number): CobVRecord | undefined {
    for (const record of this.cobvs.values()) if (record.locId === locId) return record;
    return undefined;
  }

  /** `CobVPayload` for a payment on `dpp`, presented at `apresentacaoMs`. */
  payload(record: CobVRecord, dpp: string, apresentacaoMs: number): CobVPayload {
    const { contents } = record;
    const devedor = contents.devedor.cpf !== undefined ? { nome: contents.devedor.nome, cpf: contents.devedor.cpf } : { nome: contents.devedor.nome, cnpj: contents.devedor.cnpj as string };
    const payload: CobVPayload = {
      calendario: { criacao: iso(record.createdAtMs), apresentacao: iso(apresentacaoMs), dataDeVencimento: contents.dataDeVencimento, validadeAposVencimento: contents.validadeAposVencimento },
      devedor,
      recebedor: { ...RECEBEDOR },
      txid: record.txid,
      revisao: record.revisao,
      status: record.status,
      valor: amountsOn(contents.valor, contents.dataDeVencimento, dpp),
      chave: this.options.pixKey,
    };
    if (contents.solicitacaoPagador !== undefined) payload.solicitacaoPagador = contents.solicitacaoPagador;
    if (contents.infoAdicionais !== undefined) payload.infoAdicionais = contents.infoAdicionais.map((item) => ({ ...item }));
    return payload;
  }

  private view(record: CobVRecord, pixOf?: (e2eid: string) => Pix | undefined, past?: { contents: CobVContents; status: CobStatus; revisao: number }): CobV {
    const contents = past?.contents ?? record.contents;
    const location = this.options.locations.get(record.locId);
    const cobv: CobV = {
      calendario: { criacao: iso(record.createdAtMs), dataDeVencimento: contents.dataDeVencimento, validadeAposVencimento: contents.validadeAposVencimento },
      txid: record.txid,
      revisao: past?.revisao ?? record.revisao,
      status: past?.status ?? record.status,
      devedor: { ...contents.devedor },
      recebedor: { ...RECEBEDOR },
      valor: structuredClone(contents.valor),
      chave: this.options.pixKey,
    };
    if (location !== undefined) {
      cobv.loc = { ...this.options.locations.view(location), txid: record.txid };
      cobv.location = location.location;
    }
    if (contents.solicitacaoPagador !== undefined) cobv.solicitacaoPagador = contents.solicitacaoPagador;
    if (contents.infoAdicionais !== undefined) cobv.infoAdicionais = contents.infoAdicionais.map((item) => ({ ...item }));
    if (location !== undefined) cobv.pixCopiaECola = buildDynamicBrCode({ locationUrl: location.location, merchantName: 'PIXGATE', merchantCity: 'SAO PAULO' });
    const pix = past === undefined && pixOf !== undefined ? record.paidBy.map(pixOf).filter((item): item is Pix => item !== undefined) : [];
    if (pix.length > 0) cobv.pix = pix;
    return cobv;
  }
}

/** JSON with every object's keys sorted: the same contents compare equal whatever the order they were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isObject(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );
}

function checkTxid(txid: string): void {
  if (!TXID_PATTERN.test(txid)) invalid('txid must be 26-35 alphanumerics', [{ razao: 'txid inválido', propriedade: 'txid', valor: txid }]);
}

function foreignKey(chave: unknown): Violacao {
  return { razao: 'O campo cobv.chave corresponde a uma conta que não pertence a este usuário recebedor.', propriedade: 'cobv.chave', valor: String(chave) };
}

function withoutUndefined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The fields a body names, each checked against its schema; `count`: how many fields it named. */
interface PartialFields {
  dataDeVencimento?: string;
  validadeAposVencimento?: number;
  devedor?: DevedorCobV;
  valor?: Partial<CobVValor>;
  solicitacaoPagador?: string;
  infoAdicionais?: InfoAdicional[];
  count: number;
}

function partialFields(body: Record<string, unknown>, creating: boolean, violacoes: Violacao[]): PartialFields {
  const fields: PartialFields = { count: 0 };
  const { calendario, devedor, valor, solicitacaoPagador, infoAdicionais } = body;
  const schema = (propriedade: string, razao = `O campo ${propriedade} não respeita o schema.`): void => {
    violacoes.push({ razao, propriedade });
  };
  if (calendario !== undefined || creating) {
    fields.count += 1;
    if (!isObject(calendario)) schema('cobv.calendario', 'O objeto cobv.calendario não respeita o schema: dataDeVencimento é obrigatório.');
    else {
      const { dataDeVencimento, validadeAposVencimento } = calendario;
      if (dataDeVencimento !== undefined || creating) {
        if (parseDate(dataDeVencimento) === undefined) schema('cobv.calendario.dataDeVencimento', 'O campo cobv.calendario.dataDeVencimento não respeita o schema (YYYY-MM-DD).');
        else fields.dataDeVencimento = dataDeVencimento as string;
      }
      if (validadeAposVencimento !== undefined) {
        if (!Number.isSafeInteger(validadeAposVencimento) || (validadeAposVencimento as number) > INT32_MAX) schema('cobv.calendario.validadeAposVencimento');
        else if ((validadeAposVencimento as number) < 0) schema('cobv.calendario.validadeAposVencimento', 'O campo cobv.calendario.validadeAposVencimento é menor do que zero.');
        else fields.validadeAposVencimento = validadeAposVencimento as number;
      }
      if (!creating && dataDeVencimento === undefined && validadeAposVencimento === undefined) schema('cobv.calendario', 'O objeto cobv.calendario não respeita o schema.');
    }
  }
  if (devedor !== undefined || creating) {
    fields.count += 1;
    const checked = devedorCobV(devedor);
    if (typeof checked === 'string') schema('cobv.devedor', checked);
    else fields.devedor = checked;
  }
  if (valor !== undefined || creating) {
    fields.count += 1;
    const checked = valorFields(valor, creating, violacoes);
    if (checked !== undefined) fields.valor = checked;
  }
  if (solicitacaoPagador !== undefined) {
    fields.count += 1;
    if (typeof solicitacaoPagador === 'string' && solicitacaoPagador.length <= 140) fields.solicitacaoPagador = solicitacaoPagador;
    else schema('cobv.solicitacaoPagador', 'O campo solicitacaoPagador não respeita o schema (até 140 caracteres).');
  }
  if (infoAdicionais !== undefined) {
    fields.count += 1;
    const valid =
      Array.isArray(infoAdicionais) &&
      infoAdicionais.length <= 50 &&
      infoAdicionais.every((item) => isObject(item) && typeof item.nome === 'string' && item.nome.length <= 50 && typeof item.valor === 'string' && item.valor.length <= 200);
    if (valid) fields.infoAdicionais = (infoAdicionais as InfoAdicional[]).map(({ nome, valor: text }) => ({ nome, valor: text }));
    else schema('cobv.infoAdicionais', 'O objeto infoAdicionais não respeita o schema (até 50 itens {nome até 50, valor até 200}).');
  }
  return fields;
}

/**
 * The standard's `devedor` of a cobv (`DadosDevedor`): `nome` (<= 200) and exactly one of `cpf` (11 digits)
 * and `cnpj` (14 of [0-9A-Z]), with `email`, `logradouro` (<= 200), `cidade` (<= 200), `uf` (<= 2) and `cep`
 * (<= 8) when given. Other properties are not kept. Returns the debtor, or why it is refused.
 */
function devedorCobV(devedor: unknown): DevedorCobV | string {
  const refusal = (why: string): string => `O objeto cobv.devedor não respeita o schema: ${why}`;
  if (!isObject(devedor)) return refusal('devedor é obrigatório, um objeto.');
  const { nome, cpf, cnpj } = devedor;
  if (typeof nome !== 'string' || nome.length > 200) return refusal('nome é obrigatório, com até 200 caracteres.');
  if (cpf !== undefined && cnpj !== undefined) return refusal('cpf e cnpj não podem ser informados ao mesmo tempo.');
  let checked: DevedorCobV;
  if (cpf !== undefined) {
    if (typeof cpf !== 'string' || !CPF_PATTERN.test(cpf)) return refusal('cpf deve ter 11 dígitos.');
    checked = { nome, cpf };
  } else if (cnpj !== undefined) {
    if (typeof cnpj !== 'string' || !CNPJ_PATTERN.test(cnpj)) return refusal('cnpj deve ter 14 caracteres [0-9A-Z].');
    checked = { nome, cnpj };
  } else return refusal('cpf ou cnpj é obrigatório.');
  const limits = { email: Number.MAX_SAFE_INTEGER, logradouro: 200, cidade: 200, uf: 2, cep: 8 } as const;
  for (const [field, max] of Object.entries(limits) as [keyof typeof limits, number][]) {
    const value = devedor[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > max) return refusal(`${field} é um texto de até ${max} caracteres.`);
    checked[field] = value;
  }
  return checked;
}

/** `{modalidade, valorPerc}` with modalidade an integer in `min..max`, or undefined. */
function modalidadeValor(value: unknown, min: number, max: number): ModalidadeValor | undefined {
  if (!isObject(value)) return undefined;
  const { modalidade, valorPerc } = value;
  if (!Number.isSafeInteger(modalidade) || (modalidade as number) < min || (modalidade as number) > max) return undefined;
  if (typeof valorPerc !== 'string' || !VALOR_PATTERN.test(valorPerc)) return undefined;
  return { modalidade: modalidade as number, valorPerc };
}

/** `valor` (`CobVValor`), each part against its schema; `creating` makes `original` required. */
function valorFields(valor: unknown, creating: boolean, violacoes: Violacao[]): Partial<CobVValor> | undefined {
  if (!isObject(valor)) {
    violacoes.push({ razao: 'O campo cobv.valor.original não respeita o schema.', propriedade: 'cobv.valor' });
    return undefined;
  }
  const fields: Partial<CobVValor> = {};
  const { original, multa, juros, abatimento, desconto } = valor;
  if (original !== undefined || creating) {
    if (valorCents(original) !== undefined) fields.original = original as string;
    else if (typeof original === 'string' && VALOR_PATTERN.test(original)) violacoes.push({ razao: 'O campo cobv.valor.original apresenta o valor zero.', propriedade: 'cobv.valor.original', valor: original });
    else violacoes.push({ razao: 'O campo cobv.valor.original não respeita o schema.', propriedade: 'cobv.valor.original' });
  }
  const parts: [string, unknown, number, number][] = [
    ['multa', multa, 1, 2],
    ['juros', juros, 1, 8],
    ['abatimento', abatimento, 1, 2],
  ];
  for (const [name, value, min, max] of parts) {
    if (value === undefined) continue;
    const checked = modalidadeValor(value, min, max);
    if (checked === undefined) violacoes.push({ razao: `O objeto cobv.valor.${name} não respeita o schema.`, propriedade: `cobv.valor.${name}` });
    else fields[name as 'multa' | 'juros' | 'abatimento'] = checked;
  }
  if (desconto !== undefined) {
    const checked = descontoOf(desconto, violacoes);
    if (checked !== undefined) fields.desconto = checked;
  }
  return fields;
}

/** `valor.desconto`: its schema, then the pairing of `modalidade` with `valorPerc` / `descontoDataFixa`. */
function descontoOf(desconto: unknown, violacoes: Violacao[]): DescontoCobV | undefined {
  const propriedade = 'cobv.valor.desconto';
  const schema = (): undefined => {
    violacoes.push({ razao: 'O objeto cobv.valor.desconto não respeita o schema.', propriedade });
    return undefined;
  };
  if (!isObject(desconto)) return schema();
  const { modalidade, valorPerc, descontoDataFixa } = desconto;
  if (!Number.isSafeInteger(modalidade) || (modalidade as number) < 1 || (modalidade as number) > 6) return schema();
  if (valorPerc !== undefined && (typeof valorPerc !== 'string' || !VALOR_PATTERN.test(valorPerc))) return schema();
  let dates: { data: string; valorPerc: string }[] | undefined;
  if (descontoDataFixa !== undefined && descontoDataFixa !== null) {
    if (!Array.isArray(descontoDataFixa) || descontoDataFixa.length > 3) return schema();
    dates = [];
    for (const item of descontoDataFixa) {
      if (!isObject(item) || parseDate(item.data) === undefined || typeof item.valorPerc !== 'string' || !VALOR_PATTERN.test(item.valorPerc)) return schema();
      dates.push({ data: item.data as string, valorPerc: item.valorPerc });
    }
    if (new Set(dates.map((item) => item.data)).size !== dates.length) return schema();
  }
  const byDates = modalidade === 1 || modalidade === 2;
  const pairing: Violacao[] = [];
  if (byDates && valorPerc !== undefined) pairing.push({ razao: 'O objeto cobv.valor.desconto apresenta modalidade no valor 1 ou 2, porém cobv.valor.desconto.valorPerc encontra-se preenchido.', propriedade: `${propriedade}.valorPerc` });
  if (byDates && (dates === undefined || dates.length === 0)) {
    pairing.push({ razao: 'O objeto cobv.valor.desconto apresenta modalidade no valor 1 ou 2, porém o array cobv.valor.desconto.descontoDataFixa está vazio ou nulo.', propriedade: `${propriedade}.descontoDataFixa` });
  }
  if (!byDates && valorPerc === undefined) pairing.push({ razao: 'O objeto cobv.valor.desconto apresenta modalidade nos valores de 3 a 6, porém o elemento cobv.valor.desconto.valorPerc não está preenchido.', propriedade: `${propriedade}.valorPerc` });
  if (!byDates && dates !== undefined) {
    pairing.push({ razao: 'O objeto cobv.valor.desconto apresenta modalidade nos valores de 3 a 6, porém o elemento cobv.valor.desconto.descontoDataFixa está preenchido ou não nulo.', propriedade: `${propriedade}.descontoDataFixa` });
  }
  if (pairing.length > 0) {
    violacoes.push(...pairing);
    return undefined;
  }
  const checked: DescontoCobV = { modalidade: modalidade as number };
  if (valorPerc !== undefined) checked.valorPerc = valorPerc as string;
  if (dates !== undefined) checked.descontoDataFixa = dates;
  return checked;
}

/** Hundredths of a `\d+\.\d{2}` text (cents, or hundredths of a percent). */
function hundredths(text: string): number {
  const [units, fraction] = text.split('.');
  return Number(units) * 100 + Number(fraction);
}

/** The rules that tie fields together (the due date and the creation, abatimento and desconto against the amount). */
function checkRules(contents: CobVContents, createdDate: string, violacoes: Violacao[]): void {
  const { dataDeVencimento, valor } = contents;
  if (dataDeVencimento < createdDate) {
    violacoes.push({ razao: 'O campo cobv.calendario.dataDeVencimento é anterior à data de criação da cobrança.', propriedade: 'cobv.calendario.dataDeVencimento', valor: dataDeVencimento });
  }
  const original = hundredths(valor.original);
  /** Whether a value (modalidades of an amount) or a percentage reaches the whole. */
  const whole = (isAmount: boolean, text: string): boolean => hundredths(text) >= (isAmount ? original : 100_00);
  if (valor.abatimento && whole(valor.abatimento.modalidade === 1, valor.abatimento.valorPerc)) {
    violacoes.push({ razao: 'O objeto cobv.valor.abatimento representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.', propriedade: 'cobv.valor.abatimento' });
  }
  const desconto = valor.desconto;
  if (desconto) {
    const isAmount = [1, 3, 4].includes(desconto.modalidade);
    const values = [...(desconto.descontoDataFixa ?? []).map((item) => item.valorPerc), ...(desconto.valorPerc === undefined ? [] : [desconto.valorPerc])];
    if (values.some((text) => whole(isAmount, text))) {
      violacoes.push({
        razao: 'O objeto cobv.valor.desconto apresenta algum elemento de desconto que representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.',
        propriedade: 'cobv.valor.desconto',
      });
    }
    const late = (desconto.descontoDataFixa ?? []).find((item) => item.data > dataDeVencimento);
    if (late) {
      violacoes.push({
        razao: 'O objeto cobv.valor.desconto apresenta algum elemento cuja data seja posterior à data de vencimento representada por calendario.dataDeVencimento.',
        propriedade: 'cobv.valor.desconto.descontoDataFixa',
        valor: late.data,
      });
    }
  }
}
