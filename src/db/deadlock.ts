/**
 * A database transaction Postgres chose as a deadlock's victim (SQLSTATE 40P01) was rolled back whole: nothing
 * of it applied, so running it again is always safe. Every path that gives a charge's money back takes its
 * locks in one order (the charge, its holds, its refunds and devoluções, then the balance: docs/decisions.md
 * "The books agree with the bank"), so a deadlock is not expected there; should one happen anyway (a lock a
 * foreign key or a trigger takes), the work runs again instead of answering a 500.
 */
const DEADLOCK = '40P01';
const ATTEMPTS = 4;

export function isDeadlock(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DEADLOCK;
}

/** Runs `work` (one database transaction) again when Postgres rolled it back to break a deadlock. */
export async function retryDeadlocks<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isDeadlock(error) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.floor(Math.random() * 10)));
    }
  }
}
