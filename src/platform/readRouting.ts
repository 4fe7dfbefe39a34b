import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { Deps } from './deps.ts';

/**
 * The reads the contract lets be eventually consistent (GET /v1/balance, the lists, the statement, the
 * recipients list, the dashboard's lists and exports) run on the read replica when one is configured and
 * streaming within DATABASE_READ_MAX_LAG_MS (src/db/replica.ts). Everything else reads the primary: a
 * transaction read back by id, an idempotent replay, an API key, and every statement of a write, so what a
 * merchant was just told exists never answers 404 or stale because of replication lag.
 *
 * Routes wrap such a read in `eventuallyConsistent(deps, (d) => service(d, ...))`: the service gets the same
 * dependencies with the replica's handle as `db`. A read that fails because the replica went away runs again
 * on the primary (a read is safe to run twice), and the replica rests until its monitor reaches it again.
 */
export async function eventuallyConsistent<T>(deps: Deps, read: (deps: Deps) => Promise<T>): Promise<T> {
  const replica = deps.replica;
  if (replica === undefined) return read(deps);
  const { db, target } = replica.pick();
  deps.metrics.replicaReads.inc({ target });
  if (target === 'primary') return read(deps);
  try {
    return await read({ ...deps, db });
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    replica.lost(error);
    deps.logger.warn('read replica out of reach: the read ran on the primary', { error: error instanceof Error ? error.message : String(error) });
    deps.metrics.replicaReads.inc({ target: 'primary' });
    return read(deps);
  }
}

/**
 * The dependencies for a read that streams its answer as it goes (the CSV exports): on the replica when it
 * is streaming, never run twice (a failure after the first bytes cannot be taken back).
 */
export function replicaDeps(deps: Deps): Deps {
  const replica = deps.replica;
  if (replica === undefined) return deps;
  const { db, target } = replica.pick();
  deps.metrics.replicaReads.inc({ target });
  return target === 'replica' ? { ...deps, db } : deps;
}
