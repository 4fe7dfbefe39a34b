import { logFailure } from '../db/unavailable.ts';
import type { Deps } from '../platform/deps.ts';
import type { ClaimedDelivery } from '../webhooks/delivery.repository.ts';
import { attemptLogged, claimDeliveries, fanOutEvents } from '../webhooks/delivery.service.ts';

/**
 * Job: the webhook delivery loop. Attempts run concurrently (up to `maxInFlight`) and the loop claims more
 * as soon as slots free up, so a slow receiver never holds back other merchants' deliveries; when nothing
 * is due it pauses `idleMs`, so a new event is attempted within about that time of its commit. Each round
 * first fans out the events committed since the last one (one delivery per URL that takes them).
 */
export function startDelivering(deps: Deps, options: { idleMs?: number; maxInFlight?: number } = {}) {
  const idleMs = options.idleMs ?? 50;
  const maxInFlight = options.maxInFlight ?? 200;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, ms).unref();
    });
  const loop = (async () => {
    while (!stopped) {
      const room = maxInFlight - inFlight.size;
      let claimed: ClaimedDelivery[] = [];
      if (room > 0) {
        try {
          await fanOutEvents(deps);
          claimed = await claimDeliveries(deps, room);
        } catch (error) {
          logFailure(deps.logger, 'webhook claim failed', error);
        }
      }
      for (const delivery of claimed) {
        const running: Promise<void> = attemptLogged(deps, delivery).finally(() => {
          inFlight.delete(running);
          wake?.();
        });
        inFlight.add(running);
      }
      if (!stopped && claimed.length === 0) await pause(idleMs);
      else if (!stopped && inFlight.size >= maxInFlight) await Promise.race(inFlight);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
      await Promise.all(inFlight);
    },
  };
}
