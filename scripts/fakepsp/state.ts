/**
 * What the fake provider holds: charges (cob), received Pix and their refunds, sends (Efí's Pix send) and
 * their returns, the webhook of PixGate's key, and the balance. Every rule here is a rule of
 * psp-protocols.md; a refusal throws `FakePspError` with the body a real provider would answer.
 *
 * Money (`balanceCents`, `GET /v2/gn/saldo`): what the provider holds for PixGate, from 0 at start.
 *   + a received Pix (paid cob or a Pix not tied to a cob), when it is received;
 *   + a return of one of our sends (the receiver's bank gives money back), when it is made;
 *   − a send, when it becomes REALIZADO (a send the balance cannot cover ends NAO_REALIZADO, AM04);
 *   − a refund, when it becomes DEVOLVIDO (one the balance cannot cover ends NAO_REALIZADO);
 *   − a devolução the provider makes itself (MED, or one made outside the API), at once, even below zero;
 *   ± a reconciliation knob (a Pix forgotten or its amount changed, a send's outcome changed, a fee charged).
 * Nothing moves while a send or a refund is EM_PROCESSAMENTO, so a ledger that counts in-flight items as
 * still held compares equal with it after every run. `GET /v2/gn/saldo` answers the free balance in `saldo`
 * and what open MED infractions block in `bloqueios.med` (their sum is what the provider holds).
 *
 * Callbacks (`notify`): a received Pix, a refund reaching DEVOLVIDO / NAO_REALIZADO (the Pix with that one
 * refund in `devolucoes`), a MED, a send reaching REALIZADO / NAO_REALIZADO and a return of a send
 * (`tipo: SOLICITACAO`, the return in `devolucoes`). Like Efí, a received Pix without a txid and its
 * refunds are only reported when `pixSemTxid` is on.
 *
 * Charges with a due date (cobvs.ts), their batches (lotes.ts) and payload locations (locations.ts) share the
 * txids and the locations with cobs: one txid names one charge. A cobv is paid by `payCobv` with the amount
 * the payer's bank worked out (the fake does not check it: PixGate decides whether it matches), on a
 * `horario` up to its last payable day; the received Pix is like a cob's (listed, read, called back,
 * refundable).
 *
 * Pix Automático (recs.ts: `rec`, `solicrec`, `locrec`, webhookrec; cobrs.ts: `cobr`, webhookcobr) shares the
 * txids with the charges above; a paid cobr's Pix is received here (`receiveRecurring`: the attempt's
 * `endToEndId`, listed, read, refundable like any), reported by webhookcobr rather than the key's webhook.
 *
 * The standard profile (`options.profile`) shows a received Pix as the standard's `Pix` alone (no Efí
 * `gnExtras`), and its listing omits the `pix` array on a page that holds none (`PixConsultados` does not
 * require it) and counts at least one page (`Paginacao.quantidadeDePaginas`, minimum 1).
 */
import { generateEndToEndId } from '../../src/primitives/endToEndId.ts';
import { randomHex } from '../../src/primitives/random.ts';
import { FakeDict, type KeyOwner, receiverOf } from './dict.ts';
import { problem, refuse } from './replies.ts';
import { type RefundRecord, refundView } from './refund.ts';
import { CobBook } from './cobs.ts';
import { CobVBook } from './cobvs.ts';
import { CobRBook } from './cobrs.ts';
import { RecBook } from './recs.ts';
import type { CobRNotification, RecNotification } from './recurrenceTypes.ts';
import { InfractionBook } from './infractions.ts';
import { LocationBook } from './locations.ts';
import { LoteBook } from './lotes.ts';
import { SendBook } from './sends.ts';
import type { Clock, Cob, CobsVConsultadas, CobV, Devolucao, EnvioAceito, FakePspProfile, ItemCallback, Pagador, Pix, PixConsultados, PixEnviado, Recebedor, Saldo, Webhook } from './types.ts';
import { DAY_MS, ID_PATTERN, isObject, iso, parseHorario, valorCents, valorText } from './values.ts';

