import { logFailure } from '../db/unavailable.ts';
import type { Deps } from '../platform/deps.ts';

export interface Job {
  name: string;
  everyMs: number;
  run(deps: Deps): Promise<unknown>;
}

/**
 * Runs periodic jobs in the server process. A job never overlaps itself; a failure is logged and the job
 * runs again at its next tick. `idle()` waits for runs in flight (graceful shutdown).
 */
export function startScheduler(deps: Deps, jobs: Job[]): { stop(): void; idle(): Promise<void> } {
  const running = new Map<string, Promise<void>>();
  const timers = jobs.map((job) =>
    setInterval(() => {
      if (running.has(job.name)) return;
      const run = job
        .run(deps)
        .then(() => undefined)
        .catch((error: unknown) => logFailure(deps.logger, 'scheduled job failed', error, { job: job.name }))
        .finally(() => running.delete(job.name));
      running.set(job.name, run);
    }, job.everyMs),
  );
  for (const timer of timers) timer.unref();
  return {
    stop: () => timers.forEach((timer) => clearInterval(timer)),
    idle: async () => {
      await Promise.all(running.values());
    },
  };
}
