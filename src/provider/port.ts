/**
 * The upstream PSP (the direct SPI participant that actually moves money) behind one interface.
 * The gateway never talks to a PSP any other way; `SimulatedProvider` is the default implementation.
 */

import type {
  ActivationJourney,
  ConsentStatus,
  DueDebtorJson,
  EndedBy,
  PartyJson,
  PayerAccountJson,
  RecurrenceEndedJson,
  RecurrencePeriodicity,
  RecurrenceRetryPolicy,
  RecurrenceStatus,
} from '../db/schema.ts';
import type { DiscountTerms, FineTerms, InterestTerms, RebateTerms } from '../charges/dueAmount.ts';

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
  /** Whom the charge bills (the merchant's customer): sent as API Pix's `devedor` when given. */
  debtor?: { name: string; documentType: 'cpf' | 'cnpj'; document: string } | undefined;
}

/** The terms of a charge with a due date (API Pix `valor.multa`, `juros`, `desconto`, `abatimento`). */
export interface DueChargeTerms {
  fine?: FineTerms | undefined;
  interest?: InterestTerms | undefined;
  discount?: DiscountTerms | undefined;
  rebate?: RebateTerms | undefined;
}

/** A charge with a due date (API Pix `cobv`), as the provider is asked to create or revise it. */
export interface RegisterDueChargeInput {
  transactionId: string;
  accountId: string;
  /** As for an immediate charge: every retry of it names the same charge at the PSP. */
  externalRef?: string | undefined;
  /** `valor.original`. */
  amountCents: number;
  createdAtMs: number;
  /** `calendario.dataDeVencimento` (`YYYY-MM-DD`) and `validadeAposVencimento`. */
  dueDate: string;
  daysAfterDue: number;
  terms: DueChargeTerms;
  /** `devedor`, required of a cobv, with its address when known. */
  debtor: DueDebtorJson;
  /** `solicitacaoPagador`. */
  description?: string | undefined;
}

/** Where one item of a batch of charges with a due date stands at the PSP (API Pix `lotecobv`'s `cobsv[].status`). */
export type DueChargeBatchItemState =
  | { state: 'processing' }
  | { state: 'created'; charge: RegisteredCharge }
  /** `problem`: the provider's words (its problem's detail or title), shown to the merchant. */
  | { state: 'refused'; problem: string };

/** What kind of charge the PSP holds: API Pix `cob` (immediate) or `cobv` (with a due date). */
export type ChargeKind = 'immediate' | 'due';

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

/**
 * The nature of a devolução (API Pix `natureza`): `ORIGINAL` and `RETIRADA` are refunds the receiver made
 * (PixGate's own, or made outside the API); the `MED_*` ones are made by the provider under the Central
 * Bank's Special Return Mechanism (a chargeback).
 */
export type DevolucaoNature = 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE' | 'MED_PIX_AUTOMATICO';

/** A devolução of a received Pix, as the provider's read of the Pix reports it. */
export interface ReceivedDevolucao {
  /** The provider's id of it: PixGate's refund id for its own (`refundId`), the provider's own otherwise. */
  id: string;
  /** PixGate's refund, when the devolução is one PixGate asked for. */
  refundId?: string | undefined;
  /** Its own end-to-end id (`D…`), when the provider gave one. */
  rtrId?: string | undefined;
  amountCents: number;
  nature: DevolucaoNature;
  state: 'processing' | 'returned' | 'not_returned';
  /** When it was settled (else requested). */
  atMs: number;
}

/** A Pix received on PixGate's key, as the PSP's read reports it (the only source crediting trusts). */
export interface ReceivedPix {
  endToEndId: string;
  /** The PSP's id of the charge the payment names (API Pix txid), when it names one. */
  chargeRef?: string | undefined;
  amountCents: number;
  receivedAtMs: number;
  payer?: PartyJson | undefined;
  /** Its devoluções, PixGate's and the provider's own (MED), as the read lists them (empty: none). */
  devolucoes: ReceivedDevolucao[];
}

// ---- Pix Automático (API Pix `rec`, `solicrec`, `cobr`) --------------------------------------------------

