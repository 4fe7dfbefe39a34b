import { sql, type Kysely } from 'kysely';

/**
 * Batches of charges with a due date (issue 36, API Pix `lotecobv`; docs/decisions.md "Charges with a due
 * date"): `due_charge_batches` (one per POST /v1/due-charge-batches, its provider batch number from the
 * sequence `due_charge_batch_refs`, since API Pix numbers a lotecobv) and `due_charge_batch_items` (each item's validated request,
 * until the provider created its cobv and the charge is stored, or why it was refused).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The number is taken before the provider is asked (nothing is stored when it cannot be reached).
  await sql`CREATE SEQUENCE due_charge_batch_refs`.execute(db);
  await sql`
    CREATE TABLE due_charge_batches (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      provider_ref bigint NOT NULL UNIQUE,
      description text NOT NULL,
      status text NOT NULL CHECK (status IN ('processing', 'done')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX due_charge_batches_by_account ON due_charge_batches (account_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX due_charge_batches_processing ON due_charge_batches (created_at) WHERE status = 'processing'`.execute(db);
  await sql`
    CREATE TABLE due_charge_batch_items (
      batch_id text NOT NULL REFERENCES due_charge_batches (id),
      item_index integer NOT NULL CHECK (item_index >= 0),
      status text NOT NULL CHECK (status IN ('processing', 'created', 'refused')),
      transaction_id text,
      error text,
      request jsonb,
      PRIMARY KEY (batch_id, item_index)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS due_charge_batch_items`.execute(db);
  await sql`DROP TABLE IF EXISTS due_charge_batches`.execute(db);
  await sql`DROP SEQUENCE IF EXISTS due_charge_batch_refs`.execute(db);
}