export interface StateOptions {
  profile: FakePspProfile;
  pixKey: string;
  ispb: string;
  clock: Clock;
  autoSettleMs: number | null;
  pixSemTxid: boolean;
  notify(item: ItemCallback): void;
  /** A webhookrec item (recs.ts). */
  notifyRec(item: RecNotification): void;
  /** A webhookcobr item (cobrs.ts). */
  notifyCobr(item: CobRNotification): void;
}

interface PixRecord {
  endToEndId: string;
  txid?: string;
  valorCents: number;
  horarioMs: number;
  pagador: Pagador;
  infoPagador?: string;
  refunds: RefundRecord[];
}

/** Refunds are allowed for 90 days after the Pix (psp-protocols.md section 6). */
const REFUND_WINDOW_MS = 90 * DAY_MS;
const MOTIVO_MAX = 140;
const INFO_PAGADOR_MAX = 140;
const DEFAULT_PAGADOR: Pagador = { nome: 'Maria Pagadora da Silva', cpf: '12345678909', codigoBanco: '99999001', agencia: '0001', conta: '1234567-8' };

export class FakePspState {
  readonly options: StateOptions;
  readonly dict = new FakeDict();
  readonly locations: LocationBook;
  readonly cobs: CobBook;
  readonly cobvs: CobVBook;
  readonly lotes: LoteBook;
  readonly sends: SendBook;
  readonly infractions: InfractionBook;
  readonly recs: RecBook;
  readonly cobrs: CobRBook;
  private readonly pix = new Map<string, PixRecord>();
  /** Pix the provider no longer lists nor reads (a reconciliation knob: credited, unknown to the provider). */
  private readonly forgotten = new Set<string>();
  private webhook: Webhook | undefined;
  private balance = 0;

  constructor(options: StateOptions) {
    this.options = options;
    this.locations = new LocationBook(options);
    const { pixKey, clock, profile } = options;
    this.cobs = new CobBook({ pixKey, clock, profile, locations: this.locations, txidElsewhere: (txid) => this.cobvs.has(txid) || this.lotes.holds(txid) || this.cobrs.has(txid) });
    this.cobvs = new CobVBook({ pixKey, clock, profile, locations: this.locations, cobHas: (txid) => this.cobs.has(txid) || this.cobrs.has(txid), loteStatus: (txid) => this.lotes.statusOf(txid) });
    this.lotes = new LoteBook({ clock, profile, cobvs: this.cobvs, txidInUse: (txid) => this.cobs.has(txid) || this.cobvs.has(txid) });
    this.recs = new RecBook({
      clock,
      profile,
      ispb: options.ispb,
      notify: (item) => options.notifyRec(item),
      chargeBrCode: (txid) => this.chargeBrCode(txid),
      onClosed: (record) => this.cobrs.recClosed(record),
    });
    this.cobrs = new CobRBook({
      clock,
      profile,
      ispb: options.ispb,
      recs: this.recs,
      notify: (item) => options.notifyCobr(item),
      txidElsewhere: (txid) => this.cobs.has(txid) || this.cobvs.has(txid) || this.lotes.holds(txid),
      receive: (horarioMs, cents, txid, endToEndId) => {
        this.receive(horarioMs, cents, txid, { silent: true }, endToEndId);
      },
      pixOf: (e2eid) => this.chargePix(e2eid),
    });
    this.sends = new SendBook(options, {
      debit: (cents) => this.debit(cents),
      credit: (cents) => {
        this.balance += cents;
      },
      id: (kind, atMs) => this.newId(kind, atMs),
      owner: (chave, favorecido) => this.dict.resolve(chave, favorecido),
      receiver: (chave, owner: KeyOwner): Recebedor => receiverOf(chave, owner),
    });
    this.infractions = new InfractionBook({
      clock: options.clock,
      returnable: (e2eid) => {
        const pix = this.pix.get(e2eid);
        return pix === undefined ? undefined : pix.valorCents - refundedCents(pix);
      },
      devolveMed: (e2eid, cents, id) => {
        this.devolve(e2eid, { valor: valorText(cents), natureza: 'MED_FRAUDE', id });
      },
    });
  }

  private now(): number {
    return this.options.clock.now();
  }

  private newId(kind: 'E' | 'D', atMs: number): string {
    return generateEndToEndId({ ispb: this.options.ispb, atMs, kind });
  }

