/**
 * A Prism 5 validating proxy in front of a running gateway: every response to a well-formed merchant request
 * is validated against generated/openapi.json, and the tests still see the gateway's own answers to the
 * invalid requests they send on purpose.
 *
 *   const proxy = await startPrismProxy(directBaseUrl);   // e.g. the in-process gateway's URL
 *   // point the merchant (/v1) clients at proxy.baseUrl; keep /admin direct
 *   ...
 *   expect(proxy.violations()).toEqual([]);                // in afterAll, before proxy.stop()
 *   await proxy.stop();
 *
 * Two processes' worth of pieces:
 * 1. `prism proxy generated/openapi.json <upstream> --errors --validate-request false --cors false
 *    -p <free port> -h 127.0.0.1`, spawned with the caller's Node binary (never `-m`: it crashes on Node 24).
 * 2. A small in-process front (the returned `baseUrl`) that sends each request either through Prism or, when
 *    Prism 5.16 would not forward it faithfully, straight to the upstream, and that reads every violation
 *    from Prism's answer (the `sl-violations` header and the `--errors` problem body), so each one is tied to
 *    its request and is recorded before the caller gets the response.
 *
 * What Prism 5.16 does, measured against this gateway (README, section "Conformance"):
 * - Response violations (wrong body, wrong media type) with `--errors`: Prism replaces the response by a
 *   500 `application/problem+json` `{ type: "https://stoplight.io/prism/errors#VIOLATIONS", validation: [
 *   { location: ["response", "body", ...], severity: "Error", code, message } ] }`; its log says only
 *   `Request terminated with error: ...#VIOLATIONS: Request/Response not valid`, without the details.
 *   An undocumented status is only a warning (`Unable to match the returned status code ...`): the response
 *   passes unchanged, the warning is in the `sl-violations` header and the log. Both are collected here.
 * - Request validation (on by default) with `--errors`: an invalid request is not forwarded; Prism answers
 *   422 problem+json (`UNPROCESSABLE_ENTITY`; also for a 415 or 413 case). `--validate-request false`
 *   turns that off: invalid bodies and queries reach the gateway.
 * - Still answered by Prism itself, whatever `--validate-request` says: a missing or non-`Bearer x`
 *   Authorization header (401 problem+json `UNAUTHORIZED`, `WWW-Authenticate: Bearer`: the security
 *   check is separate from request validation), a path the spec does not have (404 `NO_PATH_MATCHED_ERROR`),
 *   a method the path does not have (405 `NO_METHOD_MATCHED_ERROR`, no `Allow`).
 * - Bodies: Prism parses JSON and re-serialises it before forwarding. A malformed JSON body (or `\u0000`)
 *   is never answered at all (the connection hangs: Prism 5.16 bug), a JSON string body is forwarded
 *   without its quotes (the gateway sees malformed JSON), `null` is forwarded as no body, `1e400` as `null`.
 * - With `--cors` (default true) Prism adds `Access-Control-*` headers to every response and answers CORS
 *   preflights itself: `--cors false` keeps responses as the gateway sent them.
 * So the front bypasses Prism (and records it in `bypassed()`) for exactly those requests: no Bearer
 * token, no matching operation in the spec, or a body that Prism would not forward byte-for-byte in value.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import { fromRoot } from './paths.ts';
import { freePort, stopChild } from './prism.ts';
import { TOOLS, toolEnv } from './run.ts';

export interface PrismProxy {
  /** Where to send merchant traffic (the front). */
  baseUrl: string;
  /** Prism itself, without the front (requests it cannot forward faithfully behave as described above). */
  prismBaseUrl: string;
  /** Stops the front and Prism. */
  stop(): Promise<void>;
  /**
   * Every response violation Prism reported so far, one line each:
   * `GET /v1/balance -> 200: response.body.available Error: Response body/available must be integer`.
   * Errors (the client got Prism's 500 instead) and warnings (undocumented status: the client got the
   * response) alike. Request violations are not reported (request validation is off on purpose).
   */
  violations(): string[];
  /** Requests sent straight to the upstream, unvalidated, with the reason: `DELETE /v1/balance: no operation in the spec`. */
  bypassed(): string[];
  /** Prism's log so far. */
  log(): string;
}

