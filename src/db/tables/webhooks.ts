import type { ColumnType, Generated } from 'kysely';
import type { StoredEventBody } from '../../events/event.types.ts';
import type { Json } from './json.ts';

/** Webhook events (the outbox), URLs, deliveries and the attempt history. */

export interface OutboxEventsTable {
  id: string;
  account_id: string;
  event: string;
  transaction_id: string | null;
  /** The body as delivered: a transaction event (EventBase), or a `recurrence.*` event (no transaction). */
  payload: Json<StoredEventBody>;
  created_at: Date;
  /** Whether the delivery worker has created its deliveries (migration 010). */
  fanned_out: Generated<boolean>;
}

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  /** The filter as the service team gave it (names, categories, legacy names). */
  events: ColumnType<string[], string, string>;
  /** The filter expanded to canonical event names; empty means every event. */
  event_names: ColumnType<string[], string, string>;
  description: string | null;
  enabled: boolean;
  /** The signing secret, sealed with the secrets key (`v1.…`; a plain `whsec_…` until sealed at start-up). */
  secret: string;
  /** The first 12 characters of the secret, to tell secrets apart without revealing them. */
  secret_prefix: ColumnType<string | null, string | null | undefined, string | null>;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export type DeliveryTrigger = 'automatic' | 'manual';

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  event_id: string;
  endpoint_id: string;
  trigger: DeliveryTrigger;
  status: 'pending' | 'succeeded' | 'failed' | 'dropped';
  attempts: Generated<number>;
  next_attempt_at: Date;
  locked_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  account_id: string;
  event_id: string;
  event: string;
  endpoint_id: string;
  url: string;
  attempt_number: number;
  trigger: DeliveryTrigger;
  request_body: string;
  http_status: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: Date;
}
