/**
 * Pix Automático's recurrences, as the receiver's PSP keeps them (the standard's tags Rec, SolicRec,
 * PayloadLocationRec, RecPayload and WebhookRec; openapi/upstream/bacen-pix-api-2.9.0.yaml, psp-protocols.md
 * section 16), written from the document, in both profiles under API Pix's prefix:
 * - `POST {base}/rec` (201 `RecGerada`; `idRec` per `RecId`: `R`, `R`/`N` by `politicaRetentativa`, the fake's
 *   ISPB, the creation date `yyyyMMdd` in America/Sao_Paulo, 11 alphanumerics), `GET {base}/rec/{idRec}[?txid=]`
 *   (`RecCompleta`, `dadosQR` when the locations it needs are there), `PATCH {base}/rec/{idRec}` (`RecRevisada`),
 *   `GET {base}/rec` (`RecsConsultadas`, by creation; `cpf` | `cnpj` of `vinculo.devedor`, `locationPresente`,
 *   `status`, `convenio`, `paginacao.*`). Refusals: `RecOperacaoInvalida` 400 with the violations the document
 *   lists (their wording), `RecNaoEncontrada` 404, `RecConsultaInvalida` 400.
 * - `POST {base}/solicrec` (201 `SolicRecCompleta`: `idSolicRec` per `SolicRecId`, `SC` + ISPB + date + 11
 *   alphanumerics; CRIADA, then at once ENVIADA: the fake hands it to the payer's bank in the same moment),
 *   `GET {base}/solicrec/{idSolicRec}` (with `recPayload`), `PATCH {base}/solicrec/{idSolicRec}`
 *   (`{"status": "CANCELADA"}` from CRIADA, ENVIADA or RECEBIDA; the document answers it **201**, so does the
 *   fake). `SolicRecOperacaoInvalida` 400, `SolicRecNaoEncontrada` 404.
 * - `POST {base}/locrec` (201 `PayloadLocationRecGerada`; the path declares no body: any body is ignored),
 *   `GET {base}/locrec/{id}`, `GET {base}/locrec` (`idRecPresente`, `convenio`), `DELETE {base}/locrec/{id}/idRec`
 *   (200: the location keeps no recurrence, the recurrence loses its `loc`, its status unchanged). A location
 *   is `fakepsp.local/qr/v2/rec/<32 hex>` (the document's examples: `pix.example.com/qr/v2/rec/<hex>`), served
 *   by payload.ts as a signed JWS of `RecPayload`; ids are integers counted from 1 (apart from `loc`'s).
 * - `PUT|GET|DELETE {base}/webhookrec`: one URL; the callbacks go to `{webhookUrl}/rec` with `{"recs": [...]}`
 *   (the body the document names, `WebhookRecBody`), one `RecNotification` per change of a recurrence's status
 *   after its creation (APROVADA, REJEITADA, EXPIRADA, CANCELADA; the creation itself is the POST's answer).
 *
 * Where the document is silent, the fake chooses (each said where it is done):
 * - a `solicrec` for an unknown `idRec` answers 404 `RecNaoEncontrada` (the path lists a 404); one for a
 *   recurrence that is not CRIADA is a `SolicRecOperacaoInvalida` violation on `solicrec.idRec`;
 * - the receiver's cancellation (`PATCH` `status: CANCELADA`) writes `encerramento.cancelamento` with
 *   `solicitante: USUARIO_RECEBEDOR` and code `SLCR`: of the enum (ACCL, CPCL, DCSD, ERSL, FRUD, PCFD, SLCR,
 *   SLDB) it is the one the document's own example pairs with the receiver ("Cancelamento solicitado pelo usuário
 *   recebedor", `recResponse5`; SLDB being the debtor's); a status and other fields in one PATCH are both applied;
 * - `vinculo.devedor.nome` may change while CRIADA or APROVADA (no violation forbids it);
 * - a cancelled, rejected or expired recurrence cancels its pending `solicrec` (CRIADA, ENVIADA, RECEBIDA) and
 *   its open cobrs (cobrs.ts, `onClosed`); an expired `solicrec` leaves its recurrence CRIADA (the receiver may
 *   send another);
 * - `dadosQR` (JORNADA_2: the recurrence's own BR Code; JORNADA_3 / JORNADA_4: the composite BR Code of a cob /
 *   a cobv and the recurrence) is built as the document's examples `recResponse3`, `recResponse6`,
 *   `recResponse7` show it: JORNADA_2 is `00 02 01`, field 26 holding only the GUI `br.gov.bcb.pix`, 52 `0000`,
 *   53 `986`, 58 `BR`, 59 / 60 the fake's merchant, 62-05 `***`, then field 80 (`00` GUI `br.gov.bcb.pix`, `25`
 *   the recurrence's location) and the CRC; JORNADA_3 / JORNADA_4 are the charge's own dynamic BR Code (its
 *   field 26 with its location) with field 80 added before the CRC. A txid that names no charge of ours is a
 *   `RecConsultaInvalida` violation too;
 * - the payer's maximum (`valorMaximo`, given when the payer's bank approves a recurrence with
 *   `valorMinimoRecebedor` or without an amount) is kept but not shown (`RecCompleta` has no field for it): a
 *   cobr above it cannot be paid (cobrs.ts).
 */
import { randomInt } from 'node:crypto';
import { encodeTlv, PIX_GUI, withCrc } from '../../src/primitives/brcode.ts';
import { randomHex } from '../../src/primitives/random.ts';
import { parseDate, saoPauloDate } from './calendar.ts';
import { RECEBEDOR } from './cobvs.ts';
import { listingQuery, page } from './listing.ts';
import { LOCATION_HOST } from './locations.ts';
import { efiError, problem, refuse, type Reply, type Violacao } from './replies.ts';
import type {
  Atualizacao,
  DevedorRec,
  PagadorRec,
  PayloadLocationRec,
  PayloadLocationRecConsultadas,
  Periodicidade,
  PoliticaRetentativa,
  Rec,
  RecEncerramento,
  RecNotification,
  RecPayload,
  RecStatus,
  RecsConsultadas,
  Solicitante,
  SolicRec,
  SolicRecStatus,
  TipoJornada,
  WebhookRecorrencia,
} from './recurrenceTypes.ts';
import type { Clock, FakePspProfile } from './types.ts';
import { CNPJ_PATTERN, CPF_PATTERN, TXID_PATTERN, isObject, iso, parseHorario, valorCents, VALOR_PATTERN } from './values.ts';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const PERIODICIDADES: readonly Periodicidade[] = ['SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'];
const POLITICAS: readonly PoliticaRetentativa[] = ['NAO_PERMITE', 'PERMITE_3R_7D'];
const REC_STATUSES: readonly RecStatus[] = ['CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'];
const CLOSED: readonly RecStatus[] = ['REJEITADA', 'EXPIRADA', 'CANCELADA'];
const SOLIC_PENDING: readonly SolicRecStatus[] = ['CRIADA', 'ENVIADA', 'RECEBIDA'];
/** `RecEncerramento.rejeicao.codigo`. */
export const REC_REJECTION_CODES: readonly string[] = ['AP13', 'AP14'];
/** `RecEncerramento.cancelamento.codigo`. */
export const REC_CANCEL_CODES: readonly string[] = ['ACCL', 'CPCL', 'DCSD', 'ERSL', 'FRUD', 'PCFD', 'SLCR', 'SLDB'];
/** The payer's bank the fake plays, when a journey names none (the same as the default payer of a Pix). */
const PAYER_ISPB = '99999001';

