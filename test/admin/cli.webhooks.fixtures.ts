/** Canned answers of the back office's webhook operations for the CLI tests, typed by the generated types. */
import type {
  DeletedWebhookEndpoint,
  DispatchResult,
  EventResend,
  RotatedWebhookSecret,
  Transaction,
  WebhookAttemptList,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointList,
} from '../../src/cli/types.ts';
import { ACCOUNT_ID, paidCharge } from './cli.fixtures.ts';

export const ENDPOINT_ID = 'wh_8f036b9d118c28ad5beb6580';
export const OTHER_ENDPOINT_ID = 'wh_c5893222d5e34b0d80d3d7ff';
export const EVENT_ID = 'evt_3b8e0c5d71a94f26e8d0b4c1';
export const WEBHOOK_SECRET = 'whsec_pcCH+DymCDK7UrmXwWj1S6BRmBfu9K/2';
export const ROTATED_SECRET = 'whsec_V+jEjsv/CDhqDIiS3O4suSJU6hfyf9Ra';

export const webhook: WebhookEndpoint = {
  endpointId: ENDPOINT_ID,
  accountId: ACCOUNT_ID,
  url: 'https://shop.example.com/webhooks/pixgate',
  events: ['cashin', 'transfer.paid'],
  description: 'ERP financeiro',
  enabled: true,
  secretPrefix: WEBHOOK_SECRET.slice(0, 12),
  createdAt: 1795002000000,
  updatedAt: 1795002000000,
};

export const webhookCreated: WebhookEndpointCreated = { ...webhook, secret: WEBHOOK_SECRET };

export const webhookList: WebhookEndpointList = {
  webhooks: [
    webhook,
    {
      ...webhook,
      endpointId: OTHER_ENDPOINT_ID,
      url: 'https://shop.example.com/webhooks/all',
      events: [],
      description: null,
      enabled: false,
      secretPrefix: 'whsec_AcX3+p',
    },
  ],
  count: 2,
};

export const deletedWebhook: DeletedWebhookEndpoint = { endpointId: ENDPOINT_ID, deleted: true };

export const rotatedSecret: RotatedWebhookSecret = {
  endpointId: ENDPOINT_ID,
  secret: ROTATED_SECRET,
  previousSecretExpiresAt: 1795276400000,
};

const REQUEST_BODY = JSON.stringify({ eventId: EVENT_ID, event: 'transaction.paid', category: 'cashin' });

export const attempts: WebhookAttemptList = {
  attempts: [
    {
      attemptId: 4822,
      eventId: EVENT_ID,
      event: 'transaction.paid',
      endpointId: ENDPOINT_ID,
      url: webhook.url,
      attemptNumber: 2,
      trigger: 'automatic',
      requestBody: REQUEST_BODY,
      httpStatus: null,
      durationMs: 10000,
      responseExcerpt: null,
      error: 'timeout',
      createdAt: 1795183561400,
    },
    {
      attemptId: 4821,
      eventId: EVENT_ID,
      event: 'transaction.paid',
      endpointId: ENDPOINT_ID,
      url: webhook.url,
      attemptNumber: 1,
      trigger: 'automatic',
      requestBody: REQUEST_BODY,
      httpStatus: 503,
      durationMs: 182,
      responseExcerpt: 'Service Unavailable',
      error: null,
      createdAt: 1795183501200,
    },
  ],
  count: 2,
};

export const resent: EventResend = {
  eventId: EVENT_ID,
  deliveries: [
    { deliveryId: 'dlv_cc73eb6f31782fe8820c92c1', endpointId: ENDPOINT_ID },
    { deliveryId: 'dlv_d92928ee285b4405613f5bb7', endpointId: OTHER_ENDPOINT_ID },
  ],
};

export const dispatched: DispatchResult = { attempted: 3 };

export const partiallyRefundedCharge: Transaction = {
  ...paidCharge,
  status: 'partially_refunded',
  refundedCents: 400,
  updatedAt: 1795270000000,
};

export const failedCharge: Transaction = {
  transactionId: paidCharge.transactionId,
  type: 'pix_in',
  amountCents: 1000,
  feeCents: 10,
  netCents: 990,
  status: 'failed',
  pixPayload: paidCharge.pixPayload ?? null,
  expiresAt: 1795356192,
  paidAt: 1795183700000,
  createdAt: 1795183392345,
  updatedAt: 1795183700000,
};