/** A recurrence as the provider is asked to create it (`POST /rec`, then `solicrec` or a QR code's location). */
export interface RegisterRecurrenceInput {
  recurrenceId: string;
  accountId: string;
  /** `vinculo.devedor`. */
  payer: { name: string; document: string; documentType: 'cpf' | 'cnpj' };
  /** `vinculo.contrato` and `vinculo.objeto`. */
  contract: string;
  object?: string | undefined;
  periodicity: RecurrencePeriodicity;
  /** `calendario.dataInicial` and `dataFinal` (`YYYY-MM-DD`). */
  startDate: string;
  endDate?: string | undefined;
  /** `valor.valorRec` (fixed), or `valor.valorMinimoRecebedor` (a floor under the payer's maximum). */
  amountCents?: number | undefined;
  minimumAmountCents?: number | undefined;
  retryPolicy: RecurrenceRetryPolicy;
  /**
   * How the payer's consent is asked: a request to their bank (`solicrec`, `destinatario`, expiring at
   * `expiresAtMs`); a QR code of the recurrence (journey 2); or the composite QR code of an immediate
   * charge already registered (`chargeRef`, its txid) and the recurrence (journey 3).
   */
  consent:
    | { journey: 'request'; payerAccount: PayerAccountJson; expiresAtMs: number }
    | { journey: 'qrcode' }
    | { journey: 'qrcode_with_payment'; chargeRef: string; firstPaymentCents: number };
  createdAtMs: number;
}

export interface RegisteredRecurrence {
  /** The provider's id of it (API Pix `idRec`). */
  providerRef: string;
  /** The consent request's id (`idSolicRec`), on the request journey. */
  consentRef?: string | undefined;
  /** The QR code's copy-and-paste code (`dadosQR.pixCopiaECola`), on the QR journeys. */
  pixPayload?: string | undefined;
  /** The recurrence's payload location (`loc.location`), from which PixGate builds the QR code when no `pixPayload` came. */
  locationUrl?: string | undefined;
}

/** A recurrence's status at the provider, mapped to PixGate's names (API Pix `CRIADA`, `APROVADA`, ...). */
export interface ProviderRecurrence {
  status: RecurrenceStatus;
  /** The consent request's status (`solicrec`), when there is one. */
  consentStatus?: ConsentStatus | undefined;
  /** How the payer authorised it (`ativacao.tipoJornada`), once approved. */
  activation?: { journey: ActivationJourney; atMs: number } | undefined;
  /** The most the payer accepts per cycle, on a variable amount (when the provider reports it). */
  payerMaximumCents?: number | undefined;
  /** `encerramento`: the rejection or cancellation, with its code and who asked. */
  ended?: RecurrenceEndedJson | undefined;
  /** `atualizacao`: every status with its time, oldest first. */
  history: { status: RecurrenceStatus; atMs: number }[];
}

/** A cycle's charge as the provider is asked to create it (`PUT /cobr/{txid}`). */
export interface RegisterRecurringChargeInput {
  transactionId: string;
  recurrenceRef: string;
  /** `calendario.dataDeVencimento`; `ajusteDiaUtil` is always asked. */
  dueDate: string;
  amountCents: number;
  retryPolicy: RecurrenceRetryPolicy;
  /** `infoAdicional`, shown to the payer. */
  description?: string | undefined;
  createdAtMs: number;
}

/** One attempt to debit a cycle, as the provider reports it (`tentativas[]`). */
export interface ProviderCycleAttempt {
  date: string;
  /** `AGND` the scheduled one; `NTAG` or `RIFL` another (PixGate's retries). */
  kind: 'scheduled' | 'retry';
  status: 'scheduled' | 'paid' | 'refused' | 'cancelled' | 'expired';
  endToEndId?: string | undefined;
  refusal?: { code: string; description: string } | undefined;
}

/** A cycle's charge at the provider (API Pix `CRIADA`, `ATIVA`, `CONCLUIDA`, `EXPIRADA`, `REJEITADA`, `CANCELADA`). */
export type ProviderRecurringCharge =
  | { state: 'not_found' }
  | {
      state: 'created' | 'active' | 'completed' | 'expired' | 'rejected' | 'cancelled';
      attempts: ProviderCycleAttempt[];
      /** `encerramento.rejeicao` or `cancelamento`. */
      refusal?: { code: string; description: string } | undefined;
      cancelledBy?: EndedBy | undefined;
      /** The Pix that paid it (`pix[]`), by end-to-end id. */
      payments: string[];
    };

/** A provider callback turned into facts, each confirmed by a read before it is reported. */
export type ProviderFact =
  | { kind: 'recurrence_changed'; recurrenceRef: string }
  | { kind: 'recurring_charge_changed'; chargeRef: string }
  | { kind: 'pix_received'; pix: ReceivedPix }
  | { kind: 'refund_changed'; refundId: string }
  | { kind: 'withdrawal_changed'; transactionId: string }
  /** A devolução PixGate did not ask for (MED, or made outside the API) was reported: the read Pix with it. */
  | { kind: 'devolucao_made'; pix: ReceivedPix };