  /** Takes `cents` out of the free balance (what MED does not block) when it covers them; false (nothing moved) when it does not. */
  private debit(cents: number): boolean {
    if (this.balance - this.infractions.blockedCents() < cents) return false;
    this.balance -= cents;
    return true;
  }

  balanceCents(): number {
    return this.balance;
  }

  /** `GET /v2/gn/saldo`: the free balance, and what MED infractions block apart from it. */
  saldo(): Saldo {
    const med = this.infractions.blockedCents();
    return { saldo: valorText(this.balance - med), bloqueios: { judicial: '0.00', med: valorText(med), total: valorText(med) } };
  }

  /** A reconciliation knob: the provider takes (or gives) money no record explains (a fee, an interest). */
  adjustBalance(cents: unknown): number {
    if (typeof cents !== 'number' || !Number.isSafeInteger(cents) || cents === 0) refuse(problem(400, 'OperacaoInvalida', 'cents is a non-zero integer'));
    this.balance += cents as number;
    return this.balance;
  }

  counts(): { cobs: number; cobvs: number; lotescobv: number; locs: number; recs: number; cobsr: number; pix: number; envios: number; devolucoes: number } {
    let devolucoes = 0;
    for (const pix of this.pix.values()) devolucoes += pix.refunds.length;
    return {
      cobs: this.cobs.size,
      cobvs: this.cobvs.size,
      lotescobv: this.lotes.size,
      locs: this.locations.size,
      recs: this.recs.size,
      cobsr: this.cobrs.size,
      pix: this.pix.size,
      envios: this.sends.size,
      devolucoes,
    };
  }

  /** A cob's or a cobv's BR Code (with its kind), for a recurrence's composite QR code (recs.ts `dadosQR`). */
  private chargeBrCode(txid: string): { tipo: 'cob' | 'cobv'; pixCopiaECola?: string } | undefined {
    if (this.cobs.has(txid)) {
      const cob = this.readCob(txid);
      return cob.pixCopiaECola === undefined ? { tipo: 'cob' } : { tipo: 'cob', pixCopiaECola: cob.pixCopiaECola };
    }
    if (this.cobvs.has(txid)) {
      const cobv = this.readCobv(txid, null);
      return cobv.pixCopiaECola === undefined ? { tipo: 'cobv' } : { tipo: 'cobv', pixCopiaECola: cobv.pixCopiaECola };
    }
    return undefined;
  }

  /** Processes the batches' requests (unless held) and settles what `autoSettleMs` says is due by now (called on every request and by a timer). */
  sweep(): void {
    this.lotes.process();
    this.recs.sweep(this.now());
    const after = this.options.autoSettleMs;
    if (after === null) return;
    const dueBefore = this.now() - after;
    this.sends.settleDue(dueBefore);
    for (const pix of this.pix.values()) {
      for (const refund of pix.refunds) {
        if (refund.status === 'EM_PROCESSAMENTO' && refund.solicitacaoMs <= dueBefore) this.finishRefund(pix, refund, 'settle');
      }
    }
  }

  // ---- received Pix ----------------------------------------------------------------------------------

  /** A payer pays the cob (a `valor` differing from the cob's is the "wrong amount" knob; `silent`: no callback). */
  pay(txid: string, input: unknown = {}): Pix {
    const { valor, ...payer } = payerInput(input);
    const nowMs = this.now();
    const cob = this.cobs.payable(txid, nowMs);
    const record = this.receive(nowMs, valor ?? cob.valorCents, txid, payer);
    this.cobs.markPaid(cob, record.endToEndId);
    return this.pixView(record);
  }

  /** A Pix not tied to any cob of ours (no txid, or one we never issued). */
  receivePix(input: unknown): Pix {
    const { valor, ...payer } = payerInput(input);
    const txid = isObject(input) ? input.txid : undefined;
    if (valor === undefined) refuse(problem(400, 'OperacaoInvalida', 'valor is required: a positive amount like "10.00"'));
    if (txid !== undefined && (typeof txid !== 'string' || !ID_PATTERN.test(txid))) refuse(problem(400, 'OperacaoInvalida', 'txid must be 1-35 alphanumerics'));
    if (typeof txid === 'string' && this.cobs.has(txid)) refuse(problem(409, 'OperacaoInvalida', `txid ${txid} is a cob of ours: pay it instead`));
    if (typeof txid === 'string' && this.cobvs.has(txid)) refuse(problem(409, 'OperacaoInvalida', `txid ${txid} is a cobv of ours: pay it with payCobv instead`));
    return this.pixView(this.receive(this.now(), valor as number, txid, payer));
  }

