import { notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import type { WebhookAttemptRow } from '../db/schema.ts';
import {
  type AttemptOutcome,
  DELIVERY_HISTORY_RETENTION_MS,
  isDelivered,
  MANUAL_RESENDS_PER_HOUR,
  nextRetryDelayMs,
  type EventName,
} from '../events/catalog.ts';
import { findAccountEvent, lockEventsToFanOut, markFannedOut } from '../events/event.repository.ts';
import type { Deps } from '../platform/deps.ts';
import { newId } from '../primitives/ids.ts';
import { release, takenSlots, tryConsume } from '../ratelimit/rateLimit.repository.ts';
import {
  claimDueDeliveries,
  insertDeliveries,
  listAttempts,
  markDeliveryDropped,
  purgeDeliveriesBefore,
  recordAttempt,
  type AttemptFilter,
  type ClaimedDelivery,
} from './delivery.repository.ts';
import { findEndpoint, urlPolicy } from './endpoint.service.ts';
import { listEnabledEndpoints, listEnabledEndpointsOf } from './endpoint.repository.ts';
import { postWebhook, type SendResult } from './sender.ts';
import { signDelivery } from './signer.ts';
import { openWebhookSecret } from './webhookSecrets.ts';
import { EventNotFound, NoWebhookUrlForEvent, ResendQuotaExhausted, WebhookUrlNotFound } from './webhook.errors.ts';

/** A claimed delivery is leased for this long: no other worker takes it meanwhile, even if this one dies. */
const LEASE_MS = 60_000;
const HOUR_MS = 3_600_000;
const USER_AGENT = 'PixGate-Webhooks/1.0';
/** The name of the dashboard's test event (not one of the catalogue's events). */
export const TEST_EVENT = 'webhook.test';
/** Manual resends: a fixed UTC-hour window per account. */
const RESEND_WINDOW = { bucket: 'webhook:resend', windowMs: HOUR_MS } as const;

const takes = (endpoint: { event_names: string[] }, event: EventName) =>
  endpoint.event_names.length === 0 || endpoint.event_names.includes(event);

/**
 * Fans events out: for each event not fanned out yet, one delivery per URL of its account that was
 * enabled, existed when the event happened, and whose filter takes it; the events are then marked, in the
 * same database transaction (SKIP LOCKED: several workers share the work, an event is fanned out once).
 * The money transactions write only the event itself; this runs in the delivery loop, before each claim.
 * Returns how many events were fanned out.
 */
export async function fanOutEvents(deps: Pick<Deps, 'db'>, limit = 500): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const events = await lockEventsToFanOut(trx, limit);
    if (events.length === 0) return 0;
    const endpoints = await listEnabledEndpointsOf(trx, [...new Set(events.map((event) => event.account_id))]);
    const deliveries = events.flatMap((event) =>
      endpoints
        .filter((endpoint) => endpoint.account_id === event.account_id && endpoint.created_at <= event.created_at)
        .filter((endpoint) => takes(endpoint, event.event as EventName))
        .map((endpoint) => ({
          id: newId('dlv'),
          accountId: event.account_id,
          eventId: event.id,
          endpointId: endpoint.id,
          trigger: 'automatic' as const,
          at: event.created_at,
        })),
    );
    await insertDeliveries(trx, deliveries);
    await markFannedOut(trx, events.map((event) => event.id));
    return events.length;
  });
}

/** Claims up to `batchSize` due deliveries (SKIP LOCKED, leased): see `claimDueDeliveries`. */
export function claimDeliveries(deps: Deps, batchSize: number): Promise<ClaimedDelivery[]> {
  const now = new Date(deps.clock.now());
  return claimDueDeliveries(deps.db, batchSize, now, new Date(now.getTime() + LEASE_MS));
}

/**
 * The headers of one attempt: the event's name and id, this attempt's timestamp and signature (Standard
 * Webhooks), under both the X-Service-* names and the webhook-* twins.
 */
