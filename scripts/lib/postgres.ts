/**
 * Throw-away databases on a local Postgres server (trust authentication), shared by the benchmark, the
 * conformance run and the test harnesses: `<prefix>_<12 hex>`, dropped WITH (FORCE) when done.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TempDatabase {
  name: string;
  /** Connection string of the new database. */
  url: string;
  /** Drops it (connections still open are ended). Safe to call twice. */
  drop(): Promise<void>;
}

export async function withClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 10_000 });
  // The server ending the session after connecting (a restart, an administrator) fails the work in hand;
  // without a listener it would also be an unhandled `error` event that ends the calling process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * `template`: the database to copy (`CREATE DATABASE … TEMPLATE`, the tests' migrated template, issue 33);
 * it must have no open connection while it is copied.
 */
export async function createTempDatabase(prefix: string, serverUrl: string = DEFAULT_SERVER_URL, template?: string): Promise<TempDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  if (template !== undefined && !/^\w+$/.test(template)) throw new Error(`createTempDatabase: not a database name: ${template}`);
  try {
    await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot create database ${name} on ${serverUrl} (${reason}). Is Postgres up? ` +
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
