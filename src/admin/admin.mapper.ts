import type { components } from '../../generated/admin-types.ts';
import type { AccountRow, ApiKeyRow } from '../db/schema.ts';

type Account = components['schemas']['Account'];
type ApiKey = components['schemas']['ApiKey'];

export function toAdminAccount(row: AccountRow): Account {
  return {
    accountId: row.id,
    legalName: row.legal_name,
    responsibleCpf: row.responsible_cpf,
    companyCnpj: row.company_cnpj,
    email: row.email,
    kycStatus: row.kyc_status,
    blocked: row.blocked,
    ipAllowlist: row.ip_allowlist,
    chargeMinCents: row.charge_min_cents,
    chargeMaxCents: row.charge_max_cents,
    chargeFeeFixedCents: row.charge_fee_fixed_cents,
    chargeFeeBps: row.charge_fee_bps,
    withdrawalFeeFixedCents: row.withdrawal_fee_fixed_cents,
    withdrawalFeeBps: row.withdrawal_fee_bps,
    chargeRatePerHour: row.charge_rate_per_hour,
    withdrawalKeyTypes: row.withdrawal_key_types,
    withdrawalMaxCents: row.withdrawal_max_cents,
    withdrawalDailyCapCents: row.withdrawal_daily_cap_cents,
    withdrawalMonthlyCapCents: row.withdrawal_monthly_cap_cents,
    withdrawalApprovalMode: row.withdrawal_approval_mode,
    withdrawalApprovalThresholdCents: row.withdrawal_approval_threshold_cents,
    withdrawalsPerSecond: row.withdrawals_per_second,
    withdrawalsPerMinute: row.withdrawals_per_minute,
    withdrawalsPerHour: row.withdrawals_per_hour,
    recipientLimit: row.recipient_limit,
    recipientsPerHour: row.recipients_per_hour,
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

export function toAdminApiKey(row: ApiKeyRow): ApiKey {
  return {
    keyId: row.id,
    publicPrefix: row.public_prefix,
    label: row.label,
    createdAt: row.created_at.getTime(),
    revokedAt: row.revoked_at ? row.revoked_at.getTime() : null,
  };
}
