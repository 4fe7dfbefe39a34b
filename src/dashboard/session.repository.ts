/** Owner of `dashboard_sessions`: signed-in browsers of merchant users (only token hashes are stored). */
import { randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { DashboardSessionRow, DashboardSessionsTable, Db } from '../db/schema.ts';

/** Stores a new session under a fresh public id (`ses_` + 24 hex), which it returns. */
export async function insertSession(db: Db, session: Omit<Insertable<DashboardSessionsTable>, 'id'>): Promise<string> {
  const id = `ses_${randomBytes(12).toString('hex')}`;
  await db.insertInto('dashboard_sessions').values({ ...session, id }).execute();
  return id;
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

/** Deletes the sessions whose expiry has passed (the hourly purge-history job); answers how many. */
export async function purgeExpiredSessions(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom('dashboard_sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The user's live sessions, newest first. */
export function listLiveUserSessions(db: Db, userId: string, now: Date): Promise<DashboardSessionRow[]> {
  return db
    .selectFrom('dashboard_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Ends one session of the user by its public id: true when there was one. */
export async function deleteUserSessionById(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const result = await db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).where('id', '=', sessionId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Ends every session of the user but `except` (a token hash); the number ended. */
export async function deleteOtherUserSessions(db: Db, userId: string, except: string): Promise<number> {
  const result = await db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).where('token_hash', '!=', except).executeTakeFirst();
  return Number(result.numDeletedRows);
}
