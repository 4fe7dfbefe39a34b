/** Owner of `dashboard_users` (merchant users, several per account) and `dashboard_recovery_codes`. */
import type { Insertable, Transaction, Updateable } from 'kysely';
import type { DashboardUserRow, DashboardUsersTable, Database, Db } from '../db/schema.ts';

export function insertUser(db: Db, user: Insertable<DashboardUsersTable>): Promise<DashboardUserRow> {
  return db.insertInto('dashboard_users').values(user).returningAll().executeTakeFirstOrThrow();
}

export function findUserByEmail(db: Db, email: string): Promise<DashboardUserRow | undefined> {
  return db.selectFrom('dashboard_users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUser(db: Db, userId: string): Promise<DashboardUserRow | undefined> {
  return db.selectFrom('dashboard_users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** A user of the account (never another account's). */
export function findAccountUser(db: Db, accountId: string, userId: string): Promise<DashboardUserRow | undefined> {
  return db.selectFrom('dashboard_users').selectAll().where('account_id', '=', accountId).where('id', '=', userId).executeTakeFirst();
}

export function listAccountUsers(db: Db, accountId: string): Promise<DashboardUserRow[]> {
  return db.selectFrom('dashboard_users').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
}

export function updateUser(db: Db, userId: string, changes: Updateable<DashboardUsersTable>): Promise<DashboardUserRow> {
  return db.updateTable('dashboard_users').set(changes).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();
}

/** Accepts a TOTP step only if it is after the last accepted one (one statement: two tabs cannot replay a code). */
export async function advanceTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('dashboard_users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function replaceRecoveryCodes(trx: Transaction<Database>, userId: string, codeHashes: string[]): Promise<void> {
  await trx.deleteFrom('dashboard_recovery_codes').where('user_id', '=', userId).execute();
  if (codeHashes.length === 0) return;
  await trx.insertInto('dashboard_recovery_codes').values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null }))).execute();
}

/** Uses a recovery code once: true when it existed and was unused. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('dashboard_recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('dashboard_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Per account of `accountIds` that has users: whether one of them confirmed an e-mail (issue 38). */
export async function emailVerifiedByAccount(db: Db, accountIds: readonly string[]): Promise<Map<string, boolean>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('dashboard_users')
    .select(['account_id', (eb) => eb.fn.count<string>('email_verified_at').as('verified')])
    .where('account_id', 'in', accountIds)
    .groupBy('account_id')
    .execute();
  return new Map(rows.map((row) => [row.account_id, Number(row.verified) > 0]));
}
