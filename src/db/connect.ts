import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, type KyselyConfig } from 'kysely';
import pg from 'pg';
import type { PoolStats } from '../platform/metrics.ts';
import type { Database } from './schema.ts';
import { isDatabaseUnavailable, NOT_SENT } from './unavailable.ts';

const INT8_OID = 20;

/** bigint columns hold cents and counters, far below 2^53: read them as numbers. */
function parseInt8(value: string): number {
  return Number(value);
}

/**
 * Every query of the application runs as a named prepared statement on Postgres: parsed and planned once per
 * connection, then only bound and executed (the hot statements of a charge, a withdrawal and the reads cost
 * a fraction of their parse-and-plan). Names are a hash of the SQL text, so the same text always maps to the
 * same statement. Only data statements are prepared (DDL and transaction control run as sent), and only
 * the first PREPARED_TEXTS_MAX distinct texts (a statement built with a variable-length list has one text per
 * length): past that, new texts run unnamed, so the server's memory per connection stays bounded.
 */
const PREPARED_TEXTS_MAX = 2000;
const statementNames = new Map<string, string>();

function statementNameFor(text: string): string | undefined {
  const known = statementNames.get(text);
  if (known !== undefined) return known;
  if (statementNames.size >= PREPARED_TEXTS_MAX || !/^\s*(select|insert|update|delete|with)\b/i.test(text)) return undefined;
  const name = `pixgate_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  statementNames.set(text, name);
  return name;
}

/** pg hands the pool's options to each client it makes: this one tells whether to name statements. */
type GatewayClientConfig = pg.ClientConfig & { prepareStatements?: boolean };

class PreparingClient extends pg.Client {
  private readonly prepareStatements: boolean;

  constructor(config?: string | GatewayClientConfig) {
    super(config);
    this.prepareStatements = typeof config === 'object' ? config.prepareStatements !== false : true;
  }

  // pg's query has many overloads (config object, callbacks, cursors); they pass through unchanged, only the
  // (text, values) form that Kysely uses becomes a named statement.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && args.length === 2) {
      const name = this.prepareStatements ? statementNameFor(text) : undefined;
      const sent: Promise<unknown> = name !== undefined ? super.query({ name, text, values }) : super.query(text, values);
      return sent.catch((error: unknown) => {
        this.discardIfEnded(error);
        throw error;
      });
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
    return (super.query as (...rest: any[]) => any)(...args);
  }

  /**
   * A statement that failed because the session ended (the server's FATAL message, `57P01` and the like)
   * fails before the socket's close is read, so the client would go back to the pool looking healthy for a
   * moment and be handed to the next request. Marked unqueryable here, pg-pool discards it on release. (The
   * field is pg's own flag, the one pg-pool reads on release; pg sets it itself once the socket closes.)
   */
  private discardIfEnded(error: unknown): void {
    const severity = (error as { severity?: unknown } | null)?.severity;
    if (severity === 'FATAL' || severity === 'PANIC' || isDatabaseUnavailable(error)) {
      (this as unknown as { _queryable: boolean })._queryable = false;
      this.onLost?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Reports this connection's loss (set by the pool's `connect` handler; reports once). */
  onLost: ((error: Error) => void) | undefined;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  /** 'postgres' serves concurrent transactions; 'pglite' runs one at a time on a single connection. */
  kind: 'postgres' | 'pglite';
  /** The Postgres pool's use (undefined on PGlite: one connection, no pool). */
  poolStats(): PoolStats | undefined;
  close(): Promise<void>;
}

export interface ConnectOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps everything in memory (tests). */
  dataDir?: string;
  /** An already-open PGlite instance (the tests' template is migrated in one, then dumped). */
  pglite?: PGlite;
  /**
   * A dump of a data directory (PGlite's `dumpDataDir`) to start from instead of an empty one: the tests load
   * a migrated template this way, skipping initdb and the migrations (issue 33).
   */
  loadDataDir?: Blob;
  poolSize?: number;
  /** How long opening a Postgres connection may take before the query waiting for it fails (default 5 s). */
  connectTimeoutMs?: number;
  /**
   * A connection the server ended or the network broke, idle in the pool or in use by a request, reported
   * once per connection (logged by the caller's logger). The pool has discarded it; nothing else to do.
   */
  onConnectionLost?: (error: Error, state: 'idle' | 'in use') => void;
  /** Called with the SQL of every statement sent (BEGIN and COMMIT included): the tests' statement counts. */
  onStatement?: (sql: string) => void;
  /**
   * Run statements as named prepared statements (default true). Off behind a pooler in transaction mode
   * that does not track prepared statements (PgBouncer before 1.21): there the next transaction may run on
   * another server connection, which never saw the statement prepared.
   */
  preparedStatements?: boolean;
}

const defaultConnectionLost = (error: Error, state: 'idle' | 'in use') =>
  console.error(JSON.stringify({ level: 'warn', msg: 'database connection lost', state, error: error.message }));

/**
 * The Postgres pool, made to survive the database's side of a connection ending (an administrator's
 * pg_terminate_backend, a connection limit, a restart, a failover). pg reports a broken connection as an
 * `error` event on its client, and pg-pool listens for it only while the client is idle: a client checked
 * out by a request (between two statements of a transaction, or under a running query) had no listener,
 * and Node ends the process on an unhandled `error` event. Every client gets a listener for its whole life
 * here; the failed query rejects as usual, and pg-pool throws the client away when it is released (it is
 * no longer queryable), so the next query gets a fresh connection.
 */
export function createPool(options: ConnectOptions & { databaseUrl: string }): pg.Pool {
  const config: pg.PoolConfig & GatewayClientConfig = {
    connectionString: options.databaseUrl,
    prepareStatements: options.preparedStatements ?? true,
    max: options.poolSize ?? 10,
    Client: PreparingClient,
    // A server that stops answering (a host gone, a failover) fails the wait for a connection instead of
    // holding the request forever; keep-alive notices a dead peer on a connection that is not talking.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  };
  const pool = new pg.Pool(config);
  // A connection that could not be opened carried no statement: marked, so a write may be sent again (neverApplied).
  // (Only the promise form Kysely uses; pg-pool's own callback form passes through untouched.)
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((...args: unknown[]) => {
    if (args.length > 0) return connect(...args);
    return connect()!.catch((error: unknown) => {
      if (error !== null && typeof error === 'object') Object.assign(error, { [NOT_SENT]: true });
      throw error;
    });
  }) as typeof pool.connect;
  const report = options.onConnectionLost ?? defaultConnectionLost;
  const inUse = new WeakSet<pg.PoolClient>();
  const reported = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => inUse.add(client));
  pool.on('release', (_error, client) => inUse.delete(client));
  pool.on('connect', (client) => {
    // One ended session can surface up to three times (the failed statement, the server's message, the
    // socket's end): reported once.
    const lost = (error: Error) => {
      if (reported.has(client)) return;
      reported.add(client);
      report(error, inUse.has(client) ? 'in use' : 'idle');
    };
    client.on('error', lost);
    if (client instanceof PreparingClient) client.onLost = lost;
  });
  // pg-pool re-emits an idle client's error on the pool (after discarding the client): already reported above.
  pool.on('error', () => undefined);
  return pool;
}

function statementLog(options: ConnectOptions): Pick<KyselyConfig, 'log'> {
  const { onStatement } = options;
  return onStatement === undefined ? {} : { log: (event) => onStatement(event.query.sql) };
}

export async function connectDatabase(options: ConnectOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = createPool({ ...options, databaseUrl: options.databaseUrl });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...statementLog(options) });
    const max = options.poolSize ?? 10;
    return {
      db,
      kind: 'postgres',
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
      close: () => db.destroy(),
    };
  }
  let pglite = options.pglite;
  if (!pglite) {
    const dataDir = options.dataDir ?? 'memory://';
    if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
    pglite = await PGlite.create(dataDir, {
      parsers: { [INT8_OID]: parseInt8 },
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }), ...statementLog(options) });
  return { db, kind: 'pglite', poolStats: () => undefined, close: () => db.destroy() };
}
