/** Owner of `sign_in_failures`: the dashboard's sign-in back-off per subject (migration 021). */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface BackoffPolicy {
  /** Failures before any wait. */
  free: number;
  /** The wait after the first failure past `free`; each further failure doubles it. */
  baseMs: number;
  /** The longest wait. */
  capMs: number;
  /** A subject with no failure for this long starts again from zero. */
  forgetAfterMs: number;
}

/** The wait after `failures` failures, as SQL (the count is an expression: the row's new count). */
const blockAfter = (failures: ReturnType<typeof sql>, policy: BackoffPolicy, now: Date) => sql`
  CASE WHEN ${failures} >= ${policy.free}
    THEN ${now}::timestamptz + make_interval(secs => least(${policy.capMs / 1000}::float8, ${policy.baseMs / 1000}::float8 * power(2, ${failures} - ${policy.free})))
  END`;

/**
 * Counts one attempt of `subject` as a failure (before it is judged: a right one is given back), in one
 * atomic statement that only counts while the subject is not waiting. Answers the new count, or undefined
 * when the subject must still wait (then nothing was counted). A count older than `forgetAfterMs` starts
 * again from one.
 */
export async function countFailure(db: Kysely<Database>, subject: string, policy: BackoffPolicy, nowMs: number): Promise<number | undefined> {
  const now = new Date(nowMs);
  const forgetBefore = new Date(nowMs - policy.forgetAfterMs);
  const next = sql`CASE WHEN sign_in_failures.last_failure_at <= ${forgetBefore} THEN 1 ELSE sign_in_failures.failures + 1 END`;
  const result = await sql<{ failures: number }>`
    INSERT INTO sign_in_failures (subject, failures, last_failure_at, blocked_until)
    VALUES (${subject}, 1, ${now}, ${blockAfter(sql`1`, policy, now)})
    ON CONFLICT (subject) DO UPDATE SET
      failures = ${next},
      last_failure_at = ${now},
      blocked_until = ${blockAfter(next, policy, now)}
    WHERE sign_in_failures.blocked_until IS NULL OR sign_in_failures.blocked_until <= ${now}
    RETURNING failures`.execute(db);
  return result.rows[0]?.failures;
}

/** Until when `subject` waits (undefined: it does not). */
export async function blockedUntil(db: Kysely<Database>, subject: string, nowMs: number): Promise<number | undefined> {
  const row = await db.selectFrom('sign_in_failures').select('blocked_until').where('subject', '=', subject).executeTakeFirst();
  const until = row?.blocked_until?.getTime();
  return until !== undefined && until > nowMs ? until : undefined;
}

/**
 * Gives back one counted attempt that was not a failure (the password was right, or another subject made
 * it wait): one failure less and no wait, since the attempt was let through only because there was none.
 */
export async function uncountFailure(db: Kysely<Database>, subject: string): Promise<void> {
  await db
    .updateTable('sign_in_failures')
    .set((eb) => ({ failures: sql<number>`greatest(${eb.ref('failures')} - 1, 0)`, blocked_until: null }))
    .where('subject', '=', subject)
    .execute();
}

/** Forgets the subject's failures (a right password for that e-mail or browser, a password reset). */
export async function clearFailures(db: Kysely<Database>, subject: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('subject', '=', subject).execute();
}

/**
 * Marks `subject` as told when it has at least `atFailures` failures and was not told in the last
 * `everyMs`: true for the one caller that should send the notice (the update is atomic).
 */
export async function claimNotice(db: Kysely<Database>, subject: string, atFailures: number, everyMs: number, nowMs: number): Promise<boolean> {
  const result = await db
    .updateTable('sign_in_failures')
    .set({ notified_at: new Date(nowMs) })
    .where('subject', '=', subject)
    .where('failures', '>=', atFailures)
    .where((eb) => eb.or([eb('notified_at', 'is', null), eb('notified_at', '<', new Date(nowMs - everyMs))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Rows whose last failure is older than `before` (every policy has forgotten them by then). */
export async function purgeSignInFailures(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('sign_in_failures').where('last_failure_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
