import { sql, type Kysely } from 'kysely';

/**
 * Indexes for the queries whose plans read a whole table (found by `npm run bench -- --scale`, EXPLAIN
 * ANALYZE on an account with 1,000,000 transactions and 100,000 webhook deliveries):
 *
 * - reconciliation's stuck sends (`provider_state = 'sending'`, every 2 s): a Seq Scan of `transactions`
 *   (626 ms at 1M rows, every run). Partial: only the few withdrawals whose PSP call is in flight.
 * - the hourly purge of finished webhook deliveries (`status <> 'pending' AND updated_at < cutoff`): a Seq
 *   Scan of `webhook_deliveries`. Partial on the finished ones, by age.
 * - an account's events, newest first (back office): every event of the account, then a sort.
 * - the back office's list of every account's withdrawals, newest first: a Seq Scan of `transactions` and a
 *   sort (215 ms at 1M rows). Partial on withdrawals, in the list's order.
 *
 * Plain CREATE INDEX: it blocks writes to the table while it builds (about a second per million rows
 * here; the partial ones only keep the few rows they cover). Migrations run inside a transaction, where
 * CREATE INDEX CONCURRENTLY is not allowed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX transactions_withdrawals_sending ON transactions (updated_at)
    WHERE type = 'withdrawal' AND provider_state = 'sending'`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE status <> 'pending'`.execute(db);
  await sql`CREATE INDEX outbox_events_account_created ON outbox_events (account_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX transactions_withdrawals_created ON transactions (created_at DESC, id DESC) WHERE type = 'withdrawal'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS transactions_withdrawals_created`.execute(db);
  await sql`DROP INDEX IF EXISTS outbox_events_account_created`.execute(db);
  await sql`DROP INDEX IF EXISTS webhook_deliveries_finished`.execute(db);
  await sql`DROP INDEX IF EXISTS transactions_withdrawals_sending`.execute(db);
}
