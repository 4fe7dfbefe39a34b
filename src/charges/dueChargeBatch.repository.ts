/** Owner of `due_charge_batches` and `due_charge_batch_items` (migration 028). */
import { sql, type Kysely } from 'kysely';
import type { Selectable } from 'kysely';
import type { Database, DueChargeBatchesTable, DueChargeBatchItemsTable } from '../db/schema.ts';

type Db = Kysely<Database>;

export type DueChargeBatchRow = Selectable<DueChargeBatchesTable>;
export type DueChargeBatchItemRow = Omit<DueChargeBatchItemsTable, 'request'> & { request: object | null };

export interface NewBatchItem {
  status: DueChargeBatchItemRow['status'];
  transactionId: string | null;
  error: string | null;
  request: object | null;
}

/** Stores a batch and its items (one database transaction); answers its provider number. */
export function insertBatch(db: Db, batch: { id: string; accountId: string; providerRef: string; description: string; at: Date; items: NewBatchItem[] }): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const processing = batch.items.some((item) => item.status === 'processing');
    await trx
      .insertInto('due_charge_batches')
      .values({
        id: batch.id,
        account_id: batch.accountId,
        provider_ref: batch.providerRef,
        description: batch.description,
        status: processing ? 'processing' : 'done',
        created_at: batch.at,
        updated_at: batch.at,
      })
      .execute();
    await trx
      .insertInto('due_charge_batch_items')
      .values(
        batch.items.map((item, index) => ({
          batch_id: batch.id,
          item_index: index,
          status: item.status,
          transaction_id: item.transactionId,
          error: item.error,
          request: item.request === null ? null : JSON.stringify(item.request),
        })),
      )
      .execute();
  });
}

/** The number the provider will know a new batch by, taken from its sequence. */
export async function reserveProviderRef(db: Db): Promise<string> {
  const { rows } = await sql<{ ref: string }>`SELECT nextval('due_charge_batch_refs')::text AS ref`.execute(db);
  return rows[0]!.ref;
}

export function findBatch(db: Db, accountId: string | undefined, id: string): Promise<DueChargeBatchRow | undefined> {
  let query = db.selectFrom('due_charge_batches').selectAll().where('id', '=', id);
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return query.executeTakeFirst();
}

export async function batchItems(db: Db, batchId: string): Promise<DueChargeBatchItemRow[]> {
  return (await db.selectFrom('due_charge_batch_items').selectAll().where('batch_id', '=', batchId).orderBy('item_index').execute()) as DueChargeBatchItemRow[];
}

/** Batches still being created at the provider, oldest first. */
export function processingBatches(db: Db, limit: number): Promise<DueChargeBatchRow[]> {
  return db.selectFrom('due_charge_batches').selectAll().where('status', '=', 'processing').orderBy('created_at').limit(limit).execute();
}

/** An item's outcome: `created` with its charge, or `refused` with the reason; only while it is processing. */
export async function settleItem(db: Db, batchId: string, index: number, outcome: { status: 'created' | 'refused'; transactionId: string | null; error: string | null }): Promise<void> {
  await db
    .updateTable('due_charge_batch_items')
    .set({ status: outcome.status, transaction_id: outcome.transactionId, error: outcome.error })
    .where('batch_id', '=', batchId)
    .where('item_index', '=', index)
    .where('status', '=', 'processing')
    .execute();
}

/** A batch is done once none of its items is processing. */
export async function closeBatchIfDone(db: Db, batchId: string, at: Date): Promise<void> {
  await db
    .updateTable('due_charge_batches')
    .set({ status: 'done', updated_at: at })
    .where('id', '=', batchId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('due_charge_batch_items').select('item_index').where('batch_id', '=', batchId).where('status', '=', 'processing'))),
    )
    .execute();
}
