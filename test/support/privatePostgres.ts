import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withClient } from '../../scripts/lib/postgres.ts';

/**
 * A Postgres server of the test's own (initdb into a temporary folder, its own loopback port), for the
 * tests that must stop, restart or break the database server itself: doing that to the machine's shared
 * server would break every other test running beside them. Uses the machine's Postgres binaries
 * (`PIXGATE_PG_BINDIR`, else the newest /usr/lib/postgresql/<version>/bin, else `pg_config --bindir`); as
 * root, the server runs as the `postgres` user, since Postgres refuses to run as root.
 */

const run = promisify(execFile);

export interface PrivatePostgres {
  port: number;
  /** Connection string of `database` (default `postgres`) on this server. */
  url(database?: string): string;
  /** Creates an empty database and returns its connection string. */
  createDatabase(name: string): Promise<string>;
  /** Ends every connection to `database` except the caller's (what an administrator, a restart or a failover does). */
  terminateConnections(database: string): Promise<number>;
  /** A clean stop (`pg_ctl stop -m fast`: sessions ended, checkpoint), as a restart begins. */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder; resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops it (immediately) and removes its folder. Safe to call twice. */
  destroy(): Promise<void>;
  /** The server's own log. */
  log(): string;
}

async function postgresBinDir(): Promise<string> {
  const configured = process.env.PIXGATE_PG_BINDIR;
  if (configured) return configured;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((entry) => existsSync(join(root, entry, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  }
  const { stdout } = await run('pg_config', ['--bindir']);
  return stdout.trim();
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const binDir = await postgresBinDir();
  const folder = mkdtempSync(join(tmpdir(), 'pixgate-pg-'));
  const dataDir = join(folder, 'data');
  const logFile = join(folder, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(folder, Number(stdout.trim()), Number(gid.trim()));
  }
  /** Runs a Postgres binary, as the `postgres` user when the tests run as root. */
  const pgTool = async (tool: string, args: string[]) => {
    const command = join(binDir, tool);
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    await run(file, argv, { cwd: folder, timeout: 120_000 });
  };
  await pgTool('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let destroyed = false;

  const start = async () => {
    await pgTool('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
  };
  await start();
  return {
    port,
    url,
    createDatabase: async (name) => {
      await withClient(url(), (client) => client.query(`CREATE DATABASE ${name}`));
      return url(name);
    },
    terminateConnections: (database) =>
      withClient(url(), async (client) => {
        const result = await client.query(
          'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [database],
        );
        return (result.rows[0] as { n: number }).n;
      }),
    stop: () => pgTool('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']),
    start,
    destroy: async () => {
      if (destroyed) return;
      destroyed = true;
      await pgTool('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  };
}
