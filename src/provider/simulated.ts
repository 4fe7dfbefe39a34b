import { randomBytes } from 'node:crypto';
import {
  ProviderFailure,
  ProviderTimeout,
  type PixProvider,
  type RegisterChargeInput,
  type RegisteredCharge,
} from './port.ts';

export type ProviderOperation = 'registerCharge' | 'sendWithdrawal' | 'queryWithdrawal';
export type FaultOutcome = 'fail' | 'timeout' | 'succeed';

interface Fault {
  outcome: FaultOutcome;
  remaining: number;
}

/**
 * An in-process PSP for development, the sandbox and tests. By default every call succeeds; the back
 * office (or a test) queues outcomes per operation so every branch of the contract can be produced on
 * demand: `fail` answers with a failure, `timeout` behaves as an upstream that never answered.
 */
export class SimulatedProvider implements PixProvider {
  readonly name = 'simulated';
  readonly ispb = '99999008';
  private readonly faults = new Map<ProviderOperation, Fault[]>();
  /** How long a simulated timeout takes before failing (tests keep it at 0). */
  private readonly timeoutDelayMs: number;

  constructor(options: { timeoutDelayMs?: number } = {}) {
    this.timeoutDelayMs = options.timeoutDelayMs ?? 0;
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
    await this.applyFault('registerCharge');
    return {
      providerRef: `sim-${randomBytes(8).toString('hex')}`,
      locationUrl: `pix.pixgate.com.br/qr/v2/${input.transactionId.replace(/^tx_/, '')}`,
    };
  }

  private async applyFault(operation: ProviderOperation): Promise<void> {
    const queue = this.faults.get(operation);
    const next = queue?.[0];
    if (!queue || !next) return;
    next.remaining -= 1;
    if (next.remaining <= 0) queue.shift();
    if (next.outcome === 'fail') throw new ProviderFailure(`simulated ${operation} failure`);
    if (next.outcome === 'timeout') {
      if (this.timeoutDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.timeoutDelayMs));
      throw new ProviderTimeout(`simulated ${operation} timeout`);
    }
  }
}
