/**
 * The sandbox of `PSP=efi` when the provider is the fake (`scripts/fakepsp/`, `npm run start:psp`): every
 * sandbox action is a call to the fake's control API, so the money really moves at the provider and comes
 * back to PixGate the way a real provider's would (its reads, its callbacks). The simulation's scripted
 * outcomes become the fake's faults, lasting through every attempt the adapter makes:
 * - `fail`: 503 on every attempt (nothing happens upstream);
 * - `timeout`: the order is taken, then every answer is dropped (the send exists; reconciliation finds it);
 * - `timeout_unsent`: every attempt dropped before it is taken (reconciliation: not found);
 * - `cut`: the order is taken and its answer is unreadable, and the read back fails too.
 * Never on a real provider: enabled only outside production, when the provider answers `/_fake/state`.
 */
import type { Kysely } from 'kysely';
import type { Database, PartyJson } from '../../db/schema.ts';
import type { components } from '../../../generated/upstream-types.ts';
import type { ChargeKind, DevolucaoNature } from '../port.ts';
import type { ConsentAnswer, FaultOutcome, ProviderOperation, ProviderSandbox } from '../sandbox.ts';
import { endToEndIdOfRefund } from '../../refunds/refund.repository.ts';
import type { EfiTransport } from './efi.client.ts';
import { devolucaoIdFor, idEnvioFor, toValor } from './efi.mapping.ts';

type FakeOperation = 'cob.put' | 'cob.get' | 'envio.put' | 'envio.get' | 'devolucao.put' | 'devolucao.get';

const WRITE: Record<ProviderOperation, FakeOperation> = {
  registerCharge: 'cob.put',
  sendWithdrawal: 'envio.put',
  queryWithdrawal: 'envio.get',
  sendRefund: 'devolucao.put',
  queryRefund: 'devolucao.get',
};
const READ_BACK: Partial<Record<ProviderOperation, FakeOperation>> = {
  registerCharge: 'cob.get',
  sendWithdrawal: 'envio.get',
  sendRefund: 'devolucao.get',
};

/** A payer as the fake's payer end takes it (API Pix's `pagador`, with Efí's bank fields). */
function pagadorOf(payer: PartyJson): Record<string, string> {
  return {
    nome: payer.name,
    ...(payer.documentType === 'cpf' ? { cpf: payer.document } : { cnpj: payer.document }),
    codigoBanco: payer.bankAccount.ispb,
    agencia: payer.bankAccount.branch,
    conta: payer.bankAccount.account,
  };
}

/** A fault of the fake (its FaultRule, scripts/fakepsp/types.ts), as its control API takes it. */
export interface FakeFault {
  operation: FakeOperation;
  mode: 'error' | 'drop_before' | 'drop_after' | 'garbled';
  status?: number;
  count: number;
}

/** Who a withdrawal should reach (the holder or the approved recipient): what the fake's receiver is called. */
export type ExpectedBeneficiary = (transactionId: string) => Promise<{ name: string } | undefined>;

export class EfiSandbox implements ProviderSandbox {
  readonly kind = 'fake';
  private readonly transport: EfiTransport;
  private readonly db: Kysely<Database>;
  private readonly expectedBeneficiary: ExpectedBeneficiary;
  private readonly pending = new Map<string, { outcome: FaultOutcome; remaining: number }[]>();

  constructor(transport: EfiTransport, db: Kysely<Database>, expectedBeneficiary: ExpectedBeneficiary) {
    this.transport = transport;
    this.db = db;
    this.expectedBeneficiary = expectedBeneficiary;
  }

  /** True when the provider is the fake (it answers its control API). */
  static async detect(transport: EfiTransport): Promise<boolean> {
    try {
      return (await transport.control('GET', '/_fake/state')).status === 200;
    } catch {
      return false;
    }
  }

