/**
 * The sandbox: what a development or test provider can be told to do, so every branch of the contract can
 * be produced on demand (a payer pays, a send settles or is refused, a refund is confirmed, the next calls
 * fail). Two implementations: the in-process simulation (`SimulatedProvider`, `PSP=simulated`) and the
 * fake provider's control API (`EfiSandbox`, `PSP=efi` pointed at `npm run start:psp`'s fake). A real
 * provider has none: the back office's and the dashboard's sandbox actions answer that they need one.
 */
import type { PartyJson } from '../db/schema.ts';
import type { ChargeKind, DevolucaoNature } from './port.ts';
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

/** The payer's answer to a recurrence's consent (Pix Automático), as their bank reports it. */
export type ConsentAnswer =
  | { outcome: 'approve'; payerMaximumCents?: number | undefined }
  /** API Pix `encerramento.rejeicao.codigo`: `AP13`, `AP14`. */
  | { outcome: 'reject'; code: string }
  | { outcome: 'expire' };

export interface ProviderSandbox {
  readonly kind: 'simulated' | 'fake';
  /**
   * A payer pays the charge at the provider; answers the end-to-end id of the Pix the provider received
   * (undefined when it refused the payment: the charge is not payable there). The simulation takes the
   * end-to-end id it is given, if any; the fake makes its own.
   */
  payAtProvider(input: {
    providerRef: string;
    amountCents: number;
    payer?: PartyJson | undefined;
    endToEndId?: string | undefined;
    /** A charge with a due date is paid at its own resource (API Pix `cobv`). */
    kind?: ChargeKind | undefined;
  }): Promise<string | undefined>;
  /**
   * A payer pays a static QR code: a Pix of `amountCents` (the payer's own on an open amount) on the
   * receiving key, naming the code's `txid` (BR Code field 62-05), as the payer's bank sends it. Nothing
   * at the provider checks it (a static code is not registered there); answers the end-to-end id.
   */
  payStaticQrCode(input: { txid: string; amountCents: number; payer?: PartyJson | undefined; endToEndId?: string | undefined }): Promise<string>;
  /**
   * The provider gives (part of) a received Pix back without PixGate asking: a MED devolução (`MED_*`: the
   * payer's bank took it back), or one the merchant made outside the API (`ORIGINAL`). `id` is the
   * devolução's id at the provider (a repeat with the same id makes nothing). False when the provider
   * refuses it (its devoluções would pass the Pix, refunds in flight included).
   */
  devolve(input: { endToEndId: string; amountCents: number; nature: DevolucaoNature; id: string }): Promise<boolean>;
  /** The payer's bank files a MED infraction against a received Pix; answers its id at the provider. */
  openInfraction(input: { endToEndId: string; amountCents: number; reason: string; situation?: string | undefined }): Promise<string>;
  /** The provider blocks the infraction's money as a precaution (bloqueio cautelar); false when it is not open. */
  blockInfraction(infractionId: string): Promise<boolean>;
  /**
   * The provider's analysis ends: `ACEITA` (the infraction stands: the provider makes the MED devolução of
   * what the Pix can still give), `REJEITADA`, or `CANCELADA_EFI`. False when it is already closed.
   */
  closeInfraction(infractionId: string, outcome: 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI'): Promise<boolean>;
  /** A send reached the beneficiary; false when it is not accepted. */
  settle(transactionId: string, beneficiary?: PartyJson): Promise<boolean>;
  reject(transactionId: string, refusedCode: string, refusedReason: string): Promise<boolean>;
  returnTransfer(transactionId: string, amountCents: number): Promise<boolean>;
  settleRefund(refundId: string): Promise<boolean>;
  rejectRefund(refundId: string, refusedCode: string, refusedReason: string): Promise<boolean>;
  /** Pix Automático, the payer's end: answers a consent; false when the recurrence no longer waits for one. */
  answerConsent(recurrenceRef: string, answer: ConsentAnswer): Promise<boolean>;
  /** The payer (or their bank) cancels an approved recurrence, with the catalogue's code; its open cycles end with it. */
  cancelRecurrenceAsPayer(recurrenceRef: string, code: string, by?: 'payer' | 'payer_bank'): Promise<boolean>;
  /**
   * The payer's bank answers a cycle's open attempt now: debits it (answers the Pix's end-to-end id) or refuses
   * it with a code (answers undefined); false when no attempt is open.
   */
  debitCycle(chargeRef: string, refusal?: { code: string; description?: string | undefined }): Promise<string | undefined | false>;
  /** The payer cancels one cycle before it is debited; false when it is not open. */
  cancelCycleAsPayer(chargeRef: string, code: string): Promise<boolean>;
  queueOutcome(operation: ProviderOperation, outcome: FaultOutcome, count?: number): void | Promise<void>;
  clearOutcomes(): void | Promise<void>;
  pendingOutcomes(): Record<string, { outcome: FaultOutcome; remaining: number }[]>;
}

/** The sandbox of a server, for sandbox actions; refused on a server with a real provider. */
export function requireSandbox(deps: { sandbox: ProviderSandbox | undefined }): ProviderSandbox {
  if (!deps.sandbox) throw new SimulatedProviderRequired();
  return deps.sandbox;
}
