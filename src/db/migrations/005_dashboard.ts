import { sql, type Kysely } from 'kysely';

/**
 * The dashboard and the console: merchant users (several per account) with their sessions, e-mail links
 * and recovery codes; the mail outbox; the service team's operators and their sessions; the append-only
 * audit log; and the last use of each API key. Secrets are never stored in the clear: passwords as scrypt
 * hashes, session tokens, e-mail links and recovery codes as SHA-256, TOTP seeds sealed (AES-256-GCM).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE dashboard_users (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      email text NOT NULL,
      name text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
      password_hash text,
      email_verified_at timestamptz,
      totp_secret_sealed text,
      totp_enabled_at timestamptz,
      totp_last_step bigint,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      disabled_at timestamptz
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX dashboard_users_email ON dashboard_users (email)`.execute(db);
  await sql`CREATE INDEX dashboard_users_account ON dashboard_users (account_id)`.execute(db);

  await sql`
    CREATE TABLE dashboard_recovery_codes (
      user_id text NOT NULL REFERENCES dashboard_users(id),
      code_hash text NOT NULL,
      used_at timestamptz,
      PRIMARY KEY (user_id, code_hash)
    )`.execute(db);

  await sql`
    CREATE TABLE dashboard_sessions (
      token_hash text PRIMARY KEY,
      user_id text NOT NULL REFERENCES dashboard_users(id),
      -- 'password': the password was right, the second factor is still due; 'complete': signed in.
      stage text NOT NULL CHECK (stage IN ('password', 'complete')),
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      ip text,
      user_agent text
    )`.execute(db);
  await sql`CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id)`.execute(db);

  await sql`
    CREATE TABLE dashboard_email_tokens (
      token_hash text PRIMARY KEY,
      user_id text NOT NULL REFERENCES dashboard_users(id),
      purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password', 'invite')),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);

  await sql`
    CREATE TABLE mail_outbox (
      id text PRIMARY KEY,
      recipient text NOT NULL,
      subject text NOT NULL,
      body_text text NOT NULL,
      created_at timestamptz NOT NULL,
      sent_at timestamptz,
      error text
    )`.execute(db);

  // Webhook secrets are sealed at start-up by the server (it holds the key); the prefix shown to people is
  // kept beside them.
  await sql`ALTER TABLE webhook_endpoints ADD COLUMN secret_prefix text`.execute(db);

  await sql`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`.execute(db);
  await sql`ALTER TABLE api_keys ADD COLUMN created_by text`.execute(db);

  await sql`
    CREATE TABLE operators (
      id text PRIMARY KEY,
      email text NOT NULL,
      name text NOT NULL,
      roles jsonb NOT NULL DEFAULT '[]'::jsonb,
      password_hash text NOT NULL,
      totp_secret_sealed text,
      totp_enabled_at timestamptz,
      totp_last_step bigint,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      disabled_at timestamptz
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX operators_email ON operators (email)`.execute(db);

  await sql`
    CREATE TABLE operator_sessions (
      token_hash text PRIMARY KEY,
      operator_id text NOT NULL REFERENCES operators(id),
      stage text NOT NULL CHECK (stage IN ('password', 'enrol', 'complete')),
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      ip text,
      user_agent text
    )`.execute(db);

  await sql`
    CREATE TABLE audit_log (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL,
      actor_type text NOT NULL CHECK (actor_type IN ('operator', 'automation', 'system')),
      actor_id text,
      actor_name text NOT NULL,
      action text NOT NULL,
      target_type text NOT NULL,
      target_id text,
      account_id text,
      before jsonb,
      after jsonb,
      request_id text,
      ip text
    )`.execute(db);
  await sql`CREATE INDEX audit_log_at ON audit_log (at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_account ON audit_log (account_id, at DESC) WHERE account_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX audit_log_actor ON audit_log (actor_id, at DESC)`.execute(db);
  // Append-only: no role of the application can change or remove an entry once written.
  await sql`
    CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP;
    END;
    $$`.execute(db);
  await sql`CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only()`.execute(db);
  await sql`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS audit_log`.execute(db);
  await sql`DROP FUNCTION IF EXISTS audit_log_is_append_only()`.execute(db);
  await sql`DROP TABLE IF EXISTS operator_sessions`.execute(db);
  await sql`DROP TABLE IF EXISTS operators`.execute(db);
  await sql`ALTER TABLE webhook_endpoints DROP COLUMN IF EXISTS secret_prefix`.execute(db);
  await sql`ALTER TABLE api_keys DROP COLUMN IF EXISTS created_by`.execute(db);
  await sql`ALTER TABLE api_keys DROP COLUMN IF EXISTS last_used_at`.execute(db);
  await sql`DROP TABLE IF EXISTS mail_outbox`.execute(db);
  await sql`DROP TABLE IF EXISTS dashboard_email_tokens`.execute(db);
  await sql`DROP TABLE IF EXISTS dashboard_sessions`.execute(db);
  await sql`DROP TABLE IF EXISTS dashboard_recovery_codes`.execute(db);
  await sql`DROP TABLE IF EXISTS dashboard_users`.execute(db);
}
