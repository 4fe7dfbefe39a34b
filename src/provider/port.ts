/**
 * The upstream PSP (the direct SPI participant that actually moves money) behind one interface.
 * The gateway never talks to a PSP any other way; `SimulatedProvider` is the default implementation.
 */

import type { PartyJson } from '../db/schema.ts';

export interface RegisterChargeInput {
  transactionId: string;
  amountCents: number;
  expiresAtMs: number;
}

export interface RegisteredCharge {
  /** The PSP's own id of the charge. */
  providerRef: string;
  /** Location of the dynamic BR Code payload, without scheme (BR Code field 26, sub-field 25). */
  locationUrl: string;
}

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

export interface PixProvider {
  readonly name: string;
  /** ISPB of the PSP, used in the end-to-end ids it issues. */
  readonly ispb: string;
  registerCharge(input: RegisterChargeInput): Promise<RegisteredCharge>;
  /** Orders a payment out. Resolves with the PSP's reference when it was accepted. */
  sendWithdrawal(input: SendWithdrawalInput): Promise<{ providerRef: string }>;
  queryWithdrawal(transactionId: string): Promise<ProviderWithdrawalStatus>;
  /** Asks for a refund of (part of) a received payment. Resolves with the PSP's reference when accepted. */
  sendRefund(input: SendRefundInput): Promise<{ providerRef: string }>;
  queryRefund(refundId: string): Promise<ProviderRefundStatus>;
}
