import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../platform/clock.ts';
import type { Database, PartyJson } from '../db/schema.ts';
import { generateEndToEndId } from '../primitives/endToEndId.ts';
import type { ConsentAnswer, FaultOutcome, ProviderOperation, ProviderSandbox } from './sandbox.ts';
import { changeAcceptedTransfer, findTransfer, insertAcceptedTransfer, listTransfers, recordReturn } from './simulated.repository.ts';
import { changeAcceptedRefund, findSimRefund, insertAcceptedRefund } from './simulatedRefunds.repository.ts';
import { SimulatedRecurrences } from './simulatedRecurrences.ts';
import {
  devolucoesOf,
  findInfraction,
  findReceived,
  heldCents,
  insertDevolucao,
  insertInfraction,
  insertReceived,
  listInfractions as listSimInfractions,
  listReceived,
  lockInfraction,
  lockReturnable,
  receivedFor,
  updateInfraction,
  type SimDevolucaoView,
  type SimReceived,
} from './simulatedBooks.repository.ts';
import {
  ProviderConfirmationLost,
  ProviderFailure,
  ProviderRefusedRefund,
  ProviderTimeout,
  type DevolucaoNature,
  type InfractionDefence,
  type ListedSend,
  type PixProvider,
  type ProviderBalance,
  type ProviderInfraction,
  type ProviderRefundStatus,
  type ProviderWithdrawalStatus,
  type ProviderFact,
  type ReceivedDevolucao,
  type ReceivedPix,
  type RegisterChargeInput,
  type RegisterDueChargeInput,
  type DueChargeBatchItemState,
  type RemovedCharge,
  type SendRefundInput,
  type RegisteredCharge,
  type SendWithdrawalInput,
  type ProviderRecurrence,
  type ProviderRecurringCharge,
  type RegisterRecurrenceInput,
  type RegisterRecurringChargeInput,
  type RegisteredRecurrence,
  ProviderRefusedRecurringCharge,
} from './port.ts';

export type { FaultOutcome, ProviderOperation } from './sandbox.ts';

interface Fault {
  outcome: FaultOutcome;
  remaining: number;
}

/** Bank of the simulated beneficiaries. */
const BENEFICIARY_ISPB = '99999004';
/** A payer for sandbox payments when none is given: a valid CPF at a fictitious bank. */
const SANDBOX_PAYER: PartyJson = {
  name: 'PAGADOR SANDBOX',
  document: '52998224725',
  documentType: 'cpf',
  bankAccount: { ispb: '99999004', branch: '0001', account: '123456-7' },
};
/** The sandbox payer with an account number of its own (each payment from a different account). */
function sandboxPayer(): PartyJson {
  return { ...SANDBOX_PAYER, bankAccount: { ...SANDBOX_PAYER.bankAccount, account: `${100_000 + (randomBytes(3).readUIntBE(0, 3) % 900_000)}-${randomBytes(1)[0]! % 10}` } };
}
/** The simulation's receiving key: a random key (EVP) as providers give a gateway, the longest kind but e-mail. */
const SIMULATED_PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';
/** How long the analysis of a simulated MED infraction may take (the Central Bank's 7 days). */
const INFRACTION_ANALYSIS_MS = 7 * 86_400_000;

export interface SimulatedProviderOptions {
  /** Accepted withdrawals (and refunds) settle this long after acceptance; null: only when told to (tests). */
  settleAfterMs?: number | null;
  /** How long a simulated timeout takes before failing (tests keep it at 0). */
  timeoutDelayMs?: number;
}

/**
 * An in-process PSP for development, the sandbox and tests. Its transfers live in a table of their own
 * (`sim_psp_transfers`), as an external PSP's would: they survive restarts and are shared by every server
 * process. By default every call succeeds; the back office (or a test) queues outcomes per operation so
 * every branch of the contract can be produced on demand, and settles, rejects or returns transfers.
 */
