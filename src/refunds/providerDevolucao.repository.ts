/**
 * Owner of `provider_devolucoes` (migration 018): the devoluções of received Pix made by the provider, not
 * through PixGate's refunds (MED, or made outside the API), each booked once; and the ones the back office
 * asked for, `claimed` (their amount held in the charge's `refunding_cents`) until booked or released.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, Db, ProviderDevolucaoRow } from '../db/schema.ts';

type NewDevolucao = Pick<ProviderDevolucaoRow, 'end_to_end_id' | 'id' | 'transaction_id' | 'hold_id' | 'natureza' | 'amount_cents'> & { at: Date };

/** Claims a devolução the back office is asking the provider for; false when its id exists already. */
export async function insertClaim(trx: Transaction<Database>, claim: NewDevolucao): Promise<boolean> {
  const inserted = await trx
    .insertInto('provider_devolucoes')
    .values({ ...pick(claim), rtr_id: null, status: 'claimed', booked_as: null, shortfall_cents: 0, returned_at: null, created_at: claim.at, updated_at: claim.at })
    .onConflict((oc) => oc.columns(['end_to_end_id', 'id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Records a devolução the provider reported, as booked; undefined when it was recorded already (booked or claimed: see `lockDevolucao`). */
export async function insertBooked(
  trx: Transaction<Database>,
  devolucao: NewDevolucao & { rtrId: string | null; bookedAs: NonNullable<ProviderDevolucaoRow['booked_as']>; shortfallCents: number; returnedAt: Date },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('provider_devolucoes')
    .values({
      ...pick(devolucao),
      rtr_id: devolucao.rtrId,
      status: 'booked',
      booked_as: devolucao.bookedAs,
      shortfall_cents: devolucao.shortfallCents,
      returned_at: devolucao.returnedAt,
      created_at: devolucao.at,
      updated_at: devolucao.at,
    })
    .onConflict((oc) => oc.columns(['end_to_end_id', 'id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

function pick(devolucao: NewDevolucao) {
  return {
    end_to_end_id: devolucao.end_to_end_id,
    id: devolucao.id,
    transaction_id: devolucao.transaction_id,
    hold_id: devolucao.hold_id,
    natureza: devolucao.natureza,
    amount_cents: devolucao.amount_cents,
  };
}

export function lockDevolucao(trx: Transaction<Database>, endToEndId: string, id: string): Promise<ProviderDevolucaoRow | undefined> {
  return trx.selectFrom('provider_devolucoes').selectAll().where('end_to_end_id', '=', endToEndId).where('id', '=', id).forUpdate().executeTakeFirst();
}

export function updateDevolucao(
  trx: Transaction<Database>,
  endToEndId: string,
  id: string,
  changes: Partial<Pick<ProviderDevolucaoRow, 'status' | 'booked_as' | 'shortfall_cents' | 'returned_at' | 'rtr_id' | 'amount_cents'>> & { updated_at: Date },
): Promise<ProviderDevolucaoRow> {
  return trx.updateTable('provider_devolucoes').set(changes).where('end_to_end_id', '=', endToEndId).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** The ids of a Pix's devoluções PixGate has recorded (booked, claimed or released). */
export async function knownDevolucaoIds(db: Db, endToEndId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('provider_devolucoes').select('id').where('end_to_end_id', '=', endToEndId).execute();
  return new Set(rows.map((row) => row.id));
}

/** The devolução ids recorded for each of these Pix. */
export async function devolucaoIdsOf(db: Db, endToEndIds: string[]): Promise<Map<string, Set<string>>> {
  const known = new Map<string, Set<string>>();
  if (endToEndIds.length === 0) return known;
  const rows = await db.selectFrom('provider_devolucoes').select(['end_to_end_id', 'id']).where('end_to_end_id', 'in', endToEndIds).execute();
  for (const row of rows) known.set(row.end_to_end_id, (known.get(row.end_to_end_id) ?? new Set()).add(row.id));
  return known;
}

/** Claims older than `before` the provider has not answered (their process died): to be settled from its record. */
export async function staleClaims(db: Db, before: Date, limit: number): Promise<ProviderDevolucaoRow[]> {
  return db.selectFrom('provider_devolucoes').selectAll().where('status', '=', 'claimed').where('created_at', '<', before).orderBy('created_at').limit(limit).execute();
}

/** The booked devoluções of a period, for the reconciliation (by when they were returned). */
export function bookedBetween(db: Db, from: Date, to: Date): Promise<ProviderDevolucaoRow[]> {
  return db
    .selectFrom('provider_devolucoes')
    .selectAll()
    .where('status', '=', 'booked')
    .where('returned_at', '>=', from)
    .where('returned_at', '<=', to)
    .execute();
}

/** Whether a chargeback of the hold is being asked of the provider (its devolução claimed, not yet booked or released). */
export async function holdHasClaim(db: Db, holdId: string): Promise<boolean> {
  const row = await db.selectFrom('provider_devolucoes').select('id').where('hold_id', '=', holdId).where('status', '=', 'claimed').executeTakeFirst();
  return row !== undefined;
}

/** What the charge's claimed devoluções hold of its `refunding_cents`. */
export async function claimedCents(db: Db, transactionId: string): Promise<number> {
  const row = await db
    .selectFrom('provider_devolucoes')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), sql<number>`0`).as('cents'))
    .where('transaction_id', '=', transactionId)
    .where('status', '=', 'claimed')
    .executeTakeFirst();
  return Number(row?.cents ?? 0);
}