/** The provider's status of a MED infraction (Efí's names; another provider's are mapped to them). */
export type InfractionProviderStatus = 'ABERTA' | 'EM_DEFESA' | 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI';

/** A MED infraction on a Pix received on PixGate's key (Efí `GET /v2/gn/infracoes`). */
export interface ProviderInfraction {
  id: string;
  endToEndId: string;
  amountCents: number;
  status: InfractionProviderStatus;
  /** Why it was filed (Efí `razao`), and the kind of situation (`tipoSituacao`), as the provider words them. */
  reason: string;
  situation?: string | undefined;
  openedAtMs: number;
  /** The deadline of the analysis (Efí `dadosAnalise.prazoFinalizacao`). */
  deadlineAtMs?: number | undefined;
  /** The provider's cautionary block of the money covers it (Efí: its balance's MED block, allotted to open infractions, oldest first). */
  blocked: boolean;
}

/** The merchant's answer to an infraction (Efí `POST /v2/gn/infracoes/{id}/defesa`: `analise`, `justificativa`). */
export interface InfractionDefence {
  /** `rejeitado`: the merchant contests it; `aceito`: the merchant agrees the money goes back. */
  analysis: 'aceito' | 'rejeitado';
  text: string;
}

/** A send (payout) as the provider's listing reports it, for reconciliation. */
export interface ListedSend {
  /** PixGate's withdrawal, when the send is one of its. */
  transactionId?: string | undefined;
  idEnvio: string;
  endToEndId: string;
  amountCents: number;
  state: 'processing' | 'paid' | 'not_paid';
  /** What the receiver's bank returned of it. */
  returnedCents: number;
  atMs: number;
}

