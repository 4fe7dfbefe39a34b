/**
 * Owner of `sim_psp_received`, `sim_psp_devolucoes` and `sim_psp_infractions`: the simulated PSP's own record
 * of the Pix it received, the devoluções it made without being asked (MED, or made outside the API) and the
 * MED infractions on them, shared by every process, as a real provider keeps them. Its refunds
 * (`sim_psp_refunds`) and sends (`sim_psp_transfers`) have their own owners; this module reads them to keep
 * a Pix's devoluções within its amount and to tell what the provider holds.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, Db, PartyJson, SimPspInfractionRow } from '../db/schema.ts';

export interface SimReceived {
  end_to_end_id: string;
  provider_ref: string | null;
  amount_cents: number;
  payer: PartyJson | null;
  received_at: Date;
}

export async function insertReceived(db: Db, pix: { endToEndId: string; providerRef: string | null; amountCents: number; payer: PartyJson | null; at: Date }): Promise<void> {
  await db
    .insertInto('sim_psp_received')
    .values({ end_to_end_id: pix.endToEndId, provider_ref: pix.providerRef, amount_cents: pix.amountCents, payer: pix.payer === null ? null : JSON.stringify(pix.payer), received_at: pix.at })
    .onConflict((oc) => oc.column('end_to_end_id').doNothing())
    .execute();
}

export async function findReceived(db: Db, endToEndId: string): Promise<SimReceived | undefined> {
  const row = await db.selectFrom('sim_psp_received').selectAll().where('end_to_end_id', '=', endToEndId).executeTakeFirst();
  return row === undefined ? undefined : { ...row, amount_cents: Number(row.amount_cents), payer: row.payer as PartyJson | null };
}

/** The Pix paid to a charge of the simulation (its provider_ref), oldest first. */
export async function receivedFor(db: Db, providerRef: string): Promise<string[]> {
  const rows = await db.selectFrom('sim_psp_received').select('end_to_end_id').where('provider_ref', '=', providerRef).orderBy('received_at').execute();
  return rows.map((row) => row.end_to_end_id);
}

export async function listReceived(db: Db, from: Date, to: Date): Promise<SimReceived[]> {
  const rows = await db
    .selectFrom('sim_psp_received')
    .selectAll()
    .where('received_at', '>=', from)
    .where('received_at', '<=', to)
    .orderBy('received_at')
    .orderBy('end_to_end_id')
    .execute();
  return rows.map((row) => ({ ...row, amount_cents: Number(row.amount_cents), payer: row.payer as PartyJson | null }));
}

export interface SimDevolucaoView {
  id: string;
  /** A refund PixGate asked for (sim_psp_refunds), or a devolução the simulation made itself. */
  requested: boolean;
  rtr_id: string | null;
  natureza: string;
  amount_cents: number;
  state: 'accepted' | 'refunded' | 'rejected';
  at: Date;
}

/** Every devolução of these received Pix, by Pix: PixGate's refunds and the simulation's own (one query). */
export async function devolucoesOf(db: Db, endToEndIds: string[]): Promise<Map<string, SimDevolucaoView[]>> {
  const byPix = new Map<string, SimDevolucaoView[]>();
  if (endToEndIds.length === 0) return byPix;
  const ids = sql`${endToEndIds}::text[]`;
  const result = await sql<SimDevolucaoView & { end_to_end_id: string }>`
    SELECT end_to_end_id, refund_id AS id, true AS requested, refund_end_to_end_id AS rtr_id, 'ORIGINAL' AS natureza, amount_cents, state, updated_at AS at
    FROM sim_psp_refunds WHERE end_to_end_id = ANY(${ids})
    UNION ALL
    SELECT end_to_end_id, id, false, rtr_id, natureza, amount_cents, 'refunded', returned_at FROM sim_psp_devolucoes WHERE end_to_end_id = ANY(${ids})
    ORDER BY at, id`.execute(db);
  for (const { end_to_end_id: endToEndId, ...row } of result.rows) {
    byPix.set(endToEndId, [...(byPix.get(endToEndId) ?? []), { ...row, amount_cents: Number(row.amount_cents) }]);
  }
  return byPix;
}

/**
 * Locks a received Pix and answers what is left of it to give back: its amount less the refunds not refused
 * and the devoluções made. The caller inserts its own in the same database transaction, so two devoluções of
 * one Pix never pass its amount (a READ COMMITTED statement after the lock sees every earlier one).
 */
