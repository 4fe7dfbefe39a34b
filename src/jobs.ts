import { expireDueCharges } from './charges/charge.expiry.ts';
import type { Deps } from './deps.ts';
import { purgeExpiredCounters } from './ratelimit/rateLimiter.ts';
import { startScheduler } from './scheduler.ts';
import { startDispatcher } from './webhooks/dispatcher.ts';
import { purgeDeliveryHistory } from './webhooks/resend.ts';
import { reconcileWithdrawals } from './withdrawals/withdrawal.settlement.ts';

/**
 * The background work: charge expiry, withdrawal reconciliation with the PSP, webhook delivery and the
 * purge of old history. Runs in the server process by default (RUN_JOBS) and in `npm run worker`
 * processes when scaled out; every job is safe with several processes at once (SKIP LOCKED, leases,
 * row locks with state re-checks).
 */
export function startJobs(deps: Deps): { stop(): Promise<void> } {
  const scheduler = startScheduler(deps, [
    { name: 'expire-charges', everyMs: 5_000, run: expireDueCharges },
    { name: 'reconcile-withdrawals', everyMs: 2_000, run: (jobDeps) => reconcileWithdrawals(jobDeps) },
    {
      name: 'purge-history',
      everyMs: 3_600_000,
      run: async (jobDeps) => {
        await purgeDeliveryHistory(jobDeps);
        await purgeExpiredCounters(jobDeps.db, new Date(jobDeps.clock.now()));
      },
    },
  ]);
  const dispatcher = startDispatcher(deps);
  return {
    stop: async () => {
      scheduler.stop();
      await dispatcher.stop();
      await scheduler.idle();
    },
  };
}
