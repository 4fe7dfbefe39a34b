import { sql, type Kysely } from 'kysely';

/**
 * Invitations that end (issue 38, defect 8: an invitation to an e-mail registered elsewhere said "Convite
 * enviado" and stayed "pendente" forever, and the team two-factor notice counted it): `invitation_expires_at`
 * of a dashboard user not yet accepted and of an invitation placeholder, 7 days after it was sent (the
 * invitation link's lifetime) and renewed when it is sent again. Both kinds expire alike, so the list still
 * does not tell which e-mails are registered. Existing invitations expire 7 days after they were created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE dashboard_users ADD COLUMN invitation_expires_at timestamptz`.execute(db);
  await sql`UPDATE dashboard_users SET invitation_expires_at = created_at + interval '7 days' WHERE password_hash IS NULL`.execute(db);
  await sql`ALTER TABLE dashboard_invitation_placeholders ADD COLUMN invitation_expires_at timestamptz`.execute(db);
  await sql`UPDATE dashboard_invitation_placeholders SET invitation_expires_at = created_at + interval '7 days'`.execute(db);
  await sql`ALTER TABLE dashboard_invitation_placeholders ALTER COLUMN invitation_expires_at SET NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE dashboard_invitation_placeholders DROP COLUMN IF EXISTS invitation_expires_at`.execute(db);
  await sql`ALTER TABLE dashboard_users DROP COLUMN IF EXISTS invitation_expires_at`.execute(db);
}
