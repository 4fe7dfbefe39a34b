import { sql, type Kysely } from 'kysely';

/**
 * Dashboard sign-in back-off (issue 38, defect 3): one row per throttled subject (an e-mail tried from
 * browsers it never signed in from, a trusted browser, a client address, a user's second-factor codes, a
 * session's password changes), keyed by a truncated SHA-256 (no e-mail or address in the clear): how many
 * failures since the subject was last forgotten, the last one, until when the next attempt waits, and
 * when the owner was last told by e-mail. Rows whose last failure is older than a day are purged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sign_in_failures (
      subject text PRIMARY KEY,
      failures integer NOT NULL CHECK (failures >= 0),
      last_failure_at timestamptz NOT NULL,
      blocked_until timestamptz,
      notified_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX sign_in_failures_last_failure ON sign_in_failures (last_failure_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS sign_in_failures`.execute(db);
}
