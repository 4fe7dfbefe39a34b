import { sql, type Kysely } from 'kysely';

/**
 * Account security (issue 22):
 * - `operators.password_temporary_until`: set when the password was chosen by someone else (the first
 *   operator printed by `npm start`, an operator created or reset by an admin): the operator must change it
 *   at the first sign-in, and it stops working at that time (24 h) if unused. Null once the operator chose
 *   their own. Existing operators are all marked (none could choose a password before).
 * - `dashboard_sessions.id`: a public id for each session (the token hash is never shown), so a merchant can
 *   see their sessions and end one.
 * - `accounts.team_two_factor_required`: the owner's setting that every user of the account enrols TOTP.
 * - `audit_log.actor_type` takes `user` (a merchant's user acting in the dashboard) and the index of
 *   sign-ins by account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE operators ADD COLUMN password_temporary_until timestamptz`.execute(db);
  // Until now no operator could choose a password: every one holds a password the server chose and someone
  // else saw. Each must change it at the next sign-in; one never used (TOTP not enrolled) stops working in
  // 24 hours, one in use in 30 days (time to sign in once; then an admin resets it).
  await sql`
    UPDATE operators
    SET password_temporary_until = now() + CASE WHEN totp_enabled_at IS NULL THEN interval '24 hours' ELSE interval '30 days' END
    WHERE disabled_at IS NULL`.execute(db);
  await sql`ALTER TABLE dashboard_sessions ADD COLUMN id text`.execute(db);
  await sql`UPDATE dashboard_sessions SET id = 'ses_' || substr(md5(token_hash), 1, 24) WHERE id IS NULL`.execute(db);
  await sql`ALTER TABLE dashboard_sessions ALTER COLUMN id SET NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX dashboard_sessions_id ON dashboard_sessions (id)`.execute(db);
  await sql`ALTER TABLE accounts ADD COLUMN team_two_factor_required boolean NOT NULL DEFAULT false`.execute(db);
  await sql`ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS audit_log_actor_type_check`.execute(db);
  await sql`ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_type_check CHECK (actor_type IN ('operator', 'automation', 'system', 'user'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS audit_log_actor_type_check`.execute(db);
  await sql`ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_type_check CHECK (actor_type IN ('operator', 'automation', 'system'))`.execute(db);
  await sql`ALTER TABLE accounts DROP COLUMN IF EXISTS team_two_factor_required`.execute(db);
  await sql`DROP INDEX IF EXISTS dashboard_sessions_id`.execute(db);
  await sql`ALTER TABLE dashboard_sessions DROP COLUMN IF EXISTS id`.execute(db);
  await sql`ALTER TABLE operators DROP COLUMN IF EXISTS password_temporary_until`.execute(db);
}
