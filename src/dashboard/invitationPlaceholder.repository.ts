/**
 * Owner of `dashboard_invitation_placeholders`: invitations of e-mails that already have a user elsewhere,
 * shown to the inviting account as pending invitations (docs/dashboard.md, decision 14).
 */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DashboardInvitationPlaceholdersTable, Db } from '../db/schema.ts';

export type InvitationPlaceholderRow = Selectable<DashboardInvitationPlaceholdersTable>;

export function insertInvitationPlaceholder(db: Db, row: Insertable<DashboardInvitationPlaceholdersTable>): Promise<InvitationPlaceholderRow> {
  return db.insertInto('dashboard_invitation_placeholders').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The account's placeholder for an e-mail (removed ones too). */
export function findAccountPlaceholderByEmail(db: Db, accountId: string, email: string): Promise<InvitationPlaceholderRow | undefined> {
  return db.selectFrom('dashboard_invitation_placeholders').selectAll().where('account_id', '=', accountId).where('email', '=', email).executeTakeFirst();
}

export function findAccountPlaceholder(db: Db, accountId: string, id: string): Promise<InvitationPlaceholderRow | undefined> {
  return db.selectFrom('dashboard_invitation_placeholders').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export function listAccountPlaceholders(db: Db, accountId: string): Promise<InvitationPlaceholderRow[]> {
  return db.selectFrom('dashboard_invitation_placeholders').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
}

export function updateInvitationPlaceholder(db: Db, id: string, changes: Updateable<DashboardInvitationPlaceholdersTable>): Promise<InvitationPlaceholderRow> {
  return db.updateTable('dashboard_invitation_placeholders').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