  /**
   * A payer pays the cobv: `valor` (required: what the payer's bank worked out; any amount) on `horario`
   * (RFC 3339, default now), which must fall, in America/Sao_Paulo, on or before the cobv's last payable day.
   */
  payCobv(txid: string, input: unknown): Pix {
    const { valor, ...payer } = payerInput(input);
    if (valor === undefined) refuse(problem(400, 'OperacaoInvalida', 'valor is required: the amount the payer pays, like "10.00" (the fake does not work it out)'));
    const horario = isObject(input) ? input.horario : undefined;
    const horarioMs = horario === undefined ? this.now() : (parseHorario(horario) ?? refuse(problem(400, 'OperacaoInvalida', 'horario must be an RFC 3339 date-time')));
    const cobv = this.cobvs.payable(txid, horarioMs);
    const record = this.receive(horarioMs, valor as number, txid, payer);
    this.cobvs.markPaid(cobv, record.endToEndId);
    return this.pixView(record);
  }

  private receive(nowMs: number, cents: number, txid: string | undefined, payer: Omit<PayerInput, 'valor'>, endToEndId?: string): PixRecord {
    const record: PixRecord = { endToEndId: endToEndId ?? this.newId('E', nowMs), valorCents: cents, horarioMs: nowMs, pagador: payer.pagador ?? { ...DEFAULT_PAGADOR }, refunds: [] };
    if (txid !== undefined) record.txid = txid;
    if (payer.infoPagador !== undefined) record.infoPagador = payer.infoPagador;
    this.pix.set(record.endToEndId, record);
    this.balance += cents;
    if (payer.silent !== true && this.reported(record)) this.options.notify({ ...this.pixView(record) });
    return record;
  }

  /** A reconciliation knob: the provider loses a Pix (its reads answer 404, its listing leaves it out, its money is not held). */
  forgetPix(e2eid: string): void {
    const record = this.pixRecord(e2eid);
    this.forgotten.add(e2eid);
    this.balance -= record.valorCents - refundedCents(record);
  }

  /** A reconciliation knob: the provider's record of a Pix says another amount (its balance follows). */
  alterPixAmount(e2eid: string, valor: unknown): Pix {
    const record = this.pixRecord(e2eid);
    const cents = valorCents(valor) ?? refuse(problem(400, 'OperacaoInvalida', 'valor must be a positive amount like "10.00"'));
    this.balance += cents - record.valorCents;
    record.valorCents = cents;
    return this.pixView(record);
  }

  private reported(record: PixRecord): boolean {
    return record.txid !== undefined || this.options.pixSemTxid;
  }

  pixView(record: PixRecord, only?: RefundRecord): Pix {
    const view: Pix = { endToEndId: record.endToEndId, valor: valorText(record.valorCents), chave: this.options.pixKey, horario: iso(record.horarioMs) };
    if (record.txid !== undefined) view.txid = record.txid;
    if (record.infoPagador !== undefined) view.infoPagador = record.infoPagador;
    const refunds = only ? [only] : record.refunds;
    if (refunds.length > 0) view.devolucoes = refunds.map(refundView);
    // Efí's extension: the payer (the standard's Pix has had no payer since 2.1).
    if (this.options.profile === 'efi') view.gnExtras = { pagador: { ...record.pagador } };
    return view;
  }

  private pixRecord(e2eid: string): PixRecord {
    const record = this.forgotten.has(e2eid) ? undefined : this.pix.get(e2eid);
    return record ?? refuse(problem(404, 'PixNaoEncontrado', `no Pix ${e2eid}`));
  }

  readPix(e2eid: string): Pix {
    return this.pixView(this.pixRecord(e2eid));
  }

  readCob(txid: string): Cob {
    return this.cobs.read(txid, (e2eid) => this.readPix(e2eid));
  }

