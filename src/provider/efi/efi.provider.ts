/**
 * `PSP=efi` and `PSP=apipix`: the port spoken as API Pix 2.9.0 (charges, received Pix, refunds) and, on Efí,
 * its send API (payouts), balance and infractions, through EfiTransport (mutual TLS, token, retries,
 * breaker). What differs between the two is the profile's (provider.profiles.ts). Every id sent is derived
 * from PixGate's own (efi.mapping.ts), so a retry never creates a second charge, send or refund upstream,
 * and a repeat refused as a duplicate is read back. What each provider answer becomes: docs/providers.md.
 */
import type { components } from '../../../generated/upstream-types.ts';
import {
  ProviderConfirmationLost,
  ProviderFailure,
  ProviderLacks,
  ProviderRefusedRefund,
  ProviderRejected,
  ProviderTimeout,
  type DevolucaoNature,
  type InfractionDefence,
  type ListedSend,
  type PixProvider,
  type ProviderBalance,
  type ProviderCapabilities,
  type ProviderFact,
  type ProviderInfraction,
  type ProviderRefundStatus,
  type ProviderWithdrawalStatus,
  type ReceivedDevolucao,
  type ReceivedPix,
  type ChargeKind,
  type DueChargeBatchItemState,
  type RegisterChargeInput,
  type RegisterDueChargeInput,
  type RegisteredCharge,
  type RemovedCharge,
  type SendRefundInput,
  type SendWithdrawalInput,
  ProviderRefusedRecurringCharge,
  type ProviderCycleAttempt,
  type ProviderRecurrence,
  type ProviderRecurringCharge,
  type RegisterRecurrenceInput,
  type RegisterRecurringChargeInput,
  type RegisteredRecurrence,
} from '../port.ts';
import { UpstreamUnavailable, type Answer, type EfiTransport } from './efi.client.ts';
import {
  beneficiaryOf,
  cobvDevedorOf,
  cobvValorOf,
  devolucaoIdFor,
  fromValor,
  idEnvioFor,
  partyOf,
  refundIdOfDevolucao,
  refusalOf,
  toValor,
  transactionIdOfEnvio,
  txidFor,
  cobrTxidFor,
  COBR_STATUS,
  PERIODICIDADE,
  POLITICA_RETENTATIVA,
  REC_STATUS,
  SOLICITANTE,
  SOLICREC_STATUS,
  TENTATIVA_STATUS,
  TIPO_JORNADA,
} from './efi.mapping.ts';
import { providerProfile, type ProfileName, type ProviderProfile } from './provider.profiles.ts';
import type { Clock } from '../../platform/clock.ts';
import type { ReceiverAccount } from '../../platform/config.ts';
import type { RecurrenceEndedJson, RecurrenceStatus } from '../../db/schema.ts';
import type { Logger } from '../../platform/logger.ts';

/** A batch item's txid: its transaction's own (see registerDueChargeBatch). */
const batchTxid = (item: RegisterDueChargeInput): string => txidFor({ ...item, externalRef: undefined }, 0, 'due');

type Cob = components['schemas']['Cob'];
type CobV = components['schemas']['CobV'];
type Pix = components['schemas']['Pix'];
type PixEnviado = components['schemas']['PixEnviado'];
type Devolucao = components['schemas']['Devolucao'];
type ItemCallback = components['schemas']['ItemCallback'];
type Infracao = components['schemas']['Infracao'];
type Rec = components['schemas']['Rec'];
type SolicRec = components['schemas']['SolicRec'];
type CobR = components['schemas']['CobR'];
type PayloadLocationRec = components['schemas']['PayloadLocationRec'];

/** A history (`atualizacao[]`) in PixGate's names, oldest first; entries with an unknown status or time are left out. */
function historyOf<S extends string>(entries: unknown, names: Readonly<Record<string, S>>): { status: S; atMs: number }[] {
  if (!Array.isArray(entries)) return [];
  const history: { status: S; atMs: number }[] = [];
  for (const entry of entries as { status?: unknown; data?: unknown }[]) {
    const status = typeof entry?.status === 'string' ? names[entry.status] : undefined;
    const atMs = typeof entry?.data === 'string' ? Date.parse(entry.data) : Number.NaN;
    if (status !== undefined && Number.isFinite(atMs)) history.push({ status, atMs });
  }
  return history.sort((a, b) => a.atMs - b.atMs);
}

/** How a recurrence ended (`encerramento`): the payer's rejection, a cancellation by whoever asked, an expiry. */
function endedOf(status: Exclude<RecurrenceStatus, 'created' | 'approved'>, encerramento: Rec['encerramento']): RecurrenceEndedJson {
  if (status === 'expired') return { reason: 'expired' };
  if (status === 'rejected') {
    const rejeicao = encerramento?.rejeicao;
    return { reason: 'rejected', by: 'payer', ...(rejeicao?.codigo ? { code: rejeicao.codigo } : {}), ...(rejeicao?.descricao ? { description: rejeicao.descricao } : {}) };
  }
  const cancelamento = encerramento?.cancelamento;
  const by = cancelamento?.solicitante === undefined ? undefined : SOLICITANTE[cancelamento.solicitante];
  return {
    reason: 'cancelled',
    ...(by !== undefined ? { by } : {}),
    ...(cancelamento?.codigo ? { code: cancelamento.codigo } : {}),
    ...(cancelamento?.descricao ? { description: cancelamento.descricao } : {}),
  };
}

/** A cobr's attempts (`tentativas[]`), by settlement date (stable): AGND the scheduled one, NTAG or RIFL another. */
function attemptsOf(tentativas: CobR['tentativas']): ProviderCycleAttempt[] {
  const attempts: ProviderCycleAttempt[] = [];
  for (const tentativa of Array.isArray(tentativas) ? tentativas : []) {
    const status = typeof tentativa?.status === 'string' ? TENTATIVA_STATUS[tentativa.status] : undefined;
    if (status === undefined || typeof tentativa.dataLiquidacao !== 'string') continue;
    const rejeicao = tentativa.rejeicao;
    attempts.push({
      date: tentativa.dataLiquidacao,
      kind: tentativa.tipo === 'AGND' ? 'scheduled' : 'retry',
      status,
      ...(status === 'paid' && typeof tentativa.endToEndId === 'string' ? { endToEndId: tentativa.endToEndId } : {}),
      ...(status === 'refused' && rejeicao?.codigo ? { refusal: { code: rejeicao.codigo, description: rejeicao.descricao ?? '' } } : {}),
    });
  }
  return attempts.map((attempt, index) => ({ attempt, index })).sort((a, b) => (a.attempt.date < b.attempt.date ? -1 : a.attempt.date > b.attempt.date ? 1 : a.index - b.index)).map(({ attempt }) => attempt);
}

const NATURES: readonly DevolucaoNature[] = ['ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO'];
const INFRACTION_STATUSES: readonly ProviderInfraction['status'][] = ['ABERTA', 'EM_DEFESA', 'ACEITA', 'REJEITADA', 'CANCELADA_EFI'];

