import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { READINESS_TIMEOUT_MS, readiness } from '../../src/ops/ops.service.ts';
import { Lifecycle } from '../../src/platform/lifecycle.ts';
import { createLogger } from '../../src/platform/logger.ts';

/**
 * Issue 12, point 14: /ready is true only when the database answers and every migration this code knows is
 * applied, and not while draining.
 */
const logger = createLogger({ level: 'silent' });
/**
 * The first two tests migrate an empty PGlite database from the first migration to the last (29 of them, in
 * WebAssembly): the first 2.3 s alone, but 15 to 20.2 s in CI's Postgres pass, where the fault tests, the
 * failover test and conformance run beside it (one run timed out at the default 20 s).
 */
const MIGRATING_TEST_TIMEOUT_MS = 60_000;

describe('readiness', () => {
  it('migrations pending → not ready, naming them; once applied → ready; draining → not ready', async () => {
    const handle = await connectDatabase({ dataDir: 'memory://' });
    try {
      const before = await readiness({ db: handle.db, logger }, undefined);
      expect(before).toMatchObject({ ready: false, reason: 'migrations pending' });
      expect(before.ready === false && before.pending).toContain('006_hardening');
      await migrateToLatest(handle.db);
      expect(await readiness({ db: handle.db, logger }, undefined)).toEqual({ ready: true });
      const lifecycle = new Lifecycle();
      lifecycle.startDraining();
      expect(await readiness({ db: handle.db, logger }, lifecycle)).toEqual({ ready: false, reason: 'draining' });
    } finally {
      await handle.close();
    }
  }, MIGRATING_TEST_TIMEOUT_MS);

  it('a database that does not answer → not ready', async () => {
    const handle = await connectDatabase({ dataDir: 'memory://' });
    await migrateToLatest(handle.db);
    await handle.close();
    expect(await readiness({ db: handle.db, logger }, undefined)).toEqual({ ready: false, reason: 'database unreachable' });
  }, MIGRATING_TEST_TIMEOUT_MS);

  it('a database that hangs (a host gone, a failover) → not ready within the probe timeout, not never', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    // The connect timeout is longer than the probe's: the probe must not wait for it.
    const handle = await connectDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/none`, connectTimeoutMs: 60_000 });
    try {
      const startedMs = Date.now();
      expect(await readiness({ db: handle.db, logger }, undefined)).toEqual({ ready: false, reason: 'database unreachable' });
      expect(Date.now() - startedMs).toBeLessThan(READINESS_TIMEOUT_MS + 3_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await handle.close().catch(() => undefined);
    }
  }, 20_000);
});
