/**
 * Migrate once per run, copy per gateway (issue 33). Every gateway a test starts used to create an empty
 * database and run all migrations (on PGlite, initdb as well): about a second of CPU each, ~200 times a run.
 *
 * - PGlite: a migrated data directory is dumped once (`dumpDataDir`, uncompressed: loading it measured
 *   faster than gzip) into `node_modules/.cache/pixgate-test/`, named by a hash of the migrations and the
 *   PGlite version, so a stale one is never loaded; each gateway loads a copy (`loadDataDir`), skipping
 *   initdb and the migrations.
 * - Postgres: vitest's global setup (test/support/globalSetup.ts) migrates one database per run,
 *   `pixgate_tmpl_<12 hex>`; each gateway gets `CREATE DATABASE … TEMPLATE` of it, dropped when done.
 * - The fake provider's certificates (nine RSA keys) are made once per run by the global setup too.
 *
 * The migration tests (test/db, test/ledger/migration.test.ts, test/identity/migration016.test.ts) keep
 * migrating from scratch: they do not come through here.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openAsBlob, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { createTempDatabase, type TempDatabase } from '../../scripts/lib/postgres.ts';
import { fromRoot } from '../../scripts/lib/paths.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

export const TEST_CACHE_DIR = fromRoot('node_modules', '.cache', 'pixgate-test');

/** What the migrated schema depends on: the migrations, the migrator and the PGlite version (its dump format). */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  const migrationsDir = fromRoot('src', 'db', 'migrations');
  for (const name of readdirSync(migrationsDir).sort()) hash.update(name).update(readFileSync(`${migrationsDir}/${name}`));
  hash.update(readFileSync(fromRoot('src', 'db', 'migrate.ts')));
  hash.update(readFileSync(fromRoot('node_modules', '@electric-sql', 'pglite', 'package.json')));
  return hash.digest('hex').slice(0, 12);
}

/** The path of the migrated PGlite dump, made when missing (written under another name, then renamed: workers may race). */
export async function ensurePgliteTemplate(): Promise<string> {
  const file = `${TEST_CACHE_DIR}/pglite-${migrationsHash()}.tar`;
  if (existsSync(file)) return file;
  const pglite = await PGlite.create('memory://');
  const handle = await connectDatabase({ pglite });
  try {
    await migrateToLatest(handle.db);
    const dump = await pglite.dumpDataDir('none');
    mkdirSync(TEST_CACHE_DIR, { recursive: true });
    const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await handle.close();
  }
  return file;
}

/**
 * The migrated dump as a Blob for `connectDatabase({ loadDataDir })`: backed by the file, read when PGlite
 * reads it. A Blob built from the dump in memory copied its 43 MB twice (0.45 s of CPU per gateway, measured).
 */
export async function pgliteTemplate(file?: string): Promise<Blob> {
  return openAsBlob(file ?? (await ensurePgliteTemplate()));
}

/** A new database on `serverUrl`, migrated: the template of one run. */
export async function createPostgresTemplate(serverUrl: string): Promise<TempDatabase> {
  const database = await createTempDatabase('pixgate_tmpl', serverUrl);
  const handle = await connectDatabase({ databaseUrl: database.url, poolSize: 1 });
  try {
    await migrateToLatest(handle.db);
  } finally {
    // CREATE DATABASE … TEMPLATE refuses a template with open connections.
    await handle.close();
  }
  return database;
}
