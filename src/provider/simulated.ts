import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../platform/clock.ts';
import type { Database, PartyJson } from '../db/schema.ts';
import { generateEndToEndId } from '../primitives/endToEndId.ts';
import type { FaultOutcome, ProviderOperation, ProviderSandbox } from './sandbox.ts';
import { changeAcceptedTransfer, findTransfer, insertAcceptedTransfer, recordReturn } from './simulated.repository.ts';
import { changeAcceptedRefund, findSimRefund, insertAcceptedRefund } from './simulatedRefunds.repository.ts';
import {
  ProviderConfirmationLost,
  ProviderFailure,
  ProviderTimeout,
  type PixProvider,
  type ProviderRefundStatus,
  type ProviderWithdrawalStatus,
  type ProviderFact,
  type ReceivedPix,
  type RegisterChargeInput,
  type RemovedCharge,
  type SendRefundInput,
  type RegisteredCharge,
  type SendWithdrawalInput,
} from './port.ts';

export type { FaultOutcome, ProviderOperation } from './sandbox.ts';

interface Fault {
  outcome: FaultOutcome;
  remaining: number;
}

/** Bank of the simulated beneficiaries. */
const BENEFICIARY_ISPB = '99999004';

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
  readonly name = 'simulated';
  readonly kind = 'simulated';
  readonly ispb = '99999008';
  private readonly faults = new Map<ProviderOperation, Fault[]>();
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly settleAfterMs: number | null;
  private readonly timeoutDelayMs: number;

  constructor(db: Kysely<Database>, clock: Clock, options: SimulatedProviderOptions = {}) {
    this.db = db;
    this.clock = clock;
    this.settleAfterMs = options.settleAfterMs ?? null;
    this.timeoutDelayMs = options.timeoutDelayMs ?? 0;
  }

  /** The simulation has no payer end: the sandbox applies the payment itself (src/charges/charge.sandbox.ts). */
  async payAtProvider(): Promise<string | undefined> {
    return undefined;
  }

  /** Nothing to move upstream: the simulation holds no money. */
  async chargeback(): Promise<void> {}

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

  /** Payments of simulated charges are applied by the sandbox itself: there is nothing to remove upstream. */
  async removeCharge(): Promise<RemovedCharge> {
    return { state: 'removed' };
  }

  /** The simulation reports payments directly (the sandbox); it has no received Pix to read or list. */
  async readReceivedPix(): Promise<ReceivedPix | undefined> {
    return undefined;
  }

  async *listReceivedPix(): AsyncIterable<ReceivedPix> {
    // Nothing to list: see readReceivedPix.
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
    const row = await findTransfer(this.db, transactionId);
    if (!row || (row.state !== 'paid' && row.state !== 'returned')) return false;
    const returned = (row.returned_cents ?? 0) + amountCents;
    if (amountCents <= 0 || returned > row.amount_cents) return false;
    await recordReturn(this.db, transactionId, {
      returnedCents: returned,
      refundEndToEndId: generateEndToEndId({ ispb: BENEFICIARY_ISPB, atMs: nowMs, kind: 'D' }),
      at: new Date(nowMs),
    });
    return true;
  }

  async sendRefund(input: SendRefundInput): Promise<{ providerRef: string }> {
    const outcome = this.nextOutcome('sendRefund');
    if (outcome === 'fail') throw new ProviderFailure('simulated sendRefund failure');
    if (outcome === 'timeout_unsent') await this.timeOut('sendRefund');
    const providerRef = `sim-${input.refundId}`;
    const nowMs = this.clock.now();
    await insertAcceptedRefund(this.db, {
      refundId: input.refundId,
      endToEndId: input.endToEndId,
      amountCents: input.amountCents,
      description: input.description ?? null,
      settleAt: this.settleAfterMs === null ? null : new Date(nowMs + this.settleAfterMs),
      at: new Date(nowMs),
    });
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
