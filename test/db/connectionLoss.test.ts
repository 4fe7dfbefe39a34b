import { createServer, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase, withClient, type TempDatabase } from '../../scripts/lib/postgres.ts';
import { connectDatabase, type DatabaseHandle } from '../../src/db/connect.ts';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';

/**
 * The database's side of a connection ended in each state a connection of the pool can be in (issue 18):
 * idle in the pool, checked out between two statements of a transaction, and under a running query. pg
 * reports each as an `error` event on its client; unhandled, Node ends the process (and vitest fails the
 * run with an unhandled error). Each case: the work on the broken connection fails as a database outage,
 * the loss is reported once, and the next query runs on a fresh connection. On the real server only
 * (`npm run test:pg`): PGlite has no connections to end.
 */
const serverUrl = process.env.PIXGATE_TEST_DATABASE_URL;

interface Lost {
  state: 'idle' | 'in use';
  message: string;
}

let database: TempDatabase;
let handle: DatabaseHandle;
const lost: Lost[] = [];

const backendPid = async (run: DatabaseHandle['db']) =>
  (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(run)).rows[0]!.pid;

/** What an administrator (or a connection limit, a restart, a failover) does to one session. */
const terminate = (pid: number) => withClient(serverUrl!, (client) => client.query('SELECT pg_terminate_backend($1)', [pid]));

const waitUntil = async (condition: () => boolean) => {
  for (let i = 0; i < 100 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe.skipIf(!serverUrl)('a Postgres connection ended by the server (src/db/connect.ts)', () => {
  beforeAll(async () => {
    database = await createTempDatabase('pixgate_connloss', serverUrl!);
    handle = await connectDatabase({
      databaseUrl: database.url,
      poolSize: 1,
      onConnectionLost: (error, state) => lost.push({ state, message: error.message }),
    });
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('idle in the pool: reported once as idle, and the next query opens a new connection', async () => {
    lost.length = 0;
    const before = await backendPid(handle.db);
    await terminate(before);
    await waitUntil(() => lost.length > 0);
    const after = await backendPid(handle.db);
    expect(after).not.toBe(before);
    expect(lost).toEqual([{ state: 'idle', message: expect.stringContaining('terminating connection') }]);
  });

  it('checked out, between two statements of a transaction: the transaction fails as an outage, the next query succeeds', async () => {
    lost.length = 0;
    let failure: unknown;
    let inside = 0;
    try {
      await handle.db.transaction().execute(async (trx) => {
        inside = await backendPid(trx);
        await terminate(inside);
        // The server's message arrives while no statement is running: the client is checked out and idle.
        await waitUntil(() => lost.length > 0);
        await sql`SELECT 1`.execute(trx);
      });
    } catch (error) {
      failure = error;
    }
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(lost).toEqual([{ state: 'in use', message: expect.stringContaining('terminating connection') }]);
    expect(await backendPid(handle.db)).not.toBe(inside);
  });

  it('under a running query (a long job query): the query fails with 57P01, the next query succeeds', async () => {
    lost.length = 0;
    const pid = await backendPid(handle.db);
    const long = sql`SELECT pg_sleep(30)`.execute(handle.db).then(
      () => undefined,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await terminate(pid);
    const failure = await long;
    expect((failure as { code?: string }).code).toBe('57P01');
    expect(isDatabaseUnavailable(failure)).toBe(true);
    // The next query never meets the ended session: the failed statement marked it for discarding.
    expect(await backendPid(handle.db)).not.toBe(pid);
    await waitUntil(() => lost.length > 0);
    expect(lost).toHaveLength(1);
  });
});

describe('a database that accepts the connection and never answers', () => {
  let silent: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('fails the query after the connect timeout, as an outage, instead of holding it forever', async () => {
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const hung = await connectDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/none`, connectTimeoutMs: 300 });
    try {
      const startedMs = Date.now();
      const failure = await sql`SELECT 1`.execute(hung.db).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(Date.now() - startedMs).toBeLessThan(5_000);
    } finally {
      await hung.close();
    }
  });
});
