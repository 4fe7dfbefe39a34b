import { sql, type Kysely } from 'kysely';

/**
 * Invitation placeholders (issue 22, defect 8): an invitation of an e-mail that already has a user (of
 * another account, or removed) makes no user and no link, but the inviting account must see it exactly as
 * a fresh pending invitation (in its list, its role changed, removed). It is kept here, keyed by the
 * `userId` the invitation answered, apart from `dashboard_users` (whose e-mail is unique across accounts).
 * It never signs in and never gives access to anything. One per e-mail per account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE dashboard_invitation_placeholders (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      email text NOT NULL,
      name text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
      invited_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      disabled_at timestamptz
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX dashboard_invitation_placeholders_account_email ON dashboard_invitation_placeholders (account_id, email)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS dashboard_invitation_placeholders`.execute(db);
}
