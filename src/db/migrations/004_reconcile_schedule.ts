import { sql, type Kysely } from 'kysely';

/**
 * When reconciliation next asks the PSP about an open withdrawal. Without it the job always took the same
 * oldest rows and could starve the rest (a send stranded by a crash waited behind unchanged ones).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE transactions ADD COLUMN next_check_at timestamptz`.execute(db);
  await sql`CREATE INDEX transactions_withdrawals_next_check ON transactions (next_check_at)
    WHERE type = 'withdrawal' AND status IN ('processing', 'failed_unknown')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE transactions DROP COLUMN IF EXISTS next_check_at`.execute(db);
}
