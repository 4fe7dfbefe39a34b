import { defineConfig } from 'vitest/config';
import { outputFile, reporters } from './vitest.reporters.ts';

/**
 * `npm run test:ha`: the failover test (test/ha/*.ha.ts) on a Patroni cluster it starts itself
 * (scripts/lib/cluster.ts), with two gateway processes and a worker under load. One file at a time, long
 * timeouts: the cluster's start, the kill and the switchover are measured in tens of seconds on 2 cores.
 */
export default defineConfig({
  test: {
    include: ['test/ha/**/*.ha.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
    reporters,
    ...(outputFile ? { outputFile } : {}),
  },
});
