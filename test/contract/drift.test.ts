import { describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/cli/commands/keys.ts';
import { messages } from '../../src/messages/merchant.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { loadGenerated } from './helpers.ts';

/**
 * Issue 12, point 8: documentation that had drifted from the code. Each check reads both sides, so the
 * drift cannot come back unnoticed.
 */
type Doc = Record<string, unknown>;
const at = (doc: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((node, key) => (node as Doc | undefined)?.[key], doc);

describe('documentation drift', () => {
  it('the AsyncAPI events table lists every status transfer.created can carry (the payload schema)', () => {
    const asyncapi = loadGenerated('asyncapi.json');
    const table = String(at(asyncapi, 'info', 'description'));
    const row = table.split('\n').find((line) => line.trim().startsWith('| transfer.created |'));
    expect(row).toBeDefined();
    const statuses = at(asyncapi, 'components', 'schemas', 'TransferCreated', 'properties', 'status', 'enum') as string[];
    expect(statuses).toEqual(['processing', 'pending_approval', 'failed', 'failed_unknown']);
    for (const status of statuses) expect(row, status).toContain(`\`${status}\``);
  });

  it('every recipient `note` example in the OpenAPI is a text the server sends', () => {
    const openapi = loadGenerated('openapi.json');
    const examples = at(openapi, 'components', 'examples') as Record<string, { value?: Doc }>;
    const notes = Object.entries(examples).filter(([, example]) => typeof example.value?.note === 'string');
    expect(notes.length).toBeGreaterThanOrEqual(3);
    const serverTexts = [messages.recipientNotePending, messages.recipientNoteActive, messages.recipientNoteUpdated];
    for (const [name, example] of notes) expect(serverTexts, name).toContain(example.value?.note);
    const schemaExample = at(openapi, 'components', 'schemas', 'RecipientRegistration', 'properties', 'note', 'examples') as string[];
    for (const note of schemaExample) expect(serverTexts).toContain(note);
  });

  it('the CLI says how long a revoked key still works as the server caches it (AUTH_CACHE_TTL_MS), not 30 seconds', () => {
    const ttlSeconds = loadConfig({}).authCacheTtlMs / 1000;
    expect(revokeKey.summary).not.toMatch(/30 seconds/);
    expect(revokeKey.summary).toContain('AUTH_CACHE_TTL_MS');
    expect(revokeKey.summary).toContain(`${ttlSeconds} s by default`);
  });
});
