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
} from './efi.mapping.ts';
import { providerProfile, type ProfileName, type ProviderProfile } from './provider.profiles.ts';
import type { Clock } from '../../platform/clock.ts';
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
  private readonly transport: EfiTransport;
  private readonly clock: Clock;
  private readonly logger: Logger;

  constructor(transport: EfiTransport, options: EfiProviderOptions, deps: { clock: Clock; logger: Logger }) {
    this.transport = transport;
    this.profile = providerProfile(options.profile ?? 'efi');
    this.name = this.profile.name;
    this.capabilities = this.profile.capabilities;
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
    const items = (body as { pix?: unknown }).pix;
    if (!Array.isArray(items)) return [];
    const facts: ProviderFact[] = [];
    const seen = new Set<string>();
    const once = (key: string) => (seen.has(key) ? false : (seen.add(key), true));
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

  // ---- Setup ------------------------------------------------------------------------------------------

  /** Registers the callback URL of PixGate's key (`PUT /v2/webhook/{chave}`); the provider appends `/pix`. */
  async registerWebhook(webhookUrl: string): Promise<void> {
    const answer = await this.transport
      .call('configureWebhook', true, (init) => this.api.PUT('/v2/webhook/{chave}', { params: { path: { chave: this.pixKey } }, body: { webhookUrl }, ...init }))
      .catch(unavailable);
    if (answer.status >= 300) throw this.unexpected('configureWebhook', answer);
  }

}
