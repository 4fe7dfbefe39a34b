import type { components } from '../../generated/event-types.ts';

/**
 * Webhook event payloads, typed from the AsyncAPI/OpenAPI event schemas (`generated/event-types.ts`): a
 * payload built here that drifts from the schemas fails `tsc`.
 */
type Schemas = components['schemas'];

/**
 * The envelope the contract's 21 events share: the transaction flattened, plus eventId, event, category,
 * occurredAt. The `recurrence.*` events are RecurrenceChanged and RecurrenceCycleChanged instead.
 */
export type EventEnvelope = Schemas['EventBase'];

/** Every event name: the 21 canonical ones and the seven `recurrence.*` ones (since 2026-11-30). */
export type EventName = Schemas['EventName'];

/** The body of `recurrence.<status>`: the recurrence (src/recurrences/recurrence.events.ts writes it). */
export type RecurrenceEventBody = Schemas['RecurrenceChanged'];

/** The body of `recurrence.cycle_scheduled` and `recurrence.cycle_refused`: the cycle and its charge's id. */
export type RecurrenceCycleEventBody = Schemas['RecurrenceCycleChanged'];

/**
 * Every event body, as a union discriminated by `event` (openapi-typescript also renders the schemas'
 * status alternatives as members without `event`; they are left out). RecurrenceChanged and
 * RecurrenceCycleChanged are one member each, whose `event` is a union of names.
 */
export type WebhookEvent = Extract<Schemas['WebhookEvent'], { event: EventName }>;

/**
 * The body of one event, by name (a member whose `event` is a union of names, RecurrenceChanged, is the
 * body of each of them).
 */
export type EventPayload<E extends EventName> = WebhookEvent extends infer W ? (W extends { event: infer N } ? (E extends N ? W : never) : never) : never;

/** An event whose body as stored is the stored row's JSON: what the outbox and the delivery worker hold. */
export type StoredEventBody = EventEnvelope | RecurrenceEventBody | RecurrenceCycleEventBody;

/** What an event carries beyond its transaction: the `hold` of dispute events, a chargeback's amount, the refund confirmed. */
type ExtraFields = 'hold' | 'chargebackCents' | 'refundId';
export type EventExtras<E extends EventName> = Pick<EventPayload<E>, Extract<keyof EventPayload<E>, ExtraFields>>;
