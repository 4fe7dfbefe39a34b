import { sql, type Kysely } from 'kysely';

/**
 * Core schema: accounts and keys, transactions, idempotency, the ledger (balances, entries, holds),
 * rate-limit counters and the event outbox. Money is bigint cents; balance rows carry CHECK constraints
 * so no code path can take them below zero.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE accounts (
      id text PRIMARY KEY,
      legal_name text NOT NULL,
      responsible_cpf text NOT NULL,
      company_cnpj text NOT NULL,
      email text NOT NULL,
      kyc_status text NOT NULL CHECK (kyc_status IN ('pending', 'approved', 'rejected')),
      blocked boolean NOT NULL DEFAULT false,
      ip_allowlist jsonb NOT NULL DEFAULT '[]'::jsonb,
      charge_min_cents bigint,
      charge_max_cents bigint,
      charge_fee_fixed_cents bigint NOT NULL CHECK (charge_fee_fixed_cents >= 0),
      charge_fee_bps integer NOT NULL CHECK (charge_fee_bps BETWEEN 0 AND 10000),
      withdrawal_fee_fixed_cents bigint NOT NULL CHECK (withdrawal_fee_fixed_cents >= 0),
      withdrawal_fee_bps integer NOT NULL CHECK (withdrawal_fee_bps BETWEEN 0 AND 10000),
      charge_rate_per_hour integer NOT NULL CHECK (charge_rate_per_hour >= 0),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK (charge_min_cents IS NULL OR charge_min_cents >= 100),
      CHECK (charge_max_cents IS NULL OR charge_max_cents >= coalesce(charge_min_cents, 100))
    )`.execute(db);

  await sql`
    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      public_prefix text NOT NULL,
      key_hash text NOT NULL UNIQUE,
      label text,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX api_keys_account ON api_keys (account_id)`.execute(db);

  await sql`
    CREATE TABLE transactions (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      type text NOT NULL CHECK (type IN ('pix_in', 'withdrawal')),
      status text NOT NULL,
      amount_cents bigint NOT NULL CHECK (amount_cents >= 100),
      fee_cents bigint NOT NULL CHECK (fee_cents >= 0),
      net_cents bigint NOT NULL,
      external_ref text,
      pix_payload text,
      expires_at timestamptz,
      paid_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      end_to_end_id text,
      payer jsonb,
      beneficiary jsonb,
      refund_end_to_end_id text,
      refunded_cents bigint,
      refused_code text,
      refused_reason text,
      customer jsonb,
      provider_ref text,
      pix_key text,
      pix_key_type text,
      description text,
      recipient_id text
    )`.execute(db);
  await sql`CREATE INDEX transactions_account_created ON transactions (account_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX transactions_account_type_created ON transactions (account_id, type, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX transactions_pending_expiry ON transactions (expires_at) WHERE status = 'pending'`.execute(db);

  await sql`
    CREATE TABLE idempotency_keys (
      account_id text NOT NULL REFERENCES accounts(id),
      scope text NOT NULL CHECK (scope IN ('charge', 'withdrawal')),
      external_ref text NOT NULL,
      transaction_id text NOT NULL REFERENCES transactions(id) DEFERRABLE INITIALLY DEFERRED,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, scope, external_ref)
    )`.execute(db);

  await sql`
    CREATE TABLE balances (
      account_id text PRIMARY KEY REFERENCES accounts(id),
      available_cents bigint NOT NULL DEFAULT 0 CHECK (available_cents >= 0),
      held_cents bigint NOT NULL DEFAULT 0 CHECK (held_cents >= 0),
      updated_at timestamptz NOT NULL
    )`.execute(db);

  await sql`
    CREATE TABLE holds (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      transaction_id text REFERENCES transactions(id),
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      reason text NOT NULL CHECK (reason IN ('med', 'dispute', 'protest', 'administrative')),
      note text,
      status text NOT NULL CHECK (status IN ('active', 'released')),
      created_at timestamptz NOT NULL,
      released_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX holds_account_active ON holds (account_id) WHERE status = 'active'`.execute(db);

  await sql`
    CREATE TABLE ledger_entries (
      id bigserial PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      transaction_id text REFERENCES transactions(id),
      hold_id text REFERENCES holds(id),
      kind text NOT NULL,
      amount_cents bigint NOT NULL,
      held_delta_cents bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX ledger_entries_account ON ledger_entries (account_id)`.execute(db);
  await sql`CREATE INDEX ledger_entries_transaction ON ledger_entries (transaction_id)`.execute(db);

  await sql`
    CREATE TABLE rate_limit_counters (
      account_id text NOT NULL,
      bucket text NOT NULL,
      window_index bigint NOT NULL,
      count integer NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, bucket, window_index)
    )`.execute(db);

  await sql`
    CREATE TABLE outbox_events (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      event text NOT NULL,
      transaction_id text REFERENCES transactions(id),
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX outbox_events_transaction ON outbox_events (transaction_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'outbox_events',
    'rate_limit_counters',
    'ledger_entries',
    'holds',
    'balances',
    'idempotency_keys',
    'transactions',
    'api_keys',
    'accounts',
  ]) {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
  }
}
