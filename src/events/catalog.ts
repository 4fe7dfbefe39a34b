/**
 * The webhook event catalogue: the 21 canonical events of the contract and the seven `recurrence.*` events
 * of Pix Automático added since (2026-11-30, category `recurring`), their categories, the names replaced in
 * May 2026, which events carry settlement or refusal data, URL filters and the retry schedule.
 *
 * This is the data the outbox and the delivery worker use; asyncapi/asyncapi.yaml and
 * openapi/components/schemas/events/ describe the same facts to merchants, and
 * test/events/catalog.test.ts checks that both agree with each other and with the contract.
 */

/** The 21 canonical event names, in the contract's order (Events, item 2): the events of a transaction. */
export const CONTRACT_EVENT_NAMES = [
  'transaction.paid',
  'transaction.refunded',
  'transaction.partially_refunded',
  'transaction.failed',
  'transaction.cancelled',
  'transaction.expired',
  'transaction.infraction',
  'transaction.dispute',
  'transaction.protest',
  'transaction.blocked',
  'transaction.chargeback',
  'transfer.created',
  'transfer.processing',
  'transfer.pending_approval',
  'transfer.approved',
  'transfer.rejected',
  'transfer.failed',
  'transfer.cancelled',
  'transfer.paid',
  'transfer.refunded',
  'transfer.partially_refunded',
] as const;

/** An event of the contract's 21: its body is a transaction, flattened (EventBase; rendered by outbox.ts). */
export type ContractEventName = (typeof CONTRACT_EVENT_NAMES)[number];

/**
 * Pix Automático, since 2026-11-30 (category `recurring`; additive, the contract's 21 are unchanged):
 * `recurrence.<status>` for each status of a recurrence (body RecurrenceChanged, no transaction), and the
 * two cycle events (body RecurrenceCycleChanged). A cycle's payment and end are its charge's `transaction.*`.
 */
export const RECURRING_EVENT_NAMES = [
  'recurrence.created',
  'recurrence.approved',
  'recurrence.rejected',
  'recurrence.expired',
  'recurrence.cancelled',
  'recurrence.cycle_scheduled',
  'recurrence.cycle_refused',
] as const;

export type RecurringEventName = (typeof RECURRING_EVENT_NAMES)[number];

/**
 * Every event PixGate delivers: the contract's 21, then the additions. This is the list the outbox, the
 * delivery worker, the URL filters and the event views use.
 */
export const EVENT_NAMES = [...CONTRACT_EVENT_NAMES, ...RECURRING_EVENT_NAMES] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** The contract's five categories (Events, item 1). */
export const CONTRACT_EVENT_CATEGORIES = ['cashin', 'cashout', 'refund', 'dispute', 'chargeback'] as const;

/** Every category a URL may subscribe to: the contract's five, and `recurring` since 2026-11-30. */
export const EVENT_CATEGORIES = [...CONTRACT_EVENT_CATEGORIES, 'recurring'] as const;

export type EventCategory = (typeof EVENT_CATEGORIES)[number];

/** Category of each event; a webhook URL may subscribe to whole categories. */
export const EVENT_CATEGORY: { readonly [E in EventName]: EventCategory } = {
  'transaction.paid': 'cashin',
  'transaction.failed': 'cashin',
  'transaction.cancelled': 'cashin',
  'transaction.expired': 'cashin',
  'transaction.refunded': 'refund',
  'transaction.partially_refunded': 'refund',
  'transfer.refunded': 'refund',
  'transfer.partially_refunded': 'refund',
  'transaction.infraction': 'dispute',
  'transaction.dispute': 'dispute',
  'transaction.protest': 'dispute',
  'transaction.blocked': 'dispute',
  'transaction.chargeback': 'chargeback',
  'transfer.created': 'cashout',
  'transfer.processing': 'cashout',
  'transfer.pending_approval': 'cashout',
  'transfer.approved': 'cashout',
  'transfer.rejected': 'cashout',
  'transfer.failed': 'cashout',
  'transfer.cancelled': 'cashout',
  'transfer.paid': 'cashout',
  'recurrence.created': 'recurring',
  'recurrence.approved': 'recurring',
  'recurrence.rejected': 'recurring',
  'recurrence.expired': 'recurring',
  'recurrence.cancelled': 'recurring',
  'recurrence.cycle_scheduled': 'recurring',
  'recurrence.cycle_refused': 'recurring',
};