export class SimulatedProvider implements PixProvider, ProviderSandbox {
  readonly capabilities = { payouts: true, balance: true, infractions: true, recurrences: true };
  readonly name = 'simulated';
  readonly kind = 'simulated';
  readonly ispb = '99999008';
  readonly receivingKey = SIMULATED_PIX_KEY;
  private readonly faults = new Map<ProviderOperation, Fault[]>();
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly settleAfterMs: number | null;
  private readonly timeoutDelayMs: number;

  private readonly recurrences: SimulatedRecurrences;

  constructor(db: Kysely<Database>, clock: Clock, options: SimulatedProviderOptions = {}) {
    this.db = db;
    this.clock = clock;
    this.recurrences = new SimulatedRecurrences(db, clock, this.ispb);
    this.settleAfterMs = options.settleAfterMs ?? null;
    this.timeoutDelayMs = options.timeoutDelayMs ?? 0;
  }

  /** The payer end: the simulation receives the Pix (one per charge: a paid one takes no more). */
  async payAtProvider(input: { providerRef: string; amountCents: number; payer?: PartyJson | undefined; endToEndId?: string | undefined }): Promise<string | undefined> {
    if ((await receivedFor(this.db, input.providerRef)).length > 0) return undefined;
    const nowMs = this.clock.now();
    const payer = input.payer ?? sandboxPayer();
    const endToEndId = input.endToEndId ?? generateEndToEndId({ ispb: payer.bankAccount.ispb, atMs: nowMs, kind: 'E' });
    await insertReceived(this.db, { endToEndId, providerRef: input.providerRef, amountCents: input.amountCents, payer, at: new Date(nowMs) });
    return endToEndId;
  }

  /** A Pix to a static QR code: received with the code's txid, as many as payers send (nothing checks it here). */
  async payStaticQrCode(input: { txid: string; amountCents: number; payer?: PartyJson | undefined; endToEndId?: string | undefined }): Promise<string> {
    const nowMs = this.clock.now();
    const payer = input.payer ?? sandboxPayer();
    const endToEndId = input.endToEndId ?? generateEndToEndId({ ispb: payer.bankAccount.ispb, atMs: nowMs, kind: 'E' });
    await insertReceived(this.db, { endToEndId, providerRef: input.txid, amountCents: input.amountCents, payer, at: new Date(nowMs) });
    return endToEndId;
  }