  private async post(path: string, body: unknown = {}): Promise<{ status: number; body: unknown }> {
    const answer = await this.transport.control('POST', path, body);
    if (answer.status >= 500) throw new Error(`fake provider ${path} answered ${answer.status}`);
    return answer;
  }

  async payAtProvider(input: { providerRef: string; amountCents: number; payer?: PartyJson | undefined; kind?: ChargeKind | undefined }): Promise<string | undefined> {
    const payer = input.payer;
    const resource = input.kind === 'due' ? 'cobv' : 'cobs';
    const answer = await this.post(`/_fake/${resource}/${encodeURIComponent(input.providerRef)}/pay`, {
      valor: toValor(input.amountCents),
      ...(payer
        ? {
            pagador: {
              nome: payer.name,
              ...(payer.documentType === 'cpf' ? { cpf: payer.document } : { cnpj: payer.document }),
              codigoBanco: payer.bankAccount.ispb,
              agencia: payer.bankAccount.branch,
              conta: payer.bankAccount.account,
            },
          }
        : {}),
    });
    if (answer.status !== 200) return undefined;
    return (answer.body as { endToEndId?: string }).endToEndId;
  }

  /**
   * A payer's bank sends a Pix to the key naming a static QR code's txid: the fake receives it as a Pix tied
   * to no charge of its own (`POST /_fake/pix`), reads it back and calls back as for any Pix with a txid.
   */
  async payStaticQrCode(input: { txid: string; amountCents: number; payer?: PartyJson | undefined }): Promise<string> {
    const answer = await this.post('/_fake/pix', { valor: toValor(input.amountCents), txid: input.txid, ...(input.payer ? { pagador: pagadorOf(input.payer) } : {}) });
    const endToEndId = (answer.body as { endToEndId?: unknown } | undefined)?.endToEndId;
    if (answer.status !== 200 || typeof endToEndId !== 'string') throw new Error(`fake provider refused the Pix to ${input.txid}: ${answer.status}`);
    return endToEndId;
  }

  async devolve(input: { endToEndId: string; amountCents: number; nature: DevolucaoNature; id: string }): Promise<boolean> {
    const answer = await this.post(`/_fake/pix/${encodeURIComponent(input.endToEndId)}/devolucao`, { valor: toValor(input.amountCents), natureza: input.nature, id: input.id });
    return answer.status === 200;
  }

  async openInfraction(input: { endToEndId: string; amountCents: number; reason: string; situation?: string | undefined }): Promise<string> {
    const answer = await this.post(`/_fake/pix/${encodeURIComponent(input.endToEndId)}/infracoes`, {
      valor: toValor(input.amountCents),
      razao: input.reason,
      ...(input.situation !== undefined ? { tipoSituacao: input.situation } : {}),
    });
    const id = (answer.body as { idInfracao?: unknown } | undefined)?.idInfracao;
    if (answer.status !== 200 || typeof id !== 'string') throw new Error(`fake provider refused the infraction: ${answer.status}`);
    return id;
  }

  async blockInfraction(infractionId: string): Promise<boolean> {
    return (await this.post(`/_fake/infracoes/${encodeURIComponent(infractionId)}/bloqueio`)).status === 200;
  }

  async closeInfraction(infractionId: string, outcome: 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI'): Promise<boolean> {
    return (await this.post(`/_fake/infracoes/${encodeURIComponent(infractionId)}/analise`, { status: outcome })).status === 200;
  }

  async settle(transactionId: string, beneficiary?: PartyJson): Promise<boolean> {
    // Without a given receiver, the key's owner is who the withdrawal was for (the DICT would say so).
    const expected = beneficiary ? undefined : await this.expectedBeneficiary(transactionId);
    const recebedor = beneficiary
      ? {
          nome: beneficiary.name,
          ...(beneficiary.documentType === 'cpf' ? { cpf: beneficiary.document } : { cnpj: beneficiary.document }),
          codigoBanco: beneficiary.bankAccount.ispb,
          agencia: beneficiary.bankAccount.branch,
          conta: beneficiary.bankAccount.account,
        }
      : expected
        ? { nome: expected.name }
        : undefined;
    return (await this.post(`/_fake/envios/${idEnvioFor(transactionId)}/settle`, recebedor ? { recebedor } : {})).status === 200;
  }

