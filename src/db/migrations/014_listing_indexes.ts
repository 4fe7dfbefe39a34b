import { sql, type Kysely } from 'kysely';

/**
 * The filters of GET /v1/transactions and the period of GET /v1/balance/entries (issue 20), as index ranges
 * rather than filtered walks over an account's whole history:
 * - `transactions_account_status_created`: one status, newest first, keyset (created_at, id);
 * - `transactions_account_external_ref`: the transactions of one externalRef (it never changes);
 * - `ledger_version_before(account, at)`: the last version of a ledger account booked before `at`, by a
 *   binary search over the account's versions (the unique (account_id, account_version) index): a period of
 *   the statement is a continuous run of versions, found in ~20 index probes, with no index on the entries'
 *   times to write on every movement.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX transactions_account_status_created ON transactions (account_id, status, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX transactions_account_external_ref ON transactions (account_id, external_ref) WHERE external_ref IS NOT NULL`.execute(db);
  await sql
    .raw(
      `CREATE FUNCTION ledger_version_before(p_account text, p_at timestamptz) RETURNS bigint LANGUAGE plpgsql STABLE AS $$
      DECLARE
        v_lo bigint := 0;
        v_hi bigint;
        v_mid bigint;
        v_at timestamptz;
      BEGIN
        SELECT version INTO v_hi FROM ledger_accounts WHERE id = p_account;
        IF v_hi IS NULL THEN
          RETURN 0;
        END IF;
        -- Entries are booked in version order: the largest version whose entry is before p_at.
        WHILE v_lo < v_hi LOOP
          v_mid := (v_lo + v_hi + 1) / 2;
          SELECT created_at INTO v_at FROM ledger_entries WHERE account_id = p_account AND account_version = v_mid;
          IF v_at < p_at THEN
            v_lo := v_mid;
          ELSE
            v_hi := v_mid - 1;
          END IF;
        END LOOP;
        RETURN v_lo;
      END $$`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS ledger_version_before`.execute(db);
  await sql`DROP INDEX IF EXISTS transactions_account_external_ref`.execute(db);
  await sql`DROP INDEX IF EXISTS transactions_account_status_created`.execute(db);
}