/** A devolução as the read of its Pix lists it (an unknown `natureza` is read as `ORIGINAL`). */
function devolucaoOf(devolucao: Devolucao): ReceivedDevolucao | undefined {
  const amountCents = fromValor(devolucao.valor);
  if (amountCents === undefined || typeof devolucao.id !== 'string') return undefined;
  const refundId = refundIdOfDevolucao(devolucao.id);
  const nature = NATURES.find((candidate) => candidate === devolucao.natureza) ?? 'ORIGINAL';
  const at = Date.parse(devolucao.horario?.liquidacao ?? devolucao.horario?.solicitacao ?? '');
  return {
    id: devolucao.id,
    ...(refundId !== undefined ? { refundId } : {}),
    ...(devolucao.rtrId ? { rtrId: devolucao.rtrId } : {}),
    amountCents,
    nature,
    state: devolucao.status === 'DEVOLVIDO' ? 'returned' : devolucao.status === 'NAO_REALIZADO' ? 'not_returned' : 'processing',
    atMs: Number.isFinite(at) ? at : 0,
  };
}

/** Items of a listing whose envelope the provider may shape its own way (a bare array, or an object holding one). */
function itemsOf<T>(body: unknown, ...keys: string[]): T[] {
  if (Array.isArray(body)) return body as T[];
  if (typeof body !== 'object' || body === null) return [];
  for (const key of keys) {
    const items = (body as Record<string, unknown>)[key];
    if (Array.isArray(items)) return items as T[];
  }
  return [];
}

/** Generations of a txid tried before giving up (each one a charge that could not be reused). */
const MAX_TXID_GENERATIONS = 5;
/** Page size of the received-Pix listing. */
const PAGE_SIZE = 1000;

export interface EfiProviderOptions {
  /** PixGate's own Pix key at the provider: receives the charges, pays the withdrawals. */
  pixKey: string;
  /** ISPB of the provider (in its end-to-end ids). */
  ispb?: string;
  /** Which provider profile it speaks (default efi). */
  profile?: ProfileName;
  /** PSP_RECEIVER_ACCOUNT: the receiver of Pix Automático's charges (`cobr.recebedor`); without it, no recurrences. */
  receiverAccount?: ReceiverAccount | undefined;
}

/** Any answer that is not a success becomes the port's failure vocabulary. */
function unavailable(error: unknown): never {
  if (error instanceof UpstreamUnavailable) {
    if (error.maybeDelivered) throw new ProviderTimeout(error.message);
    throw new ProviderFailure(error.message);
  }
  throw error;
}

export class EfiProvider implements PixProvider {
  readonly name: ProfileName;
  readonly ispb: string;
  readonly capabilities: ProviderCapabilities;
  /** PSP_PIX_KEY: the key of PixGate's charges and of its static QR codes. */
  readonly receivingKey: string;
  private readonly profile: ProviderProfile;
  private readonly pixKey: string;
  private readonly receiverAccount: ReceiverAccount | undefined;
  private readonly transport: EfiTransport;
  private readonly clock: Clock;
  private readonly logger: Logger;

  constructor(transport: EfiTransport, options: EfiProviderOptions, deps: { clock: Clock; logger: Logger }) {
    this.transport = transport;
    this.profile = providerProfile(options.profile ?? 'efi');
    this.name = this.profile.name;
    this.receiverAccount = options.receiverAccount;
    // Pix Automático needs the receiver's account at the provider (`cobr.recebedor`): without it, none.
    this.capabilities = { ...this.profile.capabilities, recurrences: this.profile.capabilities.recurrences && options.receiverAccount !== undefined };
    this.pixKey = options.pixKey;
    this.receivingKey = options.pixKey;
    this.ispb = options.ispb ?? '09089356';
    this.clock = deps.clock;
    this.logger = deps.logger;
  }

  private get api() {
    return this.transport.client;
  }

  /** An answer the operation cannot use: logged with the provider's error type and correlationId. */
  private unexpected(operation: string, answer: Answer<unknown>): ProviderFailure {
    this.logger.warn('payment provider answered what the operation cannot use', {
      operation,
      status: answer.status,
      type: answer.error?.name,
      correlationId: answer.error?.correlationId,
      detail: answer.error?.message?.slice(0, 200),
    });
    return new ProviderFailure(`${operation} answered ${answer.status} ${answer.error?.name ?? ''}`);
  }

  // ---- Charges ------------------------------------------------------------------------------------------

  /**
   * `PUT /cob/{txid}` with a txid derived from the charge (and a generation). A txid in use is a retry of
   * this request (its cob is reused) or a charge that can no longer be (the next generation is tried). On
   * Efí a PUT there answers 409 and changes nothing; on the standard it would revise an ATIVA cob, so the
   * txid is read first and a cob found is never PUT again, and a 400 `CobOperacaoInvalida` (the cob is
   * not ATIVA any more) is read back the same way.
   */
  async registerCharge(input: RegisterChargeInput): Promise<RegisteredCharge> {
    const expiracao = Math.max(1, Math.ceil((input.expiresAtMs - input.createdAtMs) / 1000));
    const valor = toValor(input.amountCents);
    const debtor = input.debtor;
    const devedor = debtor === undefined ? undefined : { nome: debtor.name.slice(0, 200), ...(debtor.documentType === 'cpf' ? { cpf: debtor.document } : { cnpj: debtor.document }) };
    for (let generation = 0; generation < MAX_TXID_GENERATIONS; generation += 1) {
      const txid = txidFor(input, generation);
      if (this.profile.reusedTxid === 'revises') {
        const existing = await this.readCob(txid);
        if (existing) {
          if (this.reusable(existing, valor)) return this.registered(existing);
          continue;
        }
      }
      const created = await this.transport
        .call<Cob>('createCob', true, (init) =>
          this.api.PUT('/v2/cob/{txid}', {
            params: { path: { txid } },
            body: { calendario: { expiracao }, ...(devedor ? { devedor } : {}), valor: { original: valor }, chave: this.pixKey },
            ...init,
          }),
        )
        .catch(unavailable);
      if ((created.status === 201 || created.status === 200) && created.data) return this.registered(created.data);
      if (created.status !== 409 && !(created.status === 400 && created.error?.name === 'CobOperacaoInvalida')) throw this.unexpected('createCob', created);
      // The txid exists: a retry of this request (reuse it) or a charge that can no longer be (next txid).
      // A 400 for a txid nobody holds is this request refused (its body): that is an answer, not a reuse.
      const existing = await this.readCob(txid);
      if (!existing && created.status === 400) throw this.unexpected('createCob', created);
      if (existing && this.reusable(existing, valor)) return this.registered(existing);
    }
    throw new ProviderFailure('createCob: no reusable txid');
  }

  private registered(cob: Pick<Cob | CobV, 'txid' | 'location' | 'loc' | 'pixCopiaECola'>): RegisteredCharge {
    const location = cob.location ?? cob.loc?.location ?? '';
    return { providerRef: cob.txid, locationUrl: location, pixPayload: cob.pixCopiaECola };
  }

  private reusable(cob: Cob, valor: string): boolean {
    if (cob.status !== 'ATIVA' || cob.valor.original !== valor) return false;
    const expiresAtMs = Date.parse(cob.calendario.criacao) + Number(cob.calendario.expiracao) * 1000;
    return Number.isFinite(expiresAtMs) && expiresAtMs > this.clock.now();
  }

  private async readCob(txid: string): Promise<Cob | undefined> {
    const read = await this.transport.call<Cob>('readCob', true, (init) => this.api.GET('/v2/cob/{txid}', { params: { path: { txid } }, ...init })).catch(unavailable);
    if (read.status === 404) return undefined;
    if (read.status !== 200 || !read.data) throw this.unexpected('readCob', read);
    return read.data;
  }

