import { loadConfig } from './platform/config.ts';
import { startJobs } from './jobs/jobs.ts';
import { buildRuntime } from './platform/runtime.ts';

/**
 * A background worker without HTTP, for scaling out: run the servers with RUN_JOBS=false and one or more
 * `npm run worker` processes on the same DATABASE_URL. Stops gracefully on SIGTERM/SIGINT.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const { deps, database } = await buildRuntime(config);
  const jobs = startJobs(deps);
  console.log(`PixGate worker running (pid ${process.pid})`);
  const shutdown = async () => {
    await jobs.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error('PixGate worker failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
