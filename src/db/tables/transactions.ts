import type { ColumnType } from 'kysely';
import type { ChargeStatus, HIDDEN_WITHDRAWAL_STATUSES, WithdrawalStatus } from './statuses.ts';
import type { Json } from './json.ts';

/** Charges and withdrawals, and the externalRefs that name them. */

export type TransactionType = 'pix_in' | 'withdrawal';

/**
 * Internal states of a withdrawal created by POST /v1/withdraw while its provider call is in flight
 * (`initiating`) or after the provider refused it synchronously (`aborted`: nothing debited, answered 502).
 * The merchant never sees them: reads and listings leave such rows out.
 */
export type InternalTransactionStatus = (typeof HIDDEN_WITHDRAWAL_STATUSES)[number];
/** The statuses a merchant sees: the charge state machine's and the withdrawal state machine's. */
export type TransactionStatus = ChargeStatus | Exclude<WithdrawalStatus, InternalTransactionStatus>;
export type StoredTransactionStatus = TransactionStatus | InternalTransactionStatus;

/** What the provider last said of a withdrawal's send (its read, callback or listing). */
export type ProviderSendStatus = 'accepted' | 'paid' | 'rejected' | 'returned' | 'not_found';

export interface PartyJson {
  name: string;
  document: string;
  documentType: 'cpf' | 'cnpj';
  bankAccount: { ispb: string; branch: string; account: string };
}

export interface CustomerJson {
  name: string;
  email: string;
  phone: string;
  document: { number: string; type: 'cpf' | 'cnpj' };
}

export interface TransactionsTable {
  id: string;
  account_id: string;
  type: TransactionType;
  status: StoredTransactionStatus;
  amount_cents: number;
  fee_cents: number;
  /**
   * What the transaction moves on the merchant's balance, as a magnitude (the contract's `netCents`, from
   * which a merchant keeps its balance): a charge credits amount − fee, a withdrawal debits amount + fee (its
   * `totalDeducted`, the reservation its pending transfer holds). The type gives the direction.
   */
  net_cents: number;
  external_ref: string | null;
  pix_payload: string | null;
  expires_at: Date | null;
  /** When a final state was reached (exposed as paidAt, ms). */
  paid_at: Date | null;
  created_at: Date;
  updated_at: Date;
  end_to_end_id: string | null;
  payer: Json<PartyJson> | null;
  beneficiary: Json<PartyJson> | null;
  refund_end_to_end_id: string | null;
  /** Charges: refunds confirmed, chargebacks and devoluções made outside the API, as booked (never past the amount). Withdrawals: what came back. */
  refunded_cents: number | null;
  /** Charges: what the refunds in flight have reserved (with `refunded_cents`, never past the amount when reserved). */
  refunding_cents: ColumnType<number, number | undefined, number>;
  refused_code: string | null;
  refused_reason: string | null;
  customer: Json<CustomerJson> | null;
  provider_ref: string | null;
  pix_key: string | null;
  pix_key_type: string | null;
  description: string | null;
  recipient_id: string | null;
  /** Withdrawals: null (not sent yet), `sending` (provider call in flight), `sent` (accepted upstream). */
  provider_state: ColumnType<'sending' | 'sent' | null, 'sending' | 'sent' | null | undefined, 'sending' | 'sent' | null>;
  total_deducted_cents: ColumnType<number | null, number | null | undefined, number | null>;
  /** Withdrawals: when reconciliation next asks the PSP (null: at the next run). */
  next_check_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Withdrawals in `failed_unknown`: when the PSP was found to hold the order (internal; no status change). */
  provider_accepted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** A `failed_unknown` withdrawal resolved through the back office: by the PSP's record or an operator. */
  resolved_by: ColumnType<'provider' | 'operator' | null, 'provider' | 'operator' | null | undefined, 'provider' | 'operator' | null>;
  resolution_note: ColumnType<string | null, string | null | undefined, string | null>;
  resolved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Withdrawals: the provider's last word on the send (`accepted`, `paid`, `rejected`, `returned`, `not_found`), kept after it is final. */
  provider_status: ColumnType<ProviderSendStatus | null, ProviderSendStatus | null | undefined, ProviderSendStatus | null>;
  provider_status_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The database transaction that last changed the status (xid8, set by a trigger): the incremental ledger check reads it. */
  status_changed_xid: ColumnType<string | null, never, never>;
  /**
   * Charges: NULL an immediate charge (API Pix `cob`), `due` a charge with a due date (`cobv`, table
   * due_charges), `static` a payment of a static QR code (`static_qrcode_id`, migration 027), `recurring` a
   * cycle of a recurrence (API Pix `cobr`, table recurrence_cycles, migration 030).
   */
  charge_kind: ColumnType<'due' | 'static' | 'recurring' | null, 'due' | 'static' | 'recurring' | null | undefined, never>;
  /** A payment of a static QR code: the code (set with `charge_kind = 'static'`, at creation, for good). */
  static_qrcode_id: ColumnType<string | null, string | null | undefined, never>;
  /** A charge made for a payer of a payment link (migration 029): the link, set at creation, for good. */
  payment_link_id: ColumnType<string | null, string | null | undefined, never>;
  /** A cycle of a recurrence, or the first payment of its `qrcode_with_payment` consent (migration 030): set at creation, for good. */
  recurrence_id: ColumnType<string | null, string | null | undefined, never>;
  /** Withdrawals: the pending transfer of its reservation (migration 025), written by the ledger step that makes it. */
  pending_transfer_id: ColumnType<string | null, never, never>;
}

export interface IdempotencyKeysTable {
  account_id: string;
  scope: 'charge' | 'withdrawal' | 'due_charge';
  external_ref: string;
  transaction_id: string;
  expires_at: Date;
}
