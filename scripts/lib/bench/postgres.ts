/**
 * The benchmark's own throw-away database `pixgate_bench_<12 hex>` on the local Postgres
 * (PIXGATE_BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres, trust authentication).
 */
import { createTempDatabase, DEFAULT_SERVER_URL, withClient, type TempDatabase } from '../postgres.ts';

export type BenchDatabase = TempDatabase;

const serverUrlOf = () => process.env['PIXGATE_BENCH_PG_URL'] || DEFAULT_SERVER_URL;

export function createBenchDatabase(serverUrl = serverUrlOf()): Promise<BenchDatabase> {
  return createTempDatabase('pixgate_bench', serverUrl);
}

/** Postgres settings that shape write latency, for the report (a reader comparing runs needs them). */
export async function postgresSettings(serverUrl = serverUrlOf()): Promise<Record<string, string>> {
  return withClient(serverUrl, async (client) => {
    const result = await client.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings
       WHERE name IN ('server_version', 'synchronous_commit', 'fsync', 'max_connections', 'shared_buffers', 'commit_delay')`,
    );
    return Object.fromEntries(result.rows.map((row) => [row.name, row.setting]));
  });
}