  /** A Pix of a charge, unless the provider forgot it. */
  private chargePix = (e2eid: string): Pix | undefined => {
    const record = this.forgotten.has(e2eid) ? undefined : this.pix.get(e2eid);
    return record === undefined ? undefined : this.pixView(record);
  };

  readCobv(txid: string, revisao: string | null): CobV {
    return this.cobvs.read(txid, revisao, this.chargePix);
  }

  listCobv(query: URLSearchParams): CobsVConsultadas {
    return this.cobvs.list(query, this.chargePix);
  }

  /** `DELETE {base}/loc/{id}/txid`: the charge at the location forgets it. */
  unbindLocation(id: string): ReturnType<LocationBook['unbind']> {
    return this.locations.unbind(id, (txid, tipoCob) => (tipoCob === 'cob' ? this.cobs.unlink(txid) : this.cobvs.unlink(txid)));
  }

  /** `GET /v2/pix`: by horario, inclusive bounds, pages from 0 (psp-protocols.md section 5). */
  listPix(query: URLSearchParams): PixConsultados {
    const invalid = (detail: string): never => refuse(problem(400, 'PixConsultaInvalida', detail));
    const inicio = query.get('inicio');
    const fim = query.get('fim');
    const inicioMs = parseHorario(inicio);
    const fimMs = parseHorario(fim);
    if (inicio === null || inicioMs === undefined) invalid('inicio is required, an RFC 3339 date-time');
    if (fim === null || fimMs === undefined) invalid('fim is required, an RFC 3339 date-time');
    if ((fimMs as number) < (inicioMs as number)) invalid('fim is before inicio');
    const page = pageNumber(query.get('paginacao.paginaAtual'), 0, 0, Number.MAX_SAFE_INTEGER) ?? invalid('paginacao.paginaAtual must be an integer >= 0');
    const perPage = pageNumber(query.get('paginacao.itensPorPagina'), 100, 1, 1000) ?? invalid('paginacao.itensPorPagina must be 1..1000');
    const txid = query.get('txid');
    if (txid !== null && !ID_PATTERN.test(txid)) invalid('txid must be 1-35 alphanumerics');
    const matching = [...this.pix.values()]
      .filter((pix) => !this.forgotten.has(pix.endToEndId))
      .filter((pix) => pix.horarioMs >= (inicioMs as number) && pix.horarioMs <= (fimMs as number) && (txid === null || pix.txid === txid))
      .sort((a, b) => a.horarioMs - b.horarioMs);
    const total = matching.length;
    const standard = this.options.profile === 'standard';
    const pages = Math.ceil(total / perPage);
    const listing: PixConsultados = {
      parametros: {
        inicio: inicio as string,
        fim: fim as string,
        paginacao: { paginaAtual: page, itensPorPagina: perPage, quantidadeDePaginas: standard ? Math.max(1, pages) : pages, quantidadeTotalDeItens: total },
      },
      pix: matching.slice(page * perPage, (page + 1) * perPage).map((pix) => this.pixView(pix)),
    };
    if (standard && listing.pix?.length === 0) delete listing.pix;
    return listing;
  }

  // ---- refunds ---------------------------------------------------------------------------------------

  requestDevolucao(e2eid: string, id: string, body: unknown): Devolucao {
    const pix = this.pixRecord(e2eid);
    const invalid = (detail: string): never => refuse(problem(400, 'PixDevolucaoInvalida', detail));
    if (!ID_PATTERN.test(id)) invalid('id must be 1-35 alphanumerics');
    if (!isObject(body)) invalid('the body must be a JSON object');
    const request = body as Record<string, unknown>;
    const cents = valorCents(request.valor) ?? invalid('valor must be a positive amount like "10.00"');
    const natureza = request.natureza ?? 'ORIGINAL';
    if (natureza !== 'ORIGINAL' && natureza !== 'RETIRADA') invalid('natureza must be ORIGINAL or RETIRADA');
    if (request.descricao !== undefined && (typeof request.descricao !== 'string' || request.descricao.length > 140)) invalid('descricao holds at most 140 characters');
    if (pix.refunds.some((refund) => refund.id === id)) invalid(`refund id ${id} was used already for this Pix`);
    if (refundedCents(pix) + cents > pix.valorCents) invalid('the refunds would total more than the Pix');
    const nowMs = this.now();
    if (nowMs > pix.horarioMs + REFUND_WINDOW_MS) invalid('a Pix can only be refunded within 90 days');
    const refund: RefundRecord = { id, rtrId: this.newId('D', nowMs), valorCents: cents, natureza: natureza as string, status: 'EM_PROCESSAMENTO', solicitacaoMs: nowMs };
    if (typeof request.descricao === 'string') refund.descricao = request.descricao;
    pix.refunds.push(refund);
    return refundView(refund);
  }