  async reject(transactionId: string, refusedCode: string, refusedReason: string): Promise<boolean> {
    return (await this.post(`/_fake/envios/${idEnvioFor(transactionId)}/reject`, { codigo: refusedCode, motivo: refusedReason })).status === 200;
  }

  // ---- Pix Automático: the payer's bank (control.ts: `/_fake/solicrec`, `/_fake/rec`, `/_fake/cobr`) ----------

  /** The recurrence as the provider holds it (`GET /rec/{idRec}`), to know how its consent is asked. */
  private async readRec(idRec: string): Promise<components['schemas']['Rec'] | undefined> {
    const read = await this.transport.call<components['schemas']['Rec']>('readRec', true, (init) =>
      this.transport.client.GET('/v2/rec/{idRec}', { params: { path: { idRec } }, ...init }),
    );
    return read.status === 200 ? read.data : undefined;
  }

  /**
   * The request journey answers the recurrence's pending consent request (`/_fake/solicrec/:id/...`: an
   * expired request leaves the recurrence CRIADA at the fake); the QR journeys answer the recurrence itself
   * (`/_fake/rec/:idRec/...`, JORNADA_3 when it names a cob, which the approval pays, else JORNADA_2).
   */
  async answerConsent(recurrenceRef: string, answer: ConsentAnswer): Promise<boolean> {
    const rec = await this.readRec(recurrenceRef);
    if (!rec || rec.status !== 'CRIADA') return false;
    const pending = (rec.solicitacao ?? []).filter((item) => item.status === 'CRIADA' || item.status === 'ENVIADA' || item.status === 'RECEBIDA').at(-1);
    const maximum = answer.outcome === 'approve' && answer.payerMaximumCents !== undefined ? { valorMaximo: toValor(answer.payerMaximumCents) } : {};
    const rejection = answer.outcome === 'reject' ? { codigo: answer.code } : {};
    let path: string;
    let body: Record<string, unknown>;
    if (pending) {
      const verb = answer.outcome === 'approve' ? 'accept' : answer.outcome;
      path = `/_fake/solicrec/${encodeURIComponent(pending.idSolicRec)}/${verb}`;
      body = { ...maximum, ...rejection };
    } else {
      path = `/_fake/rec/${encodeURIComponent(recurrenceRef)}/${answer.outcome}`;
      const txid = rec.ativacao?.dadosJornada?.txid;
      body = answer.outcome === 'approve' ? { jornada: txid !== undefined ? 'JORNADA_3' : 'JORNADA_2', ...(txid !== undefined ? { txid } : {}), ...maximum } : rejection;
    }
    return (await this.post(path, body)).status === 200;
  }

  async cancelRecurrenceAsPayer(recurrenceRef: string, code: string, by: 'payer' | 'payer_bank' = 'payer'): Promise<boolean> {
    const answer = await this.post(`/_fake/rec/${encodeURIComponent(recurrenceRef)}/cancel`, { codigo: code, solicitante: by === 'payer_bank' ? 'PSP_PAGADOR' : 'USUARIO_PAGADOR' });
    return answer.status === 200;
  }

