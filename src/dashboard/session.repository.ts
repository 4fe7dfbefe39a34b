/** Owner of `dashboard_sessions`: signed-in browsers of merchant users (only token hashes are stored). */
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database, DashboardSessionRow, DashboardSessionsTable } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertSession(db: Db, session: Insertable<DashboardSessionsTable>): Promise<void> {
  await db.insertInto('dashboard_sessions').values(session).execute();
}

/** A session that has not expired; undefined when unknown or expired. */
export function findLiveSession(db: Db, tokenHash: string, now: Date): Promise<DashboardSessionRow | undefined> {
  return db.selectFrom('dashboard_sessions').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
}

export async function updateSession(db: Db, tokenHash: string, changes: { stage?: 'password' | 'complete'; last_seen_at?: Date; expires_at?: Date }): Promise<void> {
  await db.updateTable('dashboard_sessions').set(changes).where('token_hash', '=', tokenHash).execute();
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Signs a user out everywhere (password reset, removal), optionally keeping the current session. */
export async function deleteUserSessions(db: Db, userId: string, except?: string): Promise<void> {
  let query = db.deleteFrom('dashboard_sessions').where('user_id', '=', userId);
  if (except !== undefined) query = query.where('token_hash', '!=', except);
  await query.execute();
}

export async function purgeExpiredSessions(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom('dashboard_sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
