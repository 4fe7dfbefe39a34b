import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, useGateway, type MerchantFixture } from '../support/gateway.ts';
import { loadGenerated } from './helpers.ts';

/** generated/postman-collection.json (scripts/lib/postman.ts), read as the Postman collection v2.1 it is. */
interface PostmanRequest {
  method: string;
  url: { host: string[]; path: string[]; query?: { key: string; value: string; disabled?: boolean }[]; variable?: { key: string; value: string }[] };
  header: { key: string; value: string }[];
  body?: { mode?: string; raw?: string };
  auth?: unknown;
}
interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: PostmanRequest;
}
interface Collection {
  info: Record<string, unknown>;
  item: PostmanItem[];
  auth: unknown;
  variable: { key: string; value: string }[];
}
interface Operation {
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
}

const collection = loadGenerated('postman-collection.json') as unknown as Collection;
const merchant = loadGenerated('openapi.json') as unknown as { paths: Record<string, Record<string, Operation>> };

function requests(items: PostmanItem[]): PostmanRequest[] {
  return items.flatMap((item) => (item.request ? [item.request] : requests(item.item ?? [])));
}
const all = requests(collection.item);

/** `POST /v1/pix`, `GET /v1/transactions/{id}` for a Postman request (`:id` is a path variable). */
function operationOf(request: PostmanRequest): string {
  return `${request.method} /${request.url.path.map((segment) => segment.replace(/^:(.+)$/, '{$1}')).join('/')}`;
}

function keysIn(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => keysIn(item, found));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      found.add(key);
      keysIn(value, found);
    }
  }
  return found;
}

describe('generated/postman-collection.json', () => {
  it('has one request per merchant operation, under {{baseUrl}}', () => {
    const operations = Object.entries(merchant.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(all.map(operationOf).sort()).toEqual(operations.sort());
    for (const request of all) expect(request.url.host).toEqual(['{{baseUrl}}']);
  });

  it('authenticates every request with the collection variable {{apiKey}}, next to {{baseUrl}}', () => {
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] });
    expect(collection.variable.map((variable) => variable.key)).toEqual(['baseUrl', 'apiKey']);
    expect(collection.variable.find((variable) => variable.key === 'apiKey')?.value).toBe('');
    // null or absent: the request inherits the collection's auth.
    for (const request of all) expect(request.auth ?? null, operationOf(request)).toBeNull();
    expect(JSON.stringify(collection)).not.toContain('bearerToken');
  });

  it('has no random ids, so a generation is repeatable (check:generated)', () => {
    const keys = keysIn(collection);
    expect(keys.has('id')).toBe(false);
    expect(keys.has('_postman_id')).toBe(false);
  });

  it('fills each request body with a documented example of the operation', () => {
    expect(all.filter((r) => r.body?.raw !== undefined).map(operationOf).sort()).toEqual([
      'PATCH /v1/due-charges/{id}',
      'POST /v1/due-charges',
      'POST /v1/due-charge-batches',
      'POST /v1/payment-links',
      'POST /v1/pix',
      'POST /v1/recipients',
      'POST /v1/recurrences',
      'POST /v1/recurrences/{id}/cycles',
      'POST /v1/static-qrcodes',
      'POST /v1/transactions/{id}/refunds',
      'POST /v1/withdraw',
    ].sort());
    for (const request of all.filter((r) => r.body?.raw !== undefined)) {
      const [, path] = operationOf(request).split(' ');
      const examples = Object.values(merchant.paths[path ?? '']?.[request.method.toLowerCase()]?.requestBody?.content['application/json']?.examples ?? {});
      const body: unknown = JSON.parse(request.body?.raw ?? '');
      expect(examples.some((example) => isDeepStrictEqual(example.value, body)), operationOf(request)).toBe(true);
    }
  });
});

describe('the collection against a running gateway', () => {
  const gateway = useGateway();
  let account: MerchantFixture;
  beforeAll(async () => {
    account = await createMerchant(gateway);
  });

  /** What Postman sends for a request of the collection, with the variables set. */
  function send(request: PostmanRequest, variables: Record<string, string>): Promise<Response> {
    const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => variables[name] ?? '');
    const path = request.url.path.map((segment) => (segment.startsWith(':') ? request.url.variable?.find((v) => v.key === segment.slice(1))?.value ?? '' : segment));
    const url = new URL(`${fill(request.url.host.join(''))}/${path.join('/')}`);
    for (const query of request.url.query ?? []) if (!query.disabled) url.searchParams.set(query.key, query.value);
    const headers = new Headers(request.header.map((header) => [header.key, fill(header.value)] as [string, string]));
    headers.set('Authorization', `Bearer ${fill('{{apiKey}}')}`);
    return fetch(url, { method: request.method, headers, body: request.body?.raw === undefined ? undefined : fill(request.body.raw) });
  }

  it('creates a charge and reads the balance and the transactions as the collection sends them', async () => {
    const variables = { baseUrl: gateway.baseUrl, apiKey: account.apiKey };
    const find = (operation: string) => all.find((request) => operationOf(request) === operation);
    const charge = await send(find('POST /v1/pix') as PostmanRequest, variables);
    expect(charge.status).toBe(201);
    expect((await send(find('GET /v1/balance') as PostmanRequest, variables)).status).toBe(200);
    const list = await send(find('GET /v1/transactions') as PostmanRequest, variables);
    expect(list.status).toBe(200);
    const unauthenticated = await send(find('GET /v1/balance') as PostmanRequest, { ...variables, apiKey: '' });
    expect(unauthenticated.status).toBe(401);
  });
});
