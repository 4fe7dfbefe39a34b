import type { Transaction } from 'kysely';
import type { Database, WebhookEndpointRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import {
  canonicalEventName,
  categoryOf,
  EVENT_NAMES,
  isEventCategory,
  MAX_WEBHOOK_URLS,
  type EventName,
} from '../events/catalog.ts';
import { ApiError } from '../http/errors.ts';
import { newId } from '../pix/ids.ts';
import { newWebhookSecret } from './signer.ts';
import { checkWebhookUrl, UnsafeUrlError, type UrlPolicy } from './urlSafety.ts';

/** After a rotation the old secret keeps signing (second signature) this long. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export function urlPolicy(deps: Deps): UrlPolicy {
  return { allowPrivate: deps.config.webhookAllowPrivate, requireHttps: deps.config.nodeEnv === 'production' };
}

/**
 * A filter mixes canonical names, categories and the May-2026 legacy names; it is stored as given and
 * expanded once to canonical names, so matching an event is a plain membership test. Empty: every event.
 */
export function expandFilter(entries: readonly string[]): EventName[] {
  const names = new Set<EventName>();
  for (const entry of entries) {
    const name = canonicalEventName(entry);
    if (name) {
      names.add(name);
      continue;
    }
    if (isEventCategory(entry)) {
      for (const event of EVENT_NAMES) if (categoryOf(event) === entry) names.add(event);
      continue;
    }
    throw new ApiError(400, `Unknown event or category: '${entry}'.`);
  }
  return EVENT_NAMES.filter((event) => names.has(event));
}

/** Checks a URL and returns it exactly as given: webhooks go to that URL, nothing normalised or appended. */
async function safeUrl(deps: Deps, url: string): Promise<string> {
  try {
    await checkWebhookUrl(url, urlPolicy(deps));
    return url;
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new ApiError(400, error.message);
    throw error;
  }
}

export async function createEndpoint(
  deps: Deps,
  accountId: string,
  input: { url: string; events?: string[] | undefined; description?: string | undefined },
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  const events = input.events ?? [];
  const eventNames = expandFilter(events);
  const url = await safeUrl(deps, input.url);
  const now = new Date(deps.clock.now());
  const secret = newWebhookSecret();
  const row = await deps.db.transaction().execute(async (trx) => {
    await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
    const count = await trx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_WEBHOOK_URLS) {
      throw new ApiError(409, `An account can have at most ${MAX_WEBHOOK_URLS} webhook URLs.`);
    }
    return trx
      .insertInto('webhook_endpoints')
      .values({
        id: newId('wh'),
        account_id: accountId,
        url,
        events: JSON.stringify(events),
        event_names: JSON.stringify(eventNames),
        description: input.description ?? null,
        enabled: true,
        secret,
        previous_secret: null,
        previous_secret_expires_at: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return { row, secret };
}

export async function findEndpoint(deps: Deps, accountId: string, endpointId: string): Promise<WebhookEndpointRow> {
  const row = await deps.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, 'Webhook URL not found.');
  return row;
}

export async function updateEndpoint(
  deps: Deps,
  accountId: string,
  endpointId: string,
  input: { url?: string; events?: string[]; description?: string | null; enabled?: boolean },
): Promise<WebhookEndpointRow> {
  await findEndpoint(deps, accountId, endpointId);
  const changes: Record<string, unknown> = { updated_at: new Date(deps.clock.now()) };
  if (input.url !== undefined) changes.url = await safeUrl(deps, input.url);
  if (input.events !== undefined) {
    changes.event_names = JSON.stringify(expandFilter(input.events));
    changes.events = JSON.stringify(input.events);
  }
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  return deps.db
    .updateTable('webhook_endpoints')
    .set(changes)
    .where('id', '=', endpointId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes a URL (soft, for the history) and drops its pending deliveries. */
export async function deleteEndpoint(deps: Deps, accountId: string, endpointId: string): Promise<void> {
  await findEndpoint(deps, accountId, endpointId);
  const now = new Date(deps.clock.now());
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('webhook_endpoints').set({ deleted_at: now, enabled: false, updated_at: now }).where('id', '=', endpointId).execute();
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'dropped', updated_at: now })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .execute();
  });
}

export async function rotateSecret(
  deps: Deps,
  accountId: string,
  endpointId: string,
): Promise<{ secret: string; previousSecretExpiresAt: number }> {
  const current = await findEndpoint(deps, accountId, endpointId);
  const nowMs = deps.clock.now();
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = nowMs + ROTATION_OVERLAP_MS;
  await deps.db
    .updateTable('webhook_endpoints')
    .set({
      secret,
      previous_secret: current.secret,
      previous_secret_expires_at: new Date(previousSecretExpiresAt),
      updated_at: new Date(nowMs),
    })
    .where('id', '=', endpointId)
    .execute();
  return { secret, previousSecretExpiresAt };
}

/**
 * Creates one delivery per enabled URL of the account whose filter takes the event, in the caller's
 * database transaction (the one that wrote the event): an event is never committed without them.
 */
export async function fanOut(
  trx: Transaction<Database>,
  event: { id: string; accountId: string; name: EventName; at: Date },
): Promise<number> {
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'event_names'])
    .where('account_id', '=', event.accountId)
    .where('enabled', '=', true)
    .where('deleted_at', 'is', null)
    .execute();
  const targets = endpoints.filter((endpoint) => endpoint.event_names.length === 0 || endpoint.event_names.includes(event.name));
  if (targets.length === 0) return 0;
  await trx
    .insertInto('webhook_deliveries')
    .values(
      targets.map((endpoint) => ({
        id: newId('dlv'),
        account_id: event.accountId,
        event_id: event.id,
        endpoint_id: endpoint.id,
        trigger: 'automatic' as const,
        status: 'pending' as const,
        next_attempt_at: event.at,
        locked_until: null,
        created_at: event.at,
        updated_at: event.at,
      })),
    )
    .execute();
  return targets.length;
}
