import { purgeForgottenFailures } from '../identity/signInBackoff.ts';
import type { Deps } from '../platform/deps.ts';
import { purgeExpiredCounters } from '../ratelimit/rateLimit.repository.ts';
import { purgeDeliveryHistory } from '../webhooks/delivery.service.ts';

/** Job: webhook delivery history older than 60 days, rate-limit counters of past windows, forgotten sign-in failures. */
export async function purgeHistory(deps: Deps): Promise<void> {
  await purgeDeliveryHistory(deps);
  await purgeExpiredCounters(deps.db, new Date(deps.clock.now()));
  await purgeForgottenFailures(deps);
}
