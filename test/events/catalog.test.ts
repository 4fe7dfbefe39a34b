/**
 * The webhook contract against the spec, the AsyncAPI document, the event schemas and the catalogue:
 * the same 21 events, categories and legacy names everywhere, plus the seven `recurrence.*` events added
 * since (2026-11-30, category `recurring`); every message example valid (payload and headers, Ajv 2020)
 * and correctly signed; non-settled events rejecting settlement fields.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser, type AsyncAPIDocumentInterface } from '@asyncapi/parser';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ASYNCAPI_PATH,
  createAjv,
  errorsOf,
  EVENTS_DIR,
  loadMessages,
  readYaml,
  SCHEMAS_DIR,
  type Example,
  type LoadedMessage,
} from '../support/asyncapi.ts';
import {
  CONTRACT_EVENT_CATEGORIES,
  CONTRACT_EVENT_NAMES,
  EVENT_CATEGORIES,
  EVENT_CATEGORY,
  EVENT_NAMES,
  EVENT_STATUSES,
  HOLD_EVENTS,
  LEGACY_EVENT_NAMES,
  MAX_ATTEMPTS,
  REFUSABLE_EVENTS,
  RECURRING_EVENT_NAMES,
  RETRY_DELAYS_MS,
  RETRYABLE,
  SETTLED_EVENTS,
  type EventName,
  canonicalEventName,
  categoryOf,
  isContractEventName,
  isDelivered,
  isEventCategory,
  isEventName,
  matchesFilter,
  nextRetryDelayMs,
} from '../../src/events/catalog.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SPEC = readFileSync(path.resolve(ROOT, '../shared/spec/pix-gateway-api.md'), 'utf8');
const PIX_FACTS = readFileSync(path.resolve(ROOT, '../shared/reference/pix-facts.md'), 'utf8');
type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------------
// The contract, read from the spec (not copied)

/** The bullet lines under "Canonical events (21)" in the Events section. */
function contractEventNames(): string[] {
  const section = /2\. Canonical events \(21\)[^\n]*\n((?:\s+- .*\n)+)/.exec(SPEC);
  if (!section?.[1]) throw new Error('Canonical events list not found in the spec');
  return section[1].split('\n').flatMap((line) => {
    const match = /^\s+- (.*)$/.exec(line);
    return match?.[1] ? match[1].split(',').map((name) => name.trim()) : [];
  });
}

/** "Event names replaced in May 2026 (old to current): A to B; C to D; ..." in the Versioning section. */
function contractLegacyNames(): Record<string, string> {
  const line = /Event names replaced in May 2026 \(old to current\): ([^\n]*)/.exec(SPEC);
  if (!line?.[1]) throw new Error('Legacy event names not found in the spec');
  const pairs = line[1].replace(/\.$/, '').split(';').map((pair) => /^\s*(\S+) to (\S+)\s*$/.exec(pair));
  return Object.fromEntries(pairs.map((pair) => {
    if (!pair?.[1] || !pair[2]) throw new Error(`Unreadable legacy pair in the spec: ${String(pair)}`);
    return [pair[1], pair[2]];
  }));
}

/** "category: `cashin`, `cashout`, ..." in Events item 1. */
function contractCategories(): string[] {
  const line = /filters events by canonical event name or by category: ([^\n]*)/.exec(SPEC);
  if (!line?.[1]) throw new Error('Category list not found in the spec');
  return [...line[1].matchAll(/`([a-z]+)`/g)].map((match) => match[1] ?? '');
}

