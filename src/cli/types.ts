/**
 * The back-office shapes the CLI sends and prints, aliased from the types generated from
 * openapi/admin/admin.yaml (`npm run generate`). None is written by hand.
 */
import type { components } from '../../generated/admin-types.ts';

type Schemas = components['schemas'];

export type Account = Schemas['Account'];
export type AccountList = Schemas['AccountList'];
export type CreateAccountRequest = Schemas['CreateAccountRequest'];
export type UpdateAccountRequest = Schemas['UpdateAccountRequest'];
export type KycStatus = Schemas['KycStatus'];
export type PixKeyType = Schemas['PixKeyType'];
export type WithdrawalApprovalMode = Schemas['WithdrawalApprovalMode'];
export type ApiKey = Schemas['ApiKey'];
export type ApiKeyCreated = Schemas['ApiKeyCreated'];
export type ApiKeyList = Schemas['ApiKeyList'];
export type CreateApiKeyRequest = Schemas['CreateApiKeyRequest'];
export type AccountBalance = Schemas['AccountBalance'];
export type AccountEventList = Schemas['AccountEventList'];
export type LedgerCheck = Schemas['LedgerCheck'];
export type Transaction = Schemas['Transaction'];
export type TransactionStatus = Schemas['TransactionStatus'];
export type Party = Schemas['Party'];
export type AdminRecipient = Schemas['AdminRecipient'];
export type AdminRecipientList = Schemas['AdminRecipientList'];
export type RecipientStatus = Schemas['RecipientStatus'];
export type RecipientNoteRequest = Schemas['RecipientNoteRequest'];
export type DeactivatedRecipient = Schemas['DeactivatedRecipient'];
export type AdminWithdrawal = Schemas['AdminWithdrawal'];
export type AdminWithdrawalList = Schemas['AdminWithdrawalList'];
export type WithdrawalReasonRequest = Schemas['WithdrawalReasonRequest'];
export type WithdrawalAlertList = Schemas['WithdrawalAlertList'];
export type Hold = Schemas['Hold'];
export type HoldList = Schemas['HoldList'];
export type HoldReason = Schemas['HoldReason'];
export type HoldStatus = Schemas['HoldStatus'];
export type PlaceHoldRequest = Schemas['PlaceHoldRequest'];
export type ChargebackHoldRequest = Schemas['ChargebackHoldRequest'];
export type PayChargeRequest = Schemas['PayChargeRequest'];
export type SandboxSettleWithdrawalRequest = Schemas['SandboxSettleWithdrawalRequest'];
export type SandboxRejectWithdrawalRequest = Schemas['SandboxRejectWithdrawalRequest'];
export type SandboxReturnWithdrawalRequest = Schemas['SandboxReturnWithdrawalRequest'];
export type ReconcileResult = Schemas['ReconcileResult'];
export type ProviderOperation = Schemas['ProviderOperation'];
export type ProviderOutcome = Schemas['ProviderOutcome'];
export type ProviderOutcomes = Schemas['ProviderOutcomes'];
export type QueueProviderOutcomeRequest = Schemas['QueueProviderOutcomeRequest'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointCreated = Schemas['WebhookEndpointCreated'];
export type WebhookEndpointList = Schemas['WebhookEndpointList'];
export type CreateWebhookEndpointRequest = Schemas['CreateWebhookEndpointRequest'];
export type UpdateWebhookEndpointRequest = Schemas['UpdateWebhookEndpointRequest'];
export type DeletedWebhookEndpoint = Schemas['DeletedWebhookEndpoint'];
export type RotatedWebhookSecret = Schemas['RotatedWebhookSecret'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type WebhookAttemptList = Schemas['WebhookAttemptList'];
export type ResendEventRequest = Schemas['ResendEventRequest'];
export type EventResend = Schemas['EventResend'];
export type DispatchResult = Schemas['DispatchResult'];
export type SandboxRefundChargeRequest = Schemas['SandboxRefundChargeRequest'];
export type Infraction = Schemas['Infraction'];
export type InfractionList = Schemas['InfractionList'];
export type InfractionStatus = Schemas['Infraction']['status'];
export type DefendInfractionRequest = Schemas['DefendInfractionRequest'];
export type ReconciliationRun = Schemas['ReconciliationRun'];
export type ReconciliationReport = Schemas['ReconciliationReport'];
export type ReconciliationBreak = Schemas['ReconciliationBreak'];
export type ReconciliationBreakList = Schemas['ReconciliationBreakList'];
export type BreakKind = Schemas['BreakKind'];
export type ResolveBreakRequest = Schemas['ResolveBreakRequest'];
export type Settlement = NonNullable<ResolveBreakRequest['settlement']>;
export interface ReconciliationRunList {
  runs: ReconciliationRun[];
  count: number;
}
export interface FollowedInfractions {
  seen: number;
}
