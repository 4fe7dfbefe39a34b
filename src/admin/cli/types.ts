/**
 * The back-office shapes the CLI sends and prints, aliased from the types generated from
 * openapi/admin/admin.yaml (`npm run generate`). None is written by hand.
 */
import type { components } from '../../../generated/admin-types.ts';

type Schemas = components['schemas'];

export type Account = Schemas['Account'];
export type AccountList = Schemas['AccountList'];
export type CreateAccountRequest = Schemas['CreateAccountRequest'];
export type UpdateAccountRequest = Schemas['UpdateAccountRequest'];
export type KycStatus = Schemas['KycStatus'];
export type ApiKey = Schemas['ApiKey'];
export type ApiKeyCreated = Schemas['ApiKeyCreated'];
export type ApiKeyList = Schemas['ApiKeyList'];
export type CreateApiKeyRequest = Schemas['CreateApiKeyRequest'];
export type AccountBalance = Schemas['AccountBalance'];
export type AccountEventList = Schemas['AccountEventList'];
export type Transaction = Schemas['Transaction'];
export type Party = Schemas['Party'];
export type PayChargeRequest = Schemas['PayChargeRequest'];
export type ProviderOperation = Schemas['ProviderOperation'];
export type ProviderOutcome = Schemas['ProviderOutcome'];
export type ProviderOutcomes = Schemas['ProviderOutcomes'];
export type QueueProviderOutcomeRequest = Schemas['QueueProviderOutcomeRequest'];
