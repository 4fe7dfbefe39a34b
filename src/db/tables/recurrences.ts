/**
 * Pix Automático (migration 030): recurrences, their cycles, and the simulated provider's records of both.
 * Dates are ISO `YYYY-MM-DD` text (São Paulo's calendar days), compared as text.
 */
import type { ColumnType, JSONColumnType } from 'kysely';

export type RecurrenceStatus = 'created' | 'approved' | 'rejected' | 'expired' | 'cancelled';
export type RecurrencePeriodicity = 'weekly' | 'monthly' | 'quarterly' | 'half_yearly' | 'yearly';
export type RecurrenceRetryPolicy = 'none' | 'three_in_seven_days';
export type ConsentJourney = 'request' | 'qrcode' | 'qrcode_with_payment';
export type ConsentStatus = 'pending' | 'accepted' | 'rejected' | 'expired' | 'cancelled';
export type ActivationJourney = ConsentJourney | 'due_charge_qrcode';
/** Who ended a recurrence or a cycle (API Pix `solicitante`: USUARIO_RECEBEDOR, USUARIO_PAGADOR, PSP_PAGADOR, PSP_RECEBEDOR). */
export type EndedBy = 'merchant' | 'payer' | 'payer_bank' | 'provider';
export type CycleStatus = 'scheduled' | 'retrying' | 'paid' | 'failed' | 'expired' | 'cancelled';

export interface RecurrencePayerJson {
  name: string;
  document: string;
  documentType: 'cpf' | 'cnpj';
}

export interface PayerAccountJson {
  ispb: string;
  branch?: string | undefined;
  account: string;
}

export interface RecurrenceEndedJson {
  reason: 'rejected' | 'expired' | 'cancelled';
  by?: EndedBy | undefined;
  code?: string | undefined;
  description?: string | undefined;
}

export interface StatusAtJson<S extends string> {
  status: S;
  atMs: number;
}

export interface CycleAttemptJson {
  date: string;
  kind: 'scheduled' | 'retry';
  status: 'scheduled' | 'paid' | 'refused' | 'cancelled' | 'expired';
  refusalCode?: string | undefined;
  refusalReason?: string | undefined;
  endToEndId?: string | undefined;
}

export interface RecurrencesTable {
  id: string;
  account_id: string;
  provider_ref: string;
  status: RecurrenceStatus;
  payer: JSONColumnType<RecurrencePayerJson, string, string>;
  contract: string;
  object: string | null;
  periodicity: RecurrencePeriodicity;
  start_date: string;
  end_date: string | null;
  amount_cents: ColumnType<number | null, number | null, number | null>;
  minimum_amount_cents: ColumnType<number | null, number | null, number | null>;
  payer_maximum_cents: ColumnType<number | null, number | null | undefined, number | null>;
  retry_policy: RecurrenceRetryPolicy;
  consent_journey: ConsentJourney;
  consent_status: ConsentStatus;
  consent_ref: string | null;
  consent_expires_at: Date | null;
  payer_account: JSONColumnType<PayerAccountJson | null, string | null, string | null>;
  pix_payload: string | null;
  first_payment_id: string | null;
  activation_journey: ColumnType<ActivationJourney | null, ActivationJourney | null | undefined, ActivationJourney | null>;
  activated_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  ended: JSONColumnType<RecurrenceEndedJson | null, string | null | undefined, string | null>;
  history: JSONColumnType<StatusAtJson<RecurrenceStatus>[], string, string>;
  next_sequence: ColumnType<number, number | undefined, number>;
  next_cycle_date: string | null;
  external_ref: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface RecurrenceCyclesTable {
  transaction_id: string;
  recurrence_id: string;
  account_id: string;
  sequence: number;
  due_date: string;
  settlement_date: string;
  status: CycleStatus;
  attempts: JSONColumnType<CycleAttemptJson[], string, string>;
  retries: ColumnType<number, number | undefined, number>;
  refusal_code: ColumnType<string | null, string | null | undefined, string | null>;
  refusal_reason: ColumnType<string | null, string | null | undefined, string | null>;
  cancelled_by: ColumnType<EndedBy | null, EndedBy | null | undefined, EndedBy | null>;
  created_at: Date;
  updated_at: Date;
}

/** The simulated provider's recurrence: its API Pix body (`RecCompleta`-like), kept whole. */
export interface SimPspRecurrencesTable {
  id_rec: string;
  body: JSONColumnType<Record<string, unknown>, string, string>;
  status: string;
  solicrec_id: string | null;
  charge_ref: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The simulated provider's recurring charge (`CobRCompleta`-like). */
export interface SimPspRecurringChargesTable {
  txid: string;
  id_rec: string;
  body: JSONColumnType<Record<string, unknown>, string, string>;
  status: string;
  created_at: Date;
  updated_at: Date;
}
