/**
 * Owner of `infractions` (migration 018): the provider's MED infractions on received Pix, as PixGate follows
 * them (the hold each placed, the merchant's defence, the outcome).
 */
import type { Transaction } from 'kysely';
import type { Database, Db, InfractionRow, InfractionStatus } from '../db/schema.ts';

export type NewInfraction = Omit<InfractionRow, 'defence' | 'defence_analysis' | 'defence_by' | 'defence_sent_at' | 'closed_at' | 'blocked_at' | 'hold_id'> &
  Partial<Pick<InfractionRow, 'blocked_at' | 'hold_id' | 'closed_at'>>;

export async function insertInfraction(trx: Transaction<Database>, row: NewInfraction): Promise<InfractionRow> {
  return trx.insertInto('infractions').values(row).returningAll().executeTakeFirstOrThrow();
}

export function lockInfraction(trx: Transaction<Database>, id: string): Promise<InfractionRow | undefined> {
  return trx.selectFrom('infractions').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
}

export function findInfraction(db: Db, id: string): Promise<InfractionRow | undefined> {
  return db.selectFrom('infractions').selectAll().where('id', '=', id).executeTakeFirst();
}

export type InfractionChanges = Partial<Omit<InfractionRow, 'id' | 'created_at'>>;

export function updateInfraction(trx: Transaction<Database>, id: string, changes: InfractionChanges): Promise<InfractionRow> {
  return trx.updateTable('infractions').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** When the oldest infraction still open was opened (the follower lists from there); undefined: none open. */
export async function oldestOpenAt(db: Db): Promise<Date | undefined> {
  const row = await db.selectFrom('infractions').select('opened_at').where('status', 'in', ['open', 'defending']).orderBy('opened_at').limit(1).executeTakeFirst();
  return row?.opened_at;
}

export interface InfractionFilter {
  accountId?: string | undefined;
  transactionId?: string | undefined;
  status?: InfractionStatus | undefined;
  limit: number;
}

/** Infractions, newest first. */
export function listInfractions(db: Db, filter: InfractionFilter): Promise<InfractionRow[]> {
  let query = db.selectFrom('infractions').selectAll();
  if (filter.accountId !== undefined) query = query.where('account_id', '=', filter.accountId);
  if (filter.transactionId !== undefined) query = query.where('transaction_id', '=', filter.transactionId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return query.orderBy('opened_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}
