import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';

/**
 * The overview's Pix Automático figures: the account's active recurrences, and the cycles falling due from
 * `today` to `through` (ISO days, compared as text): those sent and still open, and each active
 * recurrence's next cycle not yet sent (its fixed amount; a variable one counts 0).
 */
export async function recurrenceFigures(db: Db, accountId: string, today: string, through: string): Promise<{ activeCount: number; dueCount: number; dueCents: number }> {
  const [active, sent] = await Promise.all([
    db
      .selectFrom('recurrences')
      .where('account_id', '=', accountId)
      .where('status', '=', 'approved')
      .select([
        sql<string>`count(*)`.as('count'),
        sql<string>`count(*) filter (where next_cycle_date >= ${today} and next_cycle_date <= ${through})`.as('due'),
        sql<string>`coalesce(sum(amount_cents) filter (where next_cycle_date >= ${today} and next_cycle_date <= ${through}), 0)`.as('dueCents'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('recurrence_cycles as c')
      .innerJoin('transactions as t', 't.id', 'c.transaction_id')
      .where('c.account_id', '=', accountId)
      .where('c.status', 'in', ['scheduled', 'retrying'])
      .where('c.due_date', '>=', today)
      .where('c.due_date', '<=', through)
      .select([sql<string>`count(*)`.as('count'), sql<string>`coalesce(sum(t.amount_cents), 0)`.as('cents')])
      .executeTakeFirstOrThrow(),
  ]);
  return { activeCount: Number(active.count), dueCount: Number(active.due) + Number(sent.count), dueCents: Number(active.dueCents) + Number(sent.cents) };
}
