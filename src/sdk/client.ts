/**
 * `pixgate/client`: the merchant API client, built on openapi-fetch and the types generated from the
 * contract (`generated/api-types.ts`).
 *
 *   const pixgate = createClient({ baseUrl: 'https://api.pixgate.com.br', apiKey: process.env.PIXGATE_API_KEY });
 *   const { data: charge, response } = await pixgate.POST('/v1/pix', { body: { amountCents: 1000, customer } });
 *   // response.status: 201 new charge, 200 idempotent replay of the same externalRef
 *
 * Every path, parameter, body and answer is typed per operation from the contract. A 2xx answer resolves
 * with `{ data, response }` (`data` always present); any other answer rejects with a `PixGateError`
 * carrying the HTTP status and the contract's message (`{ "error": "…" }`, in Portuguese). A request that
 * got no answer at all (network error) rejects with fetch's own error: repeat a POST with the same
 * `externalRef`, it is idempotent.
 *
 * Every operation of the contract is there as soon as `npm run generate` adds it to `paths`, e.g. a refund:
 *
 *   await pixgate.POST('/v1/transactions/{id}/refunds', { params: { path: { id } }, body: { amountCents: 500 } });
 *
 * This module is part of the published integration kit: it imports nothing of the gateway, only the
 * generated types (docs/architecture.md). `npm run build:kit` compiles it to JavaScript with declarations
 * for the kit's package (kit/, docs/integration.md).
 */
import createFetchClient from 'openapi-fetch';
import type { FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from '../../generated/api-types.ts';

export type { components, operations, paths } from '../../generated/api-types.ts';

export interface ClientOptions {
  /** The API's address, e.g. `https://api.pixgate.com.br` or `http://127.0.0.1:3000`, without `/v1`. */
  baseUrl: string;
  /** The account's API key (`pixg_…`), sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Another fetch implementation (tests, proxies); global fetch by default. */
  fetch?: (input: Request) => Promise<Response>;
}

/** An answer of the API outside 2xx: its status and the contract's message. */
export class PixGateError extends Error {
  override readonly name = 'PixGateError';
  /** The HTTP status (400, 401, 403, 404, 409, 413, 415, 422, 429, 5xx…). */
  readonly status: number;
  /** `METHOD /path` of the request, as written in the contract (`POST /v1/withdraw`). */
  readonly operation: string;
  /** The whole body of the answer (parsed JSON when it was JSON). */
  readonly body: unknown;
  /** The answer's headers (`Retry-After` of a 429, `X-Request-Id` to quote to support). */
  readonly headers: Headers;

  constructor(status: number, operation: string, body: unknown, headers: Headers) {
    super(messageOf(body) ?? `HTTP ${status}`);
    this.status = status;
    this.operation = operation;
    this.body = body;
    this.headers = headers;
  }
}

/** The contract's error text: `{ "error": "<message>" }`. */
function messageOf(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string') return body.error;
  if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 500);
  return undefined;
}

type Method = 'get' | 'post' | 'patch';
/**
 * The init argument of one operation (`params`, `body`, `headers`, `parseAs`…), optional when the
 * operation needs no parameter and no body. Not inferred from the call (unlike openapi-fetch's own
 * methods), so an object literal with a field the contract does not have is a type error, as the server's
 * 400 would be.
 */
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never }[keyof paths];
type Init<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M>;
/** How the body of a 2xx answer is read: JSON by default; binary answers (the QR code image) otherwise. */
type ParseAs = 'json' | 'text' | 'blob' | 'arrayBuffer' | 'stream';
type Parsed<T, A extends ParseAs> = A extends 'text'
  ? string
  : A extends 'blob'
    ? Blob
    : A extends 'arrayBuffer'
      ? ArrayBuffer
      : A extends 'stream'
        ? ReadableStream<Uint8Array> | null
        : T;
type WithParseAs<I, A extends ParseAs> = Omit<NonNullable<I>, 'parseAs'> & { parseAs?: A };
type InitArg<I, A extends ParseAs> = undefined extends I ? [init?: WithParseAs<I, A>] : [init: WithParseAs<I, A>];
/** A 2xx answer: openapi-fetch's typed `data` (always there: any other answer rejects) and the response. */
export interface Answer<T> {
  data: T;
  response: Response;
}
type Data<P extends keyof paths, M extends Method> = NonNullable<FetchResponse<paths[P][M] & Record<string | number, unknown>, Init<P, M>, `${string}/${string}`>['data']>;

export interface PixGateClient {
  GET<P extends PathsWith<'get'>, A extends ParseAs = 'json'>(path: P, ...init: InitArg<Init<P, 'get'>, A>): Promise<Answer<Parsed<Data<P, 'get'>, A>>>;
  POST<P extends PathsWith<'post'>, A extends ParseAs = 'json'>(path: P, ...init: InitArg<Init<P, 'post'>, A>): Promise<Answer<Parsed<Data<P, 'post'>, A>>>;
  PATCH<P extends PathsWith<'patch'>, A extends ParseAs = 'json'>(path: P, ...init: InitArg<Init<P, 'patch'>, A>): Promise<Answer<Parsed<Data<P, 'patch'>, A>>>;
}

export function createClient(options: ClientOptions): PixGateClient {
  if (!options.apiKey) throw new TypeError('createClient: apiKey is required');
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // One place for every verb: openapi-fetch's generic request, then non-2xx turned into PixGateError. The
  // types of each path are enforced by PixGateClient's signatures; here the call is untyped on purpose.
  const request = client.request as (method: Method, path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const call = async (method: Method, path: string, init: object | undefined) => {
    const result = await request(method, path, init);
    if (!result.response.ok) {
      throw new PixGateError(result.response.status, `${method.toUpperCase()} ${path}`, result.error, result.response.headers);
    }
    return result;
  };
  return {
    GET: ((path: string, init?: object) => call('get', path, init)) as PixGateClient['GET'],
    POST: ((path: string, init?: object) => call('post', path, init)) as PixGateClient['POST'],
    PATCH: ((path: string, init?: object) => call('patch', path, init)) as PixGateClient['PATCH'],
  };
}