  /** Pays the open attempt (answers the end-to-end id of its PAGA attempt) or refuses it (undefined); false when none is open. */
  async debitCycle(chargeRef: string, refusal?: { code: string; description?: string | undefined }): Promise<string | undefined | false> {
    const txid = encodeURIComponent(chargeRef);
    if (refusal) {
      const refused = await this.post(`/_fake/cobr/${txid}/refuse`, { codigo: refusal.code, ...(refusal.description !== undefined ? { descricao: refusal.description } : {}) });
      // A code the fake does not take (not one of the standard's) is refused like an attempt not open: the
      // sandbox answers 409, never a 500 for what an operator can type.
      return refused.status === 200 ? undefined : false;
    }
    const paid = await this.post(`/_fake/cobr/${txid}/pay`, {});
    if (paid.status !== 200) return false;
    const cobr = paid.body as components['schemas']['CobR'];
    const attempt = (cobr.tentativas ?? []).filter((tentativa) => tentativa.status === 'PAGA').at(-1);
    return attempt?.endToEndId ?? cobr.pix?.[0]?.endToEndId ?? false;
  }

  async cancelCycleAsPayer(chargeRef: string, code: string): Promise<boolean> {
    return (await this.post(`/_fake/cobr/${encodeURIComponent(chargeRef)}/cancel`, { codigo: code })).status === 200;
  }

  async returnTransfer(transactionId: string, amountCents: number): Promise<boolean> {
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) return false;
    return (await this.post(`/_fake/envios/${idEnvioFor(transactionId)}/return`, { valor: toValor(amountCents) })).status === 200;
  }

  private endToEndIdOfRefund(refundId: string): Promise<string | undefined> {
    return endToEndIdOfRefund(this.db, refundId);
  }

  async settleRefund(refundId: string): Promise<boolean> {
    const e2eid = await this.endToEndIdOfRefund(refundId);
    if (!e2eid) return false;
    return (await this.post(`/_fake/devolucoes/${e2eid}/${devolucaoIdFor(refundId)}/settle`)).status === 200;
  }

  async rejectRefund(refundId: string, _refusedCode: string, refusedReason: string): Promise<boolean> {
    const e2eid = await this.endToEndIdOfRefund(refundId);
    if (!e2eid) return false;
    return (await this.post(`/_fake/devolucoes/${e2eid}/${devolucaoIdFor(refundId)}/reject`, { motivo: refusedReason })).status === 200;
  }

  /** The fake's faults that produce `count` times the simulation's `outcome` of `operation`, through every attempt. */
  faultsFor(operation: ProviderOperation, outcome: FaultOutcome, count = 1): FakeFault[] {
    const attempts = this.transport.attempts;
    const write = WRITE[operation];
    const rules: FakeFault[] = [];
    for (let i = 0; i < count; i += 1) {
      switch (outcome) {
        case 'succeed':
          break;
        case 'fail':
          rules.push({ operation: write, mode: 'error', status: 503, count: attempts });
          break;
        case 'timeout':
          rules.push({ operation: write, mode: 'drop_after', count: attempts });
          break;
        case 'timeout_unsent':
          rules.push({ operation: write, mode: 'drop_before', count: attempts });
          break;
        case 'cut': {
          rules.push({ operation: write, mode: 'garbled', count: 1 });
          const read = READ_BACK[operation];
          if (read) rules.push({ operation: read, mode: 'error', status: 503, count: attempts });
          break;
        }
      }
    }
    const queue = this.pending.get(operation) ?? [];
    queue.push({ outcome, remaining: count });
    this.pending.set(operation, queue);
    return rules;
  }

  async queueOutcome(operation: ProviderOperation, outcome: FaultOutcome, count = 1): Promise<void> {
    for (const rule of this.faultsFor(operation, outcome, count)) await this.post('/_fake/faults', rule);
  }

  async clearOutcomes(): Promise<void> {
    await this.transport.control('DELETE', '/_fake/faults');
    this.pending.clear();
  }

  /** What was queued through this sandbox (the fake consumes its faults itself). */
  pendingOutcomes(): Record<string, { outcome: FaultOutcome; remaining: number }[]> {
    return Object.fromEntries([...this.pending].map(([operation, queue]) => [operation, queue.map((fault) => ({ ...fault }))]));
  }
}
