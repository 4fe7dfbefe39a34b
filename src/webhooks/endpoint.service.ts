import { notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import { lockAccount } from '../accounts/account.repository.ts';
import type { WebhookEndpointRow } from '../db/schema.ts';
import {
  canonicalEventName,
  categoryOf,
  EVENT_NAMES,
  isEventCategory,
  MAX_WEBHOOK_URLS,
  type EventName,
} from '../events/catalog.ts';
import type { Deps } from '../platform/deps.ts';
import { newId } from '../primitives/ids.ts';
import { dropPendingDeliveries } from './delivery.repository.ts';
import {
  countLiveEndpoints,
  findLiveEndpoint,
  insertEndpoint,
  listEndpointsWithPlainSecrets,
  listLiveEndpoints,
  markEndpointDeleted,
  replaceSecret,
  storeSealedSecrets,
  updateEndpointRow,
  type EndpointChanges,
} from './endpoint.repository.ts';
import { newWebhookSecret } from './signer.ts';
import { openWebhookSecret, sealWebhookSecret, secretPrefixOf } from './webhookSecrets.ts';
import { checkWebhookUrl, type UrlPolicy } from './urlSafety.ts';
import { UnknownEventFilter, WebhookUrlLimitReached, WebhookUrlNotFound } from './webhook.errors.ts';

/** After a rotation the old secret keeps signing (second signature) this long. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/**
 * The URL rules of the configuration: `WEBHOOK_ALLOW_PRIVATE` (on outside production) allows loopback
 * receivers only; private, link-local and metadata addresses are refused in every mode (urlSafety.ts).
 */
export function urlPolicy(deps: Pick<Deps, 'config'>): UrlPolicy {
  return { allowLoopback: deps.config.webhookAllowPrivate, requireHttps: deps.config.nodeEnv === 'production' };
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
    throw new UnknownEventFilter(entry);
  }
  return EVENT_NAMES.filter((event) => names.has(event));
}

/** Checks a URL and returns it exactly as given: webhooks go to that URL, nothing normalised or appended. */
async function safeUrl(deps: Deps, url: string): Promise<string> {
  await checkWebhookUrl(url, urlPolicy(deps));
  return url;
}

export async function createEndpoint(
  deps: Deps,
  accountId: string,
  input: { url: string; events?: string[] | undefined; description?: string | undefined },
  audit: AuditStep<WebhookEndpointRow> = notAudited,
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  const events = input.events ?? [];
  const eventNames = expandFilter(events);
  const url = await safeUrl(deps, input.url);
  const now = new Date(deps.clock.now());
  const secret = newWebhookSecret();
  const row = await withAudit(deps.db, audit, async (trx) => {
    // One change at a time per account, so the limit of 6 URLs is exact under concurrency.
    await lockAccount(trx, accountId);
    if ((await countLiveEndpoints(trx, accountId)) >= MAX_WEBHOOK_URLS) throw new WebhookUrlLimitReached(MAX_WEBHOOK_URLS);
    return insertEndpoint(trx, {
      id: newId('wh'),
      account_id: accountId,
      url,
      events: JSON.stringify(events),
      event_names: JSON.stringify(eventNames),
      description: input.description ?? null,
      enabled: true,
      secret: sealWebhookSecret(secret, deps.secretsKey),
      secret_prefix: secretPrefixOf(secret),
      previous_secret: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
  });
  return { row, secret };
}

export async function findEndpoint(deps: Pick<Deps, 'db'>, accountId: string, endpointId: string): Promise<WebhookEndpointRow> {
  const row = await findLiveEndpoint(deps.db, accountId, endpointId);
  if (!row) throw new WebhookUrlNotFound();
  return row;
}

export function endpointsOf(deps: Pick<Deps, 'db'>, accountId: string): Promise<WebhookEndpointRow[]> {
  return listLiveEndpoints(deps.db, accountId);
}

export async function updateEndpoint(
  deps: Deps,
  accountId: string,
  endpointId: string,
  input: { url?: string | undefined; events?: string[] | undefined; description?: string | null | undefined; enabled?: boolean | undefined },
  audit: AuditStep<WebhookEndpointRow> = notAudited,
): Promise<WebhookEndpointRow> {
  await findEndpoint(deps, accountId, endpointId);
  const changes: EndpointChanges = {};
  if (input.url !== undefined) changes.url = await safeUrl(deps, input.url);
  if (input.events !== undefined) {
    changes.event_names = JSON.stringify(expandFilter(input.events));
    changes.events = JSON.stringify(input.events);
  }
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  return withAudit(deps.db, audit, (trx) => updateEndpointRow(trx, endpointId, { ...changes, updated_at: new Date(deps.clock.now()) }));
}

/** Deletes a URL (soft, for the history) and drops its pending deliveries. */
export async function deleteEndpoint(deps: Deps, accountId: string, endpointId: string, audit: AuditStep<WebhookEndpointRow> = notAudited): Promise<void> {
  const endpoint = await findEndpoint(deps, accountId, endpointId);
  const now = new Date(deps.clock.now());
  await withAudit(deps.db, audit, async (trx) => {
    await markEndpointDeleted(trx, endpointId, now);
    await dropPendingDeliveries(trx, endpointId, now);
    return endpoint;
  });
}

/** What a rotation changed, for its audit entry (the secrets' prefixes only). */
export interface SecretRotation {
  previousPrefix: string | null;
  secretPrefix: string;
  previousSecretExpiresAt: number;
}

export async function rotateSecret(
  deps: Deps,
  accountId: string,
  endpointId: string,
  audit: AuditStep<SecretRotation> = notAudited,
): Promise<{ secret: string; previousSecretExpiresAt: number }> {
  const current = await findEndpoint(deps, accountId, endpointId);
  const nowMs = deps.clock.now();
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = nowMs + ROTATION_OVERLAP_MS;
  await withAudit(deps.db, audit, async (trx) => {
    await replaceSecret(trx, endpointId, {
      secret: sealWebhookSecret(secret, deps.secretsKey),
      secretPrefix: secretPrefixOf(secret),
      previousSecret: current.secret,
      previousExpiresAt: new Date(previousSecretExpiresAt),
      at: new Date(nowMs),
    });
    return { previousPrefix: current.secret_prefix, secretPrefix: secretPrefixOf(secret), previousSecretExpiresAt };
  });
  return { secret, previousSecretExpiresAt };
}

/**
 * Seals webhook secrets still stored in the clear (written before sealing existed), at start-up: after it
 * no signing secret is readable from the database without the secrets key. Returns how many were sealed.
 */
export async function sealPlainWebhookSecrets(deps: Pick<Deps, 'db' | 'secretsKey'>): Promise<number> {
  const rows = await listEndpointsWithPlainSecrets(deps.db);
  for (const row of rows) {
    const secret = openWebhookSecret(row.secret, deps.secretsKey);
    const previous = row.previous_secret === null ? null : openWebhookSecret(row.previous_secret, deps.secretsKey);
    await storeSealedSecrets(deps.db, row.id, {
      secret: sealWebhookSecret(secret, deps.secretsKey),
      secretPrefix: secretPrefixOf(secret),
      previousSecret: previous === null ? null : sealWebhookSecret(previous, deps.secretsKey),
    });
  }
  return rows.length;
}