/** `n` characters of `[a-zA-Z0-9]`. */
export function alphanumerics(n: number): string {
  return Array.from({ length: n }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
}

export interface RecRecord {
  idRec: string;
  createdAtMs: number;
  vinculo: Rec['vinculo'];
  calendario: Rec['calendario'];
  valor?: Rec['valor'];
  politicaRetentativa: PoliticaRetentativa;
  convenio?: string;
  status: RecStatus;
  atualizacao: Atualizacao<RecStatus>[];
  locId?: number;
  ativacao: { tipoJornada: TipoJornada; txid?: string };
  encerramento?: RecEncerramento;
  pagador?: PagadorRec;
  /** The payer's maximum per payment (kept, not shown). */
  valorMaximoCents?: number;
  solicitacoes: string[];
}

interface SolicRecRecord {
  idSolicRec: string;
  idRec: string;
  createdAtMs: number;
  expiresAtMs: number;
  dataExpiracaoSolicitacao: string;
  destinatario: SolicRec['destinatario'];
  status: SolicRecStatus;
  atualizacao: Atualizacao<SolicRecStatus>[];
}

interface LocRecRecord {
  id: number;
  location: string;
  token: string;
  createdAtMs: number;
  idRec?: string;
}

export interface RecBookOptions {
  clock: Clock;
  profile: FakePspProfile;
  ispb: string;
  notify(item: RecNotification): void;
  /** The BR Code of a charge of ours (`cob` or `cobv`) with a location, for `dadosQR`; undefined: no such charge. */
  chargeBrCode(txid: string): { tipo: 'cob' | 'cobv'; pixCopiaECola?: string } | undefined;
  /** A recurrence closed (cancelled, rejected, expired): its open cobrs follow. */
  onClosed(record: RecRecord): void;
}

const invalidRec = (detail: string, violacoes?: Violacao[]): never => refuse(problem(400, 'RecOperacaoInvalida', detail, violacoes));
const invalidSolic = (detail: string, violacoes?: Violacao[]): never => refuse(problem(400, 'SolicRecOperacaoInvalida', detail, violacoes));
/** The control API's "not possible now". */
export const conflict = (detail: string): never => refuse(problem(409, 'OperacaoInvalida', detail));
export const malformed = (detail: string): never => refuse(problem(400, 'OperacaoInvalida', detail));

export class RecBook {
  private readonly recs = new Map<string, RecRecord>();
  private readonly solicitacoes = new Map<string, SolicRecRecord>();
  private readonly locations = new Map<number, LocRecRecord>();
  private nextLocId = 1;
  private webhook: WebhookRecorrencia | undefined;
  private readonly options: RecBookOptions;

  constructor(options: RecBookOptions) {
    this.options = options;
  }

  private now(): number {
    return this.options.clock.now();
  }

  get size(): number {
    return this.recs.size;
  }

  // ---- rec -------------------------------------------------------------------------------------------

  record(idRec: string): RecRecord {
    return this.recs.get(idRec) ?? refuse(problem(404, 'RecNaoEncontrada', `no recurrence ${idRec}`));
  }

  find(idRec: string): RecRecord | undefined {
    return this.recs.get(idRec);
  }

  /** `POST {base}/rec`: 201 `RecGerada`. */
  create(body: unknown): Rec {
    const nowMs = this.now();
    const today = saoPauloDate(nowMs);
    if (!isObject(body)) return invalidRec('the body must be a JSON object', [{ razao: 'O corpo deve ser um objeto JSON.', propriedade: 'rec' }]);
    const violacoes: Violacao[] = [];
    const vinculo = vinculoOf(body.vinculo, violacoes);
    const calendario = calendarioOf(body.calendario, today, violacoes);
    const valor = valorOf(body.valor, violacoes);
    let convenio: string | undefined;
    if (body.recebedor !== undefined) {
      const given = isObject(body.recebedor) ? body.recebedor.convenio : null;
      if (!isObject(body.recebedor) || (given !== undefined && (typeof given !== 'string' || given.length > 60))) {
        violacoes.push({ razao: 'O objeto rec.recebedor não respeita o schema.', propriedade: 'rec.recebedor' });
      } else if (typeof given === 'string') convenio = given;
    }
    const politica = body.politicaRetentativa;
    if (!POLITICAS.includes(politica as PoliticaRetentativa)) violacoes.push({ razao: 'O campo rec.politicaRetentativa não respeita o schema.', propriedade: 'rec.politicaRetentativa' });
    const locId = body.loc === undefined ? undefined : this.checkLoc(body.loc, undefined, violacoes);
    const txid = jornadaTxid(body.ativacao, violacoes);
    if (violacoes.length > 0 || vinculo === undefined || calendario === undefined) return invalidRec('the recurrence is invalid', violacoes);
    const politicaRetentativa = politica as PoliticaRetentativa;
    const idRec = `R${politicaRetentativa === 'PERMITE_3R_7D' ? 'R' : 'N'}${this.options.ispb}${today.replaceAll('-', '')}${alphanumerics(11)}`;
    const record: RecRecord = {
      idRec,
      createdAtMs: nowMs,
      vinculo,
      calendario,
      politicaRetentativa,
      status: 'CRIADA',
      atualizacao: [{ status: 'CRIADA', data: iso(nowMs) }],
      ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
      solicitacoes: [],
    };
    if (valor !== undefined) record.valor = valor;
    if (convenio !== undefined) record.convenio = convenio;
    if (txid !== undefined) record.ativacao.txid = txid;
    if (locId !== undefined) this.bindLoc(record, locId);
    this.recs.set(idRec, record);
    return this.view(record, 'gerada');
  }

  /** `GET {base}/rec/{idRec}[?txid=]`: `RecCompleta`. */
  read(idRec: string, txid: string | null): Rec {
    const record = this.record(idRec);
    const view = this.view(record, 'completa');
    const location = this.locOf(record);
    if (txid === null) {
      if (location !== undefined) view.dadosQR = { jornada: 'JORNADA_2', pixCopiaECola: recBrCode(location.location) };
      return view;
    }
    const charge = this.options.chargeBrCode(txid);
    const consulta = (razao: string): never => refuse(problem(400, 'RecConsultaInvalida', razao, [{ razao, propriedade: 'txid', valor: txid }]));
    if (charge === undefined) return consulta('O parâmetro txid não corresponde a uma cobrança deste usuário recebedor.');
    if (charge.tipo === 'cobv' && record.ativacao.tipoJornada === 'JORNADA_3') return consulta('O parâmetro txid não corresponde a uma cobrança compatível com o campo ativacao.tipoJornada.');
    if (charge.tipo === 'cob' && record.ativacao.txid !== undefined && record.ativacao.txid !== txid) {
      return consulta('O parâmetro txid corresponde a uma cobrança imediata diferente da informada no campo ativacao.dadosJornada.txid.');
    }
    if (location !== undefined && charge.pixCopiaECola !== undefined) {
      view.dadosQR = { jornada: charge.tipo === 'cob' ? 'JORNADA_3' : 'JORNADA_4', pixCopiaECola: compositeBrCode(charge.pixCopiaECola, location.location) };
    }
    return view;
  }

  /** `PATCH {base}/rec/{idRec}`: 200 `RecGerada`. */
  revise(idRec: string, body: unknown): Rec {
    const record = this.record(idRec);
    if (!isObject(body)) return invalidRec('the body must be a JSON object', [{ razao: 'O corpo deve ser um objeto JSON.', propriedade: 'rec' }]);
    const violacoes: Violacao[] = [];
    if (CLOSED.includes(record.status)) {
      violacoes.push({ razao: 'A recorrência encontra-se expirada, cancelada ou rejeitada.', propriedade: 'rec.status', valor: record.status });
      return invalidRec(`the recurrence is ${record.status}`, violacoes);
    }
    const { status, vinculo, loc, calendario, ativacao } = body;
    if (status !== undefined && status !== 'CANCELADA') violacoes.push({ razao: 'O campo rec.status não respeita o schema.', propriedade: 'rec.status', valor: String(status) });
    let nome: string | undefined;
    if (vinculo !== undefined) {
      const devedor = isObject(vinculo) ? vinculo.devedor : undefined;
      const given = isObject(devedor) ? devedor.nome : undefined;
      if (typeof given !== 'string' || given === '' || given.length > 140) violacoes.push({ razao: 'O objeto rec.vinculo não respeita o schema.', propriedade: 'rec.vinculo.devedor.nome' });
      else nome = given;
    }
    let locId: number | undefined;
    if (loc !== undefined) {
      if (record.status !== 'CRIADA') violacoes.push({ razao: 'O campo rec.loc somente pode ser alterado quando a recorrência apresentar-se com o status CRIADA.', propriedade: 'rec.loc' });
      else locId = this.checkLoc(loc, record.idRec, violacoes);
    }
    let dataInicial: string | undefined;
    if (calendario !== undefined) {
      const given = isObject(calendario) ? calendario.dataInicial : undefined;
      if (parseDate(given) === undefined) violacoes.push({ razao: 'O campo rec.calendario.dataInicial não respeita o schema.', propriedade: 'rec.calendario.dataInicial' });
      else if (record.status !== 'CRIADA') {
        violacoes.push({ razao: 'O campo rec.calendario.dataInicial somente pode ser alterado quando a recorrência apresentar-se com o status CRIADA.', propriedade: 'rec.calendario.dataInicial' });
      } else if ((given as string) < saoPauloDate(record.createdAtMs)) {
        violacoes.push({ razao: 'O campo rec.calendario.dataInicial é anterior à data de criação da recorrência.', propriedade: 'rec.calendario.dataInicial', valor: given as string });
      } else if (record.calendario.dataFinal !== undefined && record.calendario.dataFinal < (given as string)) {
        violacoes.push({ razao: 'O campo rec.calendario.dataFinal é anterior ao campo rec.calendario.dataInicial.', propriedade: 'rec.calendario.dataInicial', valor: given as string });
      } else dataInicial = given as string;
    }
    const txid = jornadaTxid(ativacao, violacoes);
    if (status === undefined && vinculo === undefined && loc === undefined && calendario === undefined && ativacao === undefined) {
      violacoes.push({ razao: 'A requisição não altera nenhum campo da recorrência.', propriedade: 'rec' });
    }
    if (violacoes.length > 0) return invalidRec('the revision is invalid', violacoes);
    if (nome !== undefined) record.vinculo = { ...record.vinculo, devedor: { ...record.vinculo.devedor, nome } };
    if (locId !== undefined && locId !== record.locId) {
      this.unbindLoc(record);
      this.bindLoc(record, locId);
    }
    if (dataInicial !== undefined) record.calendario = { ...record.calendario, dataInicial };
    if (txid !== undefined) record.ativacao.txid = txid;
    if (status === 'CANCELADA') {
      this.close(record, 'CANCELADA', { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento solicitado pelo usuário recebedor' } });
    }
    return this.view(record, 'gerada');
  }

  /** `GET {base}/rec`. */
  list(query: URLSearchParams): RecsConsultadas {
    const consulta = (detail: string): never => refuse(problem(400, 'RecConsultaInvalida', detail));
    const listing = listingQuery(query, consulta);
    const cpf = query.get('cpf');
    const cnpj = query.get('cnpj');
    const status = query.get('status');
    const locationPresente = query.get('locationPresente');
    const convenio = query.get('convenio');
    if (cpf !== null && cnpj !== null) consulta('cpf and cnpj cannot be used together');
    if (cpf !== null && !CPF_PATTERN.test(cpf)) consulta('cpf must be 11 digits');
    if (cnpj !== null && !CNPJ_PATTERN.test(cnpj)) consulta('cnpj must be 14 characters [0-9A-Z]');
    if (status !== null && !REC_STATUSES.includes(status as RecStatus)) consulta(`status is one of ${REC_STATUSES.join(', ')}`);
    if (locationPresente !== null && locationPresente !== 'true' && locationPresente !== 'false') consulta('locationPresente is true or false');
    if (convenio !== null && convenio.length > 60) consulta('convenio holds at most 60 characters');
    const matching = [...this.recs.values()].filter(
      (record) =>
        record.createdAtMs >= listing.inicioMs &&
        record.createdAtMs <= listing.fimMs &&
        (cpf === null || record.vinculo.devedor.cpf === cpf) &&
        (cnpj === null || record.vinculo.devedor.cnpj === cnpj) &&
        (status === null || record.status === status) &&
        (locationPresente === null || (record.locId !== undefined) === (locationPresente === 'true')) &&
        (convenio === null || record.convenio === convenio),
    );
    const { items, paginacao } = page(matching, listing, this.options.profile);
    const parametros: RecsConsultadas['parametros'] = { inicio: listing.inicio, fim: listing.fim, paginacao };
    if (cpf !== null) parametros.cpf = cpf;
    if (cnpj !== null) parametros.cnpj = cnpj;
    if (locationPresente !== null) parametros.locationPresente = locationPresente === 'true';
    if (status !== null) parametros.status = status;
    if (convenio !== null) parametros.recebedor = { convenio };
    return { parametros, recs: items.map((record) => this.view(record, 'completa')) };
  }

  /** A new status in the recurrence's history, called back. */
  private change(record: RecRecord, status: RecStatus): void {
    record.status = status;
    record.atualizacao.push({ status, data: iso(this.now()) });
    this.options.notify(this.notification(record));
  }

  private close(record: RecRecord, status: 'CANCELADA' | 'REJEITADA' | 'EXPIRADA', encerramento?: RecEncerramento): void {
    if (encerramento !== undefined) record.encerramento = encerramento;
    for (const id of record.solicitacoes) {
      const solicitacao = this.solicitacoes.get(id);
      if (solicitacao !== undefined && SOLIC_PENDING.includes(solicitacao.status)) this.changeSolic(solicitacao, 'CANCELADA');
    }
    this.change(record, status);
    this.options.onClosed(record);
  }

  notification(record: RecRecord): RecNotification {
    const item: RecNotification = { idRec: record.idRec, status: record.status, atualizacao: record.atualizacao.map((entry) => ({ ...entry })), ativacao: this.ativacaoView(record) };
    if (record.encerramento !== undefined) item.encerramento = structuredClone(record.encerramento);
    return item;
  }

  private ativacaoView(record: RecRecord): Rec['ativacao'] {
    const ativacao: Rec['ativacao'] = { tipoJornada: record.ativacao.tipoJornada };
    // The document: dadosJornada is removed once the activation happened by journeys 1, 2 or 4.
    const kept = record.ativacao.tipoJornada === 'JORNADA_3' || record.ativacao.tipoJornada === 'AGUARDANDO_DEFINICAO';
    if (record.ativacao.txid !== undefined && kept) ativacao.dadosJornada = { txid: record.ativacao.txid };
    return ativacao;
  }

  /** `gerada`: `RecGerada` (POST, PATCH); `completa`: `RecCompleta` / `RecCompletaPesquisada` (with the payer and the requests). */
  view(record: RecRecord, shape: 'gerada' | 'completa'): Rec {
    const rec: Rec = {
      idRec: record.idRec,
      vinculo: structuredClone(record.vinculo),
      calendario: { ...record.calendario },
      politicaRetentativa: record.politicaRetentativa,
      recebedor: { cnpj: RECEBEDOR.cnpj, nome: RECEBEDOR.nome, ...(record.convenio === undefined ? {} : { convenio: record.convenio }) },
      status: record.status,
      atualizacao: record.atualizacao.map((entry) => ({ ...entry })),
      ativacao: this.ativacaoView(record),
    };
    if (record.valor !== undefined) rec.valor = { ...record.valor };
    const location = this.locOf(record);
    if (location !== undefined) rec.loc = this.locView(location);
    if (record.encerramento !== undefined) rec.encerramento = structuredClone(record.encerramento);
    if (shape === 'completa') {
      if (record.pagador !== undefined) rec.pagador = { ...record.pagador };
      const solicitacao = record.solicitacoes.map((id) => this.solicitacoes.get(id)).filter((item): item is SolicRecRecord => item !== undefined);
      if (solicitacao.length > 0) rec.solicitacao = solicitacao.map((item) => this.solicView(item, false));
    }
    return rec;
  }

  /** `RecPayload`: what the payer's bank reads (the location's JWS, `solicrec.recPayload`). */
  payload(record: RecRecord): RecPayload {
    const payload: RecPayload = {
      idRec: record.idRec,
      vinculo: structuredClone(record.vinculo),
      calendario: { ...record.calendario },
      politicaRetentativa: record.politicaRetentativa,
      recebedor: { cnpj: RECEBEDOR.cnpj, nome: RECEBEDOR.nome, ispbParticipante: this.options.ispb },
      atualizacao: record.atualizacao.map((entry) => ({ ...entry })),
    };
    if (record.valor !== undefined) payload.valor = { ...record.valor };
    return payload;
  }

  // ---- the payer's bank (control API) ------------------------------------------------------------------

  private creada(idRec: string): RecRecord {
    const record = this.record(idRec);
    if (record.status !== 'CRIADA') conflict(`the recurrence is ${record.status}: only a CRIADA one can be approved, rejected or expired`);
    return record;
  }

  /** Checks the payer's maximum against the recurrence's amounts. */
  private maximum(record: RecRecord, valorMaximo: unknown): number | undefined {
    if (valorMaximo === undefined) return undefined;
    const cents = valorCents(valorMaximo) ?? malformed('valorMaximo must be a positive amount like "10.00"');
    if (record.valor?.valorRec !== undefined) conflict('a recurrence of a fixed amount (valorRec) takes no maximum from the payer');
    const minimum = record.valor?.valorMinimoRecebedor;
    if (minimum !== undefined && cents < (valorCents(minimum) ?? 0)) conflict(`valorMaximo ${String(valorMaximo)} is below the receiver's minimum ${minimum}`);
    return cents;
  }

  private approve(record: RecRecord, tipoJornada: TipoJornada, pagador: PagadorRec, valorMaximoCents: number | undefined, txid?: string): void {
    record.ativacao = { tipoJornada, ...(txid === undefined ? {} : { txid }) };
    record.pagador = pagador;
    if (valorMaximoCents !== undefined) record.valorMaximoCents = valorMaximoCents;
    this.change(record, 'APROVADA');
  }

  /**
   * `POST /_fake/rec/:idRec/approve` `{jornada: JORNADA_2|JORNADA_3|JORNADA_4, txid?, valorMaximo?, pagador?}`: the
   * payer scanned the recurrence's QR code (it needs a location). JORNADA_3 pays the cob `txid` (default the
   * recurrence's `ativacao.dadosJornada.txid`) through `payCob` first.
   */
  approveByQr(idRec: string, input: unknown, payCob: (txid: string) => void): Rec {
    const body = isObject(input) ? input : {};
    const jornada = body.jornada;
    if (jornada !== 'JORNADA_2' && jornada !== 'JORNADA_3' && jornada !== 'JORNADA_4') malformed('jornada is JORNADA_2, JORNADA_3 or JORNADA_4');
    const pagador = body.pagador === undefined ? undefined : pagadorOf(body.pagador);
    const record = this.creada(idRec);
    if (this.locOf(record) === undefined) conflict('the recurrence has no location: there is no QR code to scan');
    const valorMaximoCents = this.maximum(record, body.valorMaximo);
    let txid: string | undefined;
    if (jornada === 'JORNADA_3') {
      const given = body.txid ?? record.ativacao.txid;
      if (typeof given !== 'string' || !TXID_PATTERN.test(given)) return malformed('JORNADA_3 needs the txid of the cob paid with it');
      if (record.ativacao.txid !== undefined && record.ativacao.txid !== given) conflict(`the recurrence names the cob ${record.ativacao.txid} (ativacao.dadosJornada.txid)`);
      payCob(given);
      txid = given;
    }
    this.approve(record, jornada as TipoJornada, pagador ?? defaultPagador(record), valorMaximoCents, txid);
    return this.view(record, 'completa');
  }

  /** `POST /_fake/rec/:idRec/reject` `{codigo: AP13|AP14, descricao?}`. */
  reject(idRec: string, input: unknown): Rec {
    const rejeicao = rejectionOf(input);
    const record = this.creada(idRec);
    this.close(record, 'REJEITADA', { rejeicao });
    return this.view(record, 'completa');
  }

  /** `POST /_fake/rec/:idRec/cancel` `{codigo, solicitante?: USUARIO_PAGADOR|PSP_PAGADOR, descricao?}`: the payer ends an approved recurrence. */
  cancelByPayer(idRec: string, input: unknown): Rec {
    const body = isObject(input) ? input : {};
    const solicitante = body.solicitante ?? 'USUARIO_PAGADOR';
    if (solicitante !== 'USUARIO_PAGADOR' && solicitante !== 'PSP_PAGADOR') malformed('solicitante is USUARIO_PAGADOR or PSP_PAGADOR');
    if (typeof body.codigo !== 'string' || !REC_CANCEL_CODES.includes(body.codigo)) malformed(`codigo is one of ${REC_CANCEL_CODES.join(', ')}`);
    if (body.descricao !== undefined && (typeof body.descricao !== 'string' || body.descricao.length > 400)) malformed('descricao holds at most 400 characters');
    const record = this.record(idRec);
    if (record.status !== 'APROVADA') conflict(`the recurrence is ${record.status}: the payer cancels an APROVADA one`);
    const descricao = typeof body.descricao === 'string' ? body.descricao : `Cancelamento solicitado pelo ${solicitante === 'PSP_PAGADOR' ? 'PSP pagador' : 'usuário pagador'}`;
    this.close(record, 'CANCELADA', { cancelamento: { solicitante: solicitante as Solicitante, codigo: body.codigo as string, descricao } });
    return this.view(record, 'completa');
  }

  /** `POST /_fake/rec/:idRec/expire`: a CRIADA recurrence the payer never approved. */
  expire(idRec: string): Rec {
    const record = this.creada(idRec);
    this.close(record, 'EXPIRADA');
    return this.view(record, 'completa');
  }

  // ---- solicrec ----------------------------------------------------------------------------------------

  private solic(idSolicRec: string): SolicRecRecord {
    return this.solicitacoes.get(idSolicRec) ?? refuse(problem(404, 'SolicRecNaoEncontrada', `no recurrence request ${idSolicRec}`));
  }

  private changeSolic(record: SolicRecRecord, status: SolicRecStatus): void {
    record.status = status;
    record.atualizacao.push({ status, data: iso(this.now()) });
  }

  /** `POST {base}/solicrec`: 201 `SolicRecCompleta`, CRIADA then ENVIADA. */
  createSolic(body: unknown): SolicRec {
    const nowMs = this.now();
    if (!isObject(body)) return invalidSolic('the body must be a JSON object', [{ razao: 'O corpo deve ser um objeto JSON.', propriedade: 'solicrec' }]);
    const violacoes: Violacao[] = [];
    const idRec = body.idRec;
    if (typeof idRec !== 'string' || !/^[a-zA-Z0-9]{29}$/.test(idRec)) violacoes.push({ razao: 'O campo solicrec.idRec não respeita o schema.', propriedade: 'solicrec.idRec' });
    const calendario = body.calendario;
    const expiracao = isObject(calendario) ? calendario.dataExpiracaoSolicitacao : undefined;
    const expiresAtMs = parseHorario(expiracao);
    if (expiresAtMs === undefined) violacoes.push({ razao: 'O objeto solicrec.calendario não respeita o schema.', propriedade: 'solicrec.calendario' });
    else if (expiresAtMs < nowMs) {
      violacoes.push({ razao: 'O campo solicrec.calendario.dataExpiracaoSolicitacao é anterior à data de criação da solicitação da recorrência.', propriedade: 'solicrec.calendario.dataExpiracaoSolicitacao', valor: expiracao as string });
    }
    const destinatario = destinatarioOf(body.destinatario);
    if (destinatario === undefined) violacoes.push({ razao: 'O objeto solicrec.destinatario não respeita o schema.', propriedade: 'solicrec.destinatario' });
    if (violacoes.length > 0 || destinatario === undefined) return invalidSolic('the recurrence request is invalid', violacoes);
    const rec = this.record(idRec as string);
    if (rec.solicitacoes.some((id) => SOLIC_PENDING.includes(this.solicitacoes.get(id)?.status ?? 'CANCELADA'))) {
      violacoes.push({ razao: 'Existe uma solicitação ativa referente ao mesmo solicrec.idRec.', propriedade: 'solicrec.idRec', valor: rec.idRec });
    } else if (rec.status !== 'CRIADA') {
      violacoes.push({ razao: `A recorrência referenciada por solicrec.idRec está ${rec.status}: somente uma recorrência CRIADA pode ser confirmada.`, propriedade: 'solicrec.idRec', valor: rec.idRec });
    }
    if (violacoes.length > 0) return invalidSolic('the recurrence request is invalid', violacoes);
    const record: SolicRecRecord = {
      idSolicRec: `SC${this.options.ispb}${saoPauloDate(nowMs).replaceAll('-', '')}${alphanumerics(11)}`,
      idRec: rec.idRec,
      createdAtMs: nowMs,
      expiresAtMs: expiresAtMs as number,
      dataExpiracaoSolicitacao: expiracao as string,
      destinatario,
      status: 'CRIADA',
      atualizacao: [{ status: 'CRIADA', data: iso(nowMs) }],
    };
    this.changeSolic(record, 'ENVIADA');
    this.solicitacoes.set(record.idSolicRec, record);
    rec.solicitacoes.push(record.idSolicRec);
    return this.solicView(record, true);
  }

  readSolic(idSolicRec: string): SolicRec {
    return this.solicView(this.solic(idSolicRec), true);
  }

  /** `PATCH {base}/solicrec/{idSolicRec}`: `{"status": "CANCELADA"}`. */
  reviseSolic(idSolicRec: string, body: unknown): SolicRec {
    const record = this.solic(idSolicRec);
    if (!isObject(body) || body.status !== 'CANCELADA') return invalidSolic('status can only become CANCELADA', [{ razao: 'O campo solicrec.status não respeita o schema.', propriedade: 'solicrec.status' }]);
    if (!SOLIC_PENDING.includes(record.status)) {
      const razao = 'Não é possível cancelar uma solicitação de recorrência com o status diferente de CRIADA, ENVIADA ou RECEBIDA.';
      return invalidSolic(razao, [{ razao, propriedade: 'solicrec.status', valor: record.status }]);
    }
    this.changeSolic(record, 'CANCELADA');
    return this.solicView(record, true);
  }

  private pendingSolic(idSolicRec: string): { solicitacao: SolicRecRecord; rec: RecRecord } {
    const solicitacao = this.solic(idSolicRec);
    if (!SOLIC_PENDING.includes(solicitacao.status)) conflict(`the request is ${solicitacao.status}: the payer's bank answers a pending one`);
    const rec = this.record(solicitacao.idRec);
    if (rec.status !== 'CRIADA') conflict(`the recurrence is ${rec.status}`);
    return { solicitacao, rec };
  }

  /** `POST /_fake/solicrec/:idSolicRec/accept` `{valorMaximo?}`: JORNADA_1. */
  acceptSolic(idSolicRec: string, input: unknown): SolicRec {
    const body = isObject(input) ? input : {};
    const { solicitacao, rec } = this.pendingSolic(idSolicRec);
    const valorMaximoCents = this.maximum(rec, body.valorMaximo);
    this.changeSolic(solicitacao, 'ACEITA');
    const { destinatario } = solicitacao;
    const pagador: PagadorRec =
      destinatario.cpf !== undefined ? { ispbParticipante: destinatario.ispbParticipante, cpf: destinatario.cpf } : { ispbParticipante: destinatario.ispbParticipante, cnpj: destinatario.cnpj };
    this.approve(rec, 'JORNADA_1', pagador, valorMaximoCents);
    return this.solicView(solicitacao, true);
  }

  /** `POST /_fake/solicrec/:idSolicRec/reject` `{codigo: AP13|AP14, descricao?}`: the request and its recurrence REJEITADA. */
  rejectSolic(idSolicRec: string, input: unknown): SolicRec {
    const rejeicao = rejectionOf(input);
    const { solicitacao, rec } = this.pendingSolic(idSolicRec);
    this.changeSolic(solicitacao, 'REJEITADA');
    this.close(rec, 'REJEITADA', { rejeicao });
    return this.solicView(solicitacao, true);
  }

  /** `POST /_fake/solicrec/:idSolicRec/expire`: the request EXPIRADA (its recurrence stays CRIADA). */
  expireSolic(idSolicRec: string): SolicRec {
    const solicitacao = this.solic(idSolicRec);
    if (!SOLIC_PENDING.includes(solicitacao.status)) conflict(`the request is ${solicitacao.status}`);
    this.changeSolic(solicitacao, 'EXPIRADA');
    return this.solicView(solicitacao, true);
  }

  /** Requests past their `dataExpiracaoSolicitacao` expire (called on every request). */
  sweep(nowMs: number): void {
    for (const solicitacao of this.solicitacoes.values()) {
      if (SOLIC_PENDING.includes(solicitacao.status) && solicitacao.expiresAtMs < nowMs) this.changeSolic(solicitacao, 'EXPIRADA');
    }
  }

  private solicView(record: SolicRecRecord, withPayload: boolean): SolicRec {
    const view: SolicRec = {
      idSolicRec: record.idSolicRec,
      idRec: record.idRec,
      calendario: { dataExpiracaoSolicitacao: record.dataExpiracaoSolicitacao },
      destinatario: { ...record.destinatario },
      status: record.status,
      atualizacao: record.atualizacao.map((entry) => ({ ...entry })),
    };
    const rec = this.recs.get(record.idRec);
    if (withPayload && rec !== undefined) view.recPayload = this.payload(rec);
    return view;
  }

  // ---- locrec ------------------------------------------------------------------------------------------

  /** Checks `rec.loc` (a `PayloadLocationRecId`): it exists and is free (or `idRec`'s own). */
  private checkLoc(loc: unknown, idRec: string | undefined, violacoes: Violacao[]): number | undefined {
    if (!Number.isSafeInteger(loc) || (loc as number) < 1) {
      violacoes.push({ razao: 'O campo rec.loc não respeita o schema.', propriedade: 'rec.loc' });
      return undefined;
    }
    const record = this.locations.get(loc as number);
    if (record === undefined) violacoes.push({ razao: 'O location referenciado por rec.loc inexiste.', propriedade: 'rec.loc', valor: String(loc) });
    else if (record.idRec !== undefined && record.idRec !== idRec) {
      violacoes.push({ razao: 'O location referenciado por rec.loc já está sendo utilizado por outra recorrência.', propriedade: 'rec.loc', valor: String(loc) });
    } else return record.id;
    return undefined;
  }

  private bindLoc(record: RecRecord, locId: number): void {
    const location = this.locations.get(locId);
    if (location === undefined) throw new Error(`no location ${locId}`);
    location.idRec = record.idRec;
    record.locId = locId;
  }

  private unbindLoc(record: RecRecord): void {
    const location = this.locOf(record);
    if (location !== undefined) delete location.idRec;
    delete record.locId;
  }

  private locOf(record: RecRecord): LocRecRecord | undefined {
    return record.locId === undefined ? undefined : this.locations.get(record.locId);
  }

  /** The recurrence served at `/qr/v2/rec/<token>`, when one uses that location. */
  atLocation(token: string): { location: boolean; record?: RecRecord } {
    for (const location of this.locations.values()) {
      if (location.token !== token) continue;
      const record = location.idRec === undefined ? undefined : this.recs.get(location.idRec);
      return record === undefined ? { location: true } : { location: true, record };
    }
    return { location: false };
  }

  /** `POST {base}/locrec`. */
  postLoc(): PayloadLocationRec {
    const token = randomHex(16);
    const record: LocRecRecord = { id: this.nextLocId++, token, location: `${LOCATION_HOST}/qr/v2/rec/${token}`, createdAtMs: this.now() };
    this.locations.set(record.id, record);
    return this.locView(record);
  }

  private loc(id: string): LocRecRecord {
    const record = /^\d{1,15}$/.test(id) ? this.locations.get(Number(id)) : undefined;
    return record ?? refuse(problem(404, 'PayloadLocationRecNaoEncontrado', `no recurrence location ${id}`));
  }

  readLoc(id: string): PayloadLocationRec {
    return this.locView(this.loc(id));
  }

  /** `DELETE {base}/locrec/{id}/idRec`. */
  unbindLocation(id: string): PayloadLocationRec {
    const location = this.loc(id);
    const record = location.idRec === undefined ? undefined : this.recs.get(location.idRec);
    if (record !== undefined) this.unbindLoc(record);
    delete location.idRec;
    return this.locView(location);
  }

  /** `GET {base}/locrec`. */
  listLoc(query: URLSearchParams): PayloadLocationRecConsultadas {
    const consulta = (detail: string): never => refuse(problem(400, 'PayloadLocationRecConsultaInvalida', detail));
    const listing = listingQuery(query, consulta);
    const present = query.get('idRecPresente');
    const convenio = query.get('convenio');
    if (present !== null && present !== 'true' && present !== 'false') consulta('idRecPresente is true or false');
    if (convenio !== null && convenio.length > 60) consulta('convenio holds at most 60 characters');
    const matching = [...this.locations.values()].filter(
      (record) =>
        record.createdAtMs >= listing.inicioMs &&
        record.createdAtMs <= listing.fimMs &&
        (present === null || (record.idRec !== undefined) === (present === 'true')) &&
        (convenio === null || (record.idRec !== undefined && this.recs.get(record.idRec)?.convenio === convenio)),
    );
    const { items, paginacao } = page(matching, listing, this.options.profile);
    const parametros: PayloadLocationRecConsultadas['parametros'] = { inicio: listing.inicio, fim: listing.fim, paginacao };
    if (present !== null) parametros.idRecPresente = present === 'true';
    if (convenio !== null) parametros.recebedor = { convenio };
    return { parametros, loc: items.map((record) => this.locView(record)) };
  }

  private locView(record: LocRecRecord): PayloadLocationRec {
    const view: PayloadLocationRec = { id: record.id, location: record.location, criacao: iso(record.createdAtMs) };
    if (record.idRec !== undefined) view.idRec = record.idRec;
    return view;
  }

  // ---- webhookrec ----------------------------------------------------------------------------------------

  webhookUrl(): string | undefined {
    return this.webhook?.webhookUrl;
  }

  saveWebhook(webhookUrl: string): WebhookRecorrencia {
    this.webhook = { webhookUrl, criacao: iso(this.now()) };
    return { ...this.webhook };
  }

  readWebhook(): WebhookRecorrencia {
    return this.webhook === undefined ? refuse(problem(404, 'NaoEncontrado', 'no webhookrec is configured')) : { ...this.webhook };
  }

  deleteWebhook(): void {
    this.readWebhook();
    this.webhook = undefined;
  }
}

// ---- the BR Codes of `dadosQR` ---------------------------------------------------------------------------

/** Field 80 of a composite BR Code: the GUI and the recurrence's location (sub-field 25). */
function recurrenceField(location: string): string {
  return encodeTlv('80', encodeTlv('00', PIX_GUI) + encodeTlv('25', location));
}

/** JORNADA_2: the recurrence alone, as `recResponse3` writes it (field 26 holds only the GUI). */
export function recBrCode(location: string): string {
  const fields = [
    encodeTlv('00', '01'),
    encodeTlv('26', encodeTlv('00', PIX_GUI)),
    encodeTlv('52', '0000'),
    encodeTlv('53', '986'),
    encodeTlv('58', 'BR'),
    encodeTlv('59', 'PIXGATE'),
    encodeTlv('60', 'SAO PAULO'),
    encodeTlv('62', encodeTlv('05', '***')),
    recurrenceField(location),
  ];
  return withCrc(fields.join(''));
}

/** JORNADA_3 / JORNADA_4: the charge's BR Code (without its CRC), field 80, a new CRC. */
export function compositeBrCode(chargeBrCode: string, location: string): string {
  return withCrc(chargeBrCode.slice(0, -8) + recurrenceField(location));
}

// ---- request parts -----------------------------------------------------------------------------------------

function devedorOf(devedor: unknown): DevedorRec | undefined {
  if (!isObject(devedor)) return undefined;
  const { nome, cpf, cnpj } = devedor;
  if (typeof nome !== 'string' || nome === '' || nome.length > 140) return undefined;
  if (cpf !== undefined && cnpj !== undefined) return undefined;
  if (typeof cpf === 'string' && CPF_PATTERN.test(cpf)) return { nome, cpf };
  if (typeof cnpj === 'string' && CNPJ_PATTERN.test(cnpj)) return { nome, cnpj };
  return undefined;
}

function vinculoOf(vinculo: unknown, violacoes: Violacao[]): Rec['vinculo'] | undefined {
  const refused = (): undefined => {
    violacoes.push({ razao: 'O objeto rec.vinculo não respeita o schema.', propriedade: 'rec.vinculo' });
    return undefined;
  };
  if (!isObject(vinculo)) return refused();
  const { contrato, objeto } = vinculo;
  const devedor = devedorOf(vinculo.devedor);
  if (typeof contrato !== 'string' || contrato === '' || contrato.length > 35 || devedor === undefined) return refused();
  if (objeto !== undefined && (typeof objeto !== 'string' || objeto.length > 35)) return refused();
  return { ...(typeof objeto === 'string' ? { objeto } : {}), contrato, devedor };
}

function calendarioOf(calendario: unknown, today: string, violacoes: Violacao[]): Rec['calendario'] | undefined {
  if (!isObject(calendario)) {
    violacoes.push({ razao: 'O objeto rec.calendario não respeita o schema.', propriedade: 'rec.calendario' });
    return undefined;
  }
  const { dataInicial, dataFinal, periodicidade } = calendario;
  const before = violacoes.length;
  if (parseDate(dataInicial) === undefined) violacoes.push({ razao: 'O campo rec.calendario.dataInicial não respeita o schema.', propriedade: 'rec.calendario.dataInicial' });
  else if ((dataInicial as string) < today) {
    violacoes.push({ razao: 'O campo rec.calendario.dataInicial é anterior à data de criação da recorrência.', propriedade: 'rec.calendario.dataInicial', valor: dataInicial as string });
  }
  if (dataFinal !== undefined) {
    if (parseDate(dataFinal) === undefined) violacoes.push({ razao: 'O campo rec.calendario.dataFinal não respeita o schema.', propriedade: 'rec.calendario.dataFinal' });
    else if (typeof dataInicial === 'string' && (dataFinal as string) < dataInicial) {
      violacoes.push({ razao: 'O campo rec.calendario.dataFinal é anterior ao campo rec.calendario.dataInicial.', propriedade: 'rec.calendario.dataFinal', valor: dataFinal as string });
    }
  }
  if (!PERIODICIDADES.includes(periodicidade as Periodicidade)) violacoes.push({ razao: 'O campo rec.calendario.periodicidade não respeita o schema.', propriedade: 'rec.calendario.periodicidade' });
  if (violacoes.length > before) return undefined;
  return { dataInicial: dataInicial as string, ...(dataFinal === undefined ? {} : { dataFinal: dataFinal as string }), periodicidade: periodicidade as Periodicidade };
}

function valorOf(valor: unknown, violacoes: Violacao[]): Rec['valor'] | undefined {
  if (valor === undefined) return undefined;
  if (!isObject(valor)) {
    violacoes.push({ razao: 'O objeto rec.valor não respeita o schema.', propriedade: 'rec.valor' });
    return undefined;
  }
  const { valorRec, valorMinimoRecebedor } = valor;
  const checked: NonNullable<Rec['valor']> = {};
  if (valorRec !== undefined) {
    if (typeof valorRec === 'string' && VALOR_PATTERN.test(valorRec) && valorCents(valorRec) !== undefined) checked.valorRec = valorRec;
    else violacoes.push({ razao: 'O campo rec.valor.valorRec não respeita o schema.', propriedade: 'rec.valor.valorRec' });
  }
  if (valorMinimoRecebedor !== undefined) {
    if (typeof valorMinimoRecebedor === 'string' && VALOR_PATTERN.test(valorMinimoRecebedor) && valorCents(valorMinimoRecebedor) !== undefined) checked.valorMinimoRecebedor = valorMinimoRecebedor;
    else violacoes.push({ razao: 'O campo rec.valor.valorMinimoRecebedor não respeita o schema.', propriedade: 'rec.valor.valorMinimoRecebedor' });
  }
  if (valorRec !== undefined && valorMinimoRecebedor !== undefined) {
    violacoes.push({ razao: 'Ambos os campos rec.valor.valorRec e rec.valor.valorMinimoRecebedor estão preenchidos.', propriedade: 'rec.valor' });
  }
  return checked;
}

/** `ativacao.dadosJornada.txid` of a request (`RecAtivacaoSolicitada`), checked. */
function jornadaTxid(ativacao: unknown, violacoes: Violacao[]): string | undefined {
  if (ativacao === undefined) return undefined;
  const dados = isObject(ativacao) ? ativacao.dadosJornada : undefined;
  const txid = isObject(dados) ? dados.txid : undefined;
  if (typeof txid !== 'string' || !TXID_PATTERN.test(txid)) {
    violacoes.push({ razao: 'O campo rec.ativacao.dadosJornada.txid não respeita o schema.', propriedade: 'rec.ativacao.dadosJornada.txid' });
    return undefined;
  }
  return txid;
}

function destinatarioOf(destinatario: unknown): SolicRec['destinatario'] | undefined {
  if (!isObject(destinatario)) return undefined;
  const { conta, ispbParticipante, agencia, cpf, cnpj } = destinatario;
  if (typeof conta !== 'string' || conta === '' || conta.length > 20) return undefined;
  if (typeof ispbParticipante !== 'string' || !/^[0-9A-Z]{8}$/.test(ispbParticipante)) return undefined;
  if (agencia !== undefined && (typeof agencia !== 'string' || agencia.length > 4)) return undefined;
  const base = { conta, ispbParticipante, ...(typeof agencia === 'string' ? { agencia } : {}) };
  if (cpf !== undefined && cnpj !== undefined) return undefined;
  if (typeof cpf === 'string' && CPF_PATTERN.test(cpf)) return { ...base, cpf };
  if (typeof cnpj === 'string' && CNPJ_PATTERN.test(cnpj)) return { ...base, cnpj };
  return undefined;
}

/** The control API's `pagador` (`DadosPagadorRec`). */
function pagadorOf(input: unknown): PagadorRec {
  if (!isObject(input) || typeof input.ispbParticipante !== 'string' || !/^[0-9A-Z]{8}$/.test(input.ispbParticipante)) return malformed('pagador is {ispbParticipante, cpf | cnpj, codMun?}');
  const codMun = input.codMun;
  if (codMun !== undefined && (typeof codMun !== 'string' || !/^\d{7}$/.test(codMun))) malformed('pagador.codMun is 7 digits');
  const extra = typeof codMun === 'string' ? { codMun } : {};
  if (typeof input.cpf === 'string' && CPF_PATTERN.test(input.cpf) && input.cnpj === undefined) return { ispbParticipante: input.ispbParticipante, cpf: input.cpf, ...extra };
  if (typeof input.cnpj === 'string' && CNPJ_PATTERN.test(input.cnpj) && input.cpf === undefined) return { ispbParticipante: input.ispbParticipante, cnpj: input.cnpj, ...extra };
  return malformed('pagador has exactly one of cpf (11 digits) and cnpj (14 [0-9A-Z])');
}

/** The payer of a QR journey when the control call names none: the recurrence's debtor at the fake's payer bank. */
function defaultPagador(record: RecRecord): PagadorRec {
  const { devedor } = record.vinculo;
  return devedor.cpf !== undefined ? { ispbParticipante: PAYER_ISPB, cpf: devedor.cpf } : { ispbParticipante: PAYER_ISPB, cnpj: devedor.cnpj };
}

/** `{codigo: AP13|AP14, descricao?}` of a rejection (the document gives no meaning for the codes: a neutral text). */
function rejectionOf(input: unknown): { codigo: string; descricao: string } {
  const body = isObject(input) ? input : {};
  if (typeof body.codigo !== 'string' || !REC_REJECTION_CODES.includes(body.codigo)) malformed(`codigo is one of ${REC_REJECTION_CODES.join(', ')}`);
  if (body.descricao !== undefined && (typeof body.descricao !== 'string' || body.descricao.length > 400)) malformed('descricao holds at most 400 characters');
  return { codigo: body.codigo as string, descricao: typeof body.descricao === 'string' ? body.descricao : `Recorrência rejeitada pelo PSP pagador (${body.codigo as string})` };
}

/** Efí's webhook errors and the standard's, for `PUT /webhookrec` and `PUT /webhookcobr`. */
export function webhookRefusal(profile: FakePspProfile, type: 'WebhookRecOperacaoInvalida' | 'WebhookCobROperacaoInvalida'): Reply {
  return profile === 'efi'
    ? efiError(400, 'valor_invalido', 'webhookUrl deve ser uma URL https.')
    : problem(400, type, 'the webhook request is invalid', [{ razao: 'O campo webhookUrl não respeita o schema.', propriedade: 'webhookUrl' }]);
}
