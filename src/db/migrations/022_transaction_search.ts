import { sql, type Kysely } from 'kysely';

/**
 * The dashboard's search (issue 38, defect 5: only exact ids and references were found):
 * - `transactions_account_external_ref` becomes a text_pattern_ops index, so a reference prefix is an index
 *   range whatever the database's collation (`external_ref ~>=~ 'pedido-' AND external_ref ~<~ 'pedido.'`);
 *   it still serves the exact `externalRef` filter of GET /v1/transactions (text_pattern_ops has `=`);
 * - `transactions_account_amount_created`: the transactions of one amount, newest first, in the list's
 *   keyset order (an amount is typed in reais: "5000" is R$ 5.000,00).
 * An id prefix is a range of the primary key. So the list stays an index range at a million rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS transactions_account_external_ref`.execute(db);
  await sql`CREATE INDEX transactions_account_external_ref ON transactions (account_id, external_ref text_pattern_ops) WHERE external_ref IS NOT NULL`.execute(db);
  await sql`CREATE INDEX transactions_account_amount_created ON transactions (account_id, amount_cents, created_at DESC, id DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS transactions_account_amount_created`.execute(db);
  await sql`DROP INDEX IF EXISTS transactions_account_external_ref`.execute(db);
  await sql`CREATE INDEX transactions_account_external_ref ON transactions (account_id, external_ref) WHERE external_ref IS NOT NULL`.execute(db);
}
