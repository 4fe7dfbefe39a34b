import { sql, type Kysely } from 'kysely';

/**
 * The incremental ledger check finds the transactions whose status changed since the last check by the
 * database transaction that changed them, not by the clock (docs/decisions.md "The double-entry ledger").
 *
 * A clock stamp cannot say whether a change was visible to the last check: a transaction that stamped its
 * change before the check began but committed after it was not, so the check had to look again at every
 * change of the five minutes before (at 1M rows after a bulk load, all of them). A transaction id can:
 * every transaction that was not visible to a snapshot has an id at or above the snapshot's xmin (the
 * oldest transaction still running when it was taken). So each clean check records its snapshot's xmin
 * and the next one re-reads exactly the rows stamped at or above it.
 *
 * Only status changes are stamped (an insert is found through its transfers' entries; an insert with a
 * status that needs transfers and has none is found by the full check), so inserting a charge writes
 * nothing more than before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER transactions_status_stamp ON transactions`.execute(db);
  await sql`DROP FUNCTION transactions_stamp_status()`.execute(db);
  await sql`ALTER TABLE transactions DROP COLUMN status_changed_at`.execute(db);
  await sql`ALTER TABLE transactions ADD COLUMN status_changed_xid xid8`.execute(db);
  await sql`CREATE INDEX transactions_status_changed_xid ON transactions (status_changed_xid) WHERE status_changed_xid IS NOT NULL`.execute(db);
  await sql
    .raw(
      `CREATE FUNCTION transactions_stamp_status() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.status_changed_xid := pg_current_xact_id();
        RETURN NEW;
      END $$`,
    )
    .execute(db);
  await sql`CREATE TRIGGER transactions_status_stamp BEFORE UPDATE OF status ON transactions
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION transactions_stamp_status()`.execute(db);
  // Runs recorded before this migration have no xmin: the next check re-reads every transaction once.
  await sql`ALTER TABLE ledger_check_runs ADD COLUMN snapshot_xmin xid8`.execute(db);
}
