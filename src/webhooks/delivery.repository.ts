/**
 * Owner of `webhook_deliveries` (one per event and URL, with its retry state) and `webhook_attempts` (the
 * 60-day history, one row per attempt). An attempt's history row and its delivery's new state are written
 * in one statement, which is why both tables have one owner.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, Db, DeliveryTrigger, WebhookAttemptRow } from '../db/schema.ts';
import type { StoredEventBody } from '../events/event.types.ts';

export interface NewDelivery {
  id: string;
  accountId: string;
  eventId: string;
  endpointId: string;
  trigger: DeliveryTrigger;
  at: Date;
}

/** Deliveries due at once (`next_attempt_at` = their creation). */
export async function insertDeliveries(db: Db, deliveries: NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db
    .insertInto('webhook_deliveries')
    .values(
      deliveries.map((delivery) => ({
        id: delivery.id,
        account_id: delivery.accountId,
        event_id: delivery.eventId,
        endpoint_id: delivery.endpointId,
        trigger: delivery.trigger,
        status: 'pending' as const,
        next_attempt_at: delivery.at,
        locked_until: null,
        created_at: delivery.at,
        updated_at: delivery.at,
      })),
    )
    .execute();
}

/** A deleted URL's deliveries still waiting are dropped. */
export async function dropPendingDeliveries(trx: Transaction<Database>, endpointId: string, at: Date): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'dropped', updated_at: at })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** A claimed delivery with what its attempt needs: the event and the URL's current settings. */
export interface ClaimedDelivery {
  id: string;
  account_id: string;
  event_id: string;
  endpoint_id: string;
  trigger: DeliveryTrigger;
  attempts: number;
  event: string;
  payload: StoredEventBody;
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
 * only delays that delivery until its lease ends. Reads the event and the URL by join (read-only).
 */
export async function claimDueDeliveries(db: Db, batchSize: number, now: Date, leaseUntil: Date): Promise<ClaimedDelivery[]> {
  const claimed = await sql<ClaimedDelivery>`
    WITH due AS (
      SELECT id FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until <= ${now})
      ORDER BY next_attempt_at
      LIMIT ${batchSize}
      FOR UPDATE SKIP LOCKED
    ), taken AS (
      UPDATE webhook_deliveries d SET locked_until = ${leaseUntil}, attempts = d.attempts + 1, updated_at = ${now}
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.account_id, d.event_id, d.endpoint_id, d.trigger, d.attempts
    )
    SELECT taken.*, e.event, e.payload, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at, w.enabled, w.deleted_at
    FROM taken
    JOIN outbox_events e ON e.id = taken.event_id
    JOIN webhook_endpoints w ON w.id = taken.endpoint_id`.execute(db);
  return claimed.rows;
}

/** A claimed delivery whose URL was disabled or deleted meanwhile: dropped without an attempt. */
export async function markDeliveryDropped(db: Db, deliveryId: string, at: Date): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ status: 'dropped', locked_until: null, updated_at: at }).where('id', '=', deliveryId).execute();
}

export interface AttemptRecord {
  delivery: ClaimedDelivery;
  requestBody: string;
  httpStatus: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  at: Date;
  /** The delivery's state after this attempt. */
  next: { status: 'succeeded' | 'failed' | 'pending'; attemptAt: Date; updatedAt: Date };
}

/** The attempt's history row and the delivery's new state in one statement (one round trip, atomic). */
export async function recordAttempt(db: Db, record: AttemptRecord): Promise<void> {
  const { delivery } = record;
  await sql`
    WITH attempt AS (
      INSERT INTO webhook_attempts (delivery_id, account_id, event_id, event, endpoint_id, url, attempt_number,
        trigger, request_body, http_status, duration_ms, response_excerpt, error, created_at)
      VALUES (${delivery.id}, ${delivery.account_id}, ${delivery.event_id}, ${delivery.event}, ${delivery.endpoint_id},
        ${delivery.url}, ${delivery.attempts}, ${delivery.trigger}, ${record.requestBody}, ${record.httpStatus}, ${record.durationMs},
        ${record.responseExcerpt}, ${record.error}, ${record.at})
    )
    UPDATE webhook_deliveries
    SET status = ${record.next.status}, next_attempt_at = ${record.next.attemptAt}, locked_until = NULL, updated_at = ${record.next.updatedAt}
    WHERE id = ${delivery.id}`.execute(db);
}

/** Deletes history older than `cutoff` (attempts, then finished deliveries). Returns attempts purged. */
export async function purgeDeliveriesBefore(db: Db, cutoff: Date): Promise<number> {
  const attempts = await db.deleteFrom('webhook_attempts').where('created_at', '<', cutoff).executeTakeFirst();
  await db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('updated_at', '<', cutoff).execute();
  return Number(attempts.numDeletedRows);
}

export interface AttemptFilter {
  eventId?: string | undefined;
  /** Several events at once (a transaction's). */
  eventIds?: readonly string[] | undefined;
  /** A canonical event name. */
  event?: string | undefined;
  endpointId?: string | undefined;
  /** `success`: a 2xx answer; `failure`: anything else. */
  outcome?: 'success' | 'failure' | undefined;
  /** The attempts of one transaction's events (read through the outbox by join). */
  transactionId?: string | undefined;
  limit: number;
}

/** An account's delivery history, newest first, filtered. */
export function listAttempts(db: Db, accountId: string, filter: AttemptFilter): Promise<WebhookAttemptRow[]> {
  let query = db.selectFrom('webhook_attempts as a').selectAll('a').where('a.account_id', '=', accountId);
  if (filter.eventId !== undefined) query = query.where('a.event_id', '=', filter.eventId);
  if (filter.eventIds !== undefined) {
    if (filter.eventIds.length === 0) return Promise.resolve([]);
    query = query.where('a.event_id', 'in', filter.eventIds);
  }
  if (filter.event !== undefined) query = query.where('a.event', '=', filter.event);
  if (filter.endpointId !== undefined) query = query.where('a.endpoint_id', '=', filter.endpointId);
  if (filter.outcome === 'success') query = query.where('a.http_status', '>=', 200).where('a.http_status', '<', 300);
  if (filter.outcome === 'failure') {
    query = query.where((eb) => eb.or([eb('a.http_status', 'is', null), eb('a.http_status', '<', 200), eb('a.http_status', '>=', 300)]));
  }
  if (filter.transactionId !== undefined) {
    const transactionId = filter.transactionId;
    query = query.where('a.event_id', 'in', (eb) =>
      eb.selectFrom('outbox_events as e').select('e.id').where('e.account_id', '=', accountId).where('e.transaction_id', '=', transactionId),
    );
  }
  return query.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(filter.limit).execute();
}

/** The webhook backlog for /metrics: deliveries due now and the oldest due time (index webhook_deliveries_due). */
export async function dueDeliveryBacklog(db: Db, now: Date): Promise<{ due: number; oldestDueAt: Date | null }> {
  const result = await sql<{ due: number; oldest: Date | null }>`
    SELECT count(*)::int AS due, min(next_attempt_at) AS oldest
    FROM webhook_deliveries
    WHERE status = 'pending' AND next_attempt_at <= ${now}`.execute(db);
  const row = result.rows[0];
  return { due: Number(row?.due ?? 0), oldestDueAt: row?.oldest ? new Date(row.oldest) : null };
}
