import { sql, type Kysely } from 'kysely';

/**
 * Webhooks: the merchant's URLs (up to 6 per account) with their secrets and filters, one delivery task per
 * (event, URL) with its retry schedule, and one row per attempt (the history kept 60 days).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // json (not jsonb) keeps the payload's text, key order included, so every attempt sends the same body.
  await sql`ALTER TABLE outbox_events ALTER COLUMN payload TYPE json USING payload::json`.execute(db);
  await sql`
    CREATE TABLE webhook_endpoints (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      url text NOT NULL,
      events jsonb NOT NULL DEFAULT '[]'::jsonb,
      -- The filter expanded to canonical event names (categories and legacy names resolved); [] = all.
      event_names jsonb NOT NULL DEFAULT '[]'::jsonb,
      description text,
      enabled boolean NOT NULL DEFAULT true,
      secret text NOT NULL,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id) WHERE deleted_at IS NULL`.execute(db);

  await sql`
    CREATE TABLE webhook_deliveries (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      event_id text NOT NULL REFERENCES outbox_events(id),
      endpoint_id text NOT NULL REFERENCES webhook_endpoints(id),
      trigger text NOT NULL CHECK (trigger IN ('automatic', 'manual')),
      status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'dropped')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL,
      locked_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)`.execute(db);

  await sql`
    CREATE TABLE webhook_attempts (
      id bigserial PRIMARY KEY,
      delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
      account_id text NOT NULL,
      event_id text NOT NULL,
      event text NOT NULL,
      endpoint_id text NOT NULL,
      url text NOT NULL,
      attempt_number integer NOT NULL,
      trigger text NOT NULL,
      request_body text NOT NULL,
      http_status integer,
      duration_ms integer NOT NULL,
      response_excerpt text,
      error text,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX webhook_attempts_account_created ON webhook_attempts (account_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX webhook_attempts_created ON webhook_attempts (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS webhook_attempts`.execute(db);
  await sql`DROP TABLE IF EXISTS webhook_deliveries`.execute(db);
  await sql`DROP TABLE IF EXISTS webhook_endpoints`.execute(db);
}