  private refundRecord(e2eid: string, id: string): { pix: PixRecord; refund: RefundRecord } {
    const pix = this.pixRecord(e2eid);
    const refund = pix.refunds.find((candidate) => candidate.id === id) ?? refuse(problem(404, 'PixDevolucaoNaoEncontrada', `no refund ${id} of ${e2eid}`));
    return { pix, refund };
  }

  readDevolucao(e2eid: string, id: string): Devolucao {
    return refundView(this.refundRecord(e2eid, id).refund);
  }

  settleDevolucao(e2eid: string, id: string): Devolucao {
    const { pix, refund } = this.pendingRefund(e2eid, id);
    return this.finishRefund(pix, refund, 'settle');
  }

  rejectDevolucao(e2eid: string, id: string, motivo: unknown): Devolucao {
    if (typeof motivo !== 'string' || motivo === '') refuse(problem(400, 'OperacaoInvalida', 'motivo is required'));
    const { pix, refund } = this.pendingRefund(e2eid, id);
    return this.finishRefund(pix, refund, 'reject', motivo);
  }

  private pendingRefund(e2eid: string, id: string): { pix: PixRecord; refund: RefundRecord } {
    const found = this.refundRecord(e2eid, id);
    if (found.refund.status !== 'EM_PROCESSAMENTO') refuse(problem(409, 'OperacaoInvalida', `refund ${id} is ${found.refund.status} already`));
    return found;
  }

  private finishRefund(pix: PixRecord, refund: RefundRecord, outcome: 'settle' | 'reject', motivo?: string): Devolucao {
    const nowMs = this.now();
    if (outcome === 'settle' && this.debit(refund.valorCents)) {
      refund.status = 'DEVOLVIDO';
      refund.liquidacaoMs = nowMs;
    } else {
      refund.status = 'NAO_REALIZADO';
      refund.motivo = (motivo ?? 'Saldo insuficiente para a devolução').slice(0, MOTIVO_MAX);
    }
    if (this.reported(pix)) this.options.notify({ ...this.pixView(pix, refund) });
    return refundView(refund);
  }

