/**
 * Pix Automático's recurring charges (`cobr`, the standard's tags CobR and WebhookCobR;
 * openapi/upstream/bacen-pix-api-2.9.0.yaml: `CobRSolicitada`, `CobRGerada`, `CobRCompleta`, `CobRTentativas`,
 * `CobsRConsultadas`, `CobRNotification` and the violations listed under `CobROperacaoInvalida`), in both
 * profiles under API Pix's prefix:
 * - `POST {base}/cobr` (the fake picks the txid: 32 hex, as the document's examples) and `PUT {base}/cobr/{txid}`:
 *   201 with the cobr. Only for an APROVADA recurrence; `calendario.dataDeVencimento` not before today (America/
 *   Sao_Paulo); `valor.original`; `recebedor` (`DadosBancariosRecebedor`) must be the fake's account
 *   (`RECEBEDOR_CONTA`); `ajusteDiaUtil` (default true); `devedor` (`DadosDevedorRecorrencia`); `infoAdicional`
 *   (<= 140); one cobr not REJEITADA nor CANCELADA per recurrence per cycle (the cycle of the due date, counted
 *   from the recurrence's `calendario.dataInicial` by its `periodicidade`); a txid in use (a cobr's, a cob's, a
 *   cobv's) is a violation. The cobr is CRIADA, then at once ATIVA: its first attempt (`tentativas[0]`, `tipo:
 *   AGND`, SOLICITADA then AGENDADA, with its `endToEndId`) is scheduled for the due date, moved to the next
 *   business day when `ajusteDiaUtil` (calendar.ts: national holidays only, whatever the payer's municipality).
 * - `GET {base}/cobr/{txid}`, `GET {base}/cobr?inicio&fim` (by creation; `idRec`, `cpf` | `cnpj` of the
 *   recurrence's debtor, `status`, `convenio`, `paginacao.*`).
 * - `PATCH {base}/cobr/{txid}` `{"status": "CANCELADA"}` (200): refused on or after the first attempt's date
 *   (the document's violation); the cobr CANCELADA with `encerramento.cancelamento` `USUARIO_RECEBEDOR` / `SLCR`
 *   (as the document's example `cobRResponse4`), its open attempt CANCELADA.
 * - `POST {base}/cobr/{txid}/retentativa/{data}` (201): a new attempt `tipo: NTAG`, AGENDADA for `data`, only
 *   under `PERMITE_3R_7D`, at most 3, each on a future date up to 7 days after the due date, one open attempt at
 *   a time.
 * - `PUT|GET|DELETE {base}/webhookcobr`: callbacks to `{webhookUrl}/cobr` with `{"cobsr": [...]}` (the body the
 *   document names, `WebhookCobRBody`), one `CobRNotification` per change of a cobr or of one of its attempts
 *   (the scheduling that makes it ATIVA included), with the `pix` array once paid.
 *
 * The payer's bank (control API, control.ts): `pay` (the open attempt PAGA with its `endToEndId`, the cobr
 * CONCLUIDA, a received Pix with the cobr's txid and amount, listed, read and refundable like any; no callback
 * to the key's `/pix` webhook: the Pix of a cobr is reported by webhookcobr, as `CobRNotification.pix`),
 * `refuse` (the open attempt REJEITADA; the cobr too when the code is one the document says rejects the cobr,
 * or when no retry is possible any more), `cancel` (the payer cancels one cycle), `expire`.
 *
 * Where the document is silent, the fake chooses: a cobr for an unknown recurrence, or one not APROVADA, is a
 * `CobROperacaoInvalida` violation on `cobr.idRec`; the limit of 3 retries, the 7-day window and a cobr that is
 * not ATIVA are violations in the document's style (`cobr.tentativas`, `data`, `cobr.status`); a cobr whose
 * recurrence closes (cancelled by either side, rejected, expired) is CANCELADA with `cancelamento.codigo: CCLD`
 * (the enum's code for a cancelled mandate, as the fake reads it) and the recurrence's `solicitante` (else
 * `PSP_RECEBEDOR`); the amount is not checked against `valorRec` (no violation says so); a cobr above the payer's
 * maximum (recs.ts) cannot be paid (409: refuse it with `AM02` instead).
 */