export async function lockReturnable(trx: Transaction<Database>, endToEndId: string): Promise<number | undefined> {
  const pix = await trx.selectFrom('sim_psp_received').select('amount_cents').where('end_to_end_id', '=', endToEndId).forUpdate().executeTakeFirst();
  if (!pix) return undefined;
  const used = await sql<{ cents: string }>`
    SELECT (coalesce((SELECT sum(amount_cents) FROM sim_psp_refunds WHERE end_to_end_id = ${endToEndId} AND state <> 'rejected'), 0)
      + coalesce((SELECT sum(amount_cents) FROM sim_psp_devolucoes WHERE end_to_end_id = ${endToEndId}), 0))::text AS cents`.execute(trx);
  return Number(pix.amount_cents) - Number(used.rows[0]?.cents ?? 0);
}

/** Records a devolução the simulation made; false when its id was used already. */
export async function insertDevolucao(
  trx: Transaction<Database>,
  devolucao: { id: string; endToEndId: string; rtrId: string; natureza: string; amountCents: number; at: Date },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('sim_psp_devolucoes')
    .values({ id: devolucao.id, end_to_end_id: devolucao.endToEndId, rtr_id: devolucao.rtrId, natureza: devolucao.natureza, amount_cents: devolucao.amountCents, returned_at: devolucao.at })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

// ---- Infractions ---------------------------------------------------------------------------------------

export async function insertInfraction(db: Db, row: Omit<SimPspInfractionRow, 'blocked_cents' | 'defence' | 'defence_analysis' | 'closed_at'>): Promise<void> {
  await db.insertInto('sim_psp_infractions').values({ ...row, blocked_cents: 0, defence: null, defence_analysis: null, closed_at: null }).execute();
}

export function findInfraction(db: Db, id: string): Promise<SimPspInfractionRow | undefined> {
  return db.selectFrom('sim_psp_infractions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockInfraction(trx: Transaction<Database>, id: string): Promise<SimPspInfractionRow | undefined> {
  return trx.selectFrom('sim_psp_infractions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateInfraction(
  db: Db,
  id: string,
  changes: Partial<Pick<SimPspInfractionRow, 'status' | 'blocked_cents' | 'defence' | 'defence_analysis' | 'closed_at'>> & { updated_at: Date },
): Promise<void> {
  await db.updateTable('sim_psp_infractions').set(changes).where('id', '=', id).execute();
}

/** Infractions opened by `to` and changed since `from` (opened, or their status moved). */
export function listInfractions(db: Db, from: Date, to: Date): Promise<SimPspInfractionRow[]> {
  return db
    .selectFrom('sim_psp_infractions')
    .selectAll()
    .where('opened_at', '<=', to)
    .where('updated_at', '>=', from)
    .orderBy('opened_at')
    .orderBy('id')
    .execute();
}

// ---- What the simulation holds ---------------------------------------------------------------------------

/**
 * What the simulation holds for PixGate: every Pix received, less its refunds confirmed and devoluções made,
 * less its sends paid, plus what their receivers' banks returned; and, of that, what open infractions block.
 */
export async function heldCents(db: Db): Promise<{ totalCents: number; blockedMedCents: number }> {
  const result = await sql<{ total: string; blocked: string }>`
    SELECT (
      coalesce((SELECT sum(amount_cents) FROM sim_psp_received), 0)
      - coalesce((SELECT sum(amount_cents) FROM sim_psp_refunds WHERE state = 'refunded'), 0)
      - coalesce((SELECT sum(amount_cents) FROM sim_psp_devolucoes), 0)
      - coalesce((SELECT sum(amount_cents) FROM sim_psp_transfers WHERE state IN ('paid', 'returned')), 0)
      + coalesce((SELECT sum(returned_cents) FROM sim_psp_transfers WHERE state = 'returned'), 0)
    )::text AS total,
    coalesce((SELECT sum(blocked_cents) FROM sim_psp_infractions WHERE status IN ('ABERTA', 'EM_DEFESA')), 0)::text AS blocked`.execute(db);
  const row = result.rows[0];
  return { totalCents: Number(row?.total ?? 0), blockedMedCents: Number(row?.blocked ?? 0) };
}