function signedHeaders(secrets: string[], attempt: { event: string; eventId: string; timestamp: number; body: string }): Record<string, string> {
  const signature = signDelivery(secrets, attempt.eventId, attempt.timestamp, attempt.body);
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Event': attempt.event,
    'X-Service-Event-Id': attempt.eventId,
    'X-Service-Timestamp': String(attempt.timestamp),
    'X-Service-Signature': signature,
    'webhook-id': attempt.eventId,
    'webhook-timestamp': String(attempt.timestamp),
    'webhook-signature': signature,
  };
}

function outcomeOf(result: SendResult): AttemptOutcome {
  if (result.status !== null) return result.status;
  return result.error === 'timeout' ? 'timeout' : 'network';
}

/**
 * One attempt of a claimed delivery: signed for this attempt (timestamp and signature are new, the event
 * id never changes), posted, and recorded with the delivery's next state (delivered, failed for good, or
 * due again after the schedule's next delay).
 */
export async function attemptDelivery(deps: Deps, delivery: ClaimedDelivery): Promise<void> {
  const nowMs = deps.clock.now();
  const now = new Date(nowMs);
  if (!delivery.enabled || delivery.deleted_at) {
    await markDeliveryDropped(deps.db, delivery.id, now);
    return;
  }
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(nowMs / 1000);
  const secrets = [openWebhookSecret(delivery.secret, deps.secretsKey)];
  if (delivery.previous_secret && delivery.previous_secret_expires_at && delivery.previous_secret_expires_at.getTime() > nowMs) {
    secrets.push(openWebhookSecret(delivery.previous_secret, deps.secretsKey));
  }
  const headers = signedHeaders(secrets, { event: delivery.event, eventId: delivery.event_id, timestamp, body });
  const result = await postWebhook(delivery.url, headers, body, {
    timeoutMs: deps.config.webhookTimeoutMs,
    policy: urlPolicy(deps),
  });
  const outcome = outcomeOf(result);
  const delivered = isDelivered(outcome);
  const delayMs = delivered || result.error === 'unsafe address' ? undefined : nextRetryDelayMs(delivery.attempts, outcome);
  const status = delivered ? 'succeeded' : delayMs === undefined ? 'failed' : 'pending';
  deps.metrics.webhookAttempts.inc({
    outcome: delivered ? 'delivered' : result.error === 'unsafe address' ? 'unsafe' : status === 'pending' ? 'retry' : 'failed',
  });
  await recordAttempt(deps.db, {
    delivery,
    requestBody: body,
    httpStatus: result.status,
    durationMs: result.durationMs,
    responseExcerpt: result.responseExcerpt,
    error: result.error,
    at: now,
    next: {
      status,
      attemptAt: delayMs === undefined ? now : new Date(nowMs + delayMs),
      updatedAt: new Date(deps.clock.now()),
    },
  });
}

/** Runs one attempt and logs (never throws) a failure to record it: the lease retries it later. */
export function attemptLogged(deps: Deps, delivery: ClaimedDelivery): Promise<void> {
  return attemptDelivery(deps, delivery).catch((error: unknown) =>
    deps.logger.error('webhook attempt failed to record', { deliveryId: delivery.id, error: String(error) }),
  );
}

/**
 * One round of delivery: claims up to `batchSize` due deliveries and attempts them in parallel. Returns how
 * many were attempted. (The worker loop is `src/jobs/deliverWebhooks.ts`.)
 */
export async function dispatchOnce(deps: Deps, batchSize = 100): Promise<number> {
  await fanOutEvents(deps);
  const claimed = await claimDeliveries(deps, batchSize);
  await Promise.all(claimed.map((delivery) => attemptLogged(deps, delivery)));
  return claimed.length;
}

/**
 * A manual resend: new deliveries of the same event (same eventId; timestamp and signature are made per
 * attempt), to one URL or to every enabled URL whose filter takes it. Limited to 10 per fixed UTC hour per
 * account, as the contract says.
 */
