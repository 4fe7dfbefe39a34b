import type { Deps } from '../platform/deps.ts';
import { startDelivering } from './deliverWebhooks.ts';
import { expireDueCharges } from './expireCharges.ts';
import { processDueChargeBatches } from '../charges/dueChargeBatch.service.ts';
import { pollReceivedPix } from './providerFacts.ts';
import { purgeHistory } from './purgeHistory.ts';
import { reconcileRefunds } from './reconcileRefunds.ts';
import { reconcileWithdrawals } from './reconcileWithdrawals.ts';
import { startScheduler } from './scheduler.ts';
import { followInfractions } from '../infractions/infraction.service.ts';
import { reconcileYesterday } from '../reconciliation/reconciliation.service.ts';
import { followRecurrences, scheduleCycles } from '../recurrences/recurrence.sync.ts';

/**
 * The background work, one file per job in this folder: charge expiry, withdrawal and refund reconciliation
 * with the PSP, webhook delivery and the purge of old history; and, from their services, the MED infractions'
 * follower and the daily reconciliation of the books with the provider. Runs in the server process by default (RUN_JOBS)
 * and in `npm run worker` processes when scaled out; every job is safe with several processes at once
 * (SKIP LOCKED, leases, row locks with state re-checks).
 */
export function startJobs(deps: Deps): { stop(): Promise<void> } {
  const scheduler = startScheduler(deps, [
    { name: 'expire-charges', everyMs: 5_000, run: expireDueCharges },
    // Batches of charges with a due date: the provider creates them after its 202 (API Pix lotecobv).
    { name: 'due-charge-batches', everyMs: 2_000, run: processDueChargeBatches },
    { name: 'reconcile-withdrawals', everyMs: 2_000, run: (jobDeps) => reconcileWithdrawals(jobDeps) },
    { name: 'reconcile-refunds', everyMs: 2_000, run: (jobDeps) => reconcileRefunds(jobDeps) },
    { name: 'purge-history', everyMs: 3_600_000, run: purgeHistory },
    // The safety net for lost provider callbacks: the received Pix of the last minutes, and their devoluções.
    { name: 'poll-received-pix', everyMs: 60_000, run: (jobDeps: Deps) => pollReceivedPix(jobDeps) },
    // Pix Automático: each cycle sent to the payer's bank when its window opens; the provider's word on open
    // cycles and on consents still awaited (callbacks apply them sooner; this is the safety net).
    { name: 'schedule-recurrence-cycles', everyMs: 60_000, run: scheduleCycles },
    { name: 'follow-recurrences', everyMs: 60_000, run: followRecurrences },
    // MED: the provider's infractions (Efí does not call back for them).
    { name: 'follow-infractions', everyMs: 60_000, run: followInfractions },
    // The books against the provider's, once a day for the São Paulo day that ended (checked every 10 min).
    { name: 'reconcile-books', everyMs: 600_000, run: reconcileYesterday },
  ]);
  const delivering = startDelivering(deps);
  return {
    stop: async () => {
      scheduler.stop();
      await delivering.stop();
      await scheduler.idle();
    },
  };
}
