/**
 * The mock of the merchant API (`npm run mock`, the mock tests): Prism 5 in static mode behind a small
 * in-process front that makes it answer like the gateway.
 *
 * Prism answers a request without `Prefer: code=…` with the operation's LOWEST 2xx response
 * (prism-http `findLowest2XXResponse`, whatever the document's order), so POST /v1/pix and POST /v1/withdraw
 * would answer the 200 idempotent replay. The front adds the status the gateway gives a plain request:
 * - no `code` in `Prefer` (or no `Prefer`): `code=<default>` for operations that have a default
 *   (`201` wherever a 201 is documented: a POST that creates something answers 201);
 * - `Prefer: example=<name>` without `code`: the code of the response that holds that example, so an
 *   example name alone is enough (`Prefer: example=chargeIdempotent` → 200);
 * - `Prefer` with a `code`: sent to Prism unchanged (every documented example stays selectable).
 * Everything else (method, path, headers, body, Prism's answer) passes through untouched, and an invalid
 * request still gets Prism's 400/422 example: Prism ignores `code` for those.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import type { Json } from './json.ts';
import { listOperations, responseExamples } from './openapi.ts';
import { freePort, startPrism, type PrismServer } from './prism.ts';

/** What the mock answers for one operation, for the start banner and the tests. */
export interface MockOperation {
  method: string;
  path: string;
  /** Status the front asks for when the caller names none (undefined: Prism's lowest 2xx). */
  defaultStatus: string | undefined;
  /** Every documented status with the names of its examples (`example` for a single unnamed one). */
  examples: Array<{ status: string; names: string[] }>;
  pattern: RegExp;
}

export interface MockServer {
  /** Where callers send requests (the front). */
  baseUrl: string;
  operations: MockOperation[];
  prism: PrismServer;
  stop(): Promise<void>;
}

export interface MockOptions {
  spec: string;
  /** Port of the front (0: any free port). */
  port: number;
  host?: string;
  /** Print Prism's log to this process's output. */
  inherit?: boolean;
  readyTimeoutMs?: number;
}

/** The status a plain request gets: the gateway answers a creating POST with 201. */
function defaultStatusOf(statuses: string[]): string | undefined {
  return statuses.includes('201') ? '201' : undefined;
}

export function mockOperations(document: Json): MockOperation[] {
  return listOperations(document).map((op) => {
    const byStatus = new Map<string, string[]>();
    for (const response of responseExamples(document, op.operation)) {
      const names = byStatus.get(response.status) ?? [];
      for (const example of response.examples) if (!names.includes(example.name)) names.push(example.name);
      byStatus.set(response.status, names);
    }
    const source = op.path
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    return {
      method: op.method,
      path: op.path,
      defaultStatus: defaultStatusOf([...byStatus.keys()]),
      examples: [...byStatus.entries()].map(([status, names]) => ({ status, names })),
      pattern: new RegExp(`^${source}$`),
    };
  });
}

/** `Prefer: code=400, example=customerEmail` → Map { code → '400', example → 'customerEmail' } (Prism's syntax). */
function parsePrefer(header: string | undefined): Map<string, string> {
  const preferences = new Map<string, string>();
  for (const part of (header ?? '').split(/[,;]/)) {
    const [key, ...rest] = part.split('=');
    const name = key?.trim().toLowerCase();
    if (name) preferences.set(name, rest.join('=').trim());
  }
  return preferences;
}

/** The `Prefer` header to send to Prism, or undefined to leave the request's own. */
export function preferFor(operation: MockOperation | undefined, header: string | undefined): string | undefined {
  if (!operation) return undefined;
  const preferences = parsePrefer(header);
  if (preferences.has('code')) return undefined;
  const example = preferences.get('example');
  const code = example
    ? (operation.examples.find((e) => e.names.includes(example))?.status ?? operation.defaultStatus)
    : operation.defaultStatus;
  if (!code) return undefined;
  return header?.trim() ? `code=${code}, ${header.trim()}` : `code=${code}`;
}

function forward(prismBaseUrl: string, operations: MockOperation[], req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', prismBaseUrl);
  const operation = operations.find((op) => op.method === req.method && op.pattern.test(url.pathname));
  const prefer = preferFor(operation, typeof req.headers['prefer'] === 'string' ? req.headers['prefer'] : undefined);
  const headers = { ...req.headers, host: url.host, ...(prefer ? { prefer } : {}) };
  const upstream = http.request(url, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`mock front: Prism did not answer: ${error.message}\n`);
  });
  req.pipe(upstream);
}

/** Starts Prism on a free port and the front on `options.port`; resolves once both answer. */
export async function startMock(options: MockOptions): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const operations = mockOperations(JSON.parse(readFileSync(options.spec, 'utf8')) as Json);
  const prism = await startPrism({
    spec: options.spec,
    port: await freePort(host),
    host,
    inherit: options.inherit ?? false,
    readyTimeoutMs: options.readyTimeoutMs ?? 60_000,
  });
  const front = http.createServer((req, res) => forward(prism.baseUrl, operations, req, res));
  try {
    await new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(options.port, host, () => resolve());
    });
  } catch (error) {
    await prism.stop();
    throw error;
  }
  const { port } = front.address() as AddressInfo;
  return {
    baseUrl: `http://${host}:${port}`,
    operations,
    prism,
    stop: async () => {
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      front.closeAllConnections();
      await closed;
      await prism.stop();
    },
  };
}
