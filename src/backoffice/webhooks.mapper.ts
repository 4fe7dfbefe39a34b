import type { components } from '../../generated/admin-types.ts';
import type { WebhookAttemptRow, WebhookEndpointRow } from '../db/schema.ts';
import { secretPrefixOf } from '../webhooks/webhookSecrets.ts';

type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
type WebhookAttempt = components['schemas']['WebhookAttempt'];

export function toAdminEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    endpointId: row.id,
    accountId: row.account_id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    // Written with the secret; a secret from before sealing is still in the clear until start-up seals it.
    secretPrefix: row.secret_prefix ?? secretPrefixOf(row.secret),
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

export function toAdminAttempt(row: WebhookAttemptRow): WebhookAttempt {
  return {
    attemptId: row.id,
    eventId: row.event_id,
    event: row.event as WebhookAttempt['event'],
    endpointId: row.endpoint_id,
    url: row.url,
    attemptNumber: row.attempt_number,
    trigger: row.trigger,
    requestBody: row.request_body,
    httpStatus: row.http_status,
    durationMs: row.duration_ms,
    responseExcerpt: row.response_excerpt,
    error: row.error,
    createdAt: row.created_at.getTime(),
  };
}