/** What the provider holds for PixGate: free, and blocked (MED cautionary blocks, court orders). */
export interface ProviderBalance {
  availableCents: number;
  blockedMedCents: number;
  blockedOtherCents: number;
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

/**
 * Who a paid send reached, as far as the provider's read says: any part may be missing (a read with only
 * `identificacao`, only `contaBanco`, or neither). A final status never waits for it: the withdrawal is
 * booked, and what is missing is filled from whom it was sent to (withdrawal.settlement.ts).
 */
export interface BeneficiaryFacts {
  name?: string | undefined;
  document?: string | undefined;
  documentType?: 'cpf' | 'cnpj' | undefined;
  bankAccount?: { ispb?: string | undefined; branch?: string | undefined; account?: string | undefined } | undefined;
}

/** What the PSP knows of a withdrawal, for reconciliation. */
export type ProviderWithdrawalStatus =
  | { state: 'not_found' }
  | { state: 'unknown' }
  | { state: 'accepted'; providerRef: string }
  | { state: 'paid'; providerRef: string; endToEndId: string; beneficiary: BeneficiaryFacts; paidAtMs: number }
  | { state: 'rejected'; providerRef: string; refusedCode: string; refusedReason: string }
  | {
      state: 'returned';
      providerRef: string;
      endToEndId: string;
      beneficiary: BeneficiaryFacts;
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

/**
 * The provider refused a devolução itself (API Pix `PixDevolucaoInvalida`): its devoluções would pass the
 * Pix (one PixGate has not booked yet, a MED), or the Pix is too old. Nothing was created upstream.
 */
export class ProviderRefusedRefund extends Error {
  constructor(message = 'provider refused the devolução') {
    super(message);
    this.name = 'ProviderRefusedRefund';
  }
}

/**
 * The provider refused a cycle's charge itself (API Pix `CobROperacaoInvalida`: the recurrence is not
 * approved there, a charge of that cycle exists, the due date is past). Nothing was created upstream.
 */
export class ProviderRefusedRecurringCharge extends Error {
  constructor(message = 'provider refused the recurring charge') {
    super(message);
    this.name = 'ProviderRefusedRecurringCharge';
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
 * What a provider offers beyond charges, received Pix and devoluções (which every API Pix provider has):
 * a send API (withdrawals), a balance read, an infraction (MED) listing. The standard has none of the three.
 */
export interface ProviderCapabilities {
  payouts: boolean;
  balance: boolean;
  infractions: boolean;
  /** Pix Automático (API Pix `rec`, `solicrec`, `cobr`, since 2.7.0). */
  recurrences: boolean;
}

/** An operation the configured provider does not offer (`capability`): nothing was sent, nothing moved. */
export class ProviderLacks extends Error {
  readonly capability: keyof ProviderCapabilities;

  constructor(capability: keyof ProviderCapabilities, provider: string) {
    super(`the provider ${provider} offers no ${capability}`);
    this.name = 'ProviderLacks';
    this.capability = capability;
  }
}

/**
 * The port: everything PixGate asks of a PSP. `SimulatedProvider` (the sandbox, `PSP=simulated`) and
 * `EfiProvider` (API Pix, with Efí's extensions on `PSP=efi` or the standard alone on `PSP=apipix`) implement
 * it; nothing above it knows which runs, only what it can do (`capabilities`).
 */
export interface PixProvider {
  readonly name: string;
  /** ISPB of the PSP, used in the end-to-end ids it issues. */
  readonly ispb: string;
  /**
   * The Pix key PixGate receives on at the PSP (PSP_PIX_KEY; the simulation's own): the key of the static
   * QR codes' BR Codes (field 26-01), whose Pix the PSP reports with the code's txid.
   */
  readonly receivingKey: string;
  /** What it offers beyond charges, received Pix and devoluções; a caller asks before it needs one. */
  readonly capabilities: ProviderCapabilities;
  registerCharge(input: RegisterChargeInput): Promise<RegisteredCharge>;
  /** Creates a charge with a due date (API Pix `cobv`); its BR Code carries no amount (the payer's bank computes it). */
  registerDueCharge(input: RegisterDueChargeInput): Promise<RegisteredCharge>;
  /** Replaces the terms of a pending charge with a due date (`PATCH /cobv/{txid}`); false when it is no longer `ATIVA` there. */
  reviseDueCharge(input: RegisterDueChargeInput & { providerRef: string }): Promise<boolean>;
  /**
   * Asks for a batch of charges with a due date (API Pix `PUT /lotecobv/{id}`, `batchRef` a number); the
   * provider creates them afterwards, each on its own (`readDueChargeBatch`).
   */
  registerDueChargeBatch(input: { batchRef: string; description: string; items: RegisterDueChargeInput[] }): Promise<void>;
  /** Each item of a batch, by its transaction id: still processing, created (with its BR Code), or refused. */
  readDueChargeBatch(input: { batchRef: string; items: RegisterDueChargeInput[] }): Promise<Map<string, DueChargeBatchItemState>>;
  /** Removes a pending charge at the PSP so it can no longer be paid (expired, cancelled); `kind` defaults to immediate. */
  removeCharge(input: { transactionId: string; providerRef: string; kind?: ChargeKind | undefined }): Promise<RemovedCharge>;
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
  /** MED infractions on received Pix opened or changed in a period (inclusive bounds). */
  listInfractions(fromMs: number, toMs: number): AsyncIterable<ProviderInfraction>;
  /** Sends the merchant's answer to an infraction. */
  defendInfraction(infractionId: string, defence: InfractionDefence): Promise<void>;
  /** Sends (payouts) requested in a period (inclusive bounds), for reconciliation. */
  listSends(fromMs: number, toMs: number): AsyncIterable<ListedSend>;
  /** What the provider holds for PixGate now. */
  balance(): Promise<ProviderBalance>;
  /** Creates a recurrence and asks the payer's consent by its journey (`POST /rec`, `POST /solicrec` or the QR's location). */
  registerRecurrence(input: RegisterRecurrenceInput): Promise<RegisteredRecurrence>;
  /** Reads a recurrence (`GET /rec/{idRec}`, and its `solicrec`); undefined when the provider does not know it. */
  readRecurrence(input: { providerRef: string; consentRef?: string | undefined }): Promise<ProviderRecurrence | undefined>;
  /** Cancels a recurrence as its receiver (`PATCH /rec/{idRec}` `CANCELADA`); false when it already ended there. */
  cancelRecurrence(providerRef: string): Promise<boolean>;
  /** Creates a cycle's charge (`PUT /cobr/{txid}`): its txid is the provider's reference. */
  registerRecurringCharge(input: RegisterRecurringChargeInput): Promise<{ providerRef: string }>;
  readRecurringCharge(providerRef: string): Promise<ProviderRecurringCharge>;
  /** Asks another attempt on `date` (`POST /cobr/{txid}/retentativa/{data}`); false when the provider refuses it. */
  retryRecurringCharge(providerRef: string, date: string): Promise<boolean>;
  /** Cancels a cycle's charge not yet debited (`PATCH /cobr/{txid}` `CANCELADA`); false when it may no longer be. */
  cancelRecurringCharge(providerRef: string): Promise<boolean>;
}
