/** Owner of `operators` (the service team's people, with roles) and `operator_sessions` (their console sessions). */
import type { Insertable, Updateable } from 'kysely';
import type { Db, OperatorRow, OperatorSessionRow, OperatorSessionsTable, OperatorsTable, SessionStage } from '../db/schema.ts';

export function insertOperator(db: Db, operator: Insertable<OperatorsTable>): Promise<OperatorRow> {
  return db.insertInto('operators').values(operator).returningAll().executeTakeFirstOrThrow();
}

export function findOperator(db: Db, id: string): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findOperatorByEmail(db: Db, email: string): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst();
}

export function listOperators(db: Db): Promise<OperatorRow[]> {
  return db.selectFrom('operators').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function countOperators(db: Db): Promise<number> {
  const row = await db.selectFrom('operators').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function updateOperator(db: Db, id: string, changes: Updateable<OperatorsTable>): Promise<OperatorRow> {
  return db.updateTable('operators').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Accepts a TOTP step only if it is after the last accepted one (a code never works twice). */
export async function advanceOperatorTotpStep(db: Db, id: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('operators')
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertOperatorSession(db: Db, session: Insertable<OperatorSessionsTable>): Promise<void> {
  await db.insertInto('operator_sessions').values(session).execute();
}

export function findLiveOperatorSession(db: Db, tokenHash: string, now: Date): Promise<OperatorSessionRow | undefined> {
  return db.selectFrom('operator_sessions').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
}

export async function updateOperatorSession(db: Db, tokenHash: string, changes: { stage?: SessionStage; last_seen_at?: Date; expires_at?: Date }): Promise<void> {
  await db.updateTable('operator_sessions').set(changes).where('token_hash', '=', tokenHash).execute();
}

export async function deleteOperatorSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('operator_sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteSessionsOfOperator(db: Db, operatorId: string): Promise<void> {
  await db.deleteFrom('operator_sessions').where('operator_id', '=', operatorId).execute();
}

/** Ends every console session of the operator but `except` (a token hash). */
export async function deleteOtherOperatorSessions(db: Db, operatorId: string, except: string): Promise<void> {
  await db.deleteFrom('operator_sessions').where('operator_id', '=', operatorId).where('token_hash', '!=', except).execute();
}