  /**
   * A devolução the provider makes itself, DEVOLVIDO at once: under MED (`MED_OPERACIONAL`, `MED_FRAUDE`,
   * `MED_PIX_AUTOMATICO`: a chargeback), or one the receiver made outside the API (`ORIGINAL`, `RETIRADA`).
   * `id` (default: one of the provider's) is refused when used already on this Pix; devoluções never pass
   * the Pix (refunds in flight counted), unless `force` (a provider that breaks its own rule: PixGate must
   * not pay twice for it). `silent`: no callback (a reconciliation knob).
   */
  devolve(e2eid: string, input: unknown): Devolucao {
    const pix = this.pixRecord(e2eid);
    const body = isObject(input) ? input : {};
    const cents = valorCents(body.valor) ?? refuse(problem(400, 'OperacaoInvalida', 'valor must be a positive amount like "10.00"'));
    const natureza = body.natureza ?? 'MED_OPERACIONAL';
    if (typeof natureza !== 'string' || !NATUREZAS.includes(natureza)) refuse(problem(400, 'OperacaoInvalida', `natureza is one of ${NATUREZAS.join(', ')}`));
    const id = body.id ?? `med${randomHex(8)}`;
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) refuse(problem(400, 'OperacaoInvalida', 'id must be 1-35 alphanumerics'));
    if (pix.refunds.some((refund) => refund.id === id)) refuse(problem(409, 'OperacaoInvalida', `devolução ${id as string} exists already`));
    if (body.force !== true && refundedCents(pix) + cents > pix.valorCents) refuse(problem(409, 'OperacaoInvalida', 'the refunds would total more than the Pix'));
    const nowMs = this.now();
    const refund: RefundRecord = { id: id as string, rtrId: this.newId('D', nowMs), valorCents: cents, natureza: natureza as string, status: 'DEVOLVIDO', solicitacaoMs: nowMs, liquidacaoMs: nowMs };
    pix.refunds.push(refund);
    this.balance -= cents;
    if (body.silent !== true && this.reported(pix)) this.options.notify({ ...this.pixView(pix, refund) });
    return refundView(refund);
  }

  /** A MED devolução (`MED_OPERACIONAL`) of `valor`: a chargeback. */
  med(e2eid: string, valor: unknown): Devolucao {
    return this.devolve(e2eid, { valor, natureza: 'MED_OPERACIONAL' });
  }

  // ---- webhook ---------------------------------------------------------------------------------------

  webhookUrl(): string | undefined {
    return this.webhook?.webhookUrl;
  }

  saveWebhook(chave: string, webhookUrl: string): Webhook {
    this.webhook = { webhookUrl, chave, criacao: iso(this.now()) };
    return { ...this.webhook };
  }

  readWebhook(chave: string): Webhook {
    if (!this.webhook || this.webhook.chave !== chave) refuse(problem(404, 'WebhookNaoEncontrado', `no webhook for ${chave}`));
    return { ...this.webhook };
  }

  deleteWebhook(chave: string): void {
    this.readWebhook(chave);
    this.webhook = undefined;
  }

  // ---- sends -----------------------------------------------------------------------------------------

  sendPix(idEnvio: string, body: unknown): EnvioAceito {
    return this.sends.create(idEnvio, body, this.now());
  }

  readEnvio(idEnvio: string): PixEnviado {
    return this.sends.read(idEnvio);
  }

  readEnvioByEndToEndId(e2eid: string): PixEnviado {
    return this.sends.readByEndToEndId(e2eid);
  }
}

const NATUREZAS = ['ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO'];

function refundedCents(pix: PixRecord): number {
  return pix.refunds.filter((refund) => refund.status !== 'NAO_REALIZADO').reduce((total, refund) => total + refund.valorCents, 0);
}

function pageNumber(text: string | null, fallback: number, min: number, max: number): number | undefined {
  if (text === null) return fallback;
  if (!/^\d{1,15}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

/** What the payer end says of a payment (the control API and `fake.pay`). */
interface PayerInput {
  valor?: number;
  pagador?: Pagador;
  infoPagador?: string;
  silent?: boolean;
}

/** `{valor?, pagador?, infoPagador?, silent?}` of the payer end, checked. */
function payerInput(input: unknown): PayerInput {
  if (input === undefined || input === null) return {};
  if (!isObject(input)) refuse(problem(400, 'OperacaoInvalida', 'the body must be a JSON object'));
  const result: PayerInput = {};
  if (input.silent === true) result.silent = true;
  if (input.infoPagador !== undefined) {
    if (typeof input.infoPagador !== 'string' || input.infoPagador.length > INFO_PAGADOR_MAX) refuse(problem(400, 'OperacaoInvalida', 'infoPagador is a text of at most 140 characters'));
    result.infoPagador = input.infoPagador as string;
  }
  if (input.valor !== undefined) result.valor = valorCents(input.valor) ?? refuse(problem(400, 'OperacaoInvalida', 'valor must be a positive amount like "10.00"'));
  if (input.pagador !== undefined) {
    if (!isObject(input.pagador)) refuse(problem(400, 'OperacaoInvalida', 'pagador must be an object'));
    const pagador: Pagador = {};
    for (const field of ['nome', 'cpf', 'cnpj', 'codigoBanco', 'agencia', 'conta'] as const) {
      const value = input.pagador[field];
      if (value !== undefined) {
        if (typeof value !== 'string') refuse(problem(400, 'OperacaoInvalida', `pagador.${field} must be a string`));
        pagador[field] = value;
      }
    }
    result.pagador = pagador;
  }
  return result;
}

