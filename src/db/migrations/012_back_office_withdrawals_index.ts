import { sql, type Kysely } from 'kysely';

/**
 * The back office's list of every account's withdrawals keeps its partial index, now spelled so that only
 * its own query can use it (`lower(type) = 'withdrawal'`, which the back-office query names).
 *
 * With `WHERE type = 'withdrawal'`, a merchant's own list (`account_id = $1 AND type = 'withdrawal'
 * ORDER BY created_at DESC`) matched it too, and on a database where one account holds nearly every row
 * the planner sometimes walked it newest-first, filtering out other accounts' withdrawals (3,312 rows
 * removed, 19 ms and 3,685 buffers for a page, against 0.7 ms and 80 buffers through
 * `transactions_account_type_created`): the scale benchmark's list of withdrawals went from 1.26x to
 * 1.7-2.1x between runs on the same code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX transactions_withdrawals_created`.execute(db);
  await sql`CREATE INDEX transactions_withdrawals_created ON transactions (created_at DESC, id DESC) WHERE lower(type) = 'withdrawal'`.execute(db);
}
