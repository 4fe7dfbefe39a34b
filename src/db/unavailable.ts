/**
 * Whether an error means the database could not be reached or dropped the connection (as opposed to a
 * statement it refused): the server ended the session (an administrator, a restart, a failover), the
 * socket broke, a new connection was refused or timed out, or the server is starting or shutting down.
 * The pool has already discarded such a connection; the next query opens a fresh one. Callers use this to
 * retry what is safe to retry, to wait at start-up, and to log an outage as one, not as a bug.
 */

/**
 * SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, crash, cannot connect now), 53300 (too
 * many connections), and 25006 (read-only transaction): during a switchover or a failover, a connection
 * opened to the primary's address can land on the old primary while it restarts as a replica, where every
 * write is refused. That server is not the primary any more; the connection is discarded like a broken one.
 */
const SQLSTATES = /^(08...|57P01|57P02|57P03|53300|25006)$/;
/** Socket failures, as Node reports them. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What pg and pg-pool say when a connection ended under a query or never came. */
const MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (SQLSTATES.test(code) || SOCKET_CODES.has(code))) return true;
  if (typeof message === 'string' && MESSAGES.some((text) => message.startsWith(text))) return true;
  // An AggregateError (a host with several addresses refused on each) or a wrapped cause.
  if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}

/** Set by the pool on an error met while opening a connection: no statement was sent on it. */
export const NOT_SENT = Symbol('pixgate.notSent');

/**
 * Whether a statement that failed with the database out of reach surely did not apply, so that running it
 * again cannot apply it twice:
 * - the connection for it could not be opened (refused, timed out, too many, the server starting): nothing
 *   was sent;
 * - the server answered it with an error (a FATAL 57P01 as the old primary shuts down in a switchover, a
 *   25006 from a server that is a replica now): Postgres reports an error only for a statement, or a COMMIT,
 *   whose transaction it rolled back. When a primary is stopped while a commit waits for its synchronous
 *   standby, it sends nothing at all (the commit is local already), so that case is not this one.
 * A socket that broke under a statement without an answer (a crash, a host gone) may have committed it:
 * that is not known, and such a statement is only sent again when a claim guards it (an externalRef).
 */
export function neverApplied(error: unknown): boolean {
  if (!isDatabaseUnavailable(error) || error === null || typeof error !== 'object') return false;
  if ((error as { [NOT_SENT]?: boolean })[NOT_SENT] === true) return true;
  const { severity, code } = error as { severity?: unknown; code?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && SQLSTATES.test(code);
}

/**
 * How long work that is safe to run again (a read, a write guarded by its claim, a write that surely did not
 * apply) is retried on fresh connections while the database is out of reach: a planned switchover left the
 * primary unreachable for 2 to 5 s in `npm run test:ha`; a crash takes longer and its error is the answer.
 */
export const SWITCHOVER_RETRY_MS = 6_000;

export interface RetryOptions {
  /** Give up (rethrowing the last error) once this long has passed since the first attempt. */
  timeoutMs: number;
  /** Called before each pause (a log line: the process is waiting, not stuck). */
  onRetry?: (error: unknown, attempt: number, pauseMs: number) => void;
  firstPauseMs?: number;
  longestPauseMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Asked before each retry with the error: false rethrows (an answer already on its way, a write that may have applied). */
  mayRetry?: (error: unknown) => boolean;
}

/**
 * Runs `work` again, with a growing pause, while it fails because the database is unreachable; any other
 * failure, or the deadline passing, rethrows the error. Only for work that is safe to run twice (one
 * transaction whose effect is guarded by a state it changes, or one that only reads).
 */
export async function retryWhileUnavailable<T>(work: () => Promise<T>, options: RetryOptions): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = now() + options.timeoutMs;
  let pauseMs = options.firstPauseMs ?? 250;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const left = deadline - now();
      if (!isDatabaseUnavailable(error) || left <= 0 || options.mayRetry?.(error) === false) throw error;
      const pause = Math.min(pauseMs, left);
      options.onRetry?.(error, attempt, pause);
      await sleep(pause);
      pauseMs = Math.min(pauseMs * 2, options.longestPauseMs ?? 5_000);
    }
  }
}

/**
 * Logs a failure of background work: the database out of reach is an outage (warn, it passes; the pool
 * has discarded the connection), anything else a bug (error).
 */
export function logFailure(
  logger: { warn(message: string, details?: Record<string, unknown>): void; error(message: string, details?: Record<string, unknown>): void },
  message: string,
  error: unknown,
  details: Record<string, unknown> = {},
): void {
  const text = error instanceof Error ? error.message : String(error);
  if (isDatabaseUnavailable(error)) logger.warn(`${message}: database unavailable`, { ...details, error: text });
  else logger.error(message, { ...details, error: text });
}
