import type { components } from '../../generated/admin-types.ts';
import type { AccountRow, AccountUpdate, OutboxEventRow } from '../db/schema.ts';

type Account = components['schemas']['Account'];
type UpdateAccountRequest = components['schemas']['UpdateAccountRequest'];
type AccountEvent = components['schemas']['AccountEvent'];

/** The legal name's bounds in the back office's Account (openapi/admin/components/schemas/Account.yaml). */
const LEGAL_NAME_MIN = 2;
const LEGAL_NAME_MAX = 120;
/** Shown for a stored legal name that is empty (an account opened before sign-up checked names, issue 22). */
export const MISSING_LEGAL_NAME = '(sem razão social)';

/**
 * A stored legal name as the back office shows it: white space normalised, and within the contract's
 * bounds even when the stored row is not (written before the name was checked after normalising, or by
 * hand). One such row must not make every list of accounts fail: the console and the CLI show it and an
 * operator can act on the account.
 */
export function legalNameForOperators(stored: string): string {
  const name = stored.normalize('NFC').replace(/[\s\p{Z}]+/gu, ' ').trim();
  if (name.length < LEGAL_NAME_MIN) return name.length === 0 ? MISSING_LEGAL_NAME : `${name} (razão social incompleta)`;
  return name.length > LEGAL_NAME_MAX ? `${name.slice(0, LEGAL_NAME_MAX - 1)}…` : name;
}

/** The account as the back office shows it; `emailVerified` when it has dashboard users (issue 38). */
export function toAdminAccount(row: AccountRow, emailVerified?: boolean): Account {
  return {
    accountId: row.id,
    legalName: legalNameForOperators(row.legal_name),
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
    ...(emailVerified !== undefined ? { emailVerified } : {}),
    ...(row.city !== null && row.state !== null ? { city: row.city, state: row.state } : {}),
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

/** The PATCH body as column changes (absent fields unchanged); JSON columns are written as text. */
export function toAccountUpdate(body: UpdateAccountRequest): AccountUpdate {
  const changes: AccountUpdate = {};
  const set = <K extends keyof AccountUpdate>(column: K, value: AccountUpdate[K] | undefined) => {
    if (value !== undefined) changes[column] = value;
  };
  set('kyc_status', body.kycStatus);
  set('blocked', body.blocked);
  set('charge_min_cents', body.chargeMinCents);
  set('charge_max_cents', body.chargeMaxCents);
  set('charge_fee_fixed_cents', body.chargeFeeFixedCents);
  set('charge_fee_bps', body.chargeFeeBps);
  set('withdrawal_fee_fixed_cents', body.withdrawalFeeFixedCents);
  set('withdrawal_fee_bps', body.withdrawalFeeBps);
  set('charge_rate_per_hour', body.chargeRatePerHour);
  set('withdrawal_max_cents', body.withdrawalMaxCents);
  set('withdrawal_daily_cap_cents', body.withdrawalDailyCapCents);
  set('withdrawal_monthly_cap_cents', body.withdrawalMonthlyCapCents);
  set('withdrawal_approval_mode', body.withdrawalApprovalMode);
  set('withdrawal_approval_threshold_cents', body.withdrawalApprovalThresholdCents);
  set('withdrawals_per_second', body.withdrawalsPerSecond);
  set('withdrawals_per_minute', body.withdrawalsPerMinute);
  set('withdrawals_per_hour', body.withdrawalsPerHour);
  set('recipient_limit', body.recipientLimit);
  set('recipients_per_hour', body.recipientsPerHour);
  if (body.ipAllowlist !== undefined) changes.ip_allowlist = JSON.stringify(body.ipAllowlist);
  if (body.withdrawalKeyTypes !== undefined) changes.withdrawal_key_types = JSON.stringify(body.withdrawalKeyTypes);
  return changes;
}

export function toAdminEvent(row: OutboxEventRow): AccountEvent {
  return {
    eventId: row.id,
    event: row.payload.event,
    transactionId: row.transaction_id,
    createdAt: row.created_at.getTime(),
    payload: row.payload,
  };
}
