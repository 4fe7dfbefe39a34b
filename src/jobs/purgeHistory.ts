import { purgeExpiredSessions } from '../dashboard/session.repository.ts';
import { purgeForgottenFailures } from '../identity/signInBackoff.ts';
import type { Deps } from '../platform/deps.ts';
import { purgeExpiredCounters } from '../ratelimit/rateLimit.repository.ts';
import { purgeDeliveryHistory } from '../webhooks/delivery.service.ts';

/**
 * Job: webhook delivery history older than 60 days, rate-limit counters of past windows, forgotten sign-in
 * failures, and dashboard sessions past their expiry (refused already on use; their rows deleted here).
 */
export async function purgeHistory(deps: Deps): Promise<void> {
  const now = new Date(deps.clock.now());
  await purgeDeliveryHistory(deps);
  await purgeExpiredCounters(deps.db, now);
  await purgeForgottenFailures(deps);
  await purgeExpiredSessions(deps.db, now);
}
