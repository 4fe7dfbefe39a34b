/**
 * The mock of generated/openapi.json (`npm run mock`: Prism behind the front of scripts/lib/mock.ts)
 * answers every documented example: for each operation, each 2xx example (selected with
 * `Prefer: code=..., example=...`) and each 4xx example come back with their status and exact body. A
 * plain request (no `Prefer`) gets what the gateway answers: 201 for the POSTs that create. Requests carry
 * a syntactically valid API key and the spec's own request example. Without an Authorization header the
 * mock answers 401 (the spec's bearer scheme).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deref, isObject } from '../../scripts/lib/json.ts';
import type { Json, JsonObject } from '../../scripts/lib/json.ts';
import { examplesOf, listOperations, responseExamples } from '../../scripts/lib/openapi.ts';
import type { Operation } from '../../scripts/lib/openapi.ts';
import { startMock } from '../../scripts/lib/mock.ts';
import type { MockServer } from '../../scripts/lib/mock.ts';
import { generatedPath, loadGenerated } from './helpers.ts';

const spec = loadGenerated('openapi.json');
const operations = listOperations(spec);
/** `pixg_` + 64 hex: the key format of docs/decisions.md. Prism only checks that a bearer token is sent. */
const API_KEY = `pixg_${'0123456789abcdef'.repeat(4)}`;
const REQUEST_TIMEOUT_MS = 10_000;

let mock: MockServer | undefined;

beforeAll(async () => {
  mock = await startMock({ spec: generatedPath('openapi.json'), port: 0, readyTimeoutMs: 60_000 });
});

afterAll(async () => {
  await mock?.stop();
});

/** First example value of a parameter: its own `example`/`examples`, else its schema's. */
function parameterValue(parameter: JsonObject): string | undefined {
  const own = examplesOf(spec, parameter)[0];
  if (own) return String(own.value);
  const schema = deref(spec, parameter['schema']);
  if (!isObject(schema)) return undefined;
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return String(schema['examples'][0]);
  if ('example' in schema) return String(schema['example']);
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return String(schema['enum'][0]);
  return undefined;
}

interface PreparedRequest {
  url: string;
  init: RequestInit;
}

/** URL with path parameters (and required query parameters) filled from examples, body from the spec. */
function prepare(op: Operation, headers: Record<string, string>): PreparedRequest {
  const pathItem = deref(spec, isObject(spec) && isObject(spec['paths']) ? spec['paths'][op.path] : undefined);
  const rawParameters: Json[] = [
    ...(isObject(pathItem) && Array.isArray(pathItem['parameters']) ? pathItem['parameters'] : []),
    ...(Array.isArray(op.operation['parameters']) ? op.operation['parameters'] : []),
  ];
  let path = op.path;
  const query = new URLSearchParams();
  for (const raw of rawParameters) {
    const parameter = deref(spec, raw);
    if (!isObject(parameter) || typeof parameter['name'] !== 'string') continue;
    const value = parameterValue(parameter);
    if (parameter['in'] === 'path') {
      if (value === undefined) throw new Error(`${op.method} ${op.path}: no example for path parameter ${parameter['name']}`);
      path = path.replace(`{${parameter['name']}}`, encodeURIComponent(value));
    } else if (parameter['in'] === 'query' && parameter['required'] === true && value !== undefined) {
      query.set(parameter['name'], value);
    }
  }
  const init: RequestInit = { method: op.method, headers: { Accept: 'application/json', ...headers } };
  const requestBody = deref(spec, op.operation['requestBody']);
  const content = isObject(requestBody) ? deref(spec, requestBody['content']) : undefined;
  const json = isObject(content) ? deref(spec, content['application/json']) : undefined;
  if (isObject(json)) {
    const example = examplesOf(spec, json)[0];
    if (!example) throw new Error(`${op.method} ${op.path}: the request body has no example to send`);
    init.body = JSON.stringify(example.value);
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
  }
  const search = query.toString() ? `?${query.toString()}` : '';
  if (!mock) throw new Error('the mock is not running');
  return { url: `${mock.baseUrl}${path}${search}`, init };
}

async function call(op: Operation, headers: Record<string, string>): Promise<{ status: number; body: unknown; raw: string }> {
  const { url, init } = prepare(op, headers);
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const raw = await response.text();
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // Not JSON: compared as text and reported as is.
  }
  return { status: response.status, body, raw };
}

interface Case {
  name: string;
  op: Operation;
  status: string;
  mediaType: string;
  example: string;
  value: Json;
}