import { generateEndToEndId } from '../../src/primitives/endToEndId.ts';
import { randomHex } from '../../src/primitives/random.ts';
import { addDays, daysBetween, nextBusinessDay, parseDate, saoPauloDate } from './calendar.ts';
import { RECEBEDOR } from './cobvs.ts';
import { listingQuery, page } from './listing.ts';
import { conflict, malformed, type RecBook, type RecRecord } from './recs.ts';
import { problem, refuse, type Violacao } from './replies.ts';
import type { Atualizacao, CobR, CobRNotification, CobRStatus, CobsRConsultadas, ContaRecebedor, DevedorCobR, Periodicidade, PixAutomatico, Solicitante, Tentativa, TentativaStatus, WebhookRecorrencia } from './recurrenceTypes.ts';
import type { Clock, FakePspProfile, Pix } from './types.ts';
import { CNPJ_PATTERN, CPF_PATTERN, TXID_PATTERN, isObject, iso, parseHorario, valorCents, valorText } from './values.ts';

/** The fake's account, the only `cobr.recebedor` it takes (`DadosBancariosRecebedor`). */
export const RECEBEDOR_CONTA: Readonly<ContaRecebedor & { agencia: string }> = { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' };

/** `CobRTentativas.rejeicao.codigo`. */
export const COBR_REJECTION_CODES: readonly string[] = ['AB10', 'AC05', 'AC06', 'AM02', 'AM09', 'DENC', 'DS27', 'DTED', 'DTNT', 'FBRD', 'IRNT', 'MIDI', 'MSUC', 'NIEC', 'NIPA', 'NITX', 'QUNT', 'RC09', 'UDEI'];
/** The attempt's codes that reject the cobr itself (the document, `CobRTentativas.rejeicao.codigo`). */
export const FINAL_REJECTION_CODES: readonly string[] = ['AC05', 'AM09', 'DENC', 'DS27', 'DTED', 'MIDI', 'MSUC', 'NITX', 'RC09'];
/** `CobRAtualizacao.encerramento.cancelamento.codigo`. */
export const COBR_CANCEL_CODES: readonly string[] = ['ACCT', 'BLCK', 'CCLD', 'FAIL', 'OTHR', 'SLBD', 'SLCR'];
const STATUSES: readonly CobRStatus[] = ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'];
const OPEN_ATTEMPT: readonly TentativaStatus[] = ['SOLICITADA', 'AGENDADA'];
const MAX_RETRIES = 3;
const RETRY_WINDOW_DAYS = 7;
const MONTHS: Record<Exclude<Periodicidade, 'SEMANAL'>, number> = { MENSAL: 1, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 };

interface CobRRecord {
  txid: string;
  idRec: string;
  createdAtMs: number;
  dataDeVencimento: string;
  valorCents: number;
  ajusteDiaUtil: boolean;
  recebedor: ContaRecebedor;
  devedor?: DevedorCobR;
  infoAdicional?: string;
  status: CobRStatus;
  atualizacao: Atualizacao<CobRStatus>[];
  encerramento?: CobR['encerramento'];
  tentativas: Tentativa[];
  paidBy?: string;
}

export interface CobRBookOptions {
  clock: Clock;
  profile: FakePspProfile;
  ispb: string;
  recs: RecBook;
  notify(item: CobRNotification): void;
  /** Whether a cob or a cobv holds the txid. */
  txidElsewhere(txid: string): boolean;
  /** Records the received Pix of a paid attempt (listed, read, refundable). */
  receive(horarioMs: number, cents: number, txid: string, endToEndId: string): void;
  /** A received Pix, unless the provider forgot it. */
  pixOf(e2eid: string): Pix | undefined;
}

const invalid = (detail: string, violacoes?: Violacao[]): never => refuse(problem(400, 'CobROperacaoInvalida', detail, violacoes));

/** The cycle of `date` (0 the first) of a recurrence starting on `dataInicial`. */
export function cycleOf(dataInicial: string, periodicidade: Periodicidade, date: string): number {
  if (periodicidade === 'SEMANAL') return Math.floor(daysBetween(dataInicial, date) / 7);
  const [y0, m0, d0] = dataInicial.split('-').map(Number) as [number, number, number];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const months = y * 12 + m - (y0 * 12 + m0) - (d < d0 ? 1 : 0);
  return Math.floor(months / MONTHS[periodicidade]);
}

export class CobRBook {
  private readonly cobrs = new Map<string, CobRRecord>();
  private webhook: WebhookRecorrencia | undefined;
  private readonly options: CobRBookOptions;

  constructor(options: CobRBookOptions) {
    this.options = options;
  }

  get size(): number {
    return this.cobrs.size;
  }

  has(txid: string): boolean {
    return this.cobrs.has(txid);
  }

  private now(): number {
    return this.options.clock.now();
  }

  private today(): string {
    return saoPauloDate(this.now());
  }

  private record(txid: string): CobRRecord {
    return this.cobrs.get(txid) ?? refuse(problem(404, 'CobRNaoEncontrado', `no cobr ${txid}`));
  }

  /** `POST {base}/cobr` (txid undefined: the fake picks it) and `PUT {base}/cobr/{txid}`. */
  create(txid: string | undefined, body: unknown): CobR {
    const violacoes: Violacao[] = [];
    if (txid !== undefined && !TXID_PATTERN.test(txid)) violacoes.push({ razao: 'O campo cobr.txid não respeita o schema.', propriedade: 'cobr.txid', valor: txid });
    else if (txid !== undefined && (this.cobrs.has(txid) || this.options.txidElsewhere(txid))) violacoes.push({ razao: 'O campo cobr.txid encontra-se em uso.', propriedade: 'cobr.txid', valor: txid });
    if (!isObject(body)) return invalid('the body must be a JSON object', [...violacoes, { razao: 'O corpo deve ser um objeto JSON.', propriedade: 'cobr' }]);
    const today = this.today();
    const { idRec, calendario, valor, recebedor, devedor, infoAdicional, ajusteDiaUtil, status } = body;
    if (infoAdicional !== undefined && (typeof infoAdicional !== 'string' || infoAdicional.length > 140)) violacoes.push({ razao: 'O campo cobr.infoAdicional não respeita o schema.', propriedade: 'cobr.infoAdicional' });
    if (status !== undefined) violacoes.push({ razao: 'O campo cobr.status não respeita o schema.', propriedade: 'cobr.status' });
    const due = isObject(calendario) ? calendario.dataDeVencimento : undefined;
    if (parseDate(due) === undefined) violacoes.push({ razao: 'O objeto cobr.calendario não respeita o schema.', propriedade: 'cobr.calendario' });
    else if ((due as string) < today) violacoes.push({ razao: 'O campo cobr.calendario.dataDeVencimento é anterior à data de criação da cobrança.', propriedade: 'cobr.calendario.dataDeVencimento', valor: due as string });
    const cents = isObject(valor) ? valorCents(valor.original) : undefined;
    if (cents === undefined) violacoes.push({ razao: 'O campo cobr.valor não respeita o schema.', propriedade: 'cobr.valor' });
    if (ajusteDiaUtil !== undefined && typeof ajusteDiaUtil !== 'boolean') violacoes.push({ razao: 'O campo cobr.ajusteDiaUtil não respeita o schema.', propriedade: 'cobr.ajusteDiaUtil' });
    const conta = contaOf(recebedor);
    if (conta === undefined) violacoes.push({ razao: 'O objeto cobr.recebedor não respeita o schema.', propriedade: 'cobr.recebedor' });
    else if (conta.conta !== RECEBEDOR_CONTA.conta || (conta.agencia !== undefined && conta.agencia !== RECEBEDOR_CONTA.agencia)) {
      violacoes.push({ razao: 'Os campos cobr.recebedor.conta e cobr.recebedor.agencia correspondem a uma conta que não pertence a este usuário recebedor.', propriedade: 'cobr.recebedor.conta', valor: conta.conta });
    }
    const checkedDevedor = devedor === undefined ? undefined : devedorOf(devedor);
    if (devedor !== undefined && checkedDevedor === undefined) violacoes.push({ razao: 'O objeto cobr.devedor não respeita o schema.', propriedade: 'cobr.devedor' });
    const rec = typeof idRec === 'string' ? this.options.recs.find(idRec) : undefined;
    if (typeof idRec !== 'string' || !/^[a-zA-Z0-9]{29}$/.test(idRec)) violacoes.push({ razao: 'O campo cobr.idRec não respeita o schema.', propriedade: 'cobr.idRec' });
    else if (rec === undefined) violacoes.push({ razao: 'A recorrência referenciada por cobr.idRec inexiste.', propriedade: 'cobr.idRec', valor: idRec });
    else if (rec.status !== 'APROVADA') violacoes.push({ razao: `A recorrência referenciada por cobr.idRec está ${rec.status}: somente uma recorrência APROVADA admite cobranças.`, propriedade: 'cobr.idRec', valor: idRec });
    else if (typeof due === 'string' && parseDate(due) !== undefined && this.openInCycle(rec, due)) {
      violacoes.push({
        razao: 'Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo cobr.idRec com calendario.dataDeVencimento no mesmo ciclo.',
        propriedade: 'cobr.calendario.dataDeVencimento',
        valor: due,
      });
    }
    if (violacoes.length > 0 || rec === undefined || conta === undefined || cents === undefined) return invalid('the recurring charge is invalid', violacoes);
    const nowMs = this.now();
    const record: CobRRecord = {
      txid: txid ?? randomHex(16),
      idRec: rec.idRec,
      createdAtMs: nowMs,
      dataDeVencimento: due as string,
      valorCents: cents,
      ajusteDiaUtil: ajusteDiaUtil !== false,
      recebedor: conta,
      status: 'CRIADA',
      atualizacao: [{ status: 'CRIADA', data: iso(nowMs) }],
      tentativas: [],
    };
    if (checkedDevedor !== undefined) record.devedor = checkedDevedor;
    if (typeof infoAdicional === 'string') record.infoAdicional = infoAdicional;
    this.cobrs.set(record.txid, record);
    // The PSP schedules the first attempt at once: the cobr becomes ATIVA.
    const data = record.ajusteDiaUtil ? nextBusinessDay(record.dataDeVencimento) : record.dataDeVencimento;
    this.schedule(record, 'AGND', data);
    record.status = 'ATIVA';
    record.atualizacao.push({ status: 'ATIVA', data: iso(nowMs) });
    this.options.notify(this.notification(record));
    return this.view(record);
  }

  private openInCycle(rec: RecRecord, due: string): boolean {
    const cycle = cycleOf(rec.calendario.dataInicial, rec.calendario.periodicidade, due);
    for (const record of this.cobrs.values()) {
      if (record.idRec !== rec.idRec || record.status === 'REJEITADA' || record.status === 'CANCELADA') continue;
      if (cycleOf(rec.calendario.dataInicial, rec.calendario.periodicidade, record.dataDeVencimento) === cycle) return true;
    }
    return false;
  }

  private schedule(record: CobRRecord, tipo: Tentativa['tipo'], dataLiquidacao: string): Tentativa {
    const nowMs = this.now();
    const data = iso(nowMs);
    const tentativa: Tentativa = {
      dataLiquidacao,
      tipo,
      status: 'AGENDADA',
      endToEndId: generateEndToEndId({ ispb: this.options.ispb, atMs: nowMs, kind: 'E' }),
      atualizacao: [
        { status: 'SOLICITADA', data },
        { status: 'AGENDADA', data },
      ],
    };
    record.tentativas.push(tentativa);
    return tentativa;
  }

  private openAttempt(record: CobRRecord): Tentativa | undefined {
    return record.tentativas.find((tentativa) => OPEN_ATTEMPT.includes(tentativa.status));
  }

  private attemptTo(tentativa: Tentativa, status: TentativaStatus): void {
    tentativa.status = status;
    tentativa.atualizacao.push({ status, data: iso(this.now()) });
  }

  /** The cobr to a final status, its open attempt with it (when given), called back. */
  private finish(record: CobRRecord, status: CobRStatus, attemptStatus?: TentativaStatus, encerramento?: CobR['encerramento']): void {
    const open = this.openAttempt(record);
    if (open !== undefined && attemptStatus !== undefined) this.attemptTo(open, attemptStatus);
    if (encerramento !== undefined) record.encerramento = encerramento;
    record.status = status;
    record.atualizacao.push({ status, data: iso(this.now()) });
  }

  private politica(record: CobRRecord): RecRecord['politicaRetentativa'] {
    return this.options.recs.find(record.idRec)?.politicaRetentativa ?? 'NAO_PERMITE';
  }

  /** `GET {base}/cobr/{txid}`. */
  read(txid: string): CobR {
    return this.view(this.record(txid));
  }

  /** `PATCH {base}/cobr/{txid}`: the receiver cancels. */
  revise(txid: string, body: unknown): CobR {
    const record = this.record(txid);
    if (!isObject(body) || body.status !== 'CANCELADA' || Object.keys(body).length !== 1) {
      return invalid('status can only become CANCELADA', [{ razao: 'O campo cobr.status não respeita o schema.', propriedade: 'cobr.status' }]);
    }
    if (record.status !== 'CRIADA' && record.status !== 'ATIVA') {
      return invalid(`the cobr is ${record.status}`, [{ razao: `A cobrança está ${record.status} e não pode ser cancelada.`, propriedade: 'cobr.status', valor: record.status }]);
    }
    const first = record.tentativas[0];
    if (first !== undefined && this.today() >= first.dataLiquidacao) {
      const razao = 'Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.';
      return invalid(razao, [{ razao, propriedade: 'cobr.status', valor: first.dataLiquidacao }]);
    }
    this.finish(record, 'CANCELADA', 'CANCELADA', { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento de agendamento solicitado pelo usuário recebedor' } });
    this.options.notify(this.notification(record));
    return this.view(record);
  }

  /** `POST {base}/cobr/{txid}/retentativa/{data}`: 201. */
  retry(txid: string, data: string): CobR {
    const record = this.record(txid);
    const violacoes: Violacao[] = [];
    if (parseDate(data) === undefined) return invalid('data is a date YYYY-MM-DD', [{ razao: 'O parâmetro data não respeita o schema.', propriedade: 'data', valor: data }]);
    if (record.status !== 'ATIVA') violacoes.push({ razao: `A cobrança está ${record.status}: somente uma cobrança ATIVA admite retentativa.`, propriedade: 'cobr.status', valor: record.status });
    if (this.politica(record) !== 'PERMITE_3R_7D') violacoes.push({ razao: 'A política configurada na recorrência não permite retentativa de cobrança.', propriedade: 'politicaRetentativa', valor: this.politica(record) });
    if (this.openAttempt(record) !== undefined) violacoes.push({ razao: 'Existe uma tentativa com status SOLICITADA ou AGENDADA.', propriedade: 'cobr.tentativas' });
    if (data <= this.today()) violacoes.push({ razao: 'O parâmetro data não corresponde a uma data futura.', propriedade: 'data', valor: data });
    if (record.tentativas.filter((tentativa) => tentativa.tipo === 'NTAG').length >= MAX_RETRIES) {
      violacoes.push({ razao: `A cobrança já recebeu ${MAX_RETRIES} retentativas, o máximo que a política PERMITE_3R_7D admite.`, propriedade: 'cobr.tentativas' });
    }
    if (data > addDays(record.dataDeVencimento, RETRY_WINDOW_DAYS)) {
      violacoes.push({ razao: `O parâmetro data ultrapassa ${RETRY_WINDOW_DAYS} dias após a data de vencimento da cobrança.`, propriedade: 'data', valor: data });
    }
    if (violacoes.length > 0) return invalid(violacoes[0]?.razao ?? 'the retry is invalid', violacoes);
    this.schedule(record, 'NTAG', data);
    this.options.notify(this.notification(record));
    return this.view(record);
  }

  /** `GET {base}/cobr`. */
  list(query: URLSearchParams): CobsRConsultadas {
    const consulta = (detail: string): never => refuse(problem(400, 'CobRConsultaInvalida', detail));
    const listing = listingQuery(query, consulta);
    const idRec = query.get('idRec');
    const cpf = query.get('cpf');
    const cnpj = query.get('cnpj');
    const status = query.get('status');
    const convenio = query.get('convenio');
    if (idRec !== null && !/^[a-zA-Z0-9]{29}$/.test(idRec)) consulta('idRec must be 29 alphanumerics');
    if (cpf !== null && cnpj !== null) consulta('cpf and cnpj cannot be used together');
    if (cpf !== null && !CPF_PATTERN.test(cpf)) consulta('cpf must be 11 digits');
    if (cnpj !== null && !CNPJ_PATTERN.test(cnpj)) consulta('cnpj must be 14 characters [0-9A-Z]');
    if (status !== null && !STATUSES.includes(status as CobRStatus)) consulta(`status is one of ${STATUSES.join(', ')}`);
    if (convenio !== null && convenio.length > 60) consulta('convenio holds at most 60 characters');
    const matching = [...this.cobrs.values()].filter((record) => {
      const rec = this.options.recs.find(record.idRec);
      return (
        record.createdAtMs >= listing.inicioMs &&
        record.createdAtMs <= listing.fimMs &&
        (idRec === null || record.idRec === idRec) &&
        (cpf === null || rec?.vinculo.devedor.cpf === cpf) &&
        (cnpj === null || rec?.vinculo.devedor.cnpj === cnpj) &&
        (status === null || record.status === status) &&
        (convenio === null || rec?.convenio === convenio)
      );
    });
    const { items, paginacao } = page(matching, listing, this.options.profile);
    const parametros: CobsRConsultadas['parametros'] = { inicio: listing.inicio, fim: listing.fim, paginacao };
    if (idRec !== null) parametros.idRec = idRec;
    if (cpf !== null) parametros.cpf = cpf;
    if (cnpj !== null) parametros.cnpj = cnpj;
    if (status !== null) parametros.status = status;
    if (convenio !== null) parametros.recebedor = { convenio };
    return { parametros, cobsr: items.map((record) => this.view(record)) };
  }

  // ---- the payer's bank (control API) ------------------------------------------------------------------

  private active(txid: string): { record: CobRRecord; open: Tentativa } {
    const record = this.record(txid);
    if (record.status !== 'ATIVA') conflict(`the cobr is ${record.status}`);
    const open = this.openAttempt(record) ?? conflict('the cobr has no scheduled attempt: ask for a retry (retentativa) first');
    return { record, open };
  }

  /** `POST /_fake/cobr/:txid/pay` `{horario?, silent?}`. */
  pay(txid: string, input: unknown): CobR {
    const body = isObject(input) ? input : {};
    const horarioMs = body.horario === undefined ? this.now() : (parseHorario(body.horario) ?? malformed('horario must be an RFC 3339 date-time'));
    const { record, open } = this.active(txid);
    const maximum = this.options.recs.find(record.idRec)?.valorMaximoCents;
    if (maximum !== undefined && record.valorCents > maximum) conflict(`the cobr's ${valorText(record.valorCents)} is above the payer's maximum ${valorText(maximum)}: refuse it (AM02) instead`);
    this.attemptTo(open, 'PAGA');
    record.paidBy = open.endToEndId;
    record.status = 'CONCLUIDA';
    record.atualizacao.push({ status: 'CONCLUIDA', data: iso(this.now()) });
    this.options.receive(horarioMs, record.valorCents, record.txid, open.endToEndId);
    if (body.silent !== true) this.options.notify(this.notification(record));
    return this.view(record);
  }

  /** `POST /_fake/cobr/:txid/refuse` `{codigo, descricao?}`. */
  refuseAttempt(txid: string, input: unknown): CobR {
    const body = isObject(input) ? input : {};
    const codigo = body.codigo;
    if (typeof codigo !== 'string' || !COBR_REJECTION_CODES.includes(codigo)) return malformed(`codigo is one of ${COBR_REJECTION_CODES.join(', ')}`);
    if (body.descricao !== undefined && (typeof body.descricao !== 'string' || body.descricao.length > 400)) malformed('descricao holds at most 400 characters');
    const { record, open } = this.active(txid);
    const rejeicao = { codigo, descricao: typeof body.descricao === 'string' ? body.descricao : `Tentativa de cobrança rejeitada pelo PSP pagador (${codigo})` };
    this.attemptTo(open, 'REJEITADA');
    open.rejeicao = rejeicao;
    const retries = record.tentativas.filter((tentativa) => tentativa.tipo === 'NTAG').length;
    const retryPossible = this.politica(record) === 'PERMITE_3R_7D' && retries < MAX_RETRIES && this.today() < addDays(record.dataDeVencimento, RETRY_WINDOW_DAYS);
    if (FINAL_REJECTION_CODES.includes(codigo) || !retryPossible) this.finish(record, 'REJEITADA', undefined, { rejeicao: { ...rejeicao } });
    this.options.notify(this.notification(record));
    return this.view(record);
  }

  /** `POST /_fake/cobr/:txid/cancel` `{codigo, solicitante?: USUARIO_PAGADOR|PSP_PAGADOR, descricao?}`: the payer cancels this cycle. */
  cancelByPayer(txid: string, input: unknown): CobR {
    const body = isObject(input) ? input : {};
    const solicitante = body.solicitante ?? 'USUARIO_PAGADOR';
    if (solicitante !== 'USUARIO_PAGADOR' && solicitante !== 'PSP_PAGADOR') malformed('solicitante is USUARIO_PAGADOR or PSP_PAGADOR');
    if (typeof body.codigo !== 'string' || !COBR_CANCEL_CODES.includes(body.codigo)) malformed(`codigo is one of ${COBR_CANCEL_CODES.join(', ')}`);
    if (body.descricao !== undefined && (typeof body.descricao !== 'string' || body.descricao.length > 400)) malformed('descricao holds at most 400 characters');
    const record = this.record(txid);
    if (record.status !== 'ATIVA' && record.status !== 'CRIADA') conflict(`the cobr is ${record.status}`);
    const descricao = typeof body.descricao === 'string' ? body.descricao : `Cancelamento de agendamento solicitado pelo ${solicitante === 'PSP_PAGADOR' ? 'PSP pagador' : 'usuário pagador'}`;
    this.finish(record, 'CANCELADA', 'CANCELADA', { cancelamento: { solicitante: solicitante as Solicitante, codigo: body.codigo as string, descricao } });
    this.options.notify(this.notification(record));
    return this.view(record);
  }

  /** `POST /_fake/cobr/:txid/expire`. */
  expire(txid: string): CobR {
    const record = this.record(txid);
    if (record.status !== 'ATIVA' && record.status !== 'CRIADA') conflict(`the cobr is ${record.status}`);
    this.finish(record, 'EXPIRADA', 'EXPIRADA');
    this.options.notify(this.notification(record));
    return this.view(record);
  }

  /** The recurrence closed: its open cobrs are cancelled. */
  recClosed(rec: RecRecord): void {
    const solicitante = rec.encerramento?.cancelamento?.solicitante ?? 'PSP_RECEBEDOR';
    for (const record of this.cobrs.values()) {
      if (record.idRec !== rec.idRec || (record.status !== 'ATIVA' && record.status !== 'CRIADA')) continue;
      this.finish(record, 'CANCELADA', 'CANCELADA', { cancelamento: { solicitante, codigo: 'CCLD', descricao: `Recorrência ${rec.status === 'CANCELADA' ? 'cancelada' : rec.status.toLowerCase()}` } });
      this.options.notify(this.notification(record));
    }
  }

  // ---- views ----------------------------------------------------------------------------------------------

  private pix(record: CobRRecord): PixAutomatico[] {
    if (record.paidBy === undefined) return [];
    const pix = this.options.pixOf(record.paidBy);
    if (pix === undefined) return [];
    const item: PixAutomatico = { endToEndId: pix.endToEndId, txid: record.txid, valor: pix.valor, horario: pix.horario };
    if (pix.infoPagador !== undefined) item.infoPagador = pix.infoPagador;
    if (pix.devolucoes !== undefined && pix.devolucoes.length > 0) item.devolucoes = pix.devolucoes.map((devolucao) => ({ ...devolucao }));
    return [item];
  }

  notification(record: CobRRecord): CobRNotification {
    const item: CobRNotification = {
      idRec: record.idRec,
      txid: record.txid,
      status: record.status,
      atualizacao: record.atualizacao.map((entry) => ({ ...entry })),
      tentativas: structuredClone(record.tentativas),
    };
    if (record.encerramento !== undefined) item.encerramento = structuredClone(record.encerramento);
    const pix = this.pix(record);
    if (pix.length > 0) item.pix = pix;
    return item;
  }

  private view(record: CobRRecord): CobR {
    const cobr: CobR = {
      idRec: record.idRec,
      txid: record.txid,
      calendario: { criacao: saoPauloDate(record.createdAtMs), dataDeVencimento: record.dataDeVencimento },
      valor: { original: valorText(record.valorCents) },
      ajusteDiaUtil: record.ajusteDiaUtil,
      recebedor: { ...record.recebedor, cnpj: RECEBEDOR.cnpj, nome: RECEBEDOR.nome },
      status: record.status,
      politicaRetentativa: this.politica(record),
      atualizacao: record.atualizacao.map((entry) => ({ ...entry })),
      tentativas: structuredClone(record.tentativas),
    };
    if (record.infoAdicional !== undefined) cobr.infoAdicional = record.infoAdicional;
    if (record.devedor !== undefined) cobr.devedor = { ...record.devedor };
    if (record.encerramento !== undefined) cobr.encerramento = structuredClone(record.encerramento);
    const pix = this.pix(record);
    if (pix.length > 0) cobr.pix = pix;
    return cobr;
  }

  // ---- webhookcobr ----------------------------------------------------------------------------------------

  webhookUrl(): string | undefined {
    return this.webhook?.webhookUrl;
  }

  saveWebhook(webhookUrl: string): WebhookRecorrencia {
    this.webhook = { webhookUrl, criacao: iso(this.now()) };
    return { ...this.webhook };
  }

  readWebhook(): WebhookRecorrencia {
    return this.webhook === undefined ? refuse(problem(404, 'NaoEncontrado', 'no webhookcobr is configured')) : { ...this.webhook };
  }

  deleteWebhook(): void {
    this.readWebhook();
    this.webhook = undefined;
  }
}

/** `DadosBancariosRecebedor`. */
function contaOf(recebedor: unknown): ContaRecebedor | undefined {
  if (!isObject(recebedor)) return undefined;
  const { conta, tipoConta, agencia } = recebedor;
  if (typeof conta !== 'string' || conta === '' || conta.length > 20) return undefined;
  if (tipoConta !== 'CORRENTE' && tipoConta !== 'POUPANCA' && tipoConta !== 'PAGAMENTO') return undefined;
  if (agencia !== undefined && (typeof agencia !== 'string' || agencia.length > 4)) return undefined;
  return { conta, tipoConta, ...(typeof agencia === 'string' ? { agencia } : {}) };
}

/** `DadosDevedorRecorrencia.devedor`: `email`, `logradouro` (<= 200), `cidade` (<= 200), `uf` (<= 2), `cep` (<= 8; the document's examples write `89256-140`, 9 characters: the fake takes up to 9). */
function devedorOf(devedor: unknown): DevedorCobR | undefined {
  if (!isObject(devedor)) return undefined;
  const limits = { email: 512, logradouro: 200, cidade: 200, uf: 2, cep: 9 } as const;
  const checked: DevedorCobR = {};
  for (const [field, max] of Object.entries(limits) as [keyof typeof limits, number][]) {
    const value = devedor[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > max) return undefined;
    checked[field] = value;
  }
  return checked;
}