  /**
   * `PUT /cobv/{txid}`, as `registerCharge` does for a cob: the txid derived from the charge (its own scope
   * for an externalRef), read first on the standard, a txid in use reused when it is this request's cobv.
   */
  async registerDueCharge(input: RegisterDueChargeInput): Promise<RegisteredCharge> {
    const body = this.cobvBody(input);
    for (let generation = 0; generation < MAX_TXID_GENERATIONS; generation += 1) {
      const txid = txidFor(input, generation, 'due');
      if (this.profile.reusedTxid === 'revises') {
        const existing = await this.readCobV(txid);
        if (existing) {
          if (this.reusableCobV(existing, body)) return this.registered(existing);
          continue;
        }
      }
      const created = await this.transport
        .call<CobV>('createCobV', true, (init) => this.api.PUT('/v2/cobv/{txid}', { params: { path: { txid } }, body, ...init }))
        .catch(unavailable);
      if ((created.status === 201 || created.status === 200) && created.data) return this.registered(created.data);
      if (created.status !== 409 && !(created.status === 400 && created.error?.name === 'CobVOperacaoInvalida')) throw this.unexpected('createCobV', created);
      const existing = await this.readCobV(txid);
      if (!existing && created.status === 400) throw this.unexpected('createCobV', created);
      if (existing && this.reusableCobV(existing, body)) return this.registered(existing);
    }
    throw new ProviderFailure('createCobV: no reusable txid');
  }

  /**
   * `PUT /lotecobv/{id}`: every item under the txid of its own transaction id, never its externalRef's: the
   * standard refuses a whole batch that names a txid a cobv holds already, and a batch cannot read a txid
   * first. A retried externalRef is matched when the charge is stored (dueChargeBatch.service.ts).
   */
  async registerDueChargeBatch(input: { batchRef: string; description: string; items: RegisterDueChargeInput[] }): Promise<void> {
    const cobsv = input.items.map((item) => ({ txid: batchTxid(item), ...this.cobvBody(item) }));
    const asked = await this.transport
      .call<unknown>('createLoteCobV', true, (init) =>
        this.api.PUT('/v2/lotecobv/{id}', { params: { path: { id: input.batchRef } }, body: { descricao: input.description, cobsv }, ...init }),
      )
      .catch(unavailable);
    if (asked.status !== 202 && asked.status !== 200 && asked.status !== 201) throw this.unexpected('createLoteCobV', asked);
  }

  /** `GET /lotecobv/{id}`, then each `CRIADA` cobv read for its BR Code; an item the batch does not list yet is processing. */
  async readDueChargeBatch(input: { batchRef: string; items: RegisterDueChargeInput[] }): Promise<Map<string, DueChargeBatchItemState>> {
    const read = await this.transport
      .call<components['schemas']['LoteCobVConsultado']>('readLoteCobV', true, (init) => this.api.GET('/v2/lotecobv/{id}', { params: { path: { id: input.batchRef } }, ...init }))
      .catch(unavailable);
    if (read.status !== 200 || !read.data) throw this.unexpected('readLoteCobV', read);
    const byTxid = new Map(read.data.cobsv.map((item) => [item.txid, item]));
    const states = new Map<string, DueChargeBatchItemState>();
    for (const item of input.items) {
      const listed = byTxid.get(batchTxid(item));
      if (listed?.status === 'NEGADA') {
        states.set(item.transactionId, { state: 'refused', problem: listed.problema?.detail ?? listed.problema?.title ?? 'NEGADA' });
      } else if (listed?.status === 'CRIADA') {
        const cobv = await this.readCobV(listed.txid);
        states.set(item.transactionId, cobv ? { state: 'created', charge: this.registered(cobv) } : { state: 'processing' });
      } else {
        states.set(item.transactionId, { state: 'processing' });
      }
    }
    return states;
  }

  /** `PATCH /cobv/{txid}` with the whole request's fields (they replace the cobv's); false when it is no longer ATIVA. */
  async reviseDueCharge(input: RegisterDueChargeInput & { providerRef: string }): Promise<boolean> {
    const { calendario, devedor, valor, solicitacaoPagador } = this.cobvBody(input);
    const txid = input.providerRef;
    const patched = await this.transport
      .call<CobV>('reviseCobV', true, (init) =>
        this.api.PATCH('/v2/cobv/{txid}', {
          params: { path: { txid } },
          body: { calendario, devedor, valor, ...(solicitacaoPagador !== undefined ? { solicitacaoPagador } : {}) },
          ...init,
        }),
      )
      .catch(unavailable);
    if (patched.status === 200) return true;
    if (patched.status === 400 || patched.status === 404) {
      const cobv = await this.readCobV(txid);
      if (cobv && cobv.status !== 'ATIVA') return false;
    }
    throw this.unexpected('reviseCobV', patched);
  }

  private cobvBody(input: RegisterDueChargeInput): components['schemas']['CobVSolicitada'] {
    return {
      calendario: { dataDeVencimento: input.dueDate, validadeAposVencimento: input.daysAfterDue },
      devedor: cobvDevedorOf(input.debtor),
      valor: cobvValorOf(input.amountCents, input.terms),
      chave: this.pixKey,
      ...(input.description !== undefined ? { solicitacaoPagador: input.description } : {}),
    };
  }

  /** A cobv found under the txid is this request's when it is ATIVA with the same amount and due date. */
  private reusableCobV(cobv: CobV, body: components['schemas']['CobVSolicitada']): boolean {
    return cobv.status === 'ATIVA' && cobv.valor.original === body.valor.original && cobv.calendario.dataDeVencimento === body.calendario.dataDeVencimento;
  }

  private async readCobV(txid: string): Promise<CobV | undefined> {
    const read = await this.transport.call<CobV>('readCobV', true, (init) => this.api.GET('/v2/cobv/{txid}', { params: { path: { txid } }, ...init })).catch(unavailable);
    if (read.status === 404) return undefined;
    if (read.status !== 200 || !read.data) throw this.unexpected('readCobV', read);
    return read.data;
  }

  async removeCharge({ providerRef, kind }: { transactionId: string; providerRef: string; kind?: ChargeKind | undefined }): Promise<RemovedCharge> {
    if (kind === 'due') return this.removeCobV(providerRef);
    const txid = providerRef;
    const patched = await this.transport
      .call<Cob>('reviseCob', true, (init) =>
        this.api.PATCH('/v2/cob/{txid}', { params: { path: { txid } }, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, ...init }),
      )
      .catch(unavailable);
    if (patched.status === 200) return { state: 'removed' };
    if (patched.status === 404) return { state: 'not_found' };
    // Not ATIVA any more: paid first, or removed already (a repeat).
    const cob = await this.readCob(txid);
    if (!cob) return { state: 'not_found' };
    if (cob.status === 'CONCLUIDA') return { state: 'paid', endToEndIds: (cob.pix ?? []).map((pix) => pix.endToEndId) };
    return { state: 'removed' };
  }

  private async removeCobV(txid: string): Promise<RemovedCharge> {
    const patched = await this.transport
      .call<CobV>('reviseCobV', true, (init) =>
        this.api.PATCH('/v2/cobv/{txid}', { params: { path: { txid } }, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, ...init }),
      )
      .catch(unavailable);
    if (patched.status === 200) return { state: 'removed' };
    if (patched.status === 404) return { state: 'not_found' };
    const cobv = await this.readCobV(txid);
    if (!cobv) return { state: 'not_found' };
    if (cobv.status === 'CONCLUIDA') return { state: 'paid', endToEndIds: (cobv.pix ?? []).map((pix) => pix.endToEndId) };
    return { state: 'removed' };
  }

