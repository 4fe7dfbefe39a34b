import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from './schema.ts';
import { createPool, type ConnectOptions } from './connect.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/**
 * Reads from a streaming replica (DATABASE_READ_URL), for what the contract lets be eventually consistent:
 * the balance, the lists, the statement, the recipients list and the dashboard's lists. Everything else (a
 * read by id, an idempotent replay, the authentication of a key, every statement of a write) stays on the
 * primary, so a merchant never reads back a 404 or a stale row for a write it was just told about.
 *
 * How stale a replica may be is bounded: a monitor compares, every `intervalMs`, the primary's WAL position
 * with the replica's replay position. Each position the primary reported is kept with the time it was read;
 * the replica's lag is the age of the oldest of them it has not replayed yet (0 when it has replayed all).
 * That is an upper bound of how old the newest write it misses can be, with no clock shared between the
 * servers and no heartbeat table. While the lag is above `maxLagMs`, or the replica cannot be reached, the
 * reads go to the primary; a read that fails on the replica because it went away is run again on the primary.
 *
 * While the primary is unreachable (a failover) no write can be acknowledged, so the replica's data is as
 * fresh as anything a merchant was told: the last measured lag stands and the replica keeps serving reads.
 */

export type ReplicaStatus = 'streaming' | 'lagging' | 'unavailable';

export interface ReplicaState {
  status: ReplicaStatus;
  /** Seconds the replica is behind the primary at most (null until measured, or while unreachable). */
  lagSeconds: number | null;
}

export interface ReplicaReads {
  /** Where one eventually consistent read runs now: the replica when it is streaming within the bound, else the primary. */
  pick(): { db: Kysely<Database>; target: 'replica' | 'primary' };
  /** A read on the replica failed because it is out of reach: the primary serves until the monitor reaches it again. */
  lost(error: unknown): void;
  state(): ReplicaState;
  /** Measures once now (the monitor does it every interval; tests call it to step). */
  measure(): Promise<void>;
  close(): Promise<void>;
}

export interface ReplicaOptions extends Pick<ConnectOptions, 'connectTimeoutMs' | 'onConnectionLost' | 'onStatement' | 'preparedStatements'> {
  replicaUrl: string;
  /** The primary's handle: its WAL position is read from it. */
  primary: Kysely<Database>;
  poolSize?: number;
  /** Above this lag, reads go to the primary (DATABASE_READ_MAX_LAG_MS). */
  maxLagMs: number;
  /** How often the lag is measured (default 1 s); 0 starts no timer (tests call measure()). */
  intervalMs?: number;
  now?: () => number;
  /** Called after each measurement (metrics). */
  onMeasured?: (state: ReplicaState) => void;
}

/** Positions the primary reported, kept until the replica has replayed them (a few intervals' worth). */
const POSITIONS_KEPT = 120;

export function startReplicaReads(options: ReplicaOptions): ReplicaReads {
  const pool = createPool({ ...options, databaseUrl: options.replicaUrl, poolSize: options.poolSize ?? 10 });
  const replica = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    ...(options.onStatement ? { log: (event) => options.onStatement?.(event.query.sql) } : {}),
  });
  const now = options.now ?? Date.now;
  const lag = new LagTracker();
  let reachable = false;
  let lagMs: number | null = null;
  let closed = false;

  const state = (): ReplicaState => {
    if (!reachable || lagMs === null) return { status: 'unavailable', lagSeconds: null };
    return { status: lagMs <= options.maxLagMs ? 'streaming' : 'lagging', lagSeconds: lagMs / 1000 };
  };

  const measure = async () => {
    let primaryAnswered = true;
    try {
      lag.primaryAt(lsnValue(await currentWalPosition(options.primary)), now());
    } catch {
      // The primary is out of reach: nothing new can be acknowledged meanwhile, so the lag last measured stands.
      primaryAnswered = false;
    }
    try {
      const replayed = await replayedWalPosition(replica);
      reachable = replayed !== null;
      if (replayed !== null && primaryAnswered) lagMs = lag.replayed(lsnValue(replayed), now());
    } catch {
      reachable = false;
    }
    options.onMeasured?.(state());
  };

  let timer: NodeJS.Timeout | undefined;
  const intervalMs = options.intervalMs ?? 1_000;
  if (intervalMs > 0) {
    const tick = () => {
      void measure().finally(() => {
        if (!closed) timer = setTimeout(tick, intervalMs).unref();
      });
    };
    tick();
  }

  return {
    pick: () => (state().status === 'streaming' ? { db: replica, target: 'replica' } : { db: options.primary, target: 'primary' }),
    lost: (error) => {
      if (isDatabaseUnavailable(error)) reachable = false;
    },
    state,
    measure,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await replica.destroy();
    },
  };
}

/**
 * The replica's lag from WAL positions alone: each position the primary reported is kept with the time it
 * was read; the lag is the age of the oldest one the replica has not replayed yet (0 when it has replayed
 * them all).
 */
export class LagTracker {
  private readonly positions: Array<{ lsn: bigint; atMs: number }> = [];

  primaryAt(lsn: bigint, atMs: number): void {
    const last = this.positions[this.positions.length - 1];
    // Behind what it said before: a promoted replica's new timeline (WAL the old primary never had acknowledged).
    if (last !== undefined && lsn < last.lsn) this.positions.length = 0;
    if (this.positions.length === 0 || this.positions[this.positions.length - 1]!.lsn < lsn) this.positions.push({ lsn, atMs });
    if (this.positions.length > POSITIONS_KEPT) this.positions.shift();
  }

  /** The lag in milliseconds, given the position the replica has replayed at `atMs`. */
  replayed(lsn: bigint, atMs: number): number {
    while (this.positions.length > 1 && this.positions[0]!.lsn <= lsn) this.positions.shift();
    const oldest = this.positions[0];
    return oldest === undefined || oldest.lsn <= lsn ? 0 : Math.max(0, atMs - oldest.atMs);
  }
}

/** `16/B374D848` → its 64-bit position. */
export function lsnValue(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

async function currentWalPosition(db: Kysely<Database>): Promise<string> {
  const result = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(db);
  return result.rows[0]!.lsn;
}

/** What the server has replayed; a server not in recovery (a promoted replica, or a primary's URL) has applied everything. */
async function replayedWalPosition(db: Kysely<Database>): Promise<string | null> {
  const result = await sql<{ replayed: string | null }>`
    select case when pg_is_in_recovery() then pg_last_wal_replay_lsn()::text else pg_current_wal_lsn()::text end as replayed`.execute(db);
  return result.rows[0]!.replayed;
}
