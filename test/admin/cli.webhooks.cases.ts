/** The request each webhook command line (URLs, attempts, resends, dispatch) and charge refund/fail must send. */
import type { CommandCase } from './cli.harness.ts';
import { ACCOUNT_ID as A, TRANSACTION_ID as TX } from './cli.fixtures.ts';
import * as wh from './cli.webhooks.fixtures.ts';

const E = wh.ENDPOINT_ID;
const webhooks = `/admin/v1/accounts/${A}/webhooks`;
const attempts = `/admin/v1/accounts/${A}/webhook-attempts`;
const resend = `/admin/v1/accounts/${A}/events/${wh.EVENT_ID}/resend`;

export const webhookCases: CommandCase[] = [
  {
    name: 'webhooks:create with a filter and a description',
    argv: ['webhooks:create', A, '--url', 'https://shop.example.com/webhooks/pixgate', '--events', 'cashin, transfer.paid', '--description', 'ERP financeiro'],
    method: 'POST',
    url: webhooks,
    body: { url: 'https://shop.example.com/webhooks/pixgate', events: ['cashin', 'transfer.paid'], description: 'ERP financeiro' },
    answer: wh.webhookCreated,
    shows: wh.WEBHOOK_SECRET,
  },
  {
    name: 'webhooks:create with only --url sends only the url',
    argv: ['webhooks:create', A, '--url', 'https://shop.example.com/webhooks/all'],
    method: 'POST',
    url: webhooks,
    body: { url: 'https://shop.example.com/webhooks/all' },
    answer: { ...wh.webhookCreated, events: [] },
    shows: 'all events',
  },
  {
    name: 'webhooks:create --events all sends an empty filter',
    argv: ['webhooks:create', A, '--url', 'https://shop.example.com/webhooks/all', '--events', 'all'],
    method: 'POST',
    url: webhooks,
    body: { url: 'https://shop.example.com/webhooks/all', events: [] },
    answer: { ...wh.webhookCreated, events: [] },
    shows: 'all events',
  },
  {
    name: 'webhooks:create passes legacy names as typed',
    argv: ['webhooks:create', A, '--url', 'https://legacy.example.com/pix', '--events', 'TRANSFER_PAID'],
    method: 'POST',
    url: webhooks,
    body: { url: 'https://legacy.example.com/pix', events: ['TRANSFER_PAID'] },
    answer: { ...wh.webhookCreated, events: ['TRANSFER_PAID'] },
    shows: 'TRANSFER_PAID',
  },
  { name: 'webhooks:list', argv: ['webhooks:list', A], method: 'GET', url: webhooks, answer: wh.webhookList, shows: '2 webhook URLs' },
  {
    name: 'webhooks:update converts every option to its typed property',
    argv: ['webhooks:update', A, E, '--url', 'https://erp.example.com/pixgate', '--events', 'cashin,cashout', '--description', 'ERP', '--enabled', 'false'],
    method: 'PATCH',
    url: `${webhooks}/${E}`,
    body: { url: 'https://erp.example.com/pixgate', events: ['cashin', 'cashout'], description: 'ERP', enabled: false },
    answer: { ...wh.webhook, enabled: false },
    shows: 'disabled (paused)',
  },
  {
    name: "webhooks:update --events all --description '' sends [] and null",
    argv: ['webhooks:update', A, E, '--events', 'all', '--description', ''],
    method: 'PATCH',
    url: `${webhooks}/${E}`,
    body: { events: [], description: null },
    answer: { ...wh.webhook, events: [], description: null },
    shows: 'all events',
  },
  { name: 'webhooks:update --enabled true', argv: ['webhooks:update', A, E, '--enabled', 'true'], method: 'PATCH', url: `${webhooks}/${E}`, body: { enabled: true }, answer: wh.webhook, shows: 'enabled' },
  { name: 'webhooks:delete', argv: ['webhooks:delete', A, E], method: 'DELETE', url: `${webhooks}/${E}`, answer: wh.deletedWebhook, shows: `Webhook URL ${E} deleted` },
  { name: 'webhooks:rotate sends no body', argv: ['webhooks:rotate', A, E], method: 'POST', url: `${webhooks}/${E}/rotate-secret`, answer: wh.rotatedSecret, shows: wh.ROTATED_SECRET },
  { name: 'webhooks:attempts without filters', argv: ['webhooks:attempts', A], method: 'GET', url: attempts, answer: wh.attempts, shows: '#1 automatic' },
  {
    name: 'webhooks:attempts with every filter',
    argv: ['webhooks:attempts', A, '--event', wh.EVENT_ID, '--endpoint', E, '--limit', '200'],
    method: 'GET',
    url: `${attempts}?eventId=${wh.EVENT_ID}&endpointId=${E}&limit=200`,
    answer: wh.attempts,
    shows: 'timeout',
  },
  { name: 'events:resend without --endpoint sends no body', argv: ['events:resend', A, wh.EVENT_ID], method: 'POST', url: resend, answer: wh.resent, shows: 'Queued 2 manual deliveries' },
  {
    name: 'events:resend --endpoint',
    argv: ['events:resend', A, wh.EVENT_ID, '--endpoint', E],
    method: 'POST',
    url: resend,
    body: { endpointId: E },
    answer: { ...wh.resent, deliveries: wh.resent.deliveries.slice(0, 1) },
    shows: `dlv_cc73eb6f31782fe8820c92c1 -> ${E}`,
  },
  { name: 'webhooks:dispatch', argv: ['webhooks:dispatch'], method: 'POST', url: '/admin/v1/webhooks/dispatch', answer: wh.dispatched, shows: 'made 3 attempts' },
  {
    name: 'charges:refund --amount',
    argv: ['charges:refund', TX, '--amount', '400'],
    method: 'POST',
    url: `/admin/v1/sandbox/charges/${TX}/refund`,
    body: { amountCents: 400 },
    answer: wh.partiallyRefundedCharge,
    shows: 'R$ 4,00 (400 cents)',
  },
  { name: 'charges:fail', argv: ['charges:fail', TX], method: 'POST', url: `/admin/v1/sandbox/charges/${TX}/fail`, answer: wh.failedCharge, shows: 'failed' },
];
