import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { AccountsTable, ApiKeysTable } from './tables/accounts.ts';
import type {
  AuditLogTable,
  DashboardEmailTokensTable,
  DashboardInvitationPlaceholdersTable,
  DashboardRecoveryCodesTable,
  DashboardSessionsTable,
  DashboardUsersTable,
  MailOutboxTable,
  OperatorSessionsTable,
  OperatorsTable,
  SignInFailuresTable,
} from './tables/dashboard.ts';
import type {
  HoldsTable,
  LedgerAccountsTable,
  LedgerCheckpointsTable,
  LedgerCheckRunsTable,
  LedgerEntriesTable,
  LedgerTransfersTable,
  RateLimitCountersTable,
} from './tables/ledger.ts';
import type { RecipientsTable, SimPspTransfersTable, WithdrawalAlertsTable, WithdrawalTotalsTable } from './tables/moneyOut.ts';
import type { RefundIdempotencyKeysTable, RefundsTable, SimPspRefundsTable } from './tables/refunds.ts';
import type {
  InfractionsTable,
  ProviderDevolucoesTable,
  ReconciliationBreaksTable,
  ReconciliationRunsTable,
  SimPspDevolucoesTable,
  SimPspInfractionsTable,
  SimPspReceivedTable,
  UnmatchedPixTable,
} from './tables/provider.ts';
import type { DueChargeBatchItemsTable, DueChargeBatchesTable, DueChargesTable } from './tables/dueCharges.ts';
import type { PaymentLinksTable } from './tables/paymentLinks.ts';
import type { RecurrenceCyclesTable, RecurrencesTable, SimPspRecurrencesTable, SimPspRecurringChargesTable } from './tables/recurrences.ts';
import type { StaticQrCodesTable } from './tables/staticQrCodes.ts';
import type { IdempotencyKeysTable, TransactionsTable } from './tables/transactions.ts';
import type { OutboxEventsTable, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from './tables/webhooks.ts';

export type * from './tables/accounts.ts';
export type * from './tables/dashboard.ts';
export type * from './tables/dueCharges.ts';
export type * from './tables/ledger.ts';
export type * from './tables/moneyOut.ts';
export type * from './tables/provider.ts';
export type * from './tables/refunds.ts';
export type * from './tables/paymentLinks.ts';
export type * from './tables/recurrences.ts';
export type * from './tables/staticQrCodes.ts';
export type * from './tables/transactions.ts';
export type * from './tables/webhooks.ts';

/**
 * Row types of every table, in one place. Money is integer cents (bigint columns parsed to number:
 * safe up to 2^53 cents). Times are timestamptz read as Date; API mappers turn them into Unix ms or s.
 */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  transactions: TransactionsTable;
  idempotency_keys: IdempotencyKeysTable;
  due_charges: DueChargesTable;
  static_qrcodes: StaticQrCodesTable;
  payment_links: PaymentLinksTable;
  recurrences: RecurrencesTable;
  recurrence_cycles: RecurrenceCyclesTable;
  sim_psp_recurrences: SimPspRecurrencesTable;
  sim_psp_recurring_charges: SimPspRecurringChargesTable;
  due_charge_batches: DueChargeBatchesTable;
  due_charge_batch_items: DueChargeBatchItemsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_transfers: LedgerTransfersTable;
  ledger_entries: LedgerEntriesTable;
  ledger_checkpoints: LedgerCheckpointsTable;
  ledger_check_runs: LedgerCheckRunsTable;
  holds: HoldsTable;
  rate_limit_counters: RateLimitCountersTable;
  sign_in_failures: SignInFailuresTable;
  outbox_events: OutboxEventsTable;
  recipients: RecipientsTable;
  withdrawal_alerts: WithdrawalAlertsTable;
  withdrawal_totals: WithdrawalTotalsTable;
  sim_psp_transfers: SimPspTransfersTable;
  refunds: RefundsTable;
  refund_idempotency_keys: RefundIdempotencyKeysTable;
  sim_psp_refunds: SimPspRefundsTable;
  unmatched_pix: UnmatchedPixTable;
  infractions: InfractionsTable;
  provider_devolucoes: ProviderDevolucoesTable;
  reconciliation_runs: ReconciliationRunsTable;
  reconciliation_breaks: ReconciliationBreaksTable;
  sim_psp_received: SimPspReceivedTable;
  sim_psp_devolucoes: SimPspDevolucoesTable;
  sim_psp_infractions: SimPspInfractionsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  dashboard_users: DashboardUsersTable;
  dashboard_recovery_codes: DashboardRecoveryCodesTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_email_tokens: DashboardEmailTokensTable;
  dashboard_invitation_placeholders: DashboardInvitationPlaceholdersTable;
  mail_outbox: MailOutboxTable;
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  audit_log: AuditLogTable;
}

/** What a repository reads and writes through: the database, or the caller's transaction. */
export type Db = Kysely<Database> | Transaction<Database>;

export type RecipientRow = Selectable<RecipientsTable>;
export type AccountRow = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type AccountUpdate = Updateable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type TransactionRow = Selectable<TransactionsTable>;
export type NewTransaction = Insertable<TransactionsTable>;
export type HoldRow = Selectable<HoldsTable>;
export type RefundRow = Selectable<RefundsTable>;
export type NewRefund = Insertable<RefundsTable>;
export type SimPspRefundRow = Selectable<SimPspRefundsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type WithdrawalAlertRow = Selectable<WithdrawalAlertsTable>;
export type OutboxEventRow = Selectable<OutboxEventsTable>;
export type SimPspTransferRow = Selectable<SimPspTransfersTable>;
export type DashboardUserRow = Selectable<DashboardUsersTable>;
export type DashboardSessionRow = Selectable<DashboardSessionsTable>;
export type MailRow = Selectable<MailOutboxTable>;
export type OperatorRow = Selectable<OperatorsTable>;
export type OperatorSessionRow = Selectable<OperatorSessionsTable>;
export type AuditEntryRow = Selectable<AuditLogTable>;
export type InfractionRow = Selectable<InfractionsTable>;
export type ProviderDevolucaoRow = Selectable<ProviderDevolucoesTable>;
export type ReconciliationBreakRow = Selectable<ReconciliationBreaksTable>;
export type ReconciliationRunRow = Selectable<ReconciliationRunsTable>;
export type SimPspInfractionRow = Selectable<SimPspInfractionsTable>;