  // ---- Received Pix -------------------------------------------------------------------------------------

  private received(pix: Pix): ReceivedPix | undefined {
    const amountCents = fromValor(pix.valor);
    const receivedAtMs = Date.parse(pix.horario);
    if (amountCents === undefined || !Number.isFinite(receivedAtMs)) {
      this.logger.warn('received Pix with an unreadable amount or time; left for the operator', { endToEndId: pix.endToEndId });
      return undefined;
    }
    const devolucoes = (pix.devolucoes ?? []).map(devolucaoOf).filter((devolucao): devolucao is ReceivedDevolucao => devolucao !== undefined);
    return { endToEndId: pix.endToEndId, chargeRef: pix.txid, amountCents, receivedAtMs, payer: partyOf(pix.gnExtras?.pagador), devolucoes };
  }

  async readReceivedPix(endToEndId: string): Promise<ReceivedPix | undefined> {
    const read = await this.transport
      .call<Pix>('readPix', true, (init) => this.api.GET('/v2/pix/{e2eid}', { params: { path: { e2eid: endToEndId } }, ...init }))
      .catch(unavailable);
    if (read.status === 404) return undefined;
    if (read.status !== 200 || !read.data) throw this.unexpected('readPix', read);
    if (read.data.chave !== undefined && read.data.chave !== this.pixKey) return undefined;
    return this.received(read.data);
  }

  async *listReceivedPix(fromMs: number, toMs: number): AsyncIterable<ReceivedPix> {
    const inicio = new Date(fromMs).toISOString();
    const fim = new Date(toMs).toISOString();
    for (let page = 0; ; page += 1) {
      const answer = await this.transport
        .call('listPix', true, (init) =>
          this.api.GET('/v2/pix', {
            params: { query: { inicio, fim, 'paginacao.paginaAtual': page, 'paginacao.itensPorPagina': PAGE_SIZE } },
            ...init,
          }),
        )
        .catch(unavailable);
      if (answer.status !== 200 || !answer.data) throw this.unexpected('listPix', answer);
      // The standard does not require `pix` (its schema names `cobs`): a page without it holds nothing.
      const items = answer.data.pix ?? [];
      for (const pix of items) {
        const received = this.received(pix);
        if (received) yield received;
      }
      const pages = answer.data.parametros?.paginacao?.quantidadeDePaginas;
      if (typeof pages === 'number' ? page + 1 >= pages : items.length < PAGE_SIZE) return;
    }
  }

  /**
   * A callback's items as facts. Nothing is taken from the body but the ids it names: a received Pix is
   * read back (`GET /v2/pix/{e2eid}`) and reported as the read says; a send or a refund is reported as
   * "changed", and the withdrawal's or refund's own sync reads it from the provider.
   */
  async verifyCallback(body: unknown): Promise<ProviderFact[]> {
    if (typeof body !== 'object' || body === null) return [];
    const facts: ProviderFact[] = [];
    const seen = new Set<string>();
    const once = (key: string) => (seen.has(key) ? false : (seen.add(key), true));
    // Pix Automático (`{"recs": [...]}`, `{"cobsr": [...]}`): only the ids are taken, never the status the
    // body claims; whoever applies the fact reads the recurrence or the charge back.
    const { recs, cobsr } = body as { recs?: unknown; cobsr?: unknown };
    if (Array.isArray(recs)) {
      for (const item of recs as unknown[]) {
        const idRec = (item as { idRec?: unknown } | null)?.idRec;
        if (typeof idRec === 'string' && idRec !== '' && once(`rec:${idRec}`)) facts.push({ kind: 'recurrence_changed', recurrenceRef: idRec });
      }
    }
    if (Array.isArray(cobsr)) {
      for (const item of cobsr as unknown[]) {
        const txid = (item as { txid?: unknown } | null)?.txid;
        if (typeof txid === 'string' && txid !== '' && once(`cobr:${txid}`)) facts.push({ kind: 'recurring_charge_changed', chargeRef: txid });
      }
    }
    const items = (body as { pix?: unknown }).pix;
    if (!Array.isArray(items)) return facts;
    for (const raw of items as ItemCallback[]) {
      if (typeof raw !== 'object' || raw === null) continue;
      const idEnvio = raw.gnExtras?.idEnvio;
      if (raw.tipo === 'SOLICITACAO' || idEnvio !== undefined) {
        const transactionId = idEnvio === undefined ? undefined : transactionIdOfEnvio(idEnvio);
        if (transactionId && once(`w:${transactionId}`)) facts.push({ kind: 'withdrawal_changed', transactionId });
        continue;
      }
      if (Array.isArray(raw.devolucoes) && raw.devolucoes.length > 0) {
        let foreign = false;
        for (const devolucao of raw.devolucoes) {
          const refundId = typeof devolucao?.id === 'string' ? refundIdOfDevolucao(devolucao.id) : undefined;
          if (refundId && once(`r:${refundId}`)) facts.push({ kind: 'refund_changed', refundId });
          else if (!refundId) foreign = true;
        }
        // A devolução PixGate did not ask for (MED, or made outside the API): the Pix is read back and its
        // devoluções are booked as that read says.
        if (foreign && typeof raw.endToEndId === 'string' && once(`d:${raw.endToEndId}`)) {
          const pix = await this.readReceivedPix(raw.endToEndId);
          if (pix) facts.push({ kind: 'devolucao_made', pix });
          else this.logger.warn('callback of a devolução of a Pix the provider does not know; ignored', { endToEndId: raw.endToEndId });
        }
        continue;
      }
      if (typeof raw.endToEndId !== 'string' || !once(`p:${raw.endToEndId}`)) continue;
      const pix = await this.readReceivedPix(raw.endToEndId);
      if (pix) facts.push({ kind: 'pix_received', pix });
      else this.logger.warn('callback of a Pix the provider does not know; ignored', { endToEndId: raw.endToEndId });
    }
    return facts;
  }

  // ---- Withdrawals ----------------------------------------------------------------------------------------

  /** An Efí extension the standard lacks: refused before anything is sent (callers ask `capabilities` first). */
  private lacking(capability: keyof ProviderCapabilities): void {
    if (!this.capabilities[capability]) throw new ProviderLacks(capability, this.name);
  }

