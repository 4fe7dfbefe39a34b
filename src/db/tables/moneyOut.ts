import type { Generated } from 'kysely';
import type { Json } from './json.ts';
import type { PixKeyType } from './accounts.ts';
import type { PartyJson } from './transactions.ts';

/**
 * Third-party recipients, alerts of third-party withdrawals, the daily and monthly withdrawal totals, and the
 * simulated PSP's transfers.
 */

export type RecipientStatus = 'pending_review' | 'active' | 'rejected' | 'deactivated';

export interface RecipientsTable {
  account_id: string;
  id: string;
  legal_name: string;
  document: string;
  document_type: 'cpf' | 'cnpj';
  pix_key: string;
  pix_key_type: PixKeyType;
  label: string | null;
  status: RecipientStatus;
  review_note: string | null;
  created_at: Date;
  updated_at: Date;
  approved_at: Date | null;
  reviewed_at: Date | null;
}

/**
 * Amount of the withdrawals the caps count, per account and São Paulo day or month of their creation; kept by
 * a trigger on `transactions` (migration 007), read by the cap check.
 */
export interface WithdrawalTotalsTable {
  account_id: string;
  period: 'day' | 'month';
  /** The day, or the first day of the month, as `YYYY-MM-DD`. */
  period_start: string;
  total_cents: string;
}

export interface WithdrawalAlertsTable {
  id: Generated<number>;
  account_id: string;
  transaction_id: string;
  recipient_id: string;
  amount_cents: number;
  pix_key_type: string;
  created_at: Date;
}

export type SimTransferState = 'accepted' | 'paid' | 'rejected' | 'returned';

export interface SimPspTransfersTable {
  transaction_id: string;
  amount_cents: number;
  pix_key: string;
  pix_key_type: string;
  state: SimTransferState;
  settle_at: Date | null;
  end_to_end_id: string | null;
  beneficiary: Json<PartyJson> | null;
  refused_code: string | null;
  refused_reason: string | null;
  refund_end_to_end_id: string | null;
  returned_cents: number | null;
  created_at: Date;
  updated_at: Date;
}
