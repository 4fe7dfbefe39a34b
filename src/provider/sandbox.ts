/**
 * The sandbox: what a development or test provider can be told to do, so every branch of the contract can
 * be produced on demand (a payer pays, a send settles or is refused, a refund is confirmed, the next calls
 * fail). Two implementations: the in-process simulation (`SimulatedProvider`, `PSP=simulated`) and the
 * fake provider's control API (`EfiSandbox`, `PSP=efi` pointed at `npm run start:psp`'s fake). A real
 * provider has none: the back office's and the dashboard's sandbox actions answer that they need one.
 */
import type { PartyJson } from '../db/schema.ts';
import { SimulatedProviderRequired } from './provider.errors.ts';

export type ProviderOperation = 'registerCharge' | 'sendWithdrawal' | 'queryWithdrawal' | 'sendRefund' | 'queryRefund';

/**
 * Queued answers of the provider:
 * - `succeed`: the default.
 * - `fail`: a definite failure; nothing happens upstream.
 * - `timeout`: no answer in time, but the provider did take the order (reconciliation finds it).
 * - `timeout_unsent`: no answer in time, and the order never reached the provider (reconciliation: not found).
 * - `cut`: the provider took the order and its confirmation was cut short.
 */
export type FaultOutcome = 'succeed' | 'fail' | 'timeout' | 'timeout_unsent' | 'cut';

export interface ProviderSandbox {
  readonly kind: 'simulated' | 'fake';
  /**
   * A payer pays the charge at the provider. The simulation has no payer end (undefined: the caller
   * applies the payment itself); the fake answers the end-to-end id of the Pix it received.
   */
  payAtProvider(input: { providerRef: string; amountCents: number; payer?: PartyJson | undefined }): Promise<string | undefined>;
  /** The payer's bank takes (part of) a received Pix back (a MED refund): the provider's money moves too. */
  chargeback(input: { endToEndId: string; amountCents: number }): Promise<void>;
  /** A send reached the beneficiary; false when it is not accepted. */
  settle(transactionId: string, beneficiary?: PartyJson): Promise<boolean>;
  reject(transactionId: string, refusedCode: string, refusedReason: string): Promise<boolean>;
  returnTransfer(transactionId: string, amountCents: number): Promise<boolean>;
  settleRefund(refundId: string): Promise<boolean>;
  rejectRefund(refundId: string, refusedCode: string, refusedReason: string): Promise<boolean>;
  queueOutcome(operation: ProviderOperation, outcome: FaultOutcome, count?: number): void | Promise<void>;
  clearOutcomes(): void | Promise<void>;
  pendingOutcomes(): Record<string, { outcome: FaultOutcome; remaining: number }[]>;
}

/** The sandbox of a server, for sandbox actions; refused on a server with a real provider. */
export function requireSandbox(deps: { sandbox: ProviderSandbox | undefined }): ProviderSandbox {
  if (!deps.sandbox) throw new SimulatedProviderRequired();
  return deps.sandbox;
}
