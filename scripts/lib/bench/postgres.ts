/**
 * The benchmark's own throw-away database `pixgate_bench_<12 hex>` on the local Postgres
 * (PIXGATE_BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres, trust authentication).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  name: string;
  url: string;
  /** Drops it WITH (FORCE), ending connections still open. Safe to call twice. */
  drop(): Promise<void>;
}

async function withClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(serverUrl = process.env['PIXGATE_BENCH_PG_URL'] || DEFAULT_SERVER_URL): Promise<BenchDatabase> {
  const name = `pixgate_bench_${randomBytes(6).toString('hex')}`;
  try {
    await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot create the benchmark database on ${serverUrl} (${reason}). Is Postgres up? ` +
        'Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
      { cause: error },
    );
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Postgres settings that shape write latency, for the report (a reader comparing runs needs them). */
export async function postgresSettings(serverUrl = process.env['PIXGATE_BENCH_PG_URL'] || DEFAULT_SERVER_URL): Promise<Record<string, string>> {
  return withClient(serverUrl, async (client) => {
    const result = await client.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings
       WHERE name IN ('server_version', 'synchronous_commit', 'fsync', 'max_connections', 'shared_buffers', 'commit_delay')`,
    );
    return Object.fromEntries(result.rows.map((row) => [row.name, row.setting]));
  });
}
