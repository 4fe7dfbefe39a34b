import type { components } from '../../generated/event-types.ts';

/**
 * Webhook event payloads, typed from the AsyncAPI/OpenAPI event schemas (`generated/event-types.ts`): a
 * payload built here that drifts from the schemas fails `tsc`.
 */
type Schemas = components['schemas'];

/** The envelope every event shares: the transaction flattened, plus eventId, event, category, occurredAt. */
export type EventEnvelope = Schemas['EventBase'];

/** The 21 canonical event names. */
export type EventName = Schemas['EventName'];

/**
 * Every event body, as a union discriminated by `event` (openapi-typescript also renders the schemas'
 * status alternatives as members without `event`; they are left out).
 */
export type WebhookEvent = Extract<Schemas['WebhookEvent'], { event: EventName }>;

/** The body of one event, by name. */
export type EventPayload<E extends EventName> = Extract<WebhookEvent, { event: E }>;

/** What an event carries beyond its transaction: the `hold` of dispute events, a chargeback's amount, the refund confirmed. */
type ExtraFields = 'hold' | 'chargebackCents' | 'refundId';
export type EventExtras<E extends EventName> = Pick<EventPayload<E>, Extract<keyof EventPayload<E>, ExtraFields>>;
