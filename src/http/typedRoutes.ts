import type { Request, Response, Router } from 'express';
import { retryWhileUnavailable, SWITCHOVER_RETRY_MS } from '../db/unavailable.ts';

/**
 * Routes declared by their OpenAPI path and typed from the generated contract types (openapi-typescript's
 * `paths`): the handler's `req.params`, `req.body` and `res.json()` take the operation's own types, so no
 * request or response shape is written by hand and none is cast. The validator has already checked the
 * request against the same document before a handler runs.
 *
 *   const api = typedRoutes<paths>(router);
 *   api.post('/v1/pix', async (req, res) => { req.body.amountCents ... });
 */

type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths of the document that have an operation for `M`. */
type PathsWith<Paths, M extends HttpMethod> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: infer Op } ? (Op extends object ? P : never) : never;
}[keyof Paths] &
  string;

type OperationOf<Paths, P extends keyof Paths, M extends HttpMethod> = Paths[P] extends { [K in M]: infer Op } ? Op : never;

type JsonOf<T> = T extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON body of the operation; undefined when it takes none (or when it is optional and absent). */
export type RequestBodyOf<Op> = Op extends { requestBody: infer B }
  ? JsonOf<B>
  : Op extends { requestBody?: infer B }
    ? JsonOf<NonNullable<B>> | undefined
    : undefined;

export type PathParamsOf<Op> = Op extends { parameters: { path: infer P } } ? P : Record<string, never>;

/** Query parameters as received (strings): the validator checks them, the handler converts what it needs. */
export type RawQueryOf<Op> = Op extends { parameters: { query?: infer Q } }
  ? [NonNullable<Q>] extends [never]
    ? Record<string, never>
    : { [K in keyof NonNullable<Q>]?: string }
  : Record<string, never>;

/** Every JSON body the operation documents, success and error alike. */
export type ResponseBodyOf<Op> = Op extends { responses: infer R } ? { [S in keyof R]: JsonOf<R[S]> }[keyof R] : never;

export type OperationRequest<Op> = Request<PathParamsOf<Op>, ResponseBodyOf<Op>, RequestBodyOf<Op>, RawQueryOf<Op>>;
export type OperationResponse<Op> = Response<ResponseBodyOf<Op>>;
export type OperationHandler<Op> = (req: OperationRequest<Op>, res: OperationResponse<Op>) => Promise<void> | void;

type Register<Paths, M extends HttpMethod> = <P extends PathsWith<Paths, M>>(
  path: P,
  handler: OperationHandler<OperationOf<Paths, P, M>>,
) => void;

export type TypedRoutes<Paths> = { [M in HttpMethod]: Register<Paths, M> };

/** `/v1/transactions/{id}` → `/v1/transactions/:id` */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * A GET whose database connection broke under it (a failover, a switchover, a server restarting) is run
 * again on fresh connections before its error is answered. Every GET handler only reads, so running it
 * twice is safe; one whose answer has started streaming is never started again.
 */
function retryingRead<Op>(handler: OperationHandler<Op>): OperationHandler<Op> {
  return (req, res) =>
    retryWhileUnavailable(async () => handler(req, res), { timeoutMs: SWITCHOVER_RETRY_MS, firstPauseMs: 100, mayRetry: () => !res.headersSent });
}

export function typedRoutes<Paths>(router: Router): TypedRoutes<Paths> {
  const register =
    <M extends HttpMethod>(method: M): Register<Paths, M> =>
    (path, handler) => {
      router[method]<string, PathParamsOf<OperationOf<Paths, typeof path, M>>, ResponseBodyOf<OperationOf<Paths, typeof path, M>>, RequestBodyOf<OperationOf<Paths, typeof path, M>>, RawQueryOf<OperationOf<Paths, typeof path, M>>>(
        expressPath(path),
        method === 'get' ? retryingRead(handler) : handler,
      );
    };
  return { get: register('get'), post: register('post'), put: register('put'), patch: register('patch'), delete: register('delete') };
}
