import type { Deps } from '../deps.ts';
import { DELIVERY_HISTORY_RETENTION_MS, MANUAL_RESENDS_PER_HOUR, type EventName } from '../events/catalog.ts';
import { ApiError } from '../http/errors.ts';
import { newId } from '../pix/ids.ts';
import { release, tryConsume } from '../ratelimit/rateLimiter.ts';

const HOUR_MS = 3_600_000;

/**
 * A manual resend from the back office: new deliveries of the same event (same eventId; timestamp and
 * signature are made per attempt), to one URL or to every enabled URL whose filter takes it. Limited to
 * 10 per fixed UTC hour per account, as the contract says.
 */
export async function resendEvent(
  deps: Deps,
  accountId: string,
  eventId: string,
  endpointId?: string,
): Promise<{ deliveryId: string; endpointId: string }[]> {
  const event = await deps.db
    .selectFrom('outbox_events')
    .select(['id', 'event'])
    .where('account_id', '=', accountId)
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (!event) throw new ApiError(404, 'Event not found.');
  let query = deps.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'event_names'])
    .where('account_id', '=', accountId)
    .where('enabled', '=', true)
    .where('deleted_at', 'is', null);
  if (endpointId !== undefined) query = query.where('id', '=', endpointId);
  const endpoints = await query.execute();
  if (endpointId !== undefined && endpoints.length === 0) throw new ApiError(404, 'Webhook URL not found.');
  const targets = endpoints.filter(
    (endpoint) => endpointId !== undefined || endpoint.event_names.length === 0 || endpoint.event_names.includes(event.event as EventName),
  );
  if (targets.length === 0) throw new ApiError(409, 'No enabled webhook URL receives this event.');

  const nowMs = deps.clock.now();
  const slot = await tryConsume(deps.db, accountId, { bucket: 'webhook:resend', windowMs: HOUR_MS, limit: MANUAL_RESENDS_PER_HOUR }, nowMs);
  if (!slot) throw new ApiError(429, `Manual resend limit reached: ${MANUAL_RESENDS_PER_HOUR} per hour per account.`);
  const now = new Date(nowMs);
  const deliveries = targets.map((endpoint) => ({ deliveryId: newId('dlv'), endpointId: endpoint.id }));
  try {
    await deps.db
      .insertInto('webhook_deliveries')
      .values(
        deliveries.map((delivery) => ({
          id: delivery.deliveryId,
          account_id: accountId,
          event_id: event.id,
          endpoint_id: delivery.endpointId,
          trigger: 'manual' as const,
          status: 'pending' as const,
          next_attempt_at: now,
          locked_until: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  } catch (error) {
    await release(deps.db, accountId, slot);
    throw error;
  }
  return deliveries;
}

/** Deletes delivery history older than 60 days (attempts, then finished deliveries). Returns attempts purged. */
export async function purgeDeliveryHistory(deps: Deps): Promise<number> {
  const cutoff = new Date(deps.clock.now() - DELIVERY_HISTORY_RETENTION_MS);
  const attempts = await deps.db.deleteFrom('webhook_attempts').where('created_at', '<', cutoff).executeTakeFirst();
  await deps.db
    .deleteFrom('webhook_deliveries')
    .where('status', '!=', 'pending')
    .where('updated_at', '<', cutoff)
    .execute();
  return Number(attempts.numDeletedRows);
}