/** The Standard Webhooks vector in pix-facts.md. */
function standardWebhooksVector(): { secret: string; id: string; timestamp: string; body: string; signature: string } {
  const match = /secret `(whsec_[^`]+)`, id `([^`]+)`,\s*timestamp `(\d+)`, body `([^`]+)` -> `(v1,[^`]+)`/.exec(PIX_FACTS);
  if (!match) throw new Error('Standard Webhooks vector not found in pix-facts.md');
  const [, secret = '', id = '', timestamp = '', body = '', signature = ''] = match;
  return { secret, id, timestamp, body, signature };
}

const TEST_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

let document: AsyncAPIDocumentInterface;
let ajv: Ajv2020;
let messages: Map<string, LoadedMessage>;

beforeAll(async () => {
  const { document: parsed, diagnostics } = await new Parser().parse(readFileSync(ASYNCAPI_PATH, 'utf8'), {
    source: ASYNCAPI_PATH,
  });
  const errors = diagnostics.filter((d) => d.severity === 0).map((d) => d.message);
  if (parsed === undefined) throw new Error(`AsyncAPI document did not parse: ${errors.join('; ')}`);
  document = parsed;
  ajv = createAjv();
  messages = loadMessages();
});

function message(event: EventName): LoadedMessage {
  const found = messages.get(event);
  if (found === undefined) throw new Error(`No message named ${event}`);
  return found;
}

function payloadValidator(event: EventName): ValidateFunction {
  const validate = ajv.getSchema(message(event).payloadSchemaUrl);
  if (validate === undefined) throw new Error(`Payload schema of ${event} not loaded`);
  return validate;
}

function headersValidator(event: EventName): ValidateFunction {
  const { file, raw } = message(event);
  const id = `${pathToFileURL(file).href}-headers`;
  return ajv.getSchema(id) ?? ajv.compile({ ...raw.headers, $id: id });
}

function exampleOf(event: EventName): Example {
  const [example, ...others] = message(event).raw.examples;
  if (example === undefined || others.length > 0) throw new Error(`${event} must have exactly one example`);
  return structuredClone(example);
}

function eventSchema(event: EventName): Json {
  return readYaml(fileURLToPath(message(event).payloadSchemaUrl)) as Json;
}

// ---------------------------------------------------------------------------------------------------------

describe('event catalogue', () => {
  it('holds exactly the 21 canonical events of the contract, in its order', () => {
    const fromSpec = contractEventNames();
    expect(fromSpec).toHaveLength(21);
    expect([...CONTRACT_EVENT_NAMES]).toEqual(fromSpec);
  });

  it('holds exactly the five categories of the contract', () => {
    expect([...CONTRACT_EVENT_CATEGORIES].sort()).toEqual(contractCategories().sort());
  });

  it('adds the seven recurrence.* events and the category recurring after the contract\'s, none of them a contract name', () => {
    expect([...RECURRING_EVENT_NAMES]).toEqual(['recurrence.created', 'recurrence.approved', 'recurrence.rejected',
      'recurrence.expired', 'recurrence.cancelled', 'recurrence.cycle_scheduled', 'recurrence.cycle_refused']);
    expect([...EVENT_NAMES]).toEqual([...CONTRACT_EVENT_NAMES, ...RECURRING_EVENT_NAMES]);
    expect([...EVENT_CATEGORIES]).toEqual([...CONTRACT_EVENT_CATEGORIES, 'recurring']);
    expect(new Set(EVENT_NAMES).size).toBe(28);
    for (const event of RECURRING_EVENT_NAMES) {
      expect(isEventName(event), event).toBe(true);
      expect(isContractEventName(event), event).toBe(false);
      expect(canonicalEventName(event), event).toBe(event);
      expect(Object.values(LEGACY_EVENT_NAMES), event).not.toContain(event);
    }
    expect(isEventCategory('recurring')).toBe(true);
    expect(Object.keys(EVENT_CATEGORY).sort()).toEqual([...EVENT_NAMES].sort());
    expect(Object.keys(EVENT_STATUSES).sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('gives the recurrence.* events neither settlement, refusal nor hold data', () => {
    for (const event of RECURRING_EVENT_NAMES) {
      expect(SETTLED_EVENTS.has(event), event).toBe(false);
      expect(REFUSABLE_EVENTS.has(event), event).toBe(false);
      expect(HOLD_EVENTS.has(event), event).toBe(false);
    }
  });

  it('agrees with the EventName and EventCategory schemas, the additions after the contract\'s', () => {
    const names = readYaml(path.join(EVENTS_DIR, 'EventName.yaml')) as { enum: string[]; description: string };
    expect(names.enum).toEqual([...EVENT_NAMES]);
    expect(names.description).toContain('since 2026-11-30');
    for (const event of RECURRING_EVENT_NAMES) expect(names.description).toContain(`\`${event}\``);
    const categories = readYaml(path.join(EVENTS_DIR, 'EventCategory.yaml')) as { enum: string[]; description: string };
    expect(categories.enum).toEqual([...EVENT_CATEGORIES]);
    // One bullet per category: "- `name` (...): event, event, ... event." (its events, in any order).
    const bullets = categories.description.split(/\n\s*- /).slice(1);
    expect(bullets).toHaveLength(EVENT_CATEGORIES.length);
    for (const category of EVENT_CATEGORIES) {
      const bullet = bullets.find((text) => text.startsWith(`\`${category}\``)) ?? '';
      const names = /^`[a-z]+`[^:]*:\s*([\s\S]*?)\.(?:\s|$)/.exec(bullet)?.[1] ?? '';
      const listed = names.split(',').map((name) => name.trim()).filter(Boolean);
      expect(listed.sort(), category).toEqual(EVENT_NAMES.filter((event) => categoryOf(event) === category).sort());
    }
  });

  it('maps the May 2026 names exactly as the contract lists them', () => {
    const fromSpec = contractLegacyNames();
    expect(Object.keys(fromSpec)).toHaveLength(8);
    expect(LEGACY_EVENT_NAMES).toEqual(fromSpec);
    for (const [legacy, current] of Object.entries(fromSpec)) expect(canonicalEventName(legacy)).toBe(current);
  });

  it('puts each event in the decided category', () => {
    const byCategory = (category: string) => EVENT_NAMES.filter((event) => categoryOf(event) === category);
    expect(byCategory('cashin')).toEqual(['transaction.paid', 'transaction.failed', 'transaction.cancelled',
      'transaction.expired']);
    expect(byCategory('refund')).toEqual(['transaction.refunded', 'transaction.partially_refunded',
      'transfer.refunded', 'transfer.partially_refunded']);
    expect(byCategory('dispute')).toEqual(['transaction.infraction', 'transaction.dispute', 'transaction.protest',
      'transaction.blocked']);
    expect(byCategory('chargeback')).toEqual(['transaction.chargeback']);
    expect(byCategory('cashout')).toEqual(['transfer.created', 'transfer.processing', 'transfer.pending_approval',
      'transfer.approved', 'transfer.rejected', 'transfer.failed', 'transfer.cancelled', 'transfer.paid']);
    expect(byCategory('recurring')).toEqual([...RECURRING_EVENT_NAMES]);
  });

  it('returns undefined for unknown names and keeps canonical names', () => {
    expect(canonicalEventName('transfer.paid')).toBe('transfer.paid');
    expect(canonicalEventName('TRANSFER_PAID')).toBe('transfer.paid');
    expect(canonicalEventName('transfer_paid')).toBeUndefined();
    expect(canonicalEventName('cashin')).toBeUndefined();
    expect(canonicalEventName('toString')).toBeUndefined();
    expect(canonicalEventName('')).toBeUndefined();
  });

  it('matches filters mixing names, legacy names and categories', () => {
    expect(matchesFilter('transfer.paid', ['TRANSFER_PAID'])).toBe(true);
    expect(matchesFilter('transfer.paid', ['cashout'])).toBe(true);
    expect(matchesFilter('transfer.paid', ['refund', 'transaction.paid'])).toBe(false);
    expect(matchesFilter('transaction.infraction', ['transaction.paid', 'med.opened'])).toBe(true);
    expect(matchesFilter('transaction.chargeback', ['chargeback'])).toBe(true);
    expect(matchesFilter('transaction.chargeback', ['dispute', 'chargeback.applied'])).toBe(true);
    expect(matchesFilter('transfer.refunded', ['refund'])).toBe(true);
    expect(matchesFilter('transfer.refunded', ['cashout'])).toBe(false);
    expect(matchesFilter('transaction.paid', ['unknown.event', 'CASHIN'])).toBe(false);
    expect(matchesFilter('transaction.paid', [])).toBe(true);
    expect(matchesFilter('recurrence.approved', ['recurring'])).toBe(true);
    expect(matchesFilter('recurrence.cycle_refused', ['recurring'])).toBe(true);
    expect(matchesFilter('recurrence.approved', ['cashin', 'cashout', 'refund', 'dispute', 'chargeback'])).toBe(false);
    expect(matchesFilter('recurrence.approved', ['recurrence.approved'])).toBe(true);
    expect(matchesFilter('recurrence.approved', ['recurrence.created'])).toBe(false);
    expect(matchesFilter('recurrence.approved', ['recurrence.*', 'RECURRING'])).toBe(false);
    expect(matchesFilter('transaction.paid', ['recurring'])).toBe(false);
    expect(matchesFilter('recurrence.cycle_scheduled', [])).toBe(true);
  });

  it('describes the retry policy as data: 1 min, 5 min, 30 min, 2 h, 6 h; 6 attempts', () => {
    expect(RETRY_DELAYS_MS).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 21_600_000]);
    expect(MAX_ATTEMPTS).toBe(RETRY_DELAYS_MS.length + 1);
    // About 8 h 36 min from the first attempt to the last.
    expect(RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0)).toBe((8 * 60 + 36) * 60_000);
    for (const outcome of ['timeout', 'network', 408, 429, 500, 502, 503, 599] as const) {
      expect(RETRYABLE(outcome), String(outcome)).toBe(true);
    }
    for (const outcome of [200, 204, 301, 302, 307, 400, 401, 403, 404, 410, 422, 600] as const) {
      expect(RETRYABLE(outcome), String(outcome)).toBe(false);
    }
    expect(isDelivered(200)).toBe(true);
    expect(isDelivered(299)).toBe(true);
    expect(isDelivered(302)).toBe(false);
    expect([1, 2, 3, 4, 5].map((attempt) => nextRetryDelayMs(attempt, 503))).toEqual([...RETRY_DELAYS_MS]);
    expect(nextRetryDelayMs(6, 503)).toBeUndefined();
    expect(nextRetryDelayMs(1, 400)).toBeUndefined();
    expect(nextRetryDelayMs(1, 301)).toBeUndefined();
    expect(nextRetryDelayMs(1, 200)).toBeUndefined();
  });
});

describe('AsyncAPI document', () => {
  it('has one message per catalogue event, and no other', () => {
    const names = document.messages().all().map((m) => m.name());
    expect(names.slice().sort()).toEqual([...EVENT_NAMES].sort());
    expect(new Set(names).size).toBe(EVENT_NAMES.length);
  });

  it('sends every message through sendWebhook (send, HTTP POST) on the merchantWebhook channel', () => {
    const operation = document.operations().get('sendWebhook');
    expect(operation?.action()).toBe('send');
    expect(operation?.bindings().get('http')?.value()).toMatchObject({ method: 'POST' });
    expect(operation?.channels().all().map((c) => c.id())).toEqual(['merchantWebhook']);
    const operationMessages = operation?.messages().all().map((m) => m.name()) ?? [];
    expect(operationMessages.slice().sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('records category and legacy names on each message, as the catalogue does', () => {
    for (const event of EVENT_NAMES) {
      const { raw } = message(event);
      expect(raw['x-category'], event).toBe(categoryOf(event));
      const legacy = Object.entries(LEGACY_EVENT_NAMES).filter(([, current]) => current === event).map(([old]) => old);
      expect(raw['x-legacy-names'] ?? [], event).toEqual(legacy);
    }
  });

  it('documents the legacy names, the retry schedule and the signature vector in its description', () => {
    const description = document.info().description() ?? '';
    for (const [legacy, current] of Object.entries(LEGACY_EVENT_NAMES)) {
      expect(description).toContain(`| \`${legacy}\` | \`${current}\` |`);
    }
    expect(description).toContain('1 min, 5 min, 30 min, 2 h and 6 h');
    const vector = standardWebhooksVector();
    for (const part of Object.values(vector)) expect(description).toContain(part);
  });

  it('pins category, type and status in each event schema as the catalogue does', () => {
    for (const event of CONTRACT_EVENT_NAMES) {
      const properties = eventSchema(event).properties as Record<string, Json>;
      expect(properties.event, event).toEqual({ const: event });
      expect(properties.category, event).toEqual({ const: categoryOf(event) });
      expect(properties.type, event).toEqual({ const: event.startsWith('transaction.') ? 'pix_in' : 'withdrawal' });
      const status = properties.status ?? {};
      const statuses = 'const' in status ? [status.const] : (status.enum as unknown[]);
      expect(statuses, event).toEqual([...EVENT_STATUSES[event]]);
    }
  });

  it('describes the recurrence.* events with RecurrenceChanged and RecurrenceCycleChanged, dated 2026-11-30', () => {
    const recurrenceStatuses = (readYaml(path.join(SCHEMAS_DIR, 'Recurrence.yaml')) as { properties: Record<string, Json> }).properties.status?.enum;
    const cycleStatuses = (readYaml(path.join(SCHEMAS_DIR, 'RecurrenceCycle.yaml')) as { properties: Record<string, Json> }).properties.status?.enum;
    for (const event of RECURRING_EVENT_NAMES) {
      const { raw, payloadSchemaUrl } = message(event);
      const cycleEvent = event.startsWith('recurrence.cycle_');
      expect(path.basename(fileURLToPath(payloadSchemaUrl)), event).toBe(cycleEvent ? 'RecurrenceCycleChanged.yaml' : 'RecurrenceChanged.yaml');
      expect((raw as unknown as Json)['x-pixgate-since'], event).toBe('2026-11-30');
      const schema = eventSchema(event);
      const properties = schema.properties as Record<string, Json>;
      expect(properties.event?.enum, event).toContain(event);
      expect(properties.category, event).toEqual({ const: 'recurring' });
      // Not a transaction: no flattened transaction, no type or status of its own.
      expect(schema.allOf, event).toBeUndefined();
      expect(properties.type, event).toBeUndefined();
      expect(properties.status, event).toBeUndefined();
      expect(schema.required, event).toEqual(cycleEvent
        ? ['eventId', 'event', 'category', 'occurredAt', 'recurrenceId', 'transactionId', 'cycle']
        : ['eventId', 'event', 'category', 'occurredAt', 'recurrenceId', 'recurrence']);
      // Each status the catalogue announces is one of the recurrence's (`recurrence.<status>`) or the cycle's.
      if (cycleEvent) for (const status of EVENT_STATUSES[event]) expect(cycleStatuses, event).toContain(status);
      else expect(EVENT_STATUSES[event], event).toEqual([event.slice('recurrence.'.length)]);
      if (!cycleEvent) expect(recurrenceStatuses, event).toContain(event.slice('recurrence.'.length));
    }
    const changed = readYaml(path.join(EVENTS_DIR, 'RecurrenceChanged.yaml')) as { properties: { event: { enum: string[] } } };
    const cycleChanged = readYaml(path.join(EVENTS_DIR, 'RecurrenceCycleChanged.yaml')) as { properties: { event: { enum: string[] } } };
    expect([...changed.properties.event.enum, ...cycleChanged.properties.event.enum]).toEqual([...RECURRING_EVENT_NAMES]);
  });
});

describe('message examples', () => {
  it.each(EVENT_NAMES)('%s: the example body validates against the event schema', (event) => {
    const validate = payloadValidator(event);
    const { payload } = exampleOf(event);
    expect(validate(payload), errorsOf(validate)).toBe(true);
    expect(payload.event).toBe(event);
    expect(payload.category).toBe(categoryOf(event));
  });

  it.each(EVENT_NAMES)('%s: the example headers validate and agree with the body', (event) => {
    const validate = headersValidator(event);
    const { headers, payload } = exampleOf(event);
    expect(validate(headers), errorsOf(validate)).toBe(true);
    expect(headers['X-Service-Event']).toBe(event);
    expect(headers['X-Service-Event-Id']).toBe(payload.eventId);
    expect(headers['webhook-id']).toBe(headers['X-Service-Event-Id']);
    expect(headers['webhook-timestamp']).toBe(headers['X-Service-Timestamp']);
    expect(headers['webhook-signature']).toBe(headers['X-Service-Signature']);
  });

  it.each(EVENT_NAMES)('%s: the example is signed with the documented test secret', (event) => {
    const { headers, payload } = exampleOf(event);
    const rawBody = JSON.stringify(payload);
    const timestamp = new Date(Number(headers['X-Service-Timestamp']) * 1000);
    const expected = new Webhook(TEST_SECRET).sign(String(payload.eventId), timestamp, rawBody);
    expect(headers['X-Service-Signature']).toBe(expected);
  });

  it.each(EVENT_NAMES)('%s: the example matches exactly one branch of WebhookEvent', (event) => {
    const validate = ajv.getSchema(pathToFileURL(path.join(EVENTS_DIR, 'WebhookEvent.yaml')).href);
    if (validate === undefined) throw new Error('WebhookEvent.yaml not loaded');
    expect(validate(exampleOf(event).payload), errorsOf(validate)).toBe(true);
  });

  it.each(EVENT_NAMES)('%s: the example headers fail with another event name', (event) => {
    const { headers } = exampleOf(event);
    const other = event === 'transaction.paid' ? 'transfer.paid' : 'transaction.paid';
    expect(headersValidator(event)({ ...headers, 'X-Service-Event': other })).toBe(false);
  });

  it.each(RECURRING_EVENT_NAMES)('%s: the example body fails under another event\'s name or category', (event) => {
    const validate = payloadValidator(event);
    const { payload } = exampleOf(event);
    const sibling = RECURRING_EVENT_NAMES.find((other) => other !== event && other.startsWith('recurrence.cycle_') !== event.startsWith('recurrence.cycle_'));
    expect(validate({ ...payload, event: sibling })).toBe(false);
    expect(validate({ ...payload, event: 'transaction.paid' })).toBe(false);
    expect(validate({ ...payload, category: 'cashin' })).toBe(false);
    const { recurrenceId: _recurrenceId, ...withoutRecurrenceId } = payload;
    expect(validate(withoutRecurrenceId)).toBe(false);
  });

  it.each(RECURRING_EVENT_NAMES)('%s: the example is consistent (ids, status, no recentCycles)', (event) => {
    const { payload } = exampleOf(event);
    expect(payload).not.toHaveProperty('type');
    expect(payload).not.toHaveProperty('status');
    if (event.startsWith('recurrence.cycle_')) {
      const cycle = payload.cycle as Json;
      expect(cycle.transactionId).toBe(payload.transactionId);
      expect(cycle.recurrenceId).toBe(payload.recurrenceId);
      expect(EVENT_STATUSES[event]).toContain(cycle.status);
    } else {
      const recurrence = payload.recurrence as Json;
      expect(payload).not.toHaveProperty('transactionId');
      expect(recurrence.id).toBe(payload.recurrenceId);
      expect(EVENT_STATUSES[event]).toContain(recurrence.status);
      expect(recurrence).not.toHaveProperty('recentCycles');
      expect(recurrence).not.toHaveProperty('idempotent');
      const history = recurrence.history as { status: string; at: number }[];
      expect(history.at(-1)).toEqual({ status: recurrence.status, at: payload.occurredAt });
    }
  });
});

describe('settlement and refusal fields', () => {
  // The transaction events (the recurrence.* bodies carry no transaction: see the AsyncAPI tests above).
  const notSettled = CONTRACT_EVENT_NAMES.filter((event) => !SETTLED_EVENTS.has(event));
  const settled = CONTRACT_EVENT_NAMES.filter((event) => SETTLED_EVENTS.has(event));
  const partyOf = (event: EventName) => (event.startsWith('transaction.') ? 'payer' : 'beneficiary');

  it('splits the 21 events into 11 settled and 10 not settled, as the contract lists them', () => {
    expect(notSettled).toEqual(['transaction.failed', 'transaction.cancelled', 'transaction.expired',
      'transfer.created', 'transfer.processing', 'transfer.pending_approval', 'transfer.approved',
      'transfer.rejected', 'transfer.failed', 'transfer.cancelled']);
  });

  it.each(notSettled)('%s: an example with an endToEndId added fails', (event) => {
    const { payload } = exampleOf(event);
    expect(payloadValidator(event)({ ...payload, endToEndId: 'E90400888202611211935a1B2c3D4e5F' })).toBe(false);
  });

  it.each(notSettled)('%s: an example with a null endToEndId or any other settlement field fails', (event) => {
    const validate = payloadValidator(event);
    expect(validate({ ...exampleOf(event).payload, endToEndId: null })).toBe(false);
    for (const [field, value] of Object.entries(settlementSample())) {
      expect(value, field).toBeDefined();
      expect(validate({ ...exampleOf(event).payload, [field]: value }), field).toBe(false);
    }
  });

  it.each(settled)('%s: an example without endToEndId or without its party fails', (event) => {
    const validate = payloadValidator(event);
    const { endToEndId: _e2e, ...withoutE2e } = exampleOf(event).payload;
    expect(validate(withoutE2e)).toBe(false);
    const withoutParty = exampleOf(event).payload;
    delete withoutParty[partyOf(event)];
    expect(validate(withoutParty)).toBe(false);
    expect(validate({ ...exampleOf(event).payload, endToEndId: null })).toBe(false);
  });

  it.each(settled)('%s: an example carrying the other party fails', (event) => {
    const { payload } = exampleOf(event);
    const other = partyOf(event) === 'payer' ? 'beneficiary' : 'payer';
    expect(payloadValidator(event)({ ...payload, [other]: payload[partyOf(event)] })).toBe(false);
  });

  it.each(CONTRACT_EVENT_NAMES.filter((event) => !REFUSABLE_EVENTS.has(event)))(
    '%s: refusedCode is rejected',
    (event) => {
      const { payload } = exampleOf(event);
      expect(payloadValidator(event)({ ...payload, refusedCode: 'INVALID_PIX_KEY' })).toBe(false);
    },
  );

  it.each([...REFUSABLE_EVENTS])('%s: refusedCode and refusedReason are optional', (event) => {
    const validate = payloadValidator(event);
    const { refusedCode: _code, refusedReason: _reason, ...withoutReason } = exampleOf(event).payload;
    expect(validate(withoutReason), errorsOf(validate)).toBe(true);
    expect(validate({ ...withoutReason, refusedCode: 'INVALID_PIX_KEY' }), errorsOf(validate)).toBe(true);
    expect(validate({ ...withoutReason, refusedCode: null })).toBe(false);
  });

  it.each([...HOLD_EVENTS])('%s: requires the hold; refundedCents follows the status', (event) => {
    const validate = payloadValidator(event);
    const { hold: _hold, ...withoutHold } = exampleOf(event).payload;
    expect(validate(withoutHold)).toBe(false);
    const paid: Json = { ...exampleOf(event).payload, status: 'paid' };
    delete paid.refundedCents;
    expect(validate(paid), errorsOf(validate)).toBe(true);
    expect(validate({ ...paid, refundedCents: 400 })).toBe(false);
    expect(validate({ ...paid, status: 'partially_refunded' })).toBe(false);
    expect(validate({ ...paid, status: 'partially_refunded', refundedCents: 400 }), errorsOf(validate)).toBe(true);
    expect(validate({ ...paid, status: 'pending' })).toBe(false);
  });

  it('transfer.created: paidAt is null while processing, set when refused at once', () => {
    const validate = payloadValidator('transfer.created');
    const { payload } = exampleOf('transfer.created');
    expect(validate({ ...payload, status: 'pending_approval' }), errorsOf(validate)).toBe(true);
    expect(validate({ ...payload, status: 'failed' })).toBe(false);
    expect(validate({ ...payload, status: 'failed', paidAt: payload.createdAt }), errorsOf(validate)).toBe(true);
    expect(validate({ ...payload, paidAt: payload.createdAt })).toBe(false);
    expect(validate({ ...payload, status: 'paid' })).toBe(false);
  });

  it('never carries pixPayload, and keeps paidAt present', () => {
    const { payload } = exampleOf('transaction.paid');
    const validate = payloadValidator('transaction.paid');
    expect(validate({ ...payload, pixPayload: '000201' })).toBe(false);
    const { paidAt: _paidAt, ...withoutPaidAt } = payload;
    expect(validate(withoutPaidAt)).toBe(false);
  });
});

/** Realistic settlement values, borrowed from the settled examples. */
function settlementSample(): Json {
  const charge = exampleOf('transaction.refunded').payload;
  const withdrawal = exampleOf('transfer.refunded').payload;
  return {
    payer: charge.payer,
    beneficiary: withdrawal.beneficiary,
    refundEndToEndId: withdrawal.refundEndToEndId,
    refundedCents: withdrawal.refundedCents,
  };
}

describe('Standard Webhooks signature', () => {
  it('reproduces the pix-facts.md vector with the standardwebhooks package', () => {
    const vector = standardWebhooksVector();
    const webhook = new Webhook(vector.secret);
    const signature = webhook.sign(vector.id, new Date(Number(vector.timestamp) * 1000), vector.body);
    expect(signature).toBe(vector.signature);
  });

  it('verifies an example delivery with the standard headers, and rejects a tampered body', () => {
    const { headers, payload } = exampleOf('transaction.paid');
    const rawBody = JSON.stringify(payload);
    const webhook = new Webhook(TEST_SECRET);
    const realNow = Date.now;
    // The library checks the 5-minute window against the clock: pretend it is the delivery time.
    Date.now = () => Number(headers['X-Service-Timestamp']) * 1000 + 30_000;
    try {
      const standard = {
        'webhook-id': headers['webhook-id'] ?? '',
        'webhook-timestamp': headers['webhook-timestamp'] ?? '',
        'webhook-signature': headers['webhook-signature'] ?? '',
      };
      expect(webhook.verify(rawBody, standard)).toEqual(payload);
      expect(() => webhook.verify(rawBody.replace('"amountCents":1000', '"amountCents":9000'), standard)).toThrow();
      Date.now = () => Number(headers['X-Service-Timestamp']) * 1000 + 6 * 60_000;
      expect(() => webhook.verify(rawBody, standard)).toThrow();
    } finally {
      Date.now = realNow;
    }
  });
});
