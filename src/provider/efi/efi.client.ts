/**
 * The transport to the provider: openapi-fetch over the upstream contract's generated types
 * (generated/upstream-types.ts, from openapi/upstream/psp.yaml), through an undici Agent that presents the
 * account's client certificate (mutual TLS) and trusts the provider's CA; an OAuth2 client-credentials token
 * reused until shortly before it expires and fetched again once on a 401; retries with exponential backoff
 * and jitter (p-retry) for 5xx, 429, timeouts and dropped connections, only where the operation may be
 * repeated; a circuit breaker (opossum) so an outage answers at once instead of piling up requests; a
 * latency histogram per upstream operation and outcome; RFC 7807 and Efí `{nome, mensagem}` errors logged
 * with their type and correlationId. Secrets (client secret, token, key) are never logged.
 *
 * Libraries: undici (Node's own HTTP client, the only way to give fetch a client certificate), p-retry
 * (backoff with jitter, per-attempt decisions) and opossum (the Node circuit breaker of the OpenJS
 * ecosystem), rather than hand-written loops and state machines.
 */
import createClient, { type Client } from 'openapi-fetch';
import CircuitBreaker from 'opossum';
import pRetry, { AbortError } from 'p-retry';
import { Agent, fetch as undiciFetch } from 'undici';
import type { components, paths } from '../../../generated/upstream-types.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Metrics } from '../../platform/metrics.ts';

export type UpstreamClient = Client<paths>;

export interface EfiTransportOptions {
  /** Where Efí's own paths (`/v2/gn/...`, `/v3/gn/...`) go, and the fake provider's control API (its origin). */
  baseUrl: string;
  /**
   * Where API Pix's paths go, with the version: the contract's `/v2/cob/{txid}` is sent to
   * `${apiPixUrl}/cob/{txid}` (default `${baseUrl}/v2`, as on Efí). The profile decides (provider.profiles.ts).
   */
  apiPixUrl?: string | undefined;
  tokenUrl: string;
  /** `json` (Efí: `{"grant_type":"client_credentials"}`) or `form` (RFC 6749 4.4.2); default json. */
  tokenFormat?: 'json' | 'form' | undefined;
  /** Scopes to ask for (space-separated); default none named. */
  scopes?: string | undefined;
  clientId: string;
  clientSecret: string;
  /** PEM of the client certificate and its key (mutual TLS); absent only for a plain-HTTP test upstream. */
  cert?: string | undefined;
  key?: string | undefined;
  /** PEM of the CA of the provider's server certificate (default: the system's CAs). */
  ca?: string | undefined;
  /** One attempt's time limit. */
  timeoutMs?: number;
  /** Attempts of an operation that may be repeated (1 = no retry). */
  attempts?: number;
  /** First retry delay; later ones double, each randomised x1-2 (jitter). */
  retryBaseMs?: number;
  /** The breaker opens after this many failed attempts in a row… */
  breakerThreshold?: number;
  /** …and lets one attempt through again after this long. */
  breakerResetMs?: number;
}

/** How one attempt ended when it did not give an answer. */
export type AttemptFailureKind = 'timeout' | 'dropped' | 'unreachable' | 'status' | 'garbled' | 'breaker_open' | 'token_refused' | 'unauthorized';

/** An attempt without a usable answer. `maybeDelivered`: the provider may have received (and acted on) it. */
export class AttemptFailure extends Error {
  readonly kind: AttemptFailureKind;
  readonly status: number | undefined;
  readonly maybeDelivered: boolean;

  constructor(kind: AttemptFailureKind, detail: string, options: { status?: number; maybeDelivered: boolean }) {
    super(`provider ${kind}: ${detail}`);
    this.name = 'AttemptFailure';
    this.kind = kind;
    this.status = options.status;
    this.maybeDelivered = options.maybeDelivered;
  }
}

/** Every attempt of an operation failed; `maybeDelivered` if any of them may have reached the provider. */
export class UpstreamUnavailable extends Error {
  readonly last: AttemptFailure;
  readonly maybeDelivered: boolean;

  constructor(last: AttemptFailure, maybeDelivered: boolean) {
    super(last.message);
    this.name = 'UpstreamUnavailable';
    this.last = last;
    this.maybeDelivered = maybeDelivered;
  }
}

/** An answer of the provider: its status, the parsed success body or the parsed error. */
export interface Answer<T> {
  status: number;
  data: T | undefined;
  error: UpstreamError | undefined;
}

