import { sql, type Kysely } from 'kysely';

/**
 * Hardening (issue 12):
 * - a `failed_unknown` withdrawal keeps its status until the outcome is final; the PSP's acceptance is
 *   recorded here (`provider_accepted_at`), and a resolution after 24 h says who decided it and why
 *   (`resolved_by` = provider or operator, `resolution_note`, `resolved_at`);
 * - recipients are found by account and document (their ids may come from either derivation, the old
 *   unkeyed hash or the HMAC): one recipient per document and account, enforced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE transactions ADD COLUMN provider_accepted_at timestamptz`.execute(db);
  await sql`ALTER TABLE transactions ADD COLUMN resolved_by text CHECK (resolved_by IN ('provider', 'operator'))`.execute(db);
  await sql`ALTER TABLE transactions ADD COLUMN resolution_note text`.execute(db);
  await sql`ALTER TABLE transactions ADD COLUMN resolved_at timestamptz`.execute(db);
  await sql`CREATE UNIQUE INDEX recipients_account_document ON recipients (account_id, document_type, document)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS recipients_account_document`.execute(db);
  await sql`ALTER TABLE transactions DROP COLUMN IF EXISTS resolved_at`.execute(db);
  await sql`ALTER TABLE transactions DROP COLUMN IF EXISTS resolution_note`.execute(db);
  await sql`ALTER TABLE transactions DROP COLUMN IF EXISTS resolved_by`.execute(db);
  await sql`ALTER TABLE transactions DROP COLUMN IF EXISTS provider_accepted_at`.execute(db);
}