/**
 * Names replaced in May 2026 (contract, Versioning item 3), old name to current name. Accepted in URL
 * filters only: deliveries always carry the current name.
 */
export const LEGACY_EVENT_NAMES = {
  TRANSFER_PAID: 'transfer.paid',
  'transaction.refunded.partial': 'transaction.partially_refunded',
  'transfer.refunded.partial': 'transfer.partially_refunded',
  'chargeback.applied': 'transaction.chargeback',
  'med.opened': 'transaction.infraction',
  'dispute.opened': 'transaction.dispute',
  'funds.blocked': 'transaction.blocked',
  'protest.opened': 'transaction.protest',
} as const satisfies Readonly<Record<string, EventName>>;

export type LegacyEventName = keyof typeof LEGACY_EVENT_NAMES;

/**
 * Statuses an event's body carries: the transaction's `status` for the contract's 21 (each event schema
 * pins the same values), the recurrence's `recurrence.status` for `recurrence.<status>`, the cycle's
 * `cycle.status` for the two cycle events (`retrying` when another attempt is scheduled, `failed` when the
 * refusal is final).
 */
export const EVENT_STATUSES = {
  'transaction.paid': ['paid'],
  'transaction.refunded': ['refunded'],
  'transaction.partially_refunded': ['partially_refunded'],
  'transaction.failed': ['failed'],
  'transaction.cancelled': ['cancelled'],
  'transaction.expired': ['expired'],
  // Dispute-type events carry the charge's current status: normally paid, or already (partly) returned.
  'transaction.infraction': ['paid', 'partially_refunded', 'refunded'],
  'transaction.dispute': ['paid', 'partially_refunded', 'refunded'],
  'transaction.protest': ['paid', 'partially_refunded', 'refunded'],
  'transaction.blocked': ['paid', 'partially_refunded', 'refunded'],
  'transaction.chargeback': ['refunded', 'partially_refunded'],
  'transfer.created': ['processing', 'pending_approval', 'failed', 'failed_unknown'],
  'transfer.processing': ['processing'],
  'transfer.pending_approval': ['pending_approval'],
  'transfer.approved': ['processing'],
  'transfer.rejected': ['failed'],
  'transfer.failed': ['failed'],
  'transfer.cancelled': ['cancelled'],
  'transfer.paid': ['paid'],
  'transfer.refunded': ['refunded'],
  'transfer.partially_refunded': ['partially_refunded'],
  'recurrence.created': ['created'],
  'recurrence.approved': ['approved'],
  'recurrence.rejected': ['rejected'],
  'recurrence.expired': ['expired'],
  'recurrence.cancelled': ['cancelled'],
  'recurrence.cycle_scheduled': ['scheduled'],
  // A refusal answered with another attempt (retrying), ending the cycle (failed), or not answered yet (scheduled: the follower asks the retry on its next read).
  'recurrence.cycle_refused': ['scheduled', 'retrying', 'failed'],
} as const satisfies { readonly [E in EventName]: readonly string[] };

/**
 * Events whose body carries settlement data: `endToEndId` plus `payer` (charges) or `beneficiary`
 * (withdrawals). Every other event omits endToEndId, payer, beneficiary, refundEndToEndId and
 * refundedCents: never null.
 */
export const SETTLED_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  'transaction.paid',
  'transaction.refunded',
  'transaction.partially_refunded',
  'transaction.infraction',
  'transaction.dispute',
  'transaction.protest',
  'transaction.blocked',
  'transaction.chargeback',
  'transfer.paid',
  'transfer.refunded',
  'transfer.partially_refunded',
]);

/** Events that may carry `refusedCode` and `refusedReason` (contract, Events item 6); no other event does. */
export const REFUSABLE_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  'transfer.failed',
  'transfer.rejected',
  'transfer.cancelled',
]);

