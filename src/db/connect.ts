import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

const INT8_OID = 20;

/** bigint columns hold cents and counters, far below 2^53: read them as numbers. */
function parseInt8(value: string): number {
  return Number(value);
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  /** 'postgres' serves concurrent transactions; 'pglite' runs one at a time on a single connection. */
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

export interface ConnectOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps everything in memory (tests). */
  dataDir?: string;
  /** An already-open PGlite instance (tests clone one per case to skip initdb). */
  pglite?: PGlite;
  poolSize?: number;
}

export async function connectDatabase(options: ConnectOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection the server ends (Postgres restarting, an administrator) must not crash the process:
    // the pool drops it and opens a new one on the next query.
    pool.on('error', (error) => {
      console.error(JSON.stringify({ level: 'error', message: 'idle database connection lost', error: error.message }));
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  let pglite = options.pglite;
  if (!pglite) {
    const dataDir = options.dataDir ?? 'memory://';
    if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
    pglite = await PGlite.create(dataDir, { parsers: { [INT8_OID]: parseInt8 } });
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
