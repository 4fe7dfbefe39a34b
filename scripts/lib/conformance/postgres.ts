/**
 * A throw-away Postgres database for one conformance run: `pixgate_conformance_<12 hex>` on the server of
 * PIXGATE_CONFORMANCE_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres, trust auth).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TempDatabase {
  name: string;
  /** Connection string of the new database. */
  url: string;
  /** Drops it (WITH (FORCE): connections still open are ended). Safe to call twice. */
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

export async function createTempDatabase(serverUrl = process.env['PIXGATE_CONFORMANCE_PG_URL'] || DEFAULT_SERVER_URL): Promise<TempDatabase> {
  const name = `pixgate_conformance_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
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
