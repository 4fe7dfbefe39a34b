import { ConfigError, loadConfig } from './platform/config.ts';
import { startJobs } from './jobs/jobs.ts';
import { createLogger } from './platform/logger.ts';
import { buildRuntime } from './runtime.ts';

/**
 * A background worker without HTTP, for scaling out: run the servers with RUN_JOBS=false and one or more
 * `npm run worker` processes on the same DATABASE_URL. Stops gracefully on SIGTERM/SIGINT, abandoning what
 * is still in flight after SHUTDOWN_TIMEOUT_MS (webhook leases and reconciliation finish it).
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`PixGate worker cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  const { deps, database, providers } = await buildRuntime(config, logger, { replica: false });
  const jobs = startJobs(deps);
  // The jobs' timers do not hold the process (unref'd, so a server can exit while they wait), and nothing
  // else here listens: without this, the worker would exit quietly, with code 0, the moment its database
  // connections are all gone (a restart, a failover). It runs until it is told to stop.
  const alive = setInterval(() => undefined, 60_000);
  console.log(`PixGate worker running (pid ${process.pid})`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(alive);
    setTimeout(() => {
      logger.warn('shutdown deadline reached: abandoning jobs in flight', { shutdownTimeoutMs: config.shutdownTimeoutMs });
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await jobs.stop();
    await providers.close();
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
