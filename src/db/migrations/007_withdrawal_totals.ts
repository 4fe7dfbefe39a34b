import { sql, type Kysely } from 'kysely';

/**
 * Daily and monthly withdrawal totals kept as they change, so the cap check of a withdrawal reads two rows
 * instead of summing the day's and the month's withdrawals under the balance row's lock (its cost grew with
 * every withdrawal of the month).
 *
 * A trigger on `transactions` keeps them: when a withdrawal enters or leaves a status the caps count
 * (initiating, processing, pending_approval, paid, failed_unknown, refunded, partially_refunded), its amount
 * is added to or taken from the totals of the São Paulo day and month (UTC−3, no DST since 2019) of its
 * `created_at`, in the same statement, so every path that changes a status (creation, review, settlement,
 * reconciliation, sandbox, an operator's resolution) keeps them exact without knowing about them. Existing
 * withdrawals are summed into them once, here.
 */
const COUNTED = `('initiating', 'processing', 'pending_approval', 'paid', 'failed_unknown', 'refunded', 'partially_refunded')`;

/**
 * The trigger function, for a list of counted statuses (`('a', 'b')`): migration 009 replaces it with the
 * list of the withdrawal state machine.
 */
export function totalsFollowFunction(counted: string): string {
  return `CREATE OR REPLACE FUNCTION withdrawal_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        was_counted boolean := false;
        is_counted boolean := NEW.status IN ${counted};
        delta bigint;
        local_time timestamp := (NEW.created_at AT TIME ZONE 'UTC') - interval '3 hours';
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          was_counted := OLD.status IN ${counted};
        END IF;
        delta := (CASE WHEN is_counted THEN NEW.amount_cents ELSE 0 END)
               - (CASE WHEN was_counted THEN OLD.amount_cents ELSE 0 END);
        IF delta = 0 THEN
          RETURN NULL;
        END IF;
        IF delta > 0 THEN
          INSERT INTO withdrawal_totals (account_id, period, period_start, total_cents)
          VALUES (NEW.account_id, 'day', local_time::date, delta),
                 (NEW.account_id, 'month', date_trunc('month', local_time)::date, delta)
          ON CONFLICT (account_id, period, period_start)
            DO UPDATE SET total_cents = withdrawal_totals.total_cents + excluded.total_cents;
        ELSE
          -- Leaving a counted status: the rows exist (it was added when it entered one).
          UPDATE withdrawal_totals SET total_cents = total_cents + delta
          WHERE account_id = NEW.account_id
            AND ((period = 'day' AND period_start = local_time::date)
              OR (period = 'month' AND period_start = date_trunc('month', local_time)::date));
        END IF;
        RETURN NULL;
      END
      $$`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE withdrawal_totals (
      account_id text NOT NULL REFERENCES accounts(id),
      period text NOT NULL CHECK (period IN ('day', 'month')),
      period_start date NOT NULL,
      total_cents bigint NOT NULL DEFAULT 0 CHECK (total_cents >= 0),
      PRIMARY KEY (account_id, period, period_start)
    )`.execute(db);

  await sql.raw(totalsFollowFunction(COUNTED)).execute(db);
  await sql`
    CREATE TRIGGER withdrawal_totals_on_insert AFTER INSERT ON transactions
      FOR EACH ROW WHEN (NEW.type = 'withdrawal') EXECUTE FUNCTION withdrawal_totals_follow()`.execute(db);
  await sql`
    CREATE TRIGGER withdrawal_totals_on_status AFTER UPDATE OF status ON transactions
      FOR EACH ROW WHEN (NEW.type = 'withdrawal' AND OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION withdrawal_totals_follow()`.execute(db);

  await sql
    .raw(
      `INSERT INTO withdrawal_totals (account_id, period, period_start, total_cents)
      SELECT account_id, period, period_start, sum(amount_cents)
      FROM (
        SELECT account_id, amount_cents, 'day' AS period, ((created_at AT TIME ZONE 'UTC') - interval '3 hours')::date AS period_start
        FROM transactions WHERE type = 'withdrawal' AND status IN ${COUNTED}
        UNION ALL
        SELECT account_id, amount_cents, 'month', date_trunc('month', (created_at AT TIME ZONE 'UTC') - interval '3 hours')::date
        FROM transactions WHERE type = 'withdrawal' AND status IN ${COUNTED}
      ) counted
      GROUP BY account_id, period, period_start`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS withdrawal_totals_on_status ON transactions`.execute(db);
  await sql`DROP TRIGGER IF EXISTS withdrawal_totals_on_insert ON transactions`.execute(db);
  await sql`DROP FUNCTION IF EXISTS withdrawal_totals_follow()`.execute(db);
  await sql`DROP TABLE IF EXISTS withdrawal_totals`.execute(db);
}
