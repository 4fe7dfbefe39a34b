import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { EventEnvelope } from '../events/event.types.ts';

/**
 * Row types of every table, in one place. Money is integer cents (bigint columns parsed to number:
 * safe up to 2^53 cents). Times are timestamptz read as Date; API mappers turn them into Unix ms or s.
 */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  transactions: TransactionsTable;
  idempotency_keys: IdempotencyKeysTable;
  balances: BalancesTable;
  ledger_entries: LedgerEntriesTable;
  holds: HoldsTable;
  rate_limit_counters: RateLimitCountersTable;
  outbox_events: OutboxEventsTable;
  recipients: RecipientsTable;
  withdrawal_alerts: WithdrawalAlertsTable;
  sim_psp_transfers: SimPspTransfersTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

type Json<T> = ColumnType<T, string, string>;

export type KycStatus = 'pending' | 'approved' | 'rejected';

export interface AccountsTable {
  id: string;
  legal_name: string;
  responsible_cpf: string;
  company_cnpj: string;
  email: string;
  kyc_status: KycStatus;
  blocked: boolean;
  /** IPs and CIDR ranges; empty means no allowlist. */
  ip_allowlist: Json<string[]>;
  /** Null: the service-wide default range applies. */
  charge_min_cents: number | null;
  charge_max_cents: number | null;
  charge_fee_fixed_cents: number;
  charge_fee_bps: number;
  withdrawal_fee_fixed_cents: number;
  withdrawal_fee_bps: number;
  charge_rate_per_hour: number;
  created_at: Date;
  updated_at: Date;
  withdrawal_key_types: ColumnType<PixKeyType[], string | undefined, string>;
  withdrawal_max_cents: Generated<number>;
  withdrawal_daily_cap_cents: Generated<number>;
  withdrawal_monthly_cap_cents: Generated<number>;
  withdrawal_approval_mode: Generated<'automatic' | 'manual'>;
  /** Withdrawals above this amount wait for manual approval; null: none. */
  withdrawal_approval_threshold_cents: ColumnType<number | null, number | null | undefined, number | null>;
  withdrawals_per_second: Generated<number>;
  withdrawals_per_minute: Generated<number>;
  withdrawals_per_hour: Generated<number>;
  recipient_limit: Generated<number>;
  recipients_per_hour: Generated<number>;
}

export type PixKeyType = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';

export interface ApiKeysTable {
  id: string;
  account_id: string;
  public_prefix: string;
  key_hash: string;
  label: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

export type TransactionType = 'pix_in' | 'withdrawal';
export type TransactionStatus =
  | 'pending'
  | 'processing'
  | 'pending_approval'
  | 'paid'
  | 'failed'
  | 'failed_unknown'
  | 'cancelled'
  | 'expired'
  | 'refunded'
  | 'partially_refunded';

/**
 * Internal states of a withdrawal created by POST /v1/withdraw while its provider call is in flight
 * (`initiating`) or after the provider refused it synchronously (`aborted`: nothing debited, answered 502).
 * The merchant never sees them: reads and listings leave such rows out.
 */
export type InternalTransactionStatus = 'initiating' | 'aborted';
export type StoredTransactionStatus = TransactionStatus | InternalTransactionStatus;

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
  refunded_cents: number | null;
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
}

export interface IdempotencyKeysTable {
  account_id: string;
  scope: 'charge' | 'withdrawal';
  external_ref: string;
  transaction_id: string;
  expires_at: Date;
}

export interface BalancesTable {
  account_id: string;
  available_cents: number;
  held_cents: number;
  /** Withdrawals being sent: reserved, not yet debited; not withdrawable. */
  reserved_cents: Generated<number>;
  updated_at: Date;
}

export type LedgerEntryKind =
  | 'charge_credit'
  | 'withdrawal_debit'
  | 'withdrawal_reversal'
  | 'refund_debit'
  | 'hold_placed'
  | 'hold_released'
  | 'withdrawal_reserved'
  | 'withdrawal_reservation_released'
  | 'withdrawal_returned'
  | 'chargeback_debit'
  | 'adjustment';

export interface LedgerEntriesTable {
  id: Generated<number>;
  account_id: string;
  transaction_id: string | null;
  hold_id: string | null;
  kind: LedgerEntryKind;
  /** Signed effect on available_cents. */
  amount_cents: number;
  /** Signed effect on held_cents. */
  held_delta_cents: number;
  /** Signed effect on reserved_cents. */
  reserved_delta_cents: Generated<number>;
  created_at: Date;
}

export type HoldReason = 'med' | 'dispute' | 'protest' | 'administrative';

export interface HoldsTable {
  id: string;
  account_id: string;
  transaction_id: string | null;
  amount_cents: number;
  reason: HoldReason;
  note: string | null;
  status: 'active' | 'released';
  created_at: Date;
  released_at: Date | null;
}

export interface RateLimitCountersTable {
  account_id: string;
  bucket: string;
  window_index: number;
  count: number;
  expires_at: Date;
}

export interface OutboxEventsTable {
  id: string;
  account_id: string;
  event: string;
  transaction_id: string | null;
  payload: Json<EventEnvelope>;
  created_at: Date;
}

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

export type RecipientRow = Selectable<RecipientsTable>;
export type AccountRow = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type AccountUpdate = Updateable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type TransactionRow = Selectable<TransactionsTable>;
export type NewTransaction = Insertable<TransactionsTable>;
export type HoldRow = Selectable<HoldsTable>;

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  /** The filter as the service team gave it (names, categories, legacy names). */
  events: ColumnType<string[], string, string>;
  /** The filter expanded to canonical event names; empty means every event. */
  event_names: ColumnType<string[], string, string>;
  description: string | null;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export type DeliveryTrigger = 'automatic' | 'manual';

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  event_id: string;
  endpoint_id: string;
  trigger: DeliveryTrigger;
  status: 'pending' | 'succeeded' | 'failed' | 'dropped';
  attempts: Generated<number>;
  next_attempt_at: Date;
  locked_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  account_id: string;
  event_id: string;
  event: string;
  endpoint_id: string;
  url: string;
  attempt_number: number;
  trigger: DeliveryTrigger;
  request_body: string;
  http_status: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: Date;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type WithdrawalAlertRow = Selectable<WithdrawalAlertsTable>;
export type OutboxEventRow = Selectable<OutboxEventsTable>;
export type SimPspTransferRow = Selectable<SimPspTransfersTable>;
