import type { Json } from './json.ts';
import type { ColumnType, Generated } from 'kysely';

/** Merchant accounts and their API keys. */

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
  /** The owner's setting: every user of the account must enrol two-factor (migration 016). */
  team_two_factor_required: Generated<boolean>;
  /** The merchant's municipality as the IBGE names it, its UF and IBGE code (migration 020); null: not told yet. */
  city: ColumnType<string | null, string | null | undefined, string | null>;
  state: ColumnType<string | null, string | null | undefined, string | null>;
  city_ibge_code: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** Last request authenticated with the key (written at most once a minute per key). */
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The dashboard user who generated it (null: the service team or the demo seed). */
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
}