/** The provider's error body: API Pix's problem+json or Efí's `{nome, mensagem}`. */
export interface UpstreamError {
  /** The problem's `type` (last path segment, e.g. `CobNaoEncontrado`) or Efí's `nome`. */
  name: string;
  message: string;
  correlationId?: string | undefined;
}

type Problema = components['schemas']['Problema'];
type Erro = components['schemas']['Erro'];

function errorOf(body: unknown): UpstreamError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const problem = body as Partial<Problema>;
  if (typeof problem.type === 'string') {
    return { name: problem.type.split('/').pop() ?? problem.type, message: problem.detail ?? problem.title ?? '', correlationId: problem.correlationId };
  }
  const efi = body as Partial<Erro>;
  if (typeof efi.nome === 'string') return { name: efi.nome, message: efi.mensagem ?? '' };
  return undefined;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A thrown fetch error as an attempt failure: was the request possibly delivered? */
function classify(error: unknown): AttemptFailure {
  if (error instanceof AttemptFailure) return error;
  const name = (error as { name?: unknown }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return new AttemptFailure('timeout', 'no answer in time', { maybeDelivered: true });
  if (error instanceof SyntaxError) return new AttemptFailure('garbled', 'unreadable answer', { maybeDelivered: true });
  const code = causeCode(error);
  if (code !== undefined && (UNREACHABLE_CODES.has(code) || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS'))) {
    return new AttemptFailure('unreachable', code, { maybeDelivered: false });
  }
  return new AttemptFailure('dropped', code ?? (error instanceof Error ? error.message : String(error)), { maybeDelivered: true });
}

export class EfiTransport {
  readonly client: UpstreamClient;
  private readonly agent: Agent;
  private readonly options: Required<Omit<EfiTransportOptions, 'cert' | 'key' | 'ca' | 'scopes'>> & { scopes: string | undefined };
  private readonly breaker: CircuitBreaker<[() => Promise<Answer<unknown>>], Answer<unknown>>;
  private token: { value: string; expiresAtMs: number } | undefined;
  private pendingToken: Promise<string> | undefined;
  private readonly deps: { clock: Clock; logger: Logger; metrics: Metrics };

  constructor(options: EfiTransportOptions, deps: { clock: Clock; logger: Logger; metrics: Metrics }) {
    this.deps = deps;
    this.options = {
      baseUrl: options.baseUrl.replace(/\/$/, ''),
      apiPixUrl: (options.apiPixUrl ?? `${options.baseUrl.replace(/\/$/, '')}/v2`).replace(/\/$/, ''),
      tokenUrl: options.tokenUrl,
      tokenFormat: options.tokenFormat ?? 'json',
      scopes: options.scopes,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      timeoutMs: options.timeoutMs ?? 10_000,
      attempts: options.attempts ?? 3,
      retryBaseMs: options.retryBaseMs ?? 200,
      breakerThreshold: options.breakerThreshold ?? 10,
      breakerResetMs: options.breakerResetMs ?? 15_000,
    };
    this.agent = new Agent({
      connect: { cert: options.cert, key: options.key, ca: options.ca, minVersion: 'TLSv1.2', rejectUnauthorized: true },
      keepAliveTimeout: 10_000,
      connections: 32,
    });
    const agent = this.agent;
    // API Pix's paths (`/v2/...` but Efí's `/v2/gn/...`) go below the API Pix base URL, whatever it ends with.
    const efiRoot = `${this.options.baseUrl}/v2/`;
    const apiPixRoot = `${this.options.apiPixUrl}/`;
    const routed = (url: string) => (url.startsWith(efiRoot) && !url.startsWith(`${efiRoot}gn/`) ? apiPixRoot + url.slice(efiRoot.length) : url);
    // openapi-fetch hands a WHATWG Request; undici's fetch sends it through the mutual-TLS agent.
    const upstreamFetch = async (request: Request): Promise<Response> => {
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      const answer = await undiciFetch(routed(request.url), { method: request.method, headers: [...request.headers], body, dispatcher: agent, signal: request.signal });
      // undici's Response is the same WHATWG Response class Node's global fetch returns (another copy of it).
      return answer as unknown as Response;
    };
    this.client = createClient<paths>({ baseUrl: this.options.baseUrl, fetch: upstreamFetch });
    this.breaker = new CircuitBreaker((attempt: () => Promise<Answer<unknown>>) => attempt(), {
      timeout: false,
      // Open when, over the last 10 s, at least `breakerThreshold` attempts were made and half of them failed.
      volumeThreshold: this.options.breakerThreshold,
      errorThresholdPercentage: 50,
      rollingCountTimeout: 10_000,
      resetTimeout: this.options.breakerResetMs,
      // Only failures of the provider count (a 4xx is an answer, not an outage).
      errorFilter: (error: unknown) => !(error instanceof AttemptFailure),
    });
    this.breaker.on('open', () => this.deps.logger.warn('payment provider circuit opened: calls fail at once until it answers again', { resetMs: this.options.breakerResetMs }));
    this.breaker.on('close', () => this.deps.logger.info('payment provider circuit closed', {}));
  }

  /**
   * A request outside the provider's contract, through the same mutual-TLS agent: the fake provider's
   * control API (`/_fake/...`, development and tests only). Answers the status and the parsed body.
   */
  async control(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const response = await undiciFetch(`${new URL(this.options.baseUrl).origin}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: this.agent,
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed };
  }

  /** Attempts of a repeatable operation (the fake's sandbox makes a fault last through all of them). */
  get attempts(): number {
    return this.options.attempts;
  }

  /** The breaker's state, for /ready's detail and tests. */
  get circuit(): 'closed' | 'open' | 'half_open' {
    return this.breaker.opened ? 'open' : this.breaker.halfOpen ? 'half_open' : 'closed';
  }

  async close(): Promise<void> {
    this.breaker.shutdown();
    await this.agent.close();
  }

  /**
   * Runs one upstream operation: `send(signal, token)` is one attempt through openapi-fetch. A 401 fetches
   * a new token once. 5xx, 429, timeouts, dropped connections and unreachable hosts are retried when
   * `repeatable`; an unreachable host (nothing sent) is retried even when not. Resolves with any other
   * answer (2xx, 4xx); rejects with UpstreamUnavailable when no attempt gave one.
   */
  async call<T>(
    operation: string,
    repeatable: boolean,
    send: (init: { signal: AbortSignal; headers: Record<string, string> }) => Promise<{ data?: T; error?: unknown; response: Response }>,
  ): Promise<Answer<T>> {
    let maybeDelivered = false;
    let refreshed = false;
    const attempt = async (): Promise<Answer<T>> => {
      const started = performance.now();
      let outcome = 'ok';
      try {
        const token = await this.accessToken();
        const answer = (await this.breaker.fire(async () => {
          const { data, error, response } = await send({ signal: AbortSignal.timeout(this.options.timeoutMs), headers: { Authorization: `Bearer ${token}` } }).catch((thrown: unknown) => {
            throw classify(thrown);
          });
          const status = response.status;
          if (status >= 500 || status === 429) {
            const upstream = errorOf(error);
            this.logError(operation, status, upstream);
            throw new AttemptFailure('status', `${status}${upstream ? ` ${upstream.name}` : ''}`, { status, maybeDelivered: false });
          }
          return { status, data, error: status >= 400 ? errorOf(error) : undefined } as Answer<unknown>;
        })) as Answer<T>;
        if (answer.status === 401 && !refreshed) {
          refreshed = true;
          this.token = undefined;
          outcome = '401';
          throw new AttemptFailure('unauthorized', '401: token refused, fetching a new one', { status: 401, maybeDelivered: false });
        }
        if (answer.status >= 400) outcome = String(answer.status);
        return answer;
      } catch (error) {
        const failure = (error as { code?: unknown }).code === 'EOPENBREAKER' ? new AttemptFailure('breaker_open', 'circuit open', { maybeDelivered: false }) : classify(error);
        if (outcome === 'ok') outcome = failure.kind === 'status' ? String(failure.status) : failure.kind;
        if (failure.maybeDelivered) maybeDelivered = true;
        throw failure;
      } finally {
        this.deps.metrics.providerCalls.observe({ operation, outcome }, (performance.now() - started) / 1000);
      }
    };
    try {
      return await pRetry(attempt, {
        retries: this.options.attempts - 1,
        minTimeout: this.options.retryBaseMs,
        factor: 2,
        randomize: true,
        maxTimeout: 5_000,
        // The one retry after a refused token (at most once: `refreshed`) costs no attempt.
        shouldConsumeRetry: ({ error }) => !(error instanceof AttemptFailure && error.kind === 'unauthorized'),
        shouldRetry: ({ error }) => {
          if (!(error instanceof AttemptFailure)) return false;
          switch (error.kind) {
            case 'unauthorized':
            case 'unreachable':
              return true;
            // The circuit is open, the credentials are refused, or the provider said yes and its answer was
            // cut: sending again changes nothing.
            case 'breaker_open':
            case 'token_refused':
            case 'garbled':
              return false;
            default:
              return repeatable;
          }
        },
      });
    } catch (error) {
      if (error instanceof AttemptFailure) throw new UpstreamUnavailable(error, maybeDelivered);
      if (error instanceof AbortError) throw error;
      throw error;
    }
  }

  /**
   * A failure of the provider (5xx, 429) is a warning; a 4xx is an answer the operation handles (a duplicate
   * read back, a refusal becoming a failed withdrawal), logged by the operation when it matters.
   */
  private logError(operation: string, status: number, error: UpstreamError | undefined): void {
    this.deps.logger.warn('payment provider failed', {
      operation,
      status,
      type: error?.name,
      correlationId: error?.correlationId,
      detail: error?.message?.slice(0, 200),
    });
  }

  /** The bearer token: reused until a minute before it expires; one request at a time fetches a new one. */
  async accessToken(): Promise<string> {
    const nowMs = this.deps.clock.now();
    if (this.token && nowMs < this.token.expiresAtMs) return this.token.value;
    this.pendingToken ??= this.fetchToken().finally(() => {
      this.pendingToken = undefined;
    });
    return this.pendingToken;
  }

  /**
   * The token request as the profile sends it, the client's credentials in Basic: Efí's JSON body with the
   * id and secret as they are (Efí's documents), or RFC 6749's form (4.4.2) with them form-encoded first
   * (its 2.3.1; the same for the characters credentials are made of).
   */
  private tokenRequest(): { contentType: string; body: string; basic: string } {
    type TokenRequest = paths['/oauth/token']['post']['requestBody']['content']['application/json'];
    const request: TokenRequest = { grant_type: 'client_credentials', ...(this.options.scopes ? { scope: this.options.scopes } : {}) };
    const { clientId, clientSecret } = this.options;
    if (this.options.tokenFormat === 'form') {
      const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
      return { contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams(request).toString(), basic: `${encode(clientId)}:${encode(clientSecret)}` };
    }
    return { contentType: 'application/json', body: JSON.stringify(request), basic: `${clientId}:${clientSecret}` };
  }

  private async fetchToken(): Promise<string> {
    const request = this.tokenRequest();
    const started = performance.now();
    let outcome = 'ok';
    try {
      const response = await undiciFetch(this.options.tokenUrl, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(request.basic).toString('base64')}`,
          'Content-Type': request.contentType,
        },
        body: request.body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      }).catch((thrown: unknown) => {
        throw classify(thrown);
      });
      if (response.status !== 200) {
        outcome = String(response.status);
        const error = errorOf(await response.json().catch(() => undefined));
        this.logError('requestToken', response.status, error);
        // A provider failure is retried as any; refused credentials are not (they will not change).
        const kind = response.status >= 500 || response.status === 429 ? 'status' : 'token_refused';
        throw new AttemptFailure(kind, `token ${response.status}`, { status: response.status, maybeDelivered: false });
      }
      const token = (await response.json().catch(() => {
        throw new AttemptFailure('garbled', 'unreadable token', { maybeDelivered: false });
      })) as Partial<components['schemas']['Token']>;
      if (typeof token.access_token !== 'string' || typeof token.expires_in !== 'number') {
        throw new AttemptFailure('garbled', 'token without access_token/expires_in', { maybeDelivered: false });
      }
      // Renewed a minute early (or at half its life when it is short).
      const marginMs = Math.min(60_000, (token.expires_in * 1000) / 2);
      this.token = { value: token.access_token, expiresAtMs: this.deps.clock.now() + token.expires_in * 1000 - marginMs };
      return token.access_token;
    } catch (error) {
      const failure = classify(error);
      if (outcome === 'ok') outcome = failure.kind;
      throw failure;
    } finally {
      this.deps.metrics.providerCalls.observe({ operation: 'requestToken', outcome }, (performance.now() - started) / 1000);
    }
  }
}
