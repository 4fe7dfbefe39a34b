import { sql, type Kysely } from 'kysely';

/**
 * Money out: withdrawal settings per account, third-party recipients, withdrawal alerts, reservations of
 * withdrawals being sent (kept apart from holds), and the simulated PSP's own ledger of transfers (it
 * plays an external system, so its state lives in tables of its own and survives restarts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE accounts
      ADD COLUMN withdrawal_key_types jsonb NOT NULL DEFAULT '["cpf","cnpj","email","phone","evp"]'::jsonb,
      ADD COLUMN withdrawal_max_cents bigint NOT NULL DEFAULT 5000000 CHECK (withdrawal_max_cents >= 100),
      ADD COLUMN withdrawal_daily_cap_cents bigint NOT NULL DEFAULT 10000000 CHECK (withdrawal_daily_cap_cents >= 0),
      ADD COLUMN withdrawal_monthly_cap_cents bigint NOT NULL DEFAULT 100000000 CHECK (withdrawal_monthly_cap_cents >= 0),
      ADD COLUMN withdrawal_approval_mode text NOT NULL DEFAULT 'automatic'
        CHECK (withdrawal_approval_mode IN ('automatic', 'manual')),
      ADD COLUMN withdrawal_approval_threshold_cents bigint CHECK (withdrawal_approval_threshold_cents >= 100),
      ADD COLUMN withdrawals_per_second integer NOT NULL DEFAULT 1 CHECK (withdrawals_per_second >= 0),
      ADD COLUMN withdrawals_per_minute integer NOT NULL DEFAULT 2 CHECK (withdrawals_per_minute >= 0),
      ADD COLUMN withdrawals_per_hour integer NOT NULL DEFAULT 10 CHECK (withdrawals_per_hour >= 0),
      ADD COLUMN recipient_limit integer NOT NULL DEFAULT 10 CHECK (recipient_limit >= 0),
      ADD COLUMN recipients_per_hour integer NOT NULL DEFAULT 60 CHECK (recipients_per_hour >= 0)`.execute(db);

  // Money reserved for withdrawals whose provider call is in flight: not yet debited, not withdrawable.
  await sql`ALTER TABLE balances ADD COLUMN reserved_cents bigint NOT NULL DEFAULT 0 CHECK (reserved_cents >= 0)`.execute(db);
  await sql`ALTER TABLE ledger_entries ADD COLUMN reserved_delta_cents bigint NOT NULL DEFAULT 0`.execute(db);

  // Internal progress of a withdrawal at the provider: null (not sent), sending, sent.
  await sql`ALTER TABLE transactions ADD COLUMN provider_state text`.execute(db);
  await sql`ALTER TABLE transactions ADD COLUMN total_deducted_cents bigint`.execute(db);
  await sql`CREATE INDEX transactions_withdrawals_open ON transactions (status, updated_at)
    WHERE type = 'withdrawal' AND status IN ('initiating', 'processing', 'failed_unknown')`.execute(db);
  await sql`CREATE INDEX transactions_withdrawals_period ON transactions (account_id, created_at)
    WHERE type = 'withdrawal'`.execute(db);

  await sql`
    CREATE TABLE recipients (
      account_id text NOT NULL REFERENCES accounts(id),
      id text NOT NULL,
      legal_name text NOT NULL,
      document text NOT NULL,
      document_type text NOT NULL CHECK (document_type IN ('cpf', 'cnpj')),
      pix_key text NOT NULL,
      pix_key_type text NOT NULL CHECK (pix_key_type IN ('cpf', 'cnpj', 'email', 'phone', 'evp')),
      label text,
      status text NOT NULL CHECK (status IN ('pending_review', 'active', 'rejected', 'deactivated')),
      review_note text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      approved_at timestamptz,
      reviewed_at timestamptz,
      PRIMARY KEY (account_id, id)
    )`.execute(db);
  await sql`CREATE INDEX recipients_account_status ON recipients (account_id, status)`.execute(db);

  await sql`
    CREATE TABLE withdrawal_alerts (
      id bigserial PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      transaction_id text NOT NULL REFERENCES transactions(id),
      recipient_id text NOT NULL,
      amount_cents bigint NOT NULL,
      pix_key_type text NOT NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX withdrawal_alerts_created ON withdrawal_alerts (created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE sim_psp_transfers (
      transaction_id text PRIMARY KEY,
      amount_cents bigint NOT NULL,
      pix_key text NOT NULL,
      pix_key_type text NOT NULL,
      state text NOT NULL CHECK (state IN ('accepted', 'paid', 'rejected', 'returned')),
      settle_at timestamptz,
      end_to_end_id text,
      beneficiary jsonb,
      refused_code text,
      refused_reason text,
      refund_end_to_end_id text,
      returned_cents bigint,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS sim_psp_transfers`.execute(db);
  await sql`DROP TABLE IF EXISTS withdrawal_alerts`.execute(db);
  await sql`DROP TABLE IF EXISTS recipients`.execute(db);
}