  async sendWithdrawal(input: SendWithdrawalInput): Promise<{ providerRef: string }> {
    this.lacking('payouts');
    const idEnvio = idEnvioFor(input.transactionId);
    const document = input.expectedBeneficiary.document;
    let answer: Answer<components['schemas']['EnvioAceito']>;
    try {
      answer = await this.transport.call('sendPix', true, (init) =>
        this.api.PUT('/v3/gn/pix/{idEnvio}', {
          params: { path: { idEnvio } },
          body: {
            valor: toValor(input.amountCents),
            pagador: { chave: this.pixKey, ...(input.description ? { infoPagador: input.description.slice(0, 139) } : {}) },
            // The document the key must belong to: the provider refuses a key of someone else.
            favorecido: { chave: input.pixKey, ...(input.expectedBeneficiary.documentType === 'cpf' ? { cpf: document } : { cnpj: document }) },
          },
          ...init,
        }),
      );
    } catch (error) {
      if (error instanceof UpstreamUnavailable && error.last.kind === 'garbled') {
        // The provider said yes (2xx) but its answer was cut: read the send back.
        const status = await this.queryWithdrawal(input.transactionId);
        if (status.state === 'unknown' || status.state === 'not_found') throw new ProviderConfirmationLost(idEnvio);
        return { providerRef: idEnvio };
      }
      return unavailable(error);
    }
    if (answer.status === 201) return { providerRef: idEnvio };
    if (answer.status === 409) {
      // `id_envio_duplicado`: accepted before (a retry whose first answer was lost). Read it back.
      const status = await this.queryWithdrawal(input.transactionId);
      if (status.state === 'not_found') throw new ProviderFailure('sendPix: duplicate idEnvio the provider cannot find');
      if (status.state === 'unknown') throw new ProviderTimeout('sendPix: duplicate idEnvio, read back failed');
      return { providerRef: idEnvio };
    }
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 401 && answer.status !== 403) {
      const refusal = refusalOf(answer.error?.name, answer.error?.message);
      this.logger.info('payment provider refused a send before accepting it', {
        transactionId: input.transactionId,
        status: answer.status,
        type: answer.error?.name,
        correlationId: answer.error?.correlationId,
        refusedCode: refusal.code,
      });
      throw new ProviderRejected(refusal.code, refusal.reason);
    }
    throw this.unexpected('sendPix', answer);
  }

  async queryWithdrawal(transactionId: string): Promise<ProviderWithdrawalStatus> {
    // Nothing was ever sent through a provider without a send API: it knows no send.
    if (!this.capabilities.payouts) return { state: 'not_found' };
    const idEnvio = idEnvioFor(transactionId);
    let read: Answer<PixEnviado>;
    try {
      read = await this.transport.call('readSentPix', true, (init) =>
        this.api.GET('/v2/gn/pix/enviados/id-envio/{idEnvio}', { params: { path: { idEnvio }, query: { exibirCodigoBanco: true } }, ...init }),
      );
    } catch {
      return { state: 'unknown' };
    }
    if (read.status === 404) return { state: 'not_found' };
    if (read.status !== 200 || !read.data) return { state: 'unknown' };
    const sent = read.data;
    switch (sent.status) {
      case 'EM_PROCESSAMENTO':
        return { state: 'accepted', providerRef: idEnvio };
      case 'NAO_REALIZADO': {
        const refusal = refusalOf(sent.gnExtras?.erro?.codigo, sent.gnExtras?.erro?.motivo);
        return { state: 'rejected', providerRef: idEnvio, refusedCode: refusal.code, refusedReason: refusal.reason };
      }
      case 'REALIZADO': {
        // Paid is paid: the receiver's details are taken from whatever the read carries, never waited for.
        const beneficiary = beneficiaryOf(sent.favorecido);
        const paidAtMs = Date.parse(sent.horario?.liquidacao ?? sent.horario?.solicitacao ?? '') || this.clock.now();
        const returns = (sent.devolucoes ?? []).filter((devolucao) => devolucao.status === 'DEVOLVIDO');
        const returnedCents = returns.reduce((sum, devolucao) => sum + (fromValor(devolucao.valor) ?? 0), 0);
        if (returns.length > 0 && returnedCents > 0) {
          return {
            state: 'returned',
            providerRef: idEnvio,
            endToEndId: sent.endToEndId,
            beneficiary,
            refundEndToEndId: returns[returns.length - 1]?.rtrId ?? '',
            returnedCents,
          };
        }
        return { state: 'paid', providerRef: idEnvio, endToEndId: sent.endToEndId, beneficiary, paidAtMs };
      }
    }
  }

  // ---- Refunds (devolução) ----------------------------------------------------------------------------

  async sendRefund(input: SendRefundInput): Promise<{ providerRef: string }> {
    const id = devolucaoIdFor(input.refundId);
    const path = { e2eid: input.endToEndId, id };
    const answer = await this.transport
      .call<Devolucao>('requestDevolucao', true, (init) =>
        this.api.PUT('/v2/pix/{e2eid}/devolucao/{id}', {
          params: { path },
          body: { valor: toValor(input.amountCents), natureza: 'ORIGINAL', ...(input.description ? { descricao: input.description.slice(0, 140) } : {}) },
          ...init,
        }),
      )
      .catch(unavailable);
    if (answer.status === 201) return { providerRef: id };
    if (answer.status === 400 || answer.status === 409) {
      // A reused id is refused like an invalid refund: if ours exists, this was a retry of an accepted one.
      const status = await this.queryRefund({ refundId: input.refundId, endToEndId: input.endToEndId });
      if (status.state !== 'not_found' && status.state !== 'unknown') return { providerRef: id };
      // Not ours: the devolução itself is refused (it would pass the Pix, the Pix is too old). Nothing was made.
      if (status.state === 'not_found' && answer.status === 400) {
        this.logger.info('payment provider refused a devolução', { refundId: input.refundId, type: answer.error?.name, detail: answer.error?.message?.slice(0, 200) });
        throw new ProviderRefusedRefund(`requestDevolucao answered 400 ${answer.error?.name ?? ''}`);
      }
    }
    throw this.unexpected('requestDevolucao', answer);
  }

  async queryRefund({ refundId, endToEndId }: { refundId: string; endToEndId: string }): Promise<ProviderRefundStatus> {
    const id = devolucaoIdFor(refundId);
    let read: Answer<Devolucao>;
    try {
      read = await this.transport.call('readDevolucao', true, (init) =>
        this.api.GET('/v2/pix/{e2eid}/devolucao/{id}', { params: { path: { e2eid: endToEndId, id } }, ...init }),
      );
    } catch {
      return { state: 'unknown' };
    }
    if (read.status === 404) return { state: 'not_found' };
    if (read.status !== 200 || !read.data) return { state: 'unknown' };
    const devolucao = read.data;
    switch (devolucao.status) {
      case 'EM_PROCESSAMENTO':
        return { state: 'accepted', providerRef: id };
      case 'DEVOLVIDO':
        return {
          state: 'refunded',
          providerRef: id,
          refundEndToEndId: devolucao.rtrId,
          refundedAtMs: Date.parse(devolucao.horario?.liquidacao ?? devolucao.horario?.solicitacao ?? '') || this.clock.now(),
        };
      case 'NAO_REALIZADO':
        return { state: 'rejected', providerRef: id, refusedCode: 'PROVIDER_REJECTED', refusedReason: devolucao.motivo ?? 'Devolução não realizada pelo provedor.' };
    }
  }

  // ---- MED infractions, listings and balance (reconciliation) -----------------------------------------

  /**
   * The infractions of a period, page by page. Efí's balance reports the MED block as one total: it is
   * allotted to the open infractions oldest first, and an infraction counts as blocked when the allotment
   * covers it (the listing itself does not say).
   */
  async *listInfractions(fromMs: number, toMs: number): AsyncIterable<ProviderInfraction> {
    this.lacking('infractions');
    const inicio = new Date(fromMs).toISOString();
    const fim = new Date(toMs).toISOString();
    const found: Infracao[] = [];
    for (let page = 0; ; page += 1) {
      const answer = await this.transport
        .call('listInfractions', true, (init) =>
          this.api.GET('/v2/gn/infracoes', { params: { query: { inicio, fim, 'paginacao.paginaAtual': page, 'paginacao.itensPorPagina': PAGE_SIZE } }, ...init }),
        )
        .catch(unavailable);
      if (answer.status !== 200 || !answer.data) throw this.unexpected('listInfractions', answer);
      const items = answer.data.infracoes ?? [];
      found.push(...items);
      const pages = answer.data.parametros?.paginacao?.quantidadeDePaginas;
      if (typeof pages === 'number' ? page + 1 >= pages : items.length < PAGE_SIZE) break;
    }
    let blockLeft = found.some((item) => item.status === 'ABERTA' || item.status === 'EM_DEFESA') ? (await this.balance()).blockedMedCents : 0;
    const byAge = [...found].sort((a, b) => Date.parse(a.dadosAnalise?.abertura ?? a.criadoEm ?? '') - Date.parse(b.dadosAnalise?.abertura ?? b.criadoEm ?? ''));
    for (const item of byAge) {
      const amountCents = fromValor(item.valor);
      const status = INFRACTION_STATUSES.find((candidate) => candidate === item.status);
      const openedAtMs = Date.parse(item.dadosAnalise?.abertura ?? item.criadoEm ?? item.dataTransacao ?? '');
      if (amountCents === undefined || status === undefined || !Number.isFinite(openedAtMs)) {
        this.logger.warn('MED infraction with an unreadable amount, status or date; left for the operator', { infractionId: item.idInfracao, endToEndId: item.endToEndId });
        continue;
      }
      const open = status === 'ABERTA' || status === 'EM_DEFESA';
      const blocked = open && blockLeft >= amountCents;
      if (blocked) blockLeft -= amountCents;
      const deadlineAtMs = Date.parse(item.dadosAnalise?.prazoFinalizacao ?? '');
      yield {
        id: item.idInfracao,
        endToEndId: item.endToEndId,
        amountCents,
        status,
        reason: item.razao ?? '',
        ...(item.tipoSituacao ? { situation: item.tipoSituacao } : {}),
        openedAtMs,
        ...(Number.isFinite(deadlineAtMs) ? { deadlineAtMs } : {}),
        blocked,
      };
    }
  }

  async defendInfraction(infractionId: string, defence: InfractionDefence): Promise<void> {
    this.lacking('infractions');
    const answer = await this.transport
      .call('defendInfraction', false, (init) =>
        this.api.POST('/v2/gn/infracoes/{idInfracao}/defesa', { params: { path: { idInfracao: infractionId } }, body: { analise: defence.analysis, justificativa: defence.text }, ...init }),
      )
      .catch(unavailable);
    if (answer.status >= 300) throw this.unexpected('defendInfraction', answer);
  }

  /** The sends of a period, page by page, whatever envelope the provider puts them in. */
  async *listSends(fromMs: number, toMs: number): AsyncIterable<ListedSend> {
    // No send API: nothing was sent, nothing to list.
    if (!this.capabilities.payouts) return;
    const inicio = new Date(fromMs).toISOString();
    const fim = new Date(toMs).toISOString();
    for (let page = 0; ; page += 1) {
      const answer = await this.transport
        .call('listSentPix', true, (init) =>
          this.api.GET('/v2/gn/pix/enviados', { params: { query: { inicio, fim, 'paginacao.paginaAtual': page, 'paginacao.itensPorPagina': PAGE_SIZE } }, ...init }),
        )
        .catch(unavailable);
      if (answer.status !== 200 || answer.data === undefined) throw this.unexpected('listSentPix', answer);
      const items = itemsOf<PixEnviado>(answer.data, 'pix', 'enviados');
      for (const sent of items) {
        const amountCents = fromValor(sent.valor);
        if (amountCents === undefined) continue;
        const returnedCents = (sent.devolucoes ?? []).filter((devolucao) => devolucao.status === 'DEVOLVIDO').reduce((sum, devolucao) => sum + (fromValor(devolucao.valor) ?? 0), 0);
        const transactionId = transactionIdOfEnvio(sent.idEnvio);
        yield {
          ...(transactionId !== undefined ? { transactionId } : {}),
          idEnvio: sent.idEnvio,
          endToEndId: sent.endToEndId,
          amountCents,
          state: sent.status === 'REALIZADO' ? 'paid' : sent.status === 'NAO_REALIZADO' ? 'not_paid' : 'processing',
          returnedCents,
          atMs: Date.parse(sent.horario?.solicitacao ?? '') || 0,
        };
      }
      if (items.length < PAGE_SIZE) return;
    }
  }

  /** What the provider holds for PixGate (`GET /v2/gn/saldo`): the free balance and its blocks. */
  async balance(): Promise<ProviderBalance> {
    this.lacking('balance');
    const answer = await this.transport.call('readBalance', true, (init) => this.api.GET('/v2/gn/saldo', init)).catch(unavailable);
    const free = fromValor(answer.data?.saldo);
    if (answer.status !== 200 || free === undefined) throw new ProviderFailure(`readBalance answered ${answer.status}`);
    const blocks = answer.data?.bloqueios;
    const med = fromValor(blocks?.med) ?? 0;
    const total = fromValor(blocks?.total) ?? med + (fromValor(blocks?.judicial) ?? 0);
    return { availableCents: free, blockedMedCents: med, blockedOtherCents: Math.max(0, total - med) };
  }

  // ---- Pix Automático ----------------------------------------------------------------------------------
  // API Pix's `rec`, `solicrec`, `locrec` and `cobr` (2.7.0 and later), the same on both profiles. Every read
  // is mapped field by field and anything the standard allows to be absent is optional here.

  /** Refused before anything is sent when the profile lacks it or PSP_RECEIVER_ACCOUNT is not set. */
  private recurrenceAccount(): ReceiverAccount {
    this.lacking('recurrences');
    if (!this.receiverAccount) throw new ProviderLacks('recurrences', this.name);
    return this.receiverAccount;
  }

  /**
   * `POST /rec`, then the consent's journey: `POST /solicrec` to the payer's account (journey 1), or a
   * location (`POST /locrec`, named as `loc`) read back as the QR code's `dadosQR` (`GET /rec/{idRec}`, with
   * `?txid=` for the composite code of journey 3). `POST /rec` and `POST /solicrec` are sent once: neither
   * is idempotent. A consent request that fails cancels the recurrence it was for (best effort), so a
   * failure leaves nothing that could be approved.
   */
  async registerRecurrence(input: RegisterRecurrenceInput): Promise<RegisteredRecurrence> {
    this.recurrenceAccount();
    const consent = input.consent;
    let location: PayloadLocationRec | undefined;
    if (consent.journey !== 'request') {
      const created = await this.transport.call<PayloadLocationRec>('createLocRec', true, (init) => this.api.POST('/v2/locrec', init)).catch(unavailable);
      if (created.status !== 201 && created.status !== 200) throw this.unexpected('createLocRec', created);
      if (!created.data || !Number.isSafeInteger(created.data.id)) throw this.unexpected('createLocRec', created);
      location = created.data;
    }
    const payer = input.payer;
    const valor =
      input.amountCents !== undefined
        ? { valorRec: toValor(input.amountCents) }
        : input.minimumAmountCents !== undefined
          ? { valorMinimoRecebedor: toValor(input.minimumAmountCents) }
          : undefined;
    const body: components['schemas']['RecSolicitada'] = {
      vinculo: {
        ...(input.object !== undefined && input.object !== '' ? { objeto: input.object.slice(0, 35) } : {}),
        contrato: input.contract.slice(0, 35),
        devedor: { nome: payer.name.slice(0, 140), ...(payer.documentType === 'cpf' ? { cpf: payer.document } : { cnpj: payer.document }) },
      },
      calendario: { dataInicial: input.startDate, ...(input.endDate !== undefined ? { dataFinal: input.endDate } : {}), periodicidade: PERIODICIDADE[input.periodicity] },
      ...(valor ? { valor } : {}),
      politicaRetentativa: POLITICA_RETENTATIVA[input.retryPolicy],
      ...(location ? { loc: location.id } : {}),
      ...(consent.journey === 'qrcode_with_payment' ? { ativacao: { dadosJornada: { txid: consent.chargeRef } } } : {}),
    };
    const created = await this.transport
      .call<Rec>('createRec', false, (init) => this.api.POST('/v2/rec', { body, ...init }))
      .catch(unavailable);
    if ((created.status !== 201 && created.status !== 200) || typeof created.data?.idRec !== 'string') throw this.unexpected('createRec', created);
    const idRec = created.data.idRec;

    if (consent.journey === 'request') {
      const account = consent.payerAccount;
      const destinatario = {
        conta: account.account,
        ispbParticipante: account.ispb,
        ...(account.branch ? { agencia: account.branch } : {}),
        ...(payer.documentType === 'cpf' ? { cpf: payer.document } : { cnpj: payer.document }),
      };
      let asked: Answer<SolicRec>;
      try {
        asked = await this.transport.call<SolicRec>('createSolicRec', false, (init) =>
          this.api.POST('/v2/solicrec', {
            body: { idRec, calendario: { dataExpiracaoSolicitacao: new Date(consent.expiresAtMs).toISOString() }, destinatario },
            ...init,
          }),
        );
      } catch (error) {
        await this.abandonRecurrence(idRec);
        if (error instanceof UpstreamUnavailable) throw new ProviderFailure(`createSolicRec: ${error.message}; the recurrence was cancelled`);
        throw error;
      }
      if ((asked.status !== 201 && asked.status !== 200) || typeof asked.data?.idSolicRec !== 'string') {
        await this.abandonRecurrence(idRec);
        throw this.unexpected('createSolicRec', asked);
      }
      return { providerRef: idRec, consentRef: asked.data.idSolicRec };
    }

    // The QR code: the recurrence's own (journey 2) or the cob's and the recurrence's (journey 3). A read that
    // fails leaves the location, from which PixGate builds the code itself.
    const txid = consent.journey === 'qrcode_with_payment' ? consent.chargeRef : undefined;
    let pixPayload: string | undefined;
    try {
      const read = await this.readRec(idRec, txid);
      const code = read?.dadosQR?.pixCopiaECola;
      if (typeof code === 'string' && code !== '') pixPayload = code;
    } catch (error) {
      this.logger.warn('recurrence created but its QR code could not be read; built from its location', { idRec, error: error instanceof Error ? error.message : String(error) });
    }
    const locationUrl = location?.location ?? created.data.loc?.location;
    return { providerRef: idRec, ...(pixPayload !== undefined ? { pixPayload } : locationUrl ? { locationUrl } : {}) };
  }

  /** A recurrence whose consent could not be asked for is cancelled, so nobody can approve it later. */
  private async abandonRecurrence(idRec: string): Promise<void> {
    try {
      await this.cancelRecurrence(idRec);
    } catch (error) {
      this.logger.warn('recurrence left CRIADA at the provider after its consent request failed', { idRec, error: error instanceof Error ? error.message : String(error) });
    }
  }

  private async readRec(idRec: string, txid?: string): Promise<Rec | undefined> {
    const read = await this.transport
      .call<Rec>('readRec', true, (init) => this.api.GET('/v2/rec/{idRec}', { params: { path: { idRec }, ...(txid !== undefined ? { query: { txid } } : {}) }, ...init }))
      .catch(unavailable);
    if (read.status === 404) return undefined;
    if (read.status !== 200 || !read.data) throw this.unexpected('readRec', read);
    return read.data;
  }

  private async readSolicRec(idSolicRec: string): Promise<SolicRec | undefined> {
    const read = await this.transport
      .call<SolicRec>('readSolicRec', true, (init) => this.api.GET('/v2/solicrec/{idSolicRec}', { params: { path: { idSolicRec } }, ...init }))
      .catch(unavailable);
    if (read.status === 404) return undefined;
    if (read.status !== 200 || !read.data) throw this.unexpected('readSolicRec', read);
    return read.data;
  }

  /**
   * `GET /rec/{idRec}` mapped to PixGate's names; the consent request is the one named (from the rec's
   * `solicitacao[]`, else `GET /solicrec/{id}`), or the rec's latest. Undefined when the provider does not
   * know the recurrence.
   */
  async readRecurrence(input: { providerRef: string; consentRef?: string | undefined }): Promise<ProviderRecurrence | undefined> {
    this.recurrenceAccount();
    const rec = await this.readRec(input.providerRef);
    if (!rec) return undefined;
    const status = REC_STATUS[rec.status];
    if (status === undefined) throw new ProviderFailure(`readRec answered an unknown status ${String(rec.status)}`);
    const requests = Array.isArray(rec.solicitacao) ? rec.solicitacao : [];
    let request: SolicRec | undefined;
    if (input.consentRef !== undefined) {
      request = requests.find((item) => item?.idSolicRec === input.consentRef) ?? (await this.readSolicRec(input.consentRef));
    } else {
      request = requests.at(-1);
    }
    const consentStatus = request ? SOLICREC_STATUS[request.status] : undefined;
    const history = historyOf(rec.atualizacao, REC_STATUS);
    const journey = rec.ativacao?.tipoJornada === undefined ? undefined : TIPO_JORNADA[rec.ativacao.tipoJornada];
    const approvedAtMs = history.find((entry) => entry.status === 'approved')?.atMs;
    const activation = journey !== undefined && (status !== 'created' || approvedAtMs !== undefined) ? { journey, atMs: approvedAtMs ?? this.clock.now() } : undefined;
    return {
      status,
      ...(consentStatus !== undefined ? { consentStatus } : {}),
      ...(activation ? { activation } : {}),
      ...(status === 'rejected' || status === 'cancelled' || status === 'expired' ? { ended: endedOf(status, rec.encerramento) } : {}),
      history,
    };
  }

  /** `PATCH /rec/{idRec}` `CANCELADA`; false when the provider refuses it because the recurrence already ended (or knows none). */
  async cancelRecurrence(providerRef: string): Promise<boolean> {
    this.recurrenceAccount();
    const patched = await this.transport
      .call<Rec>('reviseRec', true, (init) => this.api.PATCH('/v2/rec/{idRec}', { params: { path: { idRec: providerRef } }, body: { status: 'CANCELADA' }, ...init }))
      .catch(unavailable);
    if (patched.status === 200) return true;
    if (patched.status === 404) return false;
    if (patched.status === 400) {
      // A repeat of ours finds it CANCELADA; a rejected or expired one cannot be cancelled: either way it ended.
      const rec = await this.readRec(providerRef);
      if (!rec) return false;
      if (rec.status === 'CANCELADA' || rec.status === 'REJEITADA' || rec.status === 'EXPIRADA') return false;
    }
    throw this.unexpected('reviseRec', patched);
  }

  /**
   * `PUT /cobr/{txid}`, the txid derived from the cycle's transaction (efi.mapping.ts `cobrTxidFor`). A refusal
   * (400 `CobROperacaoInvalida`, or Efí's 409) is read back first: a cobr of this recurrence under the txid is a
   * retry of this request (the first answer lost) and is this charge; otherwise the provider refused it.
   */
  async registerRecurringCharge(input: RegisterRecurringChargeInput): Promise<{ providerRef: string }> {
    const account = this.recurrenceAccount();
    const txid = cobrTxidFor(input.transactionId);
    const body: components['schemas']['CobRSolicitada'] = {
      idRec: input.recurrenceRef,
      ...(input.description !== undefined && input.description !== '' ? { infoAdicional: input.description.slice(0, 140) } : {}),
      calendario: { dataDeVencimento: input.dueDate },
      valor: { original: toValor(input.amountCents) },
      ajusteDiaUtil: true,
      recebedor: { conta: account.account, tipoConta: account.type, ...(account.branch !== undefined ? { agencia: account.branch } : {}) },
    };
    const created = await this.transport
      .call<CobR>('createCobR', true, (init) => this.api.PUT('/v2/cobr/{txid}', { params: { path: { txid } }, body, ...init }))
      .catch(unavailable);
    if (created.status === 201 || created.status === 200) return { providerRef: txid };
    if (created.status === 400 || created.status === 409) {
      const existing = await this.readCobR(txid);
      if (existing && (existing.idRec === undefined || existing.idRec === input.recurrenceRef)) return { providerRef: txid };
      this.logger.info('payment provider refused a recurring charge', {
        transactionId: input.transactionId,
        status: created.status,
        type: created.error?.name,
        correlationId: created.error?.correlationId,
        detail: created.error?.message?.slice(0, 200),
      });
      throw new ProviderRefusedRecurringCharge(`createCobR answered ${created.status} ${created.error?.name ?? ''}: ${created.error?.message?.slice(0, 200) ?? ''}`);
    }
    throw this.unexpected('createCobR', created);
  }

  private async readCobR(txid: string): Promise<CobR | undefined> {
    const read = await this.transport.call<CobR>('readCobR', true, (init) => this.api.GET('/v2/cobr/{txid}', { params: { path: { txid } }, ...init })).catch(unavailable);
    if (read.status === 404) return undefined;
    if (read.status !== 200 || !read.data) throw this.unexpected('readCobR', read);
    return read.data;
  }

  /** `GET /cobr/{txid}`: its state, attempts (oldest date first), end and the Pix that paid it. */
  async readRecurringCharge(providerRef: string): Promise<ProviderRecurringCharge> {
    this.recurrenceAccount();
    const cobr = await this.readCobR(providerRef);
    if (!cobr) return { state: 'not_found' };
    const state = COBR_STATUS[cobr.status];
    if (state === undefined) throw new ProviderFailure(`readCobR answered an unknown status ${String(cobr.status)}`);
    const attempts = attemptsOf(cobr.tentativas);
    const rejeicao = cobr.encerramento?.rejeicao;
    const cancelamento = cobr.encerramento?.cancelamento;
    const ending = rejeicao?.codigo ? rejeicao : cancelamento?.codigo ? cancelamento : undefined;
    const cancelledBy = cancelamento?.solicitante === undefined ? undefined : SOLICITANTE[cancelamento.solicitante];
    const payments = [...new Set((cobr.pix ?? []).map((pix) => pix?.endToEndId).filter((id): id is string => typeof id === 'string' && id !== ''))];
    return {
      state,
      attempts,
      ...(ending?.codigo ? { refusal: { code: ending.codigo, description: ending.descricao ?? '' } } : {}),
      ...(cancelledBy !== undefined ? { cancelledBy } : {}),
      payments,
    };
  }

  /** `POST /cobr/{txid}/retentativa/{data}`: true when scheduled (201), false when the provider refuses it (400). */
  async retryRecurringCharge(providerRef: string, date: string): Promise<boolean> {
    this.recurrenceAccount();
    const asked = await this.transport
      .call<CobR>('retryCobR', true, (init) => this.api.POST('/v2/cobr/{txid}/retentativa/{data}', { params: { path: { txid: providerRef, data: date } }, ...init }))
      .catch(unavailable);
    if (asked.status === 201 || asked.status === 200) return true;
    if (asked.status === 400) {
      // A repeat whose first answer was lost finds the attempt it asked for: that is a yes.
      const cobr = await this.readCobR(providerRef);
      const scheduled = attemptsOf(cobr?.tentativas).some((attempt) => attempt.kind === 'retry' && attempt.date === date && attempt.status === 'scheduled');
      if (scheduled) return true;
      this.logger.info('payment provider refused a retry of a recurring charge', { txid: providerRef, date, type: asked.error?.name, detail: asked.error?.message?.slice(0, 200) });
      return false;
    }
    throw this.unexpected('retryCobR', asked);
  }

  /** `PATCH /cobr/{txid}` `CANCELADA`: true when cancelled (a repeat finds it cancelled by us), false when it may no longer be. */
  async cancelRecurringCharge(providerRef: string): Promise<boolean> {
    this.recurrenceAccount();
    const patched = await this.transport
      .call<CobR>('reviseCobR', true, (init) => this.api.PATCH('/v2/cobr/{txid}', { params: { path: { txid: providerRef } }, body: { status: 'CANCELADA' }, ...init }))
      .catch(unavailable);
    if (patched.status === 200) return true;
    if (patched.status === 400 || patched.status === 404) {
      const cobr = await this.readCobR(providerRef);
      if (cobr?.status === 'CANCELADA' && cobr.encerramento?.cancelamento?.solicitante === 'USUARIO_RECEBEDOR') return true;
      return false;
    }
    throw this.unexpected('reviseCobR', patched);
  }

  // ---- Setup ------------------------------------------------------------------------------------------

  /** Registers the callback URL of PixGate's key (`PUT /v2/webhook/{chave}`); the provider appends `/pix`. */
  async registerWebhook(webhookUrl: string): Promise<void> {
    const answer = await this.transport
      .call('configureWebhook', true, (init) => this.api.PUT('/v2/webhook/{chave}', { params: { path: { chave: this.pixKey } }, body: { webhookUrl }, ...init }))
      .catch(unavailable);
    if (answer.status >= 300) throw this.unexpected('configureWebhook', answer);
    if (this.capabilities.recurrences) await this.registerRecurrenceWebhooks(webhookUrl);
  }

  /**
   * The same URL for Pix Automático (`PUT /webhookrec`, `PUT /webhookcobr`; the provider appends `/rec` and
   * `/cobr`). Their callbacks are triggers only (the recurrences are read back anyway), so a refusal is
   * logged and does not stop the start.
   */
  private async registerRecurrenceWebhooks(webhookUrl: string): Promise<void> {
    const webhooks = [
      ['configureWebhookRec', () => (init: { signal: AbortSignal; headers: Record<string, string> }) => this.api.PUT('/v2/webhookrec', { body: { webhookUrl }, ...init })],
      ['configureWebhookCobR', () => (init: { signal: AbortSignal; headers: Record<string, string> }) => this.api.PUT('/v2/webhookcobr', { body: { webhookUrl }, ...init })],
    ] as const;
    for (const [operation, send] of webhooks) {
      try {
        const answer = await this.transport.call(operation, true, send());
        if (answer.status >= 300) {
          this.logger.warn('payment provider refused a Pix Automático webhook; recurrences are followed by their reads only', {
            operation,
            status: answer.status,
            type: answer.error?.name,
            detail: answer.error?.message?.slice(0, 200),
          });
        }
      } catch (error) {
        this.logger.warn('Pix Automático webhook not registered; recurrences are followed by their reads only', { operation, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

}