export async function resendEvent(
  deps: Deps,
  accountId: string,
  eventId: string,
  endpointId?: string,
  audit: AuditStep<{ deliveryId: string; endpointId: string }[]> = notAudited,
): Promise<{ deliveryId: string; endpointId: string }[]> {
  const event = await findAccountEvent(deps.db, accountId, eventId);
  if (!event) throw new EventNotFound();
  const endpoints = await listEnabledEndpoints(deps.db, accountId, endpointId);
  if (endpointId !== undefined && endpoints.length === 0) throw new WebhookUrlNotFound();
  const targets = endpoints.filter((endpoint) => endpointId !== undefined || takes(endpoint, event.event as EventName));
  if (targets.length === 0) throw new NoWebhookUrlForEvent();

  const nowMs = deps.clock.now();
  const slot = await tryConsume(deps.db, accountId, { ...RESEND_WINDOW, limit: MANUAL_RESENDS_PER_HOUR }, nowMs);
  if (!slot) throw new ResendQuotaExhausted(MANUAL_RESENDS_PER_HOUR);
  const now = new Date(nowMs);
  const deliveries = targets.map((endpoint) => ({ deliveryId: newId('dlv'), endpointId: endpoint.id }));
  try {
    await withAudit(deps.db, audit, async (trx) => {
      await insertDeliveries(
        trx,
        deliveries.map((delivery) => ({
          id: delivery.deliveryId,
          accountId,
          eventId: event.id,
          endpointId: delivery.endpointId,
          trigger: 'manual' as const,
          at: now,
        })),
      );
      return deliveries;
    });
  } catch (error) {
    await release(deps.db, accountId, slot);
    throw error;
  }
  return deliveries;
}

/** Deletes delivery history older than 60 days. Returns attempts purged. */
export function purgeDeliveryHistory(deps: Deps): Promise<number> {
  return purgeDeliveriesBefore(deps.db, new Date(deps.clock.now() - DELIVERY_HISTORY_RETENTION_MS));
}

/** An account's delivery history, newest first. */
export function attemptsOf(deps: Pick<Deps, 'db'>, accountId: string, filter: AttemptFilter): Promise<WebhookAttemptRow[]> {
  return listAttempts(deps.db, accountId, filter);
}

/** Manual resends left in the current UTC hour (the contract's 10 per hour per account). */
export async function resendQuota(deps: Pick<Deps, 'db' | 'clock'>, accountId: string): Promise<{ limitPerHour: number; remaining: number; resetsAt: number }> {
  const nowMs = deps.clock.now();
  const used = await takenSlots(deps.db, accountId, RESEND_WINDOW, nowMs);
  return {
    limitPerHour: MANUAL_RESENDS_PER_HOUR,
    remaining: Math.max(0, MANUAL_RESENDS_PER_HOUR - used),
    resetsAt: (Math.floor(nowMs / HOUR_MS) + 1) * HOUR_MS,
  };
}

/**
 * "Send a test event" from the dashboard: a `webhook.test` event (not a catalogue event, never stored, never
 * retried) signed with the URL's secret like every delivery and marked `X-Service-Test: true`, posted now;
 * the answer tells whether the receiver verified and accepted it.
 */
export async function sendTestEvent(
  deps: Deps,
  accountId: string,
  endpointId: string,
): Promise<{ eventId: string; delivered: boolean; httpStatus: number | null; durationMs: number; error: string | null; responseExcerpt: string | null }> {
  const endpoint = await findEndpoint(deps, accountId, endpointId);
  const nowMs = deps.clock.now();
  const eventId = newId('evt');
  const body = JSON.stringify({ eventId, event: TEST_EVENT, occurredAt: nowMs, endpointId, test: true });
  const headers = {
    ...signedHeaders([openWebhookSecret(endpoint.secret, deps.secretsKey)], { event: TEST_EVENT, eventId, timestamp: Math.floor(nowMs / 1000), body }),
    'X-Service-Test': 'true',
  };
  const result = await postWebhook(endpoint.url, headers, body, { timeoutMs: deps.config.webhookTimeoutMs, policy: urlPolicy(deps) });
  const delivered = result.status !== null && result.status >= 200 && result.status < 300;
  return { eventId, delivered, httpStatus: result.status, durationMs: result.durationMs, error: result.error, responseExcerpt: result.responseExcerpt };
}
