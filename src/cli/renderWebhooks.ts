/** Human-readable views of webhook URLs, their delivery attempts, resends and worker rounds. */
import { columns, counted, fields, time } from './format.ts';
import type {
  DeletedWebhookEndpoint,
  DispatchResult,
  EventResend,
  RotatedWebhookSecret,
  WebhookAttempt,
  WebhookAttemptList,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointList,
} from './types.ts';

/** An empty filter receives every event. */
const filterText = (events: readonly string[]) => (events.length === 0 ? 'all events' : events.join(', '));

const stateText = (endpoint: WebhookEndpoint) => (endpoint.enabled ? 'enabled' : 'disabled (paused)');

function endpointRows(endpoint: WebhookEndpoint): [string, string][] {
  return [
    ['Webhook', endpoint.endpointId],
    ['Account', endpoint.accountId],
    ['URL', endpoint.url],
    ['Events', filterText(endpoint.events)],
    ['Description', endpoint.description ?? '(none)'],
    ['State', stateText(endpoint)],
    ['Secret prefix', endpoint.secretPrefix],
    ['Created', time(endpoint.createdAt)],
    ['Updated', time(endpoint.updatedAt)],
  ];
}

export function renderWebhook(endpoint: WebhookEndpoint): string {
  return fields(endpointRows(endpoint));
}

export function renderWebhookCreated(created: WebhookEndpointCreated): string {
  return fields([...endpointRows(created), ['Signing secret', created.secret]]);
}

export function renderWebhookList(list: WebhookEndpointList): string {
  const rows = list.webhooks.map((endpoint) => [
    endpoint.endpointId,
    endpoint.enabled ? 'enabled' : 'disabled',
    endpoint.secretPrefix,
    filterText(endpoint.events),
    endpoint.url,
  ]);
  const table = rows.length === 0 ? '' : `${columns([['WEBHOOK', 'STATE', 'SECRET', 'EVENTS', 'URL'], ...rows])}\n`;
  return `${table}${counted(list.count, 'webhook URL')}`;
}

export function renderWebhookDeleted(result: DeletedWebhookEndpoint): string {
  return `Webhook URL ${result.endpointId} deleted; its pending deliveries were dropped.`;
}

export function renderSecretRotated(result: RotatedWebhookSecret): string {
  return fields([
    ['Webhook', result.endpointId],
    ['Previous secret', `still signs until ${time(result.previousSecretExpiresAt)} (two signatures per delivery)`],
    ['Signing secret', result.secret],
  ]);
}

/** `200`, `503`, `timeout`, `301 redirect not followed`: what came back, or why nothing did. */
function outcome(attempt: WebhookAttempt): string {
  if (attempt.httpStatus === null) return attempt.error ?? 'no answer';
  return attempt.error === null ? String(attempt.httpStatus) : `${attempt.httpStatus} ${attempt.error}`;
}

export function renderAttemptList(list: WebhookAttemptList): string {
  const rows = list.attempts.map((attempt) => [
    time(attempt.createdAt),
    attempt.eventId,
    attempt.event,
    attempt.endpointId,
    `#${attempt.attemptNumber} ${attempt.trigger}`,
    `${attempt.durationMs} ms`,
    outcome(attempt),
  ]);
  const header = ['CREATED', 'EVENT ID', 'EVENT', 'WEBHOOK', 'ATTEMPT', 'DURATION', 'RESULT'];
  const table = rows.length === 0 ? '' : `${columns([header, ...rows])}\n`;
  return `${table}${counted(list.count, 'attempt')}`;
}

export function renderEventResend(result: EventResend): string {
  const lines = result.deliveries.map((delivery) => `  ${delivery.deliveryId} -> ${delivery.endpointId}`);
  return [
    `Queued ${counted(result.deliveries.length, 'manual delivery', 'manual deliveries')} of ${result.eventId}:`,
    ...lines,
    "The delivery worker sends them within seconds ('webhooks:dispatch' sends them now).",
  ].join('\n');
}

export function renderDispatch(result: DispatchResult): string {
  return `Delivery round made ${counted(result.attempted, 'attempt')}; see 'webhooks:attempts <accountId>' for the outcomes.`;
}
