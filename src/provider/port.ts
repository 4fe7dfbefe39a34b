/**
 * The upstream PSP (the direct SPI participant that actually moves money) behind one interface.
 * The gateway never talks to a PSP any other way; `SimulatedProvider` is the default implementation.
 */

import type { PartyJson } from '../db/schema.ts';

export interface RegisterChargeInput {
  transactionId: string;
  accountId: string;
  /**
   * The merchant's idempotency key, when given: every retry of it names the same charge at the PSP, so a
   * retry never creates a second one there.
   */
  externalRef?: string | undefined;
  amountCents: number;
  createdAtMs: number;
  expiresAtMs: number;
}

export interface RegisteredCharge {
  /** The PSP's own id of the charge (API Pix: the txid). */
  providerRef: string;
  /** Location of the dynamic BR Code payload, without scheme (BR Code field 26, sub-field 25). */
  locationUrl: string;
  /** The BR Code the PSP issued (API Pix `pixCopiaECola`); absent: PixGate builds it from the location. */
  pixPayload?: string | undefined;
}

/** What removing a charge at the PSP found (an expired or cancelled charge must not be payable late). */
export type RemovedCharge =
  | { state: 'removed' }
  /** It was paid first: the payments to apply instead (their end-to-end ids). */
  | { state: 'paid'; endToEndIds: string[] }
  | { state: 'not_found' };

/** A Pix received on PixGate's key, as the PSP's read reports it (the only source crediting trusts). */
export interface ReceivedPix {
  endToEndId: string;
  /** The PSP's id of the charge the payment names (API Pix txid), when it names one. */
  chargeRef?: string | undefined;
  amountCents: number;
  receivedAtMs: number;
  payer?: PartyJson | undefined;
}

/** A provider callback turned into facts, each confirmed by a read before it is reported. */
export type ProviderFact =
  | { kind: 'pix_received'; pix: ReceivedPix }
  | { kind: 'refund_changed'; refundId: string }
  | { kind: 'withdrawal_changed'; transactionId: string };

export interface SendWithdrawalInput {
  /** Also the idempotency key at the PSP: sending the same id twice never pays twice. */
  transactionId: string;
  amountCents: number;
  pixKey: string;
  pixKeyType: string;
  description?: string | undefined;
  /** Who the key must resolve to (the account holder, or the approved recipient). */
  expectedBeneficiary: { name: string; document: string; documentType: 'cpf' | 'cnpj' };
}

/** What the PSP knows of a withdrawal, for reconciliation. */
export type ProviderWithdrawalStatus =
  | { state: 'not_found' }
  | { state: 'unknown' }
  | { state: 'accepted'; providerRef: string }
  | { state: 'paid'; providerRef: string; endToEndId: string; beneficiary: PartyJson; paidAtMs: number }
  | { state: 'rejected'; providerRef: string; refusedCode: string; refusedReason: string }
  | {
      state: 'returned';
      providerRef: string;
      endToEndId: string;
      beneficiary: PartyJson;
      refundEndToEndId: string;
      returnedCents: number;
    };

export interface SendRefundInput {
  /** Also the refund's id at the PSP (the `id` of API Pix's `PUT /pix/{e2eid}/devolucao/{id}`): sending it twice refunds once. */
  refundId: string;
  /** The end-to-end id of the charge's payment, which the refund returns. */
  endToEndId: string;
  amountCents: number;
  /** Sent to the payer's bank (at most 140 characters). */
  description?: string | undefined;
}

/** What the PSP knows of a refund, for reconciliation. */
export type ProviderRefundStatus =
  | { state: 'not_found' }
  | { state: 'unknown' }
  | { state: 'accepted'; providerRef: string }
  | { state: 'refunded'; providerRef: string; refundEndToEndId: string; refundedAtMs: number }
  | { state: 'rejected'; providerRef: string; refusedCode: string; refusedReason: string };

/** The provider refused a withdrawal before accepting it (a definite answer about the order itself). */
export class ProviderRejected extends Error {
  readonly refusedCode: string;
  readonly refusedReason: string;

  constructor(refusedCode: string, refusedReason: string) {
    super(`provider rejected: ${refusedCode}`);
    this.name = 'ProviderRejected';
    this.refusedCode = refusedCode;
    this.refusedReason = refusedReason;
  }
}

/** The provider answered with a failure: nothing was created upstream. */
export class ProviderFailure extends Error {
  constructor(message = 'provider failure') {
    super(message);
    this.name = 'ProviderFailure';
  }
}

/** The provider did not answer in time: the outcome upstream is unknown. */
export class ProviderTimeout extends Error {
  constructor(message = 'provider timeout') {
    super(message);
    this.name = 'ProviderTimeout';
  }
}

/** The provider took the order (we hold its reference) but its confirmation was cut short. */
export class ProviderConfirmationLost extends Error {
  readonly providerRef: string;

  constructor(providerRef: string) {
    super('provider confirmation lost');
    this.name = 'ProviderConfirmationLost';
    this.providerRef = providerRef;
  }
}

/**
 * The port: everything PixGate asks of a PSP. `SimulatedProvider` (the sandbox, `PSP=simulated`) and
 * `EfiProvider` (API Pix + Efí's send API, `PSP=efi`) implement it; nothing above it knows which runs.
 */
export interface PixProvider {
  readonly name: string;
  /** ISPB of the PSP, used in the end-to-end ids it issues. */
  readonly ispb: string;
  registerCharge(input: RegisterChargeInput): Promise<RegisteredCharge>;
  /** Removes a pending charge at the PSP so it can no longer be paid (expired, cancelled). */
  removeCharge(input: { transactionId: string; providerRef: string }): Promise<RemovedCharge>;
  /** Reads one received Pix by its end-to-end id; undefined when the PSP does not know it. */
  readReceivedPix(endToEndId: string): Promise<ReceivedPix | undefined>;
  /** Received Pix of a period (inclusive bounds), for the safety net that catches lost callbacks. */
  listReceivedPix(fromMs: number, toMs: number): AsyncIterable<ReceivedPix>;
  /** A callback body (already past the transport's checks) as facts, each confirmed by a read. */
  verifyCallback(body: unknown): Promise<ProviderFact[]>;
  /** Orders a payment out. Resolves with the PSP's reference when it was accepted. */
  sendWithdrawal(input: SendWithdrawalInput): Promise<{ providerRef: string }>;
  queryWithdrawal(transactionId: string): Promise<ProviderWithdrawalStatus>;
  /** Asks for a refund of (part of) a received payment. Resolves with the PSP's reference when accepted. */
  sendRefund(input: SendRefundInput): Promise<{ providerRef: string }>;
  queryRefund(input: { refundId: string; endToEndId: string }): Promise<ProviderRefundStatus>;
}
