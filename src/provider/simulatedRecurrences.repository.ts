/**
 * Owner of `sim_psp_recurrences` and `sim_psp_recurring_charges` (migration 030): the simulated provider's
 * records of recurrences and of cycles' charges, each kept whole as a JSON body (simulatedRecurrences.ts
 * gives them their shape), changed under the row's lock.
 */
import type { Transaction } from 'kysely';
import type { Database, Db } from '../db/schema.ts';

type Body = Record<string, unknown>;

export async function insertSimRecurrence(db: Db, row: { idRec: string; body: Body; status: string; solicrecId: string | null; chargeRef: string | null; at: Date }): Promise<void> {
  await db
    .insertInto('sim_psp_recurrences')
    .values({ id_rec: row.idRec, body: JSON.stringify(row.body), status: row.status, solicrec_id: row.solicrecId, charge_ref: row.chargeRef, created_at: row.at, updated_at: row.at })
    .execute();
}

export async function findSimRecurrence(db: Db, idRec: string): Promise<Body | undefined> {
  const row = await db.selectFrom('sim_psp_recurrences').select('body').where('id_rec', '=', idRec).executeTakeFirst();
  return row?.body;
}

/**
 * Changes a record under its row's lock: `change` answers the new body and status, or undefined to leave it
 * (then nothing is written); `afterwards` runs in the same database transaction. Answers the new body.
 */
async function changeLocked<T extends Body>(
  db: Db & { transaction(): { execute<R>(fn: (trx: Transaction<Database>) => Promise<R>): Promise<R> } },
  table: 'sim_psp_recurrences' | 'sim_psp_recurring_charges',
  key: string,
  change: (body: T) => { body: T; status: string } | undefined,
  at: Date,
  afterwards?: (body: T, trx: Transaction<Database>) => Promise<void>,
): Promise<T | undefined> {
  return db.transaction().execute(async (trx) => {
    const row =
      table === 'sim_psp_recurrences'
        ? await trx.selectFrom('sim_psp_recurrences').select('body').where('id_rec', '=', key).forUpdate().executeTakeFirst()
        : await trx.selectFrom('sim_psp_recurring_charges').select('body').where('txid', '=', key).forUpdate().executeTakeFirst();
    if (!row) return undefined;
    const next = change(row.body as T);
    if (!next) return undefined;
    const values = { body: JSON.stringify(next.body), status: next.status, updated_at: at };
    if (table === 'sim_psp_recurrences') await trx.updateTable('sim_psp_recurrences').set(values).where('id_rec', '=', key).execute();
    else await trx.updateTable('sim_psp_recurring_charges').set(values).where('txid', '=', key).execute();
    if (afterwards) await afterwards(next.body, trx);
    return next.body;
  });
}

export function changeSimRecurrence<T extends Body>(db: Parameters<typeof changeLocked>[0], idRec: string, change: (body: T) => { body: T; status: string } | undefined, at: Date): Promise<T | undefined> {
  return changeLocked(db, 'sim_psp_recurrences', idRec, change, at);
}

export function changeSimCharge<T extends Body>(
  db: Parameters<typeof changeLocked>[0],
  txid: string,
  change: (body: T) => { body: T; status: string } | undefined,
  at: Date,
  afterwards?: (body: T, trx: Transaction<Database>) => Promise<void>,
): Promise<T | undefined> {
  return changeLocked(db, 'sim_psp_recurring_charges', txid, change, at, afterwards);
}

export async function insertSimCharge(db: Db, row: { txid: string; idRec: string; body: Body; status: string; at: Date }): Promise<void> {
  await db
    .insertInto('sim_psp_recurring_charges')
    .values({ txid: row.txid, id_rec: row.idRec, body: JSON.stringify(row.body), status: row.status, created_at: row.at, updated_at: row.at })
    .execute();
}

export async function findSimCharge(db: Db, txid: string): Promise<Body | undefined> {
  const row = await db.selectFrom('sim_psp_recurring_charges').select('body').where('txid', '=', txid).executeTakeFirst();
  return row?.body;
}

/** Every charge of a recurrence (txid and body). */
export function simChargesOf(db: Db, idRec: string): Promise<{ txid: string; body: Body }[]> {
  return db.selectFrom('sim_psp_recurring_charges').select(['txid', 'body']).where('id_rec', '=', idRec).execute();
}

/** The txids of a recurrence's charges still `active`. */
export async function activeSimChargesOf(db: Db, idRec: string): Promise<string[]> {
  const rows = await db.selectFrom('sim_psp_recurring_charges').select('txid').where('id_rec', '=', idRec).where('status', '=', 'active').execute();
  return rows.map((row) => row.txid);
}
