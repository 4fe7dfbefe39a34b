/**
 * generated/asyncapi.json describes every canonical webhook event of the contract as a message, and no
 * other event name (old names such as TRANSFER_PAID must not come back) except the events added after the
 * written contract, each dated by its message's `x-pixgate-since` (as added operations are).
 */
import { describe, expect, it } from 'vitest';
import { canonicalEvents } from '../../scripts/lib/contract.ts';
import { deref, isObject } from '../../scripts/lib/json.ts';
import type { Json, JsonObject } from '../../scripts/lib/json.ts';
import { contract, loadGenerated } from './helpers.ts';

const events = canonicalEvents(contract());
const asyncapi = loadGenerated('asyncapi.json');

interface FoundMessage {
  where: string;
  key: string;
  message: JsonObject;
}

/** Messages declared in components.messages and in channels.*.messages (references resolved). */
function allMessages(document: Json): FoundMessage[] {
  const found: FoundMessage[] = [];
  if (!isObject(document)) return found;
  const add = (where: string, key: string, raw: Json | undefined) => {
    const message = deref(document, raw);
    if (isObject(message)) found.push({ where, key, message });
  };
  const components = document['components'];
  if (isObject(components) && isObject(components['messages'])) {
    for (const [name, raw] of Object.entries(components['messages'])) add(`components.messages.${name}`, name, raw);
  }
  if (isObject(document['channels'])) {
    for (const [channel, rawChannel] of Object.entries(document['channels'])) {
      const resolved = deref(document, rawChannel);
      const messages = isObject(resolved) ? resolved['messages'] : undefined;
      if (isObject(messages)) for (const [name, raw] of Object.entries(messages)) add(`channels.${channel}.messages.${name}`, name, raw);
    }
  }
  return found;
}

/** The event a payload schema pins in its `event` property (`const`, or a one-value `enum`). */
function payloadEvent(document: Json, message: JsonObject): string | undefined {
  let payload = deref(document, message['payload']);
  if (isObject(payload) && 'schemaFormat' in payload) payload = deref(document, payload['schema']);
  const candidates = isObject(payload) ? [payload, ...(Array.isArray(payload['allOf']) ? payload['allOf'] : [])] : [];
  for (const candidate of candidates) {
    const schema = deref(document, candidate);
    const properties = isObject(schema) ? deref(document, schema['properties']) : undefined;
    const event = isObject(properties) ? deref(document, properties['event']) : undefined;
    if (!isObject(event)) continue;
    if (typeof event['const'] === 'string') return event['const'];
    if (Array.isArray(event['enum']) && event['enum'].length === 1 && typeof event['enum'][0] === 'string') return event['enum'][0];
  }
  return undefined;
}

const messages = allMessages(asyncapi);
const named = messages.map(({ where, key, message }) => ({
  where,
  key,
  name: typeof message['name'] === 'string' ? message['name'] : undefined,
  payloadEvent: payloadEvent(asyncapi, message),
  since: typeof message['x-pixgate-since'] === 'string' ? message['x-pixgate-since'] : undefined,
}));
/** Messages of events added after the written contract (additive changes), dated. */
const added = named.filter((m) => m.since !== undefined);

describe('webhook events (generated/asyncapi.json)', () => {
  it('reads the 21 canonical events from the contract', () => {
    expect(events).toHaveLength(21);
  });

  it.each(events)('%s is described by a message', (event) => {
    // A message stands for an event when its name, its key, or the `event` constant of its payload is the
    // event name (the contract sends the name in X-Service-Event and in the body field `event`).
    const matches = named.filter((m) => m.name === event || m.key === event || m.payloadEvent === event);
    const known = named.map((m) => m.name ?? m.key).join(', ');
    expect(matches.length, `no message for ${event}; messages: ${known}`).toBeGreaterThan(0);
    for (const match of matches) {
      if (match.payloadEvent !== undefined) expect(match.payloadEvent, `${match.where}: payload \`event\``).toBe(event);
    }
  });

  it('has no message for an event outside the contract, except the dated additive ones', () => {
    const looksLikeEvent = (name: string | undefined) => name !== undefined && /^[a-z_]+\.[a-z_.]+$/.test(name);
    const unknown = named.filter(
      (m) =>
        !added.includes(m) &&
        ((looksLikeEvent(m.name) && !events.includes(m.name ?? '')) || (m.payloadEvent !== undefined && !events.includes(m.payloadEvent))),
    );
    expect(unknown.map((m) => `${m.where} (${m.name})`)).toEqual([]);
  });

  it('dates each added event (x-pixgate-since) and never re-dates a contract event', () => {
    expect(added.map((m) => m.name).sort()).toEqual([
      'recurrence.approved',
      'recurrence.cancelled',
      'recurrence.created',
      'recurrence.cycle_refused',
      'recurrence.cycle_scheduled',
      'recurrence.expired',
      'recurrence.rejected',
    ]);
    for (const m of added) {
      expect(m.since, m.where).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(events, m.where).not.toContain(m.name);
    }
  });
});
