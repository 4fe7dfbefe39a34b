/**
 * `pixgate/webhooks`: verifies a webhook delivery and returns its event, typed from the contract
 * (`generated/event-types.ts`).
 *
 *   const event = verifyWebhook(rawBody, req.headers, process.env.PIXGATE_WEBHOOK_SECRET);
 *   if (event.event === 'transaction.paid') fulfil(event.transactionId, event.netCents);
 *
 * Built on `standardwebhooks`, the Standard Webhooks reference library: HMAC-SHA256 over
 * `${webhook-id}.${webhook-timestamp}.${rawBody}`, compared in constant time with every `v1,` signature
 * of the header (two during a secret rotation), and the timestamp must be within 5 minutes of this
 * machine's clock. Anything else throws `WebhookVerificationError`: answer such a request with 400 and
 * never act on it.
 *
 * This module is part of the published integration kit: it imports nothing of the gateway, only the
 * generated types (docs/architecture.md). `npm run build:kit` compiles it to JavaScript with declarations
 * for the kit's package (kit/, docs/integration.md).
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from '../../generated/event-types.ts';

export { WebhookVerificationError };

type Schemas = components['schemas'];

/** Every event name: the 21 canonical ones, and the seven `recurrence.*` ones of Pix Automático (since 2026-11-30). */
export type EventName = Schemas['EventName'];

/**
 * Every event body, a union discriminated by `event` (openapi-typescript also renders the schemas' status
 * alternatives as members without `event`: they are left out).
 */
export type WebhookEvent = Extract<Schemas['WebhookEvent'], { event: EventName }>;

/**
 * The body of one event, by name: `WebhookEventOf<'transaction.paid'>`; the five `recurrence.<status>`
 * events share one body (RecurrenceChanged), the two cycle events another (RecurrenceCycleChanged).
 */
export type WebhookEventOf<E extends EventName> = WebhookEvent extends infer W ? (W extends { event: infer N } ? (E extends N ? W : never) : never) : never;

/**
 * The test delivery the dashboard sends (**Enviar evento de teste**, header `X-Service-Test: true`): signed
 * like every event, about no transaction (see the dashboard API's `POST …/webhooks/{id}/test`).
 */
export interface WebhookTestEvent {
  event: 'webhook.test';
  eventId: string;
  occurredAt: number;
  endpointId: string;
  test: true;
}

/** Request headers as Node (`req.headers`), fetch (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/**
 * Checks the signature and the 5-minute tolerance of one delivery and returns its event.
 *
 * @param rawBody the request body exactly as received (before any JSON parsing): a string, or its bytes
 *   (a Node `Buffer`, or a `Uint8Array` such as `new Uint8Array(await request.arrayBuffer())`).
 * @param headers the request headers: `webhook-id`, `webhook-timestamp`, `webhook-signature` (their
 *   `X-Service-Event-Id`, `X-Service-Timestamp`, `X-Service-Signature` twins are accepted too).
 * @param secret the URL's signing secret (`whsec_…`).
 * @throws WebhookVerificationError when a header is missing, the timestamp is more than 5 minutes away, no
 *   signature matches, or the body is not a JSON object with an `event`.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent | WebhookTestEvent {
  const signed: Record<string, string> = {};
  for (const [standard, twin] of [
    ['webhook-id', 'x-service-event-id'],
    ['webhook-timestamp', 'x-service-timestamp'],
    ['webhook-signature', 'x-service-signature'],
  ] as const) {
    const value = header(headers, standard) ?? header(headers, twin);
    if (value !== undefined) signed[standard] = value;
  }
  // Bytes are decoded as UTF-8 exactly as Buffer#toString would (a byte order mark kept, not dropped), and
  // typed as Uint8Array so the declarations need no Node types (a Buffer is one).
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { ignoreBOM: true }).decode(rawBody);
  const body: unknown = new Webhook(secret).verify(text, signed);
  if (typeof body !== 'object' || body === null || Array.isArray(body) || typeof (body as { event?: unknown }).event !== 'string') {
    throw new WebhookVerificationError('Signed body is not a PixGate event');
  }
  // The signature proves PixGate wrote this body; its shape is the contract's (generated/event-types.ts).
  return body as WebhookEvent | WebhookTestEvent;
}