  async devolve(input: { endToEndId: string; amountCents: number; nature: DevolucaoNature; id: string }): Promise<boolean> {
    const nowMs = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const left = await lockReturnable(trx, input.endToEndId);
      if (left === undefined || input.amountCents <= 0 || input.amountCents > left) return false;
      return insertDevolucao(trx, {
        id: input.id,
        endToEndId: input.endToEndId,
        rtrId: generateEndToEndId({ ispb: this.ispb, atMs: nowMs, kind: 'D' }),
        natureza: input.nature,
        amountCents: input.amountCents,
        at: new Date(nowMs),
      });
    });
  }

  async openInfraction(input: { endToEndId: string; amountCents: number; reason: string; situation?: string | undefined }): Promise<string> {
    const nowMs = this.clock.now();
    const id = `inf${randomBytes(12).toString('hex')}`;
    await insertInfraction(this.db, {
      id,
      end_to_end_id: input.endToEndId,
      amount_cents: input.amountCents,
      status: 'ABERTA',
      reason: input.reason,
      situation: input.situation ?? null,
      opened_at: new Date(nowMs),
      deadline_at: new Date(nowMs + INFRACTION_ANALYSIS_MS),
      updated_at: new Date(nowMs),
    });
    return id;
  }

  /** The block covers what the Pix still holds, up to the infraction's amount. */
  async blockInfraction(infractionId: string): Promise<boolean> {
    const now = new Date(this.clock.now());
    return this.db.transaction().execute(async (trx) => {
      const infraction = await lockInfraction(trx, infractionId);
      if (!infraction || (infraction.status !== 'ABERTA' && infraction.status !== 'EM_DEFESA')) return false;
      const left = (await lockReturnable(trx, infraction.end_to_end_id)) ?? 0;
      await updateInfraction(trx, infractionId, { blocked_cents: Math.max(0, Math.min(Number(infraction.amount_cents), left)), updated_at: now });
      return true;
    });
  }

  async closeInfraction(infractionId: string, outcome: 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI'): Promise<boolean> {
    const nowMs = this.clock.now();
    const now = new Date(nowMs);
    return this.db.transaction().execute(async (trx) => {
      const infraction = await lockInfraction(trx, infractionId);
      if (!infraction || (infraction.status !== 'ABERTA' && infraction.status !== 'EM_DEFESA')) return false;
      await updateInfraction(trx, infractionId, { status: outcome, blocked_cents: 0, closed_at: now, updated_at: now });
      if (outcome !== 'ACEITA') return true;
      // The infraction stands: the provider gives back what the Pix can still give, up to its amount.
      const left = (await lockReturnable(trx, infraction.end_to_end_id)) ?? 0;
      const amountCents = Math.min(Number(infraction.amount_cents), left);
      if (amountCents > 0) {
        await insertDevolucao(trx, {
          id: `med${infractionId.slice(3, 27)}`,
          endToEndId: infraction.end_to_end_id,
          rtrId: generateEndToEndId({ ispb: this.ispb, atMs: nowMs, kind: 'D' }),
          natureza: 'MED_FRAUDE',
          amountCents,
          at: now,
        });
      }
      return true;
    });
  }

  /** Queues `count` answers of `outcome` for the next calls of `operation`. */
  queueOutcome(operation: ProviderOperation, outcome: FaultOutcome, count = 1): void {
    const queue = this.faults.get(operation) ?? [];
    queue.push({ outcome, remaining: count });
    this.faults.set(operation, queue);
  }

  clearOutcomes(): void {
    this.faults.clear();
  }

  pendingOutcomes(): Record<string, { outcome: FaultOutcome; remaining: number }[]> {
    return Object.fromEntries([...this.faults].map(([operation, queue]) => [operation, queue.map((f) => ({ ...f }))]));
  }

  async registerCharge(input: RegisterChargeInput): Promise<RegisteredCharge> {
    const outcome = this.nextOutcome('registerCharge');
    if (outcome === 'fail') throw new ProviderFailure('simulated registerCharge failure');
    if (outcome !== 'succeed') await this.timeOut('registerCharge');
    return {
      providerRef: `sim-${randomBytes(8).toString('hex')}`,
      locationUrl: `pix.pixgate.com.br/qr/v2/${input.transactionId.replace(/^tx_/, '')}`,
    };
  }

  /** A charge with a due date: the same registration (the simulation computes no amount; the sandbox's payer does). */
  async registerDueCharge(input: RegisterDueChargeInput): Promise<RegisteredCharge> {
    const outcome = this.nextOutcome('registerCharge');
    if (outcome === 'fail') throw new ProviderFailure('simulated registerDueCharge failure');
    if (outcome !== 'succeed') await this.timeOut('registerCharge');
    return {
      providerRef: `sim-${randomBytes(8).toString('hex')}`,
      locationUrl: `pix.pixgate.com.br/qr/v2/cobv/${input.transactionId.replace(/^tx_/, '')}`,
    };
  }

  /** The simulation takes a batch at once: every item is created, under a reference its transaction id names. */
  async registerDueChargeBatch(): Promise<void> {
    const outcome = this.nextOutcome('registerCharge');
    if (outcome === 'fail') throw new ProviderFailure('simulated registerDueChargeBatch failure');
    if (outcome !== 'succeed') await this.timeOut('registerCharge');
  }

  async readDueChargeBatch({ items }: { batchRef: string; items: RegisterDueChargeInput[] }): Promise<Map<string, DueChargeBatchItemState>> {
    return new Map(
      items.map((item) => {
        const id = item.transactionId.replace(/^tx_/, '');
        return [item.transactionId, { state: 'created', charge: { providerRef: `sim-batch-${id}`, locationUrl: `pix.pixgate.com.br/qr/v2/cobv/${id}` } }];
      }),
    );
  }

  /** A revision is taken while no payment arrived for the charge (the simulation keeps no terms of its own). */
  async reviseDueCharge(input: RegisterDueChargeInput & { providerRef: string }): Promise<boolean> {
    const outcome = this.nextOutcome('registerCharge');
    if (outcome === 'fail') throw new ProviderFailure('simulated reviseDueCharge failure');
    if (outcome !== 'succeed') await this.timeOut('registerCharge');
    return (await receivedFor(this.db, input.providerRef)).length === 0;
  }

  /** A simulated charge takes a payment only through the sandbox: removing it finds the payment, if any. */
  async removeCharge({ providerRef }: { transactionId: string; providerRef: string }): Promise<RemovedCharge> {
    const paid = await receivedFor(this.db, providerRef);
    return paid.length > 0 ? { state: 'paid', endToEndIds: paid } : { state: 'removed' };
  }

  async readReceivedPix(endToEndId: string): Promise<ReceivedPix | undefined> {
    const pix = await findReceived(this.db, endToEndId);
    return pix === undefined ? undefined : this.received(pix, await devolucoesOf(this.db, [endToEndId]));
  }

  async *listReceivedPix(fromMs: number, toMs: number): AsyncIterable<ReceivedPix> {
    const received = await listReceived(this.db, new Date(fromMs), new Date(toMs));
    const devolucoes = await devolucoesOf(this.db, received.map((pix) => pix.end_to_end_id));
    for (const pix of received) yield this.received(pix, devolucoes);
  }

  private received(pix: SimReceived, devolucoesByPix: Map<string, SimDevolucaoView[]>): ReceivedPix {
    const devolucoes: ReceivedDevolucao[] = (devolucoesByPix.get(pix.end_to_end_id) ?? []).map((devolucao) => ({
      id: devolucao.id,
      ...(devolucao.requested ? { refundId: devolucao.id } : {}),
      ...(devolucao.rtr_id !== null ? { rtrId: devolucao.rtr_id } : {}),
      amountCents: devolucao.amount_cents,
      nature: devolucao.natureza as DevolucaoNature,
      state: devolucao.state === 'refunded' ? 'returned' : devolucao.state === 'rejected' ? 'not_returned' : 'processing',
      atMs: devolucao.at.getTime(),
    }));
    return {
      endToEndId: pix.end_to_end_id,
      ...(pix.provider_ref !== null ? { chargeRef: pix.provider_ref } : {}),
      amountCents: pix.amount_cents,
      receivedAtMs: pix.received_at.getTime(),
      ...(pix.payer ? { payer: pix.payer } : {}),
      devolucoes,
    };
  }

  /** The simulation sends no callbacks. */
  async verifyCallback(): Promise<ProviderFact[]> {
    return [];
  }

  async sendWithdrawal(input: SendWithdrawalInput): Promise<{ providerRef: string }> {
    const outcome = this.nextOutcome('sendWithdrawal');
    if (outcome === 'fail') throw new ProviderFailure('simulated sendWithdrawal failure');
    if (outcome === 'timeout_unsent') await this.timeOut('sendWithdrawal');
    const providerRef = `sim-${input.transactionId}`;
    const nowMs = this.clock.now();
    // Idempotent by transactionId, as a real PSP's order id: a second send changes nothing.
    await insertAcceptedTransfer(this.db, {
      transactionId: input.transactionId,
      amountCents: input.amountCents,
      pixKey: input.pixKey,
      pixKeyType: input.pixKeyType,
      settleAt: this.settleAfterMs === null ? null : new Date(nowMs + this.settleAfterMs),
      beneficiary: this.beneficiaryFor(input),
      at: new Date(nowMs),
    });
    if (outcome === 'timeout') await this.timeOut('sendWithdrawal');
    if (outcome === 'cut') throw new ProviderConfirmationLost(providerRef);
    return { providerRef };
  }

  async queryWithdrawal(transactionId: string): Promise<ProviderWithdrawalStatus> {
    const outcome = this.nextOutcome('queryWithdrawal');
    if (outcome === 'fail' || outcome === 'timeout' || outcome === 'timeout_unsent') return { state: 'unknown' };
    const nowMs = this.clock.now();
    let row = await findTransfer(this.db, transactionId);
    if (!row) return { state: 'not_found' };
    if (row.state === 'accepted' && row.settle_at && row.settle_at.getTime() <= nowMs) {
      await this.settle(transactionId);
      row = await findTransfer(this.db, transactionId);
      if (!row) throw new Error(`simulated transfer ${transactionId} vanished`);
    }
    const providerRef = `sim-${transactionId}`;
    switch (row.state) {
      case 'accepted':
        return { state: 'accepted', providerRef };
      case 'paid':
        return {
          state: 'paid',
          providerRef,
          endToEndId: row.end_to_end_id ?? '',
          beneficiary: row.beneficiary as PartyJson,
          paidAtMs: row.updated_at.getTime(),
        };
      case 'rejected':
        return { state: 'rejected', providerRef, refusedCode: row.refused_code ?? 'PROVIDER_REJECTED', refusedReason: row.refused_reason ?? 'Recusado pelo provedor.' };
      case 'returned':
        return {
          state: 'returned',
          providerRef,
          endToEndId: row.end_to_end_id ?? '',
          beneficiary: row.beneficiary as PartyJson,
          refundEndToEndId: row.refund_end_to_end_id ?? '',
          returnedCents: row.returned_cents ?? 0,
        };
    }
  }

  /** Sandbox: the payment reached the beneficiary. Returns false when the transfer is not accepted. */
  async settle(transactionId: string, beneficiary?: PartyJson): Promise<boolean> {
    const nowMs = this.clock.now();
    return changeAcceptedTransfer(this.db, transactionId, {
      state: 'paid',
      end_to_end_id: generateEndToEndId({ ispb: this.ispb, atMs: nowMs, kind: 'E' }),
      ...(beneficiary ? { beneficiary: JSON.stringify(beneficiary) } : {}),
      updated_at: new Date(nowMs),
    });
  }

  /** Sandbox: the PSP or the receiving bank refused an accepted transfer. */
  async reject(transactionId: string, refusedCode: string, refusedReason: string): Promise<boolean> {
    return changeAcceptedTransfer(this.db, transactionId, {
      state: 'rejected',
      refused_code: refusedCode,
      refused_reason: refusedReason,
      updated_at: new Date(this.clock.now()),
    });
  }

  /**
   * Sandbox: the beneficiary's bank returned (part of) a paid transfer. Returns accumulate up to the
   * amount; each return gets its own `D` end-to-end id (the latest is reported).
   */
  async returnTransfer(transactionId: string, amountCents: number): Promise<boolean> {
    const nowMs = this.clock.now();
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) return false;
    return recordReturn(this.db, transactionId, {
      amountCents,
      refundEndToEndId: generateEndToEndId({ ispb: BENEFICIARY_ISPB, atMs: nowMs, kind: 'D' }),
      at: new Date(nowMs),
    });
  }

  async sendRefund(input: SendRefundInput): Promise<{ providerRef: string }> {
    const outcome = this.nextOutcome('sendRefund');
    if (outcome === 'fail') throw new ProviderFailure('simulated sendRefund failure');
    if (outcome === 'timeout_unsent') await this.timeOut('sendRefund');
    const providerRef = `sim-${input.refundId}`;
    const nowMs = this.clock.now();
    // As API Pix: a repeat of the same id changes nothing; devoluções totalling more than the Pix are refused.
    const accepted = await this.db.transaction().execute(async (trx) => {
      if (await findSimRefund(trx, input.refundId)) return true;
      const left = await lockReturnable(trx, input.endToEndId);
      if (left === undefined || input.amountCents > left) return false;
      await insertAcceptedRefund(trx, {
        refundId: input.refundId,
        endToEndId: input.endToEndId,
        amountCents: input.amountCents,
        description: input.description ?? null,
        settleAt: this.settleAfterMs === null ? null : new Date(nowMs + this.settleAfterMs),
        at: new Date(nowMs),
      });
      return true;
    });
    if (!accepted) throw new ProviderRefusedRefund('simulated sendRefund refused: the devoluções would pass the Pix (PixDevolucaoInvalida)');
    if (outcome === 'timeout') await this.timeOut('sendRefund');
    if (outcome === 'cut') throw new ProviderConfirmationLost(providerRef);
    return { providerRef };
  }

  async queryRefund({ refundId }: { refundId: string; endToEndId: string }): Promise<ProviderRefundStatus> {
    const outcome = this.nextOutcome('queryRefund');
    if (outcome === 'fail' || outcome === 'timeout' || outcome === 'timeout_unsent') return { state: 'unknown' };
    let row = await findSimRefund(this.db, refundId);
    if (!row) return { state: 'not_found' };
    if (row.state === 'accepted' && row.settle_at && row.settle_at.getTime() <= this.clock.now()) {
      await this.settleRefund(refundId);
      row = await findSimRefund(this.db, refundId);
      if (!row) throw new Error(`simulated refund ${refundId} vanished`);
    }
    const providerRef = `sim-${refundId}`;
    switch (row.state) {
      case 'accepted':
        return { state: 'accepted', providerRef };
      case 'refunded':
        return { state: 'refunded', providerRef, refundEndToEndId: row.refund_end_to_end_id ?? '', refundedAtMs: row.updated_at.getTime() };
      case 'rejected':
        return { state: 'rejected', providerRef, refusedCode: row.refused_code ?? 'PROVIDER_REJECTED', refusedReason: row.refused_reason ?? 'Devolução recusada pelo provedor.' };
    }
  }

  /** Sandbox: the payer's bank received the refund (a `D` end-to-end id). False when it is not accepted. */
  async settleRefund(refundId: string): Promise<boolean> {
    const nowMs = this.clock.now();
    return changeAcceptedRefund(this.db, refundId, {
      state: 'refunded',
      refund_end_to_end_id: generateEndToEndId({ ispb: this.ispb, atMs: nowMs, kind: 'D' }),
      updated_at: new Date(nowMs),
    });
  }

  /** Sandbox: the PSP or the payer's bank refused an accepted refund. */
  async rejectRefund(refundId: string, refusedCode: string, refusedReason: string): Promise<boolean> {
    return changeAcceptedRefund(this.db, refundId, {
      state: 'rejected',
      refused_code: refusedCode,
      refused_reason: refusedReason,
      updated_at: new Date(this.clock.now()),
    });
  }

  // ---- MED infractions, listings and balance (reconciliation) ----------------------------------------

  async *listInfractions(fromMs: number, toMs: number): AsyncIterable<ProviderInfraction> {
    for (const row of await listSimInfractions(this.db, new Date(fromMs), new Date(toMs))) {
      yield {
        id: row.id,
        endToEndId: row.end_to_end_id,
        amountCents: Number(row.amount_cents),
        status: row.status,
        reason: row.reason,
        ...(row.situation !== null ? { situation: row.situation } : {}),
        openedAtMs: row.opened_at.getTime(),
        deadlineAtMs: row.deadline_at.getTime(),
        blocked: Number(row.blocked_cents) > 0,
      };
    }
  }

  /**
   * The merchant's answer: contested (`rejeitado`) it waits for the provider's analysis (the sandbox's
   * closeInfraction); agreed (`aceito`) the infraction stands at once and the money goes back.
   */
  async defendInfraction(infractionId: string, defence: InfractionDefence): Promise<void> {
    const infraction = await findInfraction(this.db, infractionId);
    if (!infraction || (infraction.status !== 'ABERTA' && infraction.status !== 'EM_DEFESA')) {
      throw new ProviderFailure(`simulated defence refused: infraction ${infractionId} is ${infraction?.status ?? 'unknown'}`);
    }
    await updateInfraction(this.db, infractionId, { status: 'EM_DEFESA', defence: defence.text, defence_analysis: defence.analysis, updated_at: new Date(this.clock.now()) });
    if (defence.analysis === 'aceito') await this.closeInfraction(infractionId, 'ACEITA');
  }

  async *listSends(fromMs: number, toMs: number): AsyncIterable<ListedSend> {
    for (const row of await listTransfers(this.db, new Date(fromMs), new Date(toMs))) {
      yield {
        transactionId: row.transaction_id,
        idEnvio: row.transaction_id,
        endToEndId: row.end_to_end_id ?? '',
        amountCents: Number(row.amount_cents),
        state: row.state === 'paid' || row.state === 'returned' ? 'paid' : row.state === 'rejected' ? 'not_paid' : 'processing',
        returnedCents: Number(row.returned_cents ?? 0),
        atMs: row.created_at.getTime(),
      };
    }
  }

  async balance(): Promise<ProviderBalance> {
    const held = await heldCents(this.db);
    return { availableCents: held.totalCents - held.blockedMedCents, blockedMedCents: held.blockedMedCents, blockedOtherCents: 0 };
  }

  // ---- Pix Automático (simulatedRecurrences.ts) -------------------------------------------------------------

  async registerRecurrence(input: RegisterRecurrenceInput): Promise<RegisteredRecurrence> {
    const outcome = this.nextOutcome('registerCharge');
    if (outcome === 'fail') throw new ProviderFailure('simulated registerRecurrence failure');
    if (outcome !== 'succeed') await this.timeOut('registerCharge');
    return this.recurrences.register(input);
  }

  readRecurrence(input: { providerRef: string }): Promise<ProviderRecurrence | undefined> {
    return this.recurrences.read(input.providerRef);
  }

  cancelRecurrence(providerRef: string): Promise<boolean> {
    return this.recurrences.cancel(providerRef);
  }

  async registerRecurringCharge(input: RegisterRecurringChargeInput): Promise<{ providerRef: string }> {
    const outcome = this.nextOutcome('registerCharge');
    if (outcome === 'fail') throw new ProviderFailure('simulated registerRecurringCharge failure');
    if (outcome !== 'succeed') await this.timeOut('registerCharge');
    const registered = await this.recurrences.registerCharge(input);
    if (registered === 'refused') throw new ProviderRefusedRecurringCharge('the simulation refused the cycle\'s charge (CobROperacaoInvalida)');
    return registered;
  }

  readRecurringCharge(providerRef: string): Promise<ProviderRecurringCharge> {
    return this.recurrences.readCharge(providerRef);
  }

  retryRecurringCharge(providerRef: string, date: string): Promise<boolean> {
    return this.recurrences.retry(providerRef, date);
  }

  cancelRecurringCharge(providerRef: string): Promise<boolean> {
    return this.recurrences.cancelCharge(providerRef);
  }

  answerConsent(providerRef: string, answer: ConsentAnswer): Promise<boolean> {
    return this.recurrences.answerConsent(providerRef, answer);
  }

  cancelRecurrenceAsPayer(providerRef: string, code: string, by: 'payer' | 'payer_bank' = 'payer'): Promise<boolean> {
    return this.recurrences.cancelAsPayer(providerRef, code, by);
  }

  debitCycle(providerRef: string, refusal?: { code: string; description?: string | undefined }): Promise<string | undefined | false> {
    return this.recurrences.debit(providerRef, refusal);
  }

  cancelCycleAsPayer(providerRef: string, code: string): Promise<boolean> {
    return this.recurrences.cancelCharge(providerRef, 'payer', code);
  }

  private beneficiaryFor(input: SendWithdrawalInput): PartyJson {
    return {
      name: input.expectedBeneficiary.name,
      document: input.expectedBeneficiary.document,
      documentType: input.expectedBeneficiary.documentType,
      bankAccount: { ispb: BENEFICIARY_ISPB, branch: '0001', account: `${parseInt(randomBytes(3).toString('hex'), 16) % 1_000_000}-${randomBytes(1)[0]! % 10}` },
    };
  }

  private nextOutcome(operation: ProviderOperation): FaultOutcome {
    const queue = this.faults.get(operation);
    const next = queue?.[0];
    if (!queue || !next) return 'succeed';
    next.remaining -= 1;
    if (next.remaining <= 0) queue.shift();
    return next.outcome;
  }

  private async timeOut(operation: ProviderOperation): Promise<never> {
    if (this.timeoutDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.timeoutDelayMs));
    throw new ProviderTimeout(`simulated ${operation} timeout`);
  }
}