/** Dispute-type events carry a `hold` object. */
export const HOLD_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  'transaction.infraction',
  'transaction.dispute',
  'transaction.protest',
  'transaction.blocked',
]);

const EVENT_NAME_SET: ReadonlySet<string> = new Set(EVENT_NAMES);
const CONTRACT_EVENT_NAME_SET: ReadonlySet<string> = new Set(CONTRACT_EVENT_NAMES);
const CATEGORY_SET: ReadonlySet<string> = new Set(EVENT_CATEGORIES);

export function isEventName(value: string): value is EventName {
  return EVENT_NAME_SET.has(value);
}

/** Whether an event is one of the contract's 21, whose body is a transaction (not a `recurrence.*` event). */
export function isContractEventName(value: string): value is ContractEventName {
  return CONTRACT_EVENT_NAME_SET.has(value);
}

export function isEventCategory(value: string): value is EventCategory {
  return CATEGORY_SET.has(value);
}

export function categoryOf(event: EventName): EventCategory {
  return EVENT_CATEGORY[event];
}

/** Current name of a canonical or pre-May-2026 event name; undefined for anything else (exact match). */
export function canonicalEventName(nameOrLegacy: string): EventName | undefined {
  if (isEventName(nameOrLegacy)) return nameOrLegacy;
  return Object.hasOwn(LEGACY_EVENT_NAMES, nameOrLegacy)
    ? LEGACY_EVENT_NAMES[nameOrLegacy as LegacyEventName]
    : undefined;
}

/**
 * Whether a URL whose filter is `filters` receives `event`. A filter entry is a canonical name, a
 * pre-May-2026 name or a category; unknown entries match nothing. An empty filter receives every event.
 */
export function matchesFilter(event: EventName, filters: readonly string[]): boolean {
  if (filters.length === 0) return true;
  const category = categoryOf(event);
  return filters.some((filter) => filter === category || canonicalEventName(filter) === event);
}

/**
 * Delay before each redelivery, in milliseconds: 1 min, 5 min, 30 min, 2 h, 6 h, as the contract promises.
 * RETRY_DELAYS_MS[n] is the wait after failed attempt n + 1; the last attempt starts about 8 h 36 min after
 * the first.
 */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000] as const;

/** The first attempt plus one per retry delay. */
export const MAX_ATTEMPTS = 6;

/** Each attempt waits at most 10 s for the answer; longer counts as a timeout (retried). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** Outcome of one delivery attempt: the HTTP status, or how it failed without one. */
export type AttemptOutcome = number | 'timeout' | 'network';

/**
 * Whether a failed attempt is retried: timeouts, network errors, 5xx, 408 and 429. Other 4xx and 3xx
 * (redirects are not followed) are final failures; 2xx is success and never retried.
 */
export function RETRYABLE(outcome: AttemptOutcome): boolean {
  if (outcome === 'timeout' || outcome === 'network') return true;
  return outcome === 408 || outcome === 429 || (outcome >= 500 && outcome <= 599);
}

/** Any 2xx answer ends the delivery successfully. */
export function isDelivered(outcome: AttemptOutcome): boolean {
  return typeof outcome === 'number' && outcome >= 200 && outcome <= 299;
}

/**
 * Delay before the next attempt after failed attempt number `attempt` (1-based), or undefined when the
 * outcome is final (not retryable, or the attempts are used up).
 */
export function nextRetryDelayMs(attempt: number, outcome: AttemptOutcome): number | undefined {
  if (isDelivered(outcome) || !RETRYABLE(outcome) || attempt >= MAX_ATTEMPTS) return undefined;
  return RETRY_DELAYS_MS[attempt - 1];
}

/** Manual resends from the back office: 10 per hour per account; eventId kept, timestamp and signature new. */
export const MANUAL_RESENDS_PER_HOUR = 10;

/** Every attempt (automatic or manual) is kept this long in the delivery history: 60 days. */
export const DELIVERY_HISTORY_RETENTION_MS = 60 * 86_400_000;

/** Webhook URLs per account. */
export const MAX_WEBHOOK_URLS = 6;