export interface PrismProxyOptions {
  /** Spec to validate against (default generated/openapi.json). */
  spec?: string;
  /** How long to wait for Prism to start answering (default 60 s: loading the spec takes a few seconds). */
  readyTimeoutMs?: number;
  /** Longest a request through Prism may take before the front answers 504 and records it (default 30 s). */
  requestTimeoutMs?: number;
  /**
   * The base URL of a Prism started by `startSharedPrism` (one per test run, issue 33): used instead of
   * starting one per gateway; each request names its gateway in UPSTREAM_HEADER.
   */
  sharedPrismUrl?: string;
  /**
   * Validate requests too (default false: the merchant suites send invalid requests on purpose). With it,
   * an invalid request is answered 422 by Prism, never forwarded, and recorded in `violations()` as are its
   * `sl-violations` warnings: the upstream contract's check of the adapter (issue 35).
   */
  validateRequest?: boolean;
}

/** The header by which a front tells the shared Prism's router which gateway a request is for (removed before it). */
export const UPSTREAM_HEADER = 'x-pixgate-prism-upstream';

interface Violation {
  location?: unknown;
  severity?: unknown;
  code?: unknown;
  message?: unknown;
}

interface Operation {
  method: string;
  pattern: RegExp;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Prism's bearer check (prism-http, security/handlers/bearer.js). */
const PRISM_BEARER = /^Bearer\s.+$/;
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length'];

function specOperations(spec: string): Operation[] {
  const document = JSON.parse(readFileSync(spec, 'utf8')) as { paths?: Record<string, Record<string, unknown>> };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const source = path
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    for (const method of Object.keys(item)) {
      if (HTTP_METHODS.includes(method)) operations.push({ method: method.toUpperCase(), pattern: new RegExp(`^${source}$`) });
    }
  }
  return operations;
}

function isJsonMediaType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[^/]+\+json$/.test(type);
}

/** Why Prism 5.16 would not forward this request faithfully, or undefined when it would. */
function bypassReason(operations: Operation[], method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): string | undefined {
  if (!operations.some((operation) => operation.method === method && operation.pattern.test(path))) {
    return 'no operation in the spec (Prism would answer 404/405 itself)';
  }
  const authorization = headers.authorization;
  if (typeof authorization !== 'string' || !PRISM_BEARER.test(authorization)) {
    return 'no Bearer token (Prism would answer 401 itself)';
  }
  const hasBody = body.length > 0;
  if (hasBody && isJsonMediaType(headers['content-type'])) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return 'malformed JSON body (Prism would never answer)';
    }
    if (parsed === null || typeof parsed !== 'object') return 'JSON body that is not an object or array (Prism would alter it)';
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed)), parsed)) return 'JSON body Prism would re-serialise differently';
  }
  return undefined;
}

/**
 * Prism 5.16 reads a proxied response body as UTF-8 text before passing it on, so a binary answer (the QR
 * code PNG of GET /v1/transactions/{id}/qrcode) reaches the client corrupted, though its status and
 * headers are validated as usual.
 */
