/**
 * `PSP=efi`: the port spoken as API Pix 2.9.0 (charges, received Pix, refunds) and Efí's send API
 * (payouts), through EfiTransport (mutual TLS, token, retries, breaker). Every id sent is derived from
 * PixGate's own (efi.mapping.ts), so a retry never creates a second charge, send or refund upstream, and a
 * repeat refused as a duplicate is read back. What each provider answer becomes: docs/providers.md.
 */
import type { components } from '../../../generated/upstream-types.ts';
import {
  ProviderConfirmationLost,
  ProviderFailure,
  ProviderRejected,
  ProviderTimeout,
  type PixProvider,
  type ProviderFact,
  type ProviderRefundStatus,
  type ProviderWithdrawalStatus,
  type ReceivedPix,
  type RegisterChargeInput,
  type RegisteredCharge,
  type RemovedCharge,
  type SendRefundInput,
  type SendWithdrawalInput,
} from '../port.ts';
import { UpstreamUnavailable, type Answer, type EfiTransport } from './efi.client.ts';
import {
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
import type { Clock } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';

type Cob = components['schemas']['Cob'];
type Pix = components['schemas']['Pix'];
type PixEnviado = components['schemas']['PixEnviado'];
type Devolucao = components['schemas']['Devolucao'];
type ItemCallback = components['schemas']['ItemCallback'];

/** Generations of a txid tried before giving up (each one a charge that could not be reused). */
const MAX_TXID_GENERATIONS = 5;
/** Page size of the received-Pix listing. */
const PAGE_SIZE = 1000;

export interface EfiProviderOptions {
  /** PixGate's own Pix key at the provider: receives the charges, pays the withdrawals. */
  pixKey: string;
  /** ISPB of the provider (in its end-to-end ids). */
  ispb?: string;
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
  readonly name = 'efi';
  readonly ispb: string;
  private readonly pixKey: string;
  private readonly transport: EfiTransport;
  private readonly clock: Clock;
  private readonly logger: Logger;

  constructor(transport: EfiTransport, options: EfiProviderOptions, deps: { clock: Clock; logger: Logger }) {
    this.transport = transport;
    this.pixKey = options.pixKey;
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

  async registerCharge(input: RegisterChargeInput): Promise<RegisteredCharge> {
    const expiracao = Math.max(1, Math.ceil((input.expiresAtMs - input.createdAtMs) / 1000));
    const valor = toValor(input.amountCents);
    for (let generation = 0; generation < MAX_TXID_GENERATIONS; generation += 1) {
      const txid = txidFor(input, generation);
      const created = await this.transport
        .call<Cob>('createCob', true, (init) =>
          this.api.PUT('/v2/cob/{txid}', { params: { path: { txid } }, body: { calendario: { expiracao }, valor: { original: valor }, chave: this.pixKey }, ...init }),
        )
        .catch(unavailable);
      if (created.status === 201 && created.data) return this.registered(created.data);
      if (created.status !== 409) throw this.unexpected('createCob', created);
      // The txid exists: a retry of this request (reuse it) or a charge that can no longer be (next txid).
      const existing = await this.readCob(txid);
      if (existing && this.reusable(existing, valor)) return this.registered(existing);
    }
    throw new ProviderFailure('createCob: no reusable txid');
  }

  private registered(cob: Cob): RegisteredCharge {
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

  async removeCharge({ providerRef }: { transactionId: string; providerRef: string }): Promise<RemovedCharge> {
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

  // ---- Received Pix -------------------------------------------------------------------------------------

  private received(pix: Pix): ReceivedPix | undefined {
    const amountCents = fromValor(pix.valor);
    const receivedAtMs = Date.parse(pix.horario);
    if (amountCents === undefined || !Number.isFinite(receivedAtMs)) {
      this.logger.warn('received Pix with an unreadable amount or time; left for the operator', { endToEndId: pix.endToEndId });
      return undefined;
    }
    return { endToEndId: pix.endToEndId, chargeRef: pix.txid, amountCents, receivedAtMs, payer: partyOf(pix.gnExtras?.pagador) };
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
      for (const pix of answer.data.pix) {
        const received = this.received(pix);
        if (received) yield received;
      }
      if (page + 1 >= answer.data.parametros.paginacao.quantidadeDePaginas) return;
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
        for (const devolucao of raw.devolucoes) {
          const refundId = typeof devolucao?.id === 'string' ? refundIdOfDevolucao(devolucao.id) : undefined;
          if (refundId && once(`r:${refundId}`)) facts.push({ kind: 'refund_changed', refundId });
          else if (!refundId) this.logger.warn('refund of a received Pix not requested by PixGate (MED or the provider); left for the operator', { endToEndId: raw.endToEndId });
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

  async sendWithdrawal(input: SendWithdrawalInput): Promise<{ providerRef: string }> {
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
    const idEnvio = idEnvioFor(transactionId);
    let read: Answer<PixEnviado>;
    try {
      read = await this.transport.call('readSentPix', true, (init) =>
        this.api.GET('/v2/gn/pix/enviados/id-envio/{idEnvio}', { params: { path: { idEnvio } }, ...init }),
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
        const beneficiary = partyOf(sent.favorecido?.identificacao);
        if (!beneficiary) {
          this.logger.warn('paid send without a readable receiver; kept as accepted until it is', { transactionId });
          return { state: 'accepted', providerRef: idEnvio };
        }
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
          refundedAtMs: Date.parse(devolucao.horario.liquidacao ?? devolucao.horario.solicitacao) || this.clock.now(),
        };
      case 'NAO_REALIZADO':
        return { state: 'rejected', providerRef: id, refusedCode: 'PROVIDER_REJECTED', refusedReason: devolucao.motivo ?? 'Devolução não realizada pelo provedor.' };
    }
  }

  // ---- Setup ------------------------------------------------------------------------------------------

  /** Registers the callback URL of PixGate's key (`PUT /v2/webhook/{chave}`); the provider appends `/pix`. */
  async registerWebhook(webhookUrl: string): Promise<void> {
    const answer = await this.transport
      .call('configureWebhook', true, (init) => this.api.PUT('/v2/webhook/{chave}', { params: { path: { chave: this.pixKey } }, body: { webhookUrl }, ...init }))
      .catch(unavailable);
    if (answer.status >= 300) throw this.unexpected('configureWebhook', answer);
  }

  /** What the provider holds for PixGate, in cents (the ledger's `psp_settlement` must match it). */
  async balanceCents(): Promise<number> {
    const answer = await this.transport.call('readBalance', true, (init) => this.api.GET('/v2/gn/saldo', init)).catch(unavailable);
    const cents = fromValor(answer.data?.saldo);
    if (answer.status !== 200 || cents === undefined) throw new ProviderFailure(`readBalance answered ${answer.status}`);
    return cents;
  }
}
