/**
 * webhooks:create, webhooks:list, webhooks:update, webhooks:delete, webhooks:rotate, webhooks:attempts,
 * events:resend, webhooks:dispatch.
 */
import { boolean, eventFilter, integer } from '../args.ts';
import { arg, defineCommand, optionalBody, queryOf, required, type CommandInput } from '../command.ts';
import { usageError } from '../errors.ts';
import { segment } from '../http.ts';
import {
  renderAttemptList,
  renderDispatch,
  renderEventResend,
  renderSecretRotated,
  renderWebhook,
  renderWebhookCreated,
  renderWebhookDeleted,
  renderWebhookList,
} from '../renderWebhooks.ts';
import type {
  CreateWebhookEndpointRequest,
  DeletedWebhookEndpoint,
  DispatchResult,
  EventResend,
  ResendEventRequest,
  RotatedWebhookSecret,
  UpdateWebhookEndpointRequest,
  WebhookAttemptList,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointList,
} from '../types.ts';

const accountPath = (input: CommandInput) => `/admin/v1/accounts/${segment(arg(input, 0))}`;
const webhooksPath = (input: CommandInput) => `${accountPath(input)}/webhooks`;
const webhookPath = (input: CommandInput) => `${webhooksPath(input)}/${segment(arg(input, 1))}`;

const EVENTS_HELP =
  'event names (transaction.paid), categories (cashin, cashout, refund, dispute, chargeback, recurring) or pre-May-2026 names, comma-separated; all: every event';

const SECRET_WARNING =
  'the only time this signing secret is shown; it cannot be retrieved again. Store it now in a secret manager ' +
  'and hand it to the merchant over a secure channel.';

export const createWebhook = defineCommand<WebhookEndpointCreated>({
  name: 'webhooks:create',
  summary: 'Add a webhook URL to an account (at most 6); prints its signing secret once.',
  args: ['accountId'],
  options: [
    { name: 'url', value: '<url>', required: true, help: 'the merchant endpoint (https in production), up to 2048 characters' },
    { name: 'events', value: '<a,b,...|all>', help: `${EVENTS_HELP} (default)` },
    { name: 'description', value: '<text>', help: 'to tell URLs apart, up to 200 characters' },
  ],
  request(input) {
    const body: CreateWebhookEndpointRequest = { url: required(input, 'url') };
    const events = input.options['events'];
    const description = input.options['description'];
    if (events !== undefined) body.events = eventFilter('events', events);
    if (description !== undefined) body.description = description;
    return { method: 'POST', path: webhooksPath(input), body };
  },
  render: renderWebhookCreated,
  notice: `WARNING: this is ${SECRET_WARNING} If it is lost, rotate it (webhooks:rotate).`,
});

export const listWebhooks = defineCommand<WebhookEndpointList>({
  name: 'webhooks:list',
  summary: "List an account's webhook URLs, oldest first (secret prefixes only, never the secrets).",
  args: ['accountId'],
  options: [],
  request: (input) => ({ method: 'GET', path: webhooksPath(input) }),
  render: renderWebhookList,
});

export const updateWebhook = defineCommand<WebhookEndpoint>({
  name: 'webhooks:update',
  summary: 'Change a webhook URL: address, filter, description, or pause/resume it (only the options given).',
  args: ['accountId', 'endpointId'],
  options: [
    { name: 'url', value: '<url>', help: 'new address (checked as at creation)' },
    { name: 'events', value: '<a,b,...|all>', help: `replaces the filter: ${EVENTS_HELP}` },
    { name: 'description', value: '<text>', help: "new description; '' removes it" },
    { name: 'enabled', value: '<true|false>', help: 'false pauses deliveries, true resumes them' },
  ],
  request(input) {
    const { url, events, description, enabled } = input.options;
    const body: UpdateWebhookEndpointRequest = {};
    if (url !== undefined) body.url = url;
    if (events !== undefined) body.events = eventFilter('events', events);
    if (description !== undefined) body.description = description === '' ? null : description;
    if (enabled !== undefined) body.enabled = boolean('enabled', enabled);
    if (Object.keys(body).length === 0) throw usageError('Nothing to update: give at least one option.');
    return { method: 'PATCH', path: webhookPath(input), body };
  },
  render: renderWebhook,
});

export const deleteWebhook = defineCommand<DeletedWebhookEndpoint>({
  name: 'webhooks:delete',
  summary: 'Delete a webhook URL; its pending deliveries are dropped (its history stays 60 days).',
  args: ['accountId', 'endpointId'],
  options: [],
  request: (input) => ({ method: 'DELETE', path: webhookPath(input) }),
  render: renderWebhookDeleted,
});

export const rotateWebhook = defineCommand<RotatedWebhookSecret>({
  name: 'webhooks:rotate',
  summary: "Rotate a webhook URL's signing secret; prints the new one once (the old one signs 24 h more).",
  args: ['accountId', 'endpointId'],
  options: [],
  request: (input) => ({ method: 'POST', path: `${webhookPath(input)}/rotate-secret` }),
  render: renderSecretRotated,
  notice:
    `WARNING: this is ${SECRET_WARNING} For 24 hours deliveries carry two signatures (new and previous ` +
    'secret): the merchant must install the new secret before then.',
});

export const listAttempts = defineCommand<WebhookAttemptList>({
  name: 'webhooks:attempts',
  summary: "List an account's webhook delivery attempts, newest first (--json shows the exact bodies sent).",
  args: ['accountId'],
  options: [
    { name: 'event', value: '<eventId>', help: 'only the attempts of this event (evt_...)' },
    { name: 'endpoint', value: '<endpointId>', help: 'only the attempts to this webhook URL (wh_...)' },
    { name: 'limit', value: '<N>', help: 'how many, 1 to 200 (default 50)' },
  ],
  request(input) {
    const { event, endpoint, limit } = input.options;
    return {
      method: 'GET',
      path: `${accountPath(input)}/webhook-attempts`,
      ...queryOf({
        eventId: event,
        endpointId: endpoint,
        limit: limit === undefined ? undefined : String(integer('limit', limit)),
      }),
    };
  },
  render: renderAttemptList,
});

export const resendEvent = defineCommand<EventResend>({
  name: 'events:resend',
  summary: 'Resend an event (same eventId, new signature) to the enabled URLs that receive it; 10 per hour per account.',
  args: ['accountId', 'eventId'],
  options: [{ name: 'endpoint', value: '<endpointId>', help: 'only to this webhook URL (default: every enabled URL whose filter selects the event)' }],
  request(input) {
    const endpointId = input.options['endpoint'];
    const body: ResendEventRequest = endpointId === undefined ? {} : { endpointId };
    return { method: 'POST', path: `${accountPath(input)}/events/${segment(arg(input, 1))}/resend`, ...optionalBody(body) };
  },
  render: renderEventResend,
});

export const dispatchWebhooks = defineCommand<DispatchResult>({
  name: 'webhooks:dispatch',
  summary: 'Run one round of the webhook delivery worker now (it also runs continuously).',
  args: [],
  options: [],
  request: () => ({ method: 'POST', path: '/admin/v1/webhooks/dispatch' }),
  render: renderDispatch,
});
