import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { PoolStats } from '../platform/metrics.ts';
import type { Database } from './schema.ts';

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

class PreparingClient extends pg.Client {
  // pg's query has many overloads (config object, callbacks, cursors); they pass through unchanged, only the
  // (text, values) form that Kysely uses becomes a named statement.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && args.length === 2) {
      const name = statementNameFor(text);
      if (name !== undefined) return super.query({ name, text, values });
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
    return (super.query as (...rest: any[]) => any)(...args);
  }
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
  /** An already-open PGlite instance (tests clone one per case to skip initdb). */
  pglite?: PGlite;
  poolSize?: number;
  /** An idle connection the server ended (logged by the caller's logger; the pool reconnects). */
  onIdleError?: (error: Error) => void;
}

const defaultIdleError = (error: Error) =>
  console.error(JSON.stringify({ level: 'error', msg: 'idle database connection lost', error: error.message }));

export async function connectDatabase(options: ConnectOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      Client: PreparingClient,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection the server ends (Postgres restarting, an administrator) must not crash the process:
    // the pool drops it and opens a new one on the next query.
    pool.on('error', (error) => {
      (options.onIdleError ?? defaultIdleError)(error);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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
    pglite = await PGlite.create(dataDir, { parsers: { [INT8_OID]: parseInt8 } });
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return { db, kind: 'pglite', poolStats: () => undefined, close: () => db.destroy() };
}
