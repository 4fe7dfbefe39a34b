import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { CAP_COUNTED_STATUSES } from './withdrawal.states.ts';

/**
 * Owns `withdrawal_totals`: the amount of the withdrawals the caps count, per account and São Paulo day or
 * month. Written only by the trigger of migration 007 (on every insert of a withdrawal and every change of
 * its status), read here.
 */

/** `YYYY-MM-DD` of the day and of the first day of the month. */
export interface CapPeriods {
  day: string;
  month: string;
}

/** The totals of the day and of the month (0 when nothing was withdrawn), two primary-key reads. */
export async function withdrawnInPeriods(trx: Transaction<Database>, accountId: string, periods: CapPeriods): Promise<{ dayCents: number; monthCents: number }> {
  const rows = await trx
    .selectFrom('withdrawal_totals')
    .select(['period', 'total_cents'])
    .where('account_id', '=', accountId)
    .where((where) =>
      where.or([
        where.and([where('period', '=', 'day'), where('period_start', '=', periods.day)]),
        where.and([where('period', '=', 'month'), where('period_start', '=', periods.month)]),
      ]),
    )
    .execute();
  const total = (period: 'day' | 'month') => Number(rows.find((row) => row.period === period)?.total_cents ?? 0);
  return { dayCents: total('day'), monthCents: total('month') };
}

/**
 * Totals that differ from the withdrawals they sum (for the ledger check): every stored total against the sum
 * recomputed from `transactions`, both ways, for one account or all.
 */
export async function totalsThatDiffer(
  db: Kysely<Database>,
  accountId?: string,
): Promise<{ account_id: string; period: string; period_start: string; stored: string | null; computed: string | null }[]> {
  const forAccount = (column: string) => (accountId === undefined ? sql`true` : sql`${sql.ref(column)} = ${accountId}`);
  const result = await sql<{ account_id: string; period: string; period_start: string; stored: string | null; computed: string | null }>`
    WITH counted AS (
      SELECT account_id, amount_cents, ((created_at AT TIME ZONE 'UTC') - interval '3 hours') AS local_time
      FROM transactions
      WHERE type = 'withdrawal' AND ${forAccount('account_id')}
        AND status IN (${sql.join(CAP_COUNTED_STATUSES.map((status) => sql.lit(status)))})
    ), computed AS (
      SELECT account_id, 'day' AS period, local_time::date AS period_start, sum(amount_cents) AS total FROM counted GROUP BY 1, 2, 3
      UNION ALL
      SELECT account_id, 'month', date_trunc('month', local_time)::date, sum(amount_cents) FROM counted GROUP BY 1, 2, 3
    ), stored AS (
      SELECT account_id, period, period_start, total_cents AS total FROM withdrawal_totals WHERE ${forAccount('account_id')} AND total_cents <> 0
    )
    SELECT coalesce(s.account_id, c.account_id) AS account_id, coalesce(s.period, c.period) AS period,
      to_char(coalesce(s.period_start, c.period_start), 'YYYY-MM-DD') AS period_start, s.total::text AS stored, c.total::text AS computed
    FROM stored s FULL OUTER JOIN computed c
      ON s.account_id = c.account_id AND s.period = c.period AND s.period_start = c.period_start
    WHERE s.total IS DISTINCT FROM c.total`.execute(db);
  return result.rows;
}