function isBinaryMediaType(contentType: string | string[] | undefined): boolean {
  const type = (Array.isArray(contentType) ? contentType[0] : contentType)?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/octet-stream' || (type.startsWith('image/') && type !== 'image/svg+xml');
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function send(target: URL, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer, timeoutMs: number): Promise<Answer> {
  const outgoing: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.includes(name)) outgoing[name] = value;
  }
  if (body.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method)) outgoing['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: target.hostname, port: target.port, method, path, headers: outgoing, timeout: timeoutMs },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

function describeViolation(request: string, status: number, violation: Violation): string {
  const location = Array.isArray(violation.location) ? violation.location.join('.') : String(violation.location ?? '');
  return `${request} -> ${status}: ${location} ${String(violation.severity ?? '')}: ${String(violation.message ?? '')}`.replace(/\s+/g, ' ').trim();
}

/**
 * Response violations in Prism's answer: the `sl-violations` header, else the `--errors` problem body; with
 * `requests`, request violations too. Every severity counts: an undocumented status is only Prism's warning.
 */
function responseViolations(request: string, answer: Answer, requests = false): string[] {
  const lines: string[] = [];
  const header = answer.headers['sl-violations'];
  let fromHeader: Violation[] | undefined;
  if (typeof header === 'string') {
    try {
      fromHeader = JSON.parse(header) as Violation[];
    } catch {
      lines.push(`${request} -> ${answer.status}: ${header.slice(0, 2000)}`);
    }
  }
  let list = fromHeader;
  const contentType = String(answer.headers['content-type'] ?? '');
  if (!list && contentType.startsWith('application/problem+json')) {
    try {
      const problem = JSON.parse(answer.body.toString('utf8')) as { type?: string; validation?: Violation[] };
      if (problem.type?.endsWith('#VIOLATIONS') || (requests && problem.type?.endsWith('#UNPROCESSABLE_ENTITY'))) list = problem.validation ?? [];
    } catch {
      // not JSON: nothing to read
    }
  }
  for (const violation of list ?? []) {
    const location = Array.isArray(violation.location) ? violation.location : [];
    if (location[0] === 'response' || (requests && location[0] === 'request')) lines.push(describeViolation(request, answer.status, violation));
  }
  return lines;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function startPrism(spec: string, upstream: string, readyTimeoutMs: number, validateRequest = false): Promise<{ baseUrl: string; child: ChildProcess; log(): string; stop(): Promise<void> }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const args = [TOOLS.prism, 'proxy', spec, upstream, '--errors', ...(validateRequest ? [] : ['--validate-request', 'false']), '--cors', 'false', '-p', String(port), '-h', '127.0.0.1'];
  const child = spawn(process.execPath, args, { env: toolEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const killOnExit = () => {
    if (!exited(child)) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    await stopChild(child);
  };
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (exited(child)) {
      await stop();
      throw new Error(`prism proxy exited before answering (code ${child.exitCode}):\n${log}`);
    }
    try {
      // Any HTTP answer means it listens (this one is Prism's own 404 for a path not in the spec).
      await fetch(`${baseUrl}/__prism_proxy_ready`, { signal: AbortSignal.timeout(1000) });
      return { baseUrl, child, log: () => log, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`prism proxy did not answer on ${baseUrl} within ${readyTimeoutMs} ms:\n${log}`);
      }
      await sleep(200);
    }
  }
}

export interface SharedPrism {
  /** Prism's own URL, for `startPrismProxy(upstream, { sharedPrismUrl })`. */
  baseUrl: string;
  stop(): Promise<void>;
  log(): string;
}

/**
 * One Prism for every gateway of a test run: starting Prism and loading the spec costs seconds of CPU,
 * once per gateway before (about 60 in the merchant suites). Prism's upstream is a small router here that
 * forwards each request to the gateway its front named in UPSTREAM_HEADER (a loopback origin only).
 */
export async function startSharedPrism(options: PrismProxyOptions = {}): Promise<SharedPrism> {
  const spec = options.spec ?? fromRoot('generated', 'openapi.json');
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const router = http.createServer((request, response) => {
    const route = async () => {
      const target = request.headers[UPSTREAM_HEADER];
      if (typeof target !== 'string' || !/^http:\/\/127\.0\.0\.1:\d+$/.test(target)) {
        response.writeHead(421, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `no gateway named in ${UPSTREAM_HEADER}` }));
        return;
      }
      const headers: IncomingHttpHeaders = { ...request.headers };
      delete headers[UPSTREAM_HEADER];
      const answer = await send(new URL(target), (request.method ?? 'GET').toUpperCase(), request.url ?? '/', headers, await readBody(request), requestTimeoutMs);
      const outgoing: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.includes(name)) outgoing[name] = value;
      outgoing['content-length'] = String(answer.body.length);
      response.writeHead(answer.status, outgoing).end(answer.body);
    };
    route().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: `prism router: ${error instanceof Error ? error.message : String(error)}` }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    router.once('error', reject);
    router.listen(0, '127.0.0.1', () => resolve());
  });
  const routerUrl = `http://127.0.0.1:${(router.address() as AddressInfo).port}`;
  const closeRouter = async () => {
    router.closeAllConnections();
    await new Promise<void>((resolve) => router.close(() => resolve()));
  };
  let prism: Awaited<ReturnType<typeof startPrism>>;
  try {
    prism = await startPrism(spec, routerUrl, options.readyTimeoutMs ?? 60_000);
  } catch (error) {
    await closeRouter();
    throw error;
  }
  return {
    baseUrl: prism.baseUrl,
    log: prism.log,
    stop: async () => {
      await prism.stop();
      await closeRouter();
    },
  };
}

