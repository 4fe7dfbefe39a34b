/** Owner of the `holds` table (precautionary holds on a balance; their money moves through the ledger). */
import type { Transaction } from 'kysely';
import type { Database, Db, HoldRow } from '../db/schema.ts';

export function insertHold(trx: Transaction<Database>, hold: Omit<HoldRow, 'status' | 'released_at' | 'infraction_id' | 'deadline_at'> & Partial<Pick<HoldRow, 'infraction_id' | 'deadline_at'>>): Promise<HoldRow> {
  return trx
    .insertInto('holds')
    .values({ ...hold, status: 'active', released_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One hold of the account, unlocked (its charge is locked first, then the hold: the order every path takes). */
export function findHold(db: Db, accountId: string, holdId: string): Promise<HoldRow | undefined> {
  return db.selectFrom('holds').selectAll().where('account_id', '=', accountId).where('id', '=', holdId).executeTakeFirst();
}

/** The active holds of a charge that a MED infraction placed, locked (a MED devolução of the charge ends them). */
export function lockInfractionHolds(trx: Transaction<Database>, transactionId: string): Promise<HoldRow[]> {
  return trx
    .selectFrom('holds')
    .selectAll()
    .where('transaction_id', '=', transactionId)
    .where('status', '=', 'active')
    .where('infraction_id', 'is not', null)
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/** The hold a MED infraction placed. */
export function findHoldOfInfraction(db: Db, infractionId: string): Promise<HoldRow | undefined> {
  return db.selectFrom('holds').selectAll().where('infraction_id', '=', infractionId).executeTakeFirst();
}

/** Locks one hold of the account for a change; undefined when the account has no such hold. */
export function lockHold(trx: Transaction<Database>, accountId: string, holdId: string): Promise<HoldRow | undefined> {
  return trx.selectFrom('holds').selectAll().where('account_id', '=', accountId).where('id', '=', holdId).forNoKeyUpdate().executeTakeFirst();
}

export function markHoldReleased(trx: Transaction<Database>, holdId: string, at: Date): Promise<HoldRow> {
  return trx
    .updateTable('holds')
    .set({ status: 'released', released_at: at })
    .where('id', '=', holdId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function listHolds(db: Db, accountId: string, status?: HoldRow['status']): Promise<HoldRow[]> {
  let query = db.selectFrom('holds').selectAll().where('account_id', '=', accountId);
  if (status !== undefined) query = query.where('status', '=', status);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}
