import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connect.ts';
import type { Database } from '../../src/db/schema.ts';
import {
  createTestDatabase,
  killAll,
  provisionMerchant,
  startServer,
  type Merchant,
  type ServerProcess,
  type TestDatabase,
} from '../support/processes.ts';
import { openTestDb } from './invariants.ts';

/**
 * What every fault test file sets up: a Postgres database of its own, the test's own connection to it, and
 * the gateway processes (`node src/main.ts`) it starts on it with one operator token, as a deployment would
 * run them.
 */
export interface Deployment {
  /** The operator token of every process started here (random per file). */
  readonly adminToken: string;
  /** The file's database on the server of PIXGATE_TEST_DATABASE_URL (its `url` and `name`). */
  readonly database: TestDatabase;
  /** The test's own connection to that database (application_name TEST_APPLICATION_NAME), to check rows. */
  readonly db: Kysely<Database>;
  /** Spawns one more gateway process on the database; resolves when it listens. */
  startServer(): Promise<ServerProcess>;
  /** An approved, funded merchant with `settings` (usually RELAXED_LIMITS), through the back office of `server`. */
  provisionMerchant(server: Pick<ServerProcess, 'baseUrl' | 'adminBaseUrl'>, settings: Record<string, unknown>, fundingCents?: number): Promise<Merchant>;
}

/**
 * Registers the hooks of the calling test file: `beforeAll` creates the database and connects to it;
 * `afterAll` kills every process still running, closes the connection and drops the database, also when a
 * test or a hook failed. The files wrap their tests in `describe.skipIf(!TEST_DATABASE_URL)`: without
 * Postgres every test is skipped, and vitest runs no hook of a file whose tests are all skipped.
 */
export function useDeployment(databasePrefix: string): Deployment {
  const adminToken = `adm_${randomBytes(16).toString('hex')}`;
  let database: TestDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(databasePrefix);
    handle = await openTestDb(database.url);
  });
  afterAll(async () => {
    await killAll();
    await handle?.close();
    await database?.drop();
  });
  const ready = () => {
    if (!database || !handle) throw new Error('useDeployment(): the database exists only from its beforeAll to its afterAll');
    return { database, db: handle.db };
  };
  return {
    adminToken,
    get database() {
      return ready().database;
    },
    get db() {
      return ready().db;
    },
    startServer: () => startServer({ databaseUrl: ready().database.url, adminToken }),
    provisionMerchant: (server, settings, fundingCents = 0) => provisionMerchant(server, adminToken, settings, fundingCents),
  };
}