export async function startPrismProxy(upstreamBaseUrl: string, options: PrismProxyOptions = {}): Promise<PrismProxy> {
  const spec = options.spec ?? fromRoot('generated', 'openapi.json');
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const operations = specOperations(spec);
  const upstream = new URL(upstreamBaseUrl);
  const shared = options.sharedPrismUrl;
  const prism = shared
    ? { baseUrl: shared, log: () => '', stop: async () => undefined }
    : await startPrism(spec, upstreamBaseUrl, options.readyTimeoutMs ?? 60_000, options.validateRequest ?? false);
  const prismUrl = new URL(prism.baseUrl);
  // Through a shared Prism, the router behind it forwards to the gateway named here.
  const viaPrism = (headers: IncomingHttpHeaders): IncomingHttpHeaders => (shared ? { ...headers, [UPSTREAM_HEADER]: upstream.origin } : headers);
  const found: string[] = [];
  const bypassed: string[] = [];

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const method = (request.method ?? 'GET').toUpperCase();
    const url = request.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const label = `${method} ${path}`;
    const body = await readBody(request);
    const reason = bypassReason(operations, method, path, request.headers, body);
    let answer: Answer;
    if (reason) {
      bypassed.push(`${label}: ${reason}`);
      answer = await send(upstream, method, url, request.headers, body, requestTimeoutMs);
    } else {
      try {
        answer = await send(prismUrl, method, url, viaPrism(request.headers), body, requestTimeoutMs);
      } catch (error) {
        found.push(`${label}: Prism did not answer (${error instanceof Error ? error.message : String(error)})`);
        response.writeHead(504, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'prism proxy did not answer' }));
        return;
      }
      found.push(...responseViolations(label, answer, options.validateRequest ?? false));
      if (method === 'GET' && isBinaryMediaType(answer.headers['content-type'])) {
        // Validated by Prism (status, headers, media type); the bytes are taken from the gateway itself (a
        // GET can be asked twice), since Prism would hand them over re-encoded as text.
        const direct = await send(upstream, method, url, request.headers, body, requestTimeoutMs);
        if (direct.status !== answer.status) found.push(`${label}: Prism answered ${answer.status} but the gateway ${direct.status}`);
        answer = { ...answer, body: direct.body };
      }
    }
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_BY_HOP.includes(name) && name !== 'sl-violations') headers[name] = value;
    }
    headers['content-length'] = String(answer.body.length);
    response.writeHead(answer.status, headers).end(answer.body);
  };

  const front = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      found.push(`${request.method} ${request.url}: front error ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'prism proxy front failed' }));
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      front.once('error', reject);
      front.listen(0, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await prism.stop();
    throw error;
  }
  const baseUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  return {
    baseUrl,
    prismBaseUrl: prism.baseUrl,
    stop: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await prism.stop();
    },
    violations: () => [...found],
    bypassed: () => [...bypassed],
    log: prism.log,
  };
}
