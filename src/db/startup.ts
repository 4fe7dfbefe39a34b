import { isDatabaseUnavailable, retryWhileUnavailable } from './unavailable.ts';

/**
 * Start-up against a database that is not there yet (Postgres still starting beside the gateway, a
 * failover in progress, a connection ended mid-migration): the work is tried again with a growing pause
 * while the failure is one of reaching the database, up to DATABASE_START_TIMEOUT_MS, then start-up fails
 * with a message that says what was tried and for how long. Any other failure (a migration that does not
 * apply, a wrong password) fails at once. The work must be safe to run again: migrations run in one
 * transaction and are recorded, so a batch cut short runs again from where the database stands.
 */

export class DatabaseUnreachable extends Error {
  constructor(target: string, timeoutMs: number, attempts: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `cannot reach the database at ${target} (${attempts} attempt${attempts === 1 ? '' : 's'} in ${Math.round(timeoutMs / 1000)} s, ` +
        `DATABASE_START_TIMEOUT_MS): ${reason || (cause as { code?: string }).code || 'no answer'}. Is Postgres running, and DATABASE_URL right?`,
      { cause },
    );
    this.name = 'DatabaseUnreachable';
  }
}

/** `host:port/database` of a connection string, without user or password (for messages and logs). */
export function describeDatabase(databaseUrl: string | undefined): string {
  if (!databaseUrl) return 'the embedded database';
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

export interface StartupOptions {
  /** What the messages call the database (`describeDatabase`). */
  target: string;
  timeoutMs: number;
  onRetry?: (error: unknown, attempt: number, pauseMs: number) => void;
}

export async function whileDatabaseStarts<T>(work: () => Promise<T>, options: StartupOptions): Promise<T> {
  let attempts = 0;
  try {
    return await retryWhileUnavailable(
      () => {
        attempts += 1;
        return work();
      },
      { timeoutMs: options.timeoutMs, onRetry: options.onRetry },
    );
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw new DatabaseUnreachable(options.target, options.timeoutMs, attempts, error);
    throw error;
  }
}
