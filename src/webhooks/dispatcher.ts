import { sql } from 'kysely';
import type { Deps } from '../deps.ts';
import { type AttemptOutcome, isDelivered, nextRetryDelayMs } from '../events/catalog.ts';
import { postWebhook, type SendResult } from './sender.ts';
import { signDelivery } from './signer.ts';
import { urlPolicy } from './endpoints.ts';

/** A claimed delivery is leased for this long: no other worker takes it meanwhile, even if this one dies. */
const LEASE_MS = 60_000;
const USER_AGENT = 'PixGate-Webhooks/1.0';

interface ClaimedDelivery {
  id: string;
  account_id: string;
  event_id: string;
  endpoint_id: string;
  trigger: 'automatic' | 'manual';
  attempts: number;
  event: string;
  payload: unknown;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  enabled: boolean;
  deleted_at: Date | null;
}

/**
 * Claims due deliveries with `FOR UPDATE SKIP LOCKED` and a lease, counting the attempt in the same
 * statement: several workers (processes) never take the same attempt, and a worker that dies mid-attempt
 * only delays that delivery until its lease ends.
 */
async function claim(deps: Deps, batchSize: number, now: Date): Promise<ClaimedDelivery[]> {
  const lease = new Date(now.getTime() + LEASE_MS);
  const claimed = await sql<ClaimedDelivery>`
    WITH due AS (
      SELECT id FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until <= ${now})
      ORDER BY next_attempt_at
      LIMIT ${batchSize}
      FOR UPDATE SKIP LOCKED
    ), taken AS (
      UPDATE webhook_deliveries d SET locked_until = ${lease}, attempts = d.attempts + 1, updated_at = ${now}
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.account_id, d.event_id, d.endpoint_id, d.trigger, d.attempts
    )
    SELECT taken.*, e.event, e.payload, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at, w.enabled, w.deleted_at
    FROM taken
    JOIN outbox_events e ON e.id = taken.event_id
    JOIN webhook_endpoints w ON w.id = taken.endpoint_id`.execute(deps.db);
  return claimed.rows;
}

function outcomeOf(result: SendResult): AttemptOutcome {
  if (result.status !== null) return result.status;
  return result.error === 'timeout' ? 'timeout' : 'network';
}

async function attempt(deps: Deps, delivery: ClaimedDelivery): Promise<void> {
  const nowMs = deps.clock.now();
  const now = new Date(nowMs);
  if (!delivery.enabled || delivery.deleted_at) {
    await deps.db
      .updateTable('webhook_deliveries')
      .set({ status: 'dropped', locked_until: null, updated_at: now })
      .where('id', '=', delivery.id)
      .execute();
    return;
  }
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(nowMs / 1000);
  const secrets = [delivery.secret];
  if (delivery.previous_secret && delivery.previous_secret_expires_at && delivery.previous_secret_expires_at.getTime() > nowMs) {
    secrets.push(delivery.previous_secret);
  }
  // Timestamp and signature are made for this attempt; the event id never changes.
  const signature = signDelivery(secrets, delivery.event_id, timestamp, body);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Event': delivery.event,
    'X-Service-Event-Id': delivery.event_id,
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Signature': signature,
    'webhook-id': delivery.event_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  };
  const result = await postWebhook(delivery.url, headers, body, {
    timeoutMs: deps.config.webhookTimeoutMs,
    policy: urlPolicy(deps),
  });
  const outcome = outcomeOf(result);
  const delivered = isDelivered(outcome);
  const delayMs = delivered || result.error === 'unsafe address' ? undefined : nextRetryDelayMs(delivery.attempts, outcome);
  const status = delivered ? 'succeeded' : delayMs === undefined ? 'failed' : 'pending';
  const nextAttemptAt = delayMs === undefined ? now : new Date(nowMs + delayMs);
  // The attempt's history row and the delivery's new state in one statement (one round trip, atomic).
  await sql`
    WITH attempt AS (
      INSERT INTO webhook_attempts (delivery_id, account_id, event_id, event, endpoint_id, url, attempt_number,
        trigger, request_body, http_status, duration_ms, response_excerpt, error, created_at)
      VALUES (${delivery.id}, ${delivery.account_id}, ${delivery.event_id}, ${delivery.event}, ${delivery.endpoint_id},
        ${delivery.url}, ${delivery.attempts}, ${delivery.trigger}, ${body}, ${result.status}, ${result.durationMs},
        ${result.responseExcerpt}, ${result.error}, ${now})
    )
    UPDATE webhook_deliveries
    SET status = ${status}, next_attempt_at = ${nextAttemptAt}, locked_until = NULL, updated_at = ${new Date(deps.clock.now())}
    WHERE id = ${delivery.id}`.execute(deps.db);
}

/**
 * One round of the delivery worker: claims up to `batchSize` due deliveries and attempts them in
 * parallel. Returns how many were attempted.
 */
export async function dispatchOnce(deps: Deps, batchSize = 100): Promise<number> {
  const claimed = await claim(deps, batchSize, new Date(deps.clock.now()));
  await Promise.all(
    claimed.map((delivery) =>
      attempt(deps, delivery).catch((error: unknown) =>
        deps.logger.error('webhook attempt failed to record', { deliveryId: delivery.id, error: String(error) }),
      ),
    ),
  );
  return claimed.length;
}

/**
 * The worker loop. Attempts run concurrently (up to `maxInFlight`) and the loop claims more as soon as
 * slots free up, so a slow receiver never holds back other merchants' deliveries; when nothing is due it
 * pauses `idleMs`, so a new event is attempted within about that time of its commit.
 */
export function startDispatcher(deps: Deps, options: { idleMs?: number; maxInFlight?: number } = {}) {
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
          claimed = await claim(deps, room, new Date(deps.clock.now()));
        } catch (error) {
          deps.logger.error('webhook claim failed', { error: String(error) });
        }
      }
      for (const delivery of claimed) {
        const running: Promise<void> = attempt(deps, delivery)
          .catch((error: unknown) =>
            deps.logger.error('webhook attempt failed to record', { deliveryId: delivery.id, error: String(error) }),
          )
          .finally(() => {
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