function cases(filter: (status: string) => boolean): Case[] {
  return operations.flatMap((op) =>
    responseExamples(spec, op.operation)
      .filter((r) => filter(r.status))
      .flatMap((r) =>
        r.examples.map((e) => ({
          name: `${op.method} ${op.path} -> ${r.status} ${r.mediaType === 'application/json' ? '' : `${r.mediaType} `}${e.name}`,
          op,
          status: r.status,
          mediaType: r.mediaType,
          example: e.name,
          value: e.value,
        })),
      ),
  );
}

/** `Prefer` selecting one response and, when it has a name, one example. */
function prefer(c: Case): string {
  return c.example === 'example' ? `code=${c.status}` : `code=${c.status}, example=${c.example}`;
}

const successCases = cases((status) => /^2\d\d$/.test(status));
const errorCases = cases((status) => /^[45]\d\d$/.test(status));

describe('Prism mock of generated/openapi.json', () => {
  it('every operation has a 2xx example and a 4xx example to serve', () => {
    for (const op of operations) {
      const key = `${op.method} ${op.path} ->`;
      expect(successCases.some((c) => c.name.startsWith(key)), `${key} no 2xx example`).toBe(true);
      expect(errorCases.some((c) => c.name.startsWith(key)), `${key} no 4xx example`).toBe(true);
    }
  });

  it.each(successCases)('$name', async (c) => {
    // Non-JSON answers (the QR code image) are asked for by media type and compared as text.
    const headers: Record<string, string> = { Authorization: `Bearer ${API_KEY}`, Prefer: prefer(c) };
    if (c.mediaType !== 'application/json') headers['Accept'] = c.mediaType;
    const response = await call(c.op, headers);
    expect(response.status, response.raw).toBe(Number(c.status));
    expect(c.mediaType === 'application/json' ? response.body : response.raw).toEqual(c.value);
  });

  it.each(errorCases)('$name', async (c) => {
    const response = await call(c.op, { Authorization: `Bearer ${API_KEY}`, Prefer: prefer(c) });
    expect(response.status, response.raw).toBe(Number(c.status));
    expect(response.body).toEqual(c.value);
  });

  it.each(operations.map((op) => ({ name: `${op.method} ${op.path}`, op })))(
    '$name without Prefer -> the status the gateway gives a valid request (201 or 202 when documented), its first example',
    async ({ op }) => {
      const response = await call(op, { Authorization: `Bearer ${API_KEY}`, Accept: '*/*' });
      const documented = responseExamples(spec, op.operation);
      const expected = ['201', '202'].find((status) => documented.some((r) => r.status === status)) ?? '200';
      expect(response.status, response.raw).toBe(Number(expected));
      const json = documented.find((r) => r.status === expected && r.mediaType === 'application/json');
      if (json) expect(response.body).toEqual(json.examples[0]?.value);
      else expect(documented.some((r) => r.status === expected), `${op.method} ${op.path}: no ${expected} response`).toBe(true);
    },
  );

  it('a plain POST /v1/pix and POST /v1/withdraw get the 201 example, not the 200 idempotent replay', async () => {
    for (const path of ['/v1/pix', '/v1/withdraw']) {
      const op = operations.find((o) => o.method === 'POST' && o.path === path);
      if (!op) throw new Error(`${path} is not in the document`);
      const response = await call(op, { Authorization: `Bearer ${API_KEY}` });
      expect(response.status, response.raw).toBe(201);
      expect(response.body).not.toHaveProperty('idempotent');
    }
  });

  it('an example name alone selects its own status (Prefer: example=chargeIdempotent -> 200)', async () => {
    const op = operations.find((o) => o.method === 'POST' && o.path === '/v1/pix');
    if (!op) throw new Error('/v1/pix is not in the document');
    const response = await call(op, { Authorization: `Bearer ${API_KEY}`, Prefer: 'example=chargeIdempotent' });
    expect(response.status, response.raw).toBe(200);
    expect(response.body).toMatchObject({ idempotent: true });
  });

  it.each(operations.map((op) => ({ name: `${op.method} ${op.path}`, op })))(
    '$name without Authorization -> 401 with a documented 401 body',
    async ({ op }) => {
      const response = await call(op, {});
      expect(response.status, response.raw).toBe(401);
      const documented = responseExamples(spec, op.operation)
        .filter((r) => r.status === '401')
        .flatMap((r) => r.examples.map((e) => e.value));
      expect(documented).toContainEqual(response.body);
    },
  );
});
