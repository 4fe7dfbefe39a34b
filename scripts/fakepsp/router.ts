/**
 * A small router: a route is a method, a path with `:name` parameters, the fault operation it counts as
 * (API routes), whether it needs the OAuth2 bearer token and which scope (the standard's `security`), how
 * its body is read, and a handler returning a `Reply`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from './replies.ts';
import type { FaultOperation } from './types.ts';

export interface RequestContext {
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body (the raw text on a `rawBody` route); undefined when empty. */
  body: unknown;
  headers: IncomingHttpHeaders;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The fault operation of an API route; undefined for the control API and unfaultable routes. */
  operation: FaultOperation | undefined;
  /** Needs a valid bearer token (every API route but the token call). */
  bearer: boolean;
  /** The OAuth2 scope the standard's `security` names for the operation (checked in the standard profile). */
  scope: string | undefined;
  /** The handler gets the body as text, not parsed (the standard's form-encoded token request). */
  rawBody: boolean;
  /** A control-API route: client certificate only, never over the plain-HTTP port, not logged in `requests`. */
  control: boolean;
  handle(context: RequestContext): Reply | Promise<Reply>;
  pattern: RegExp;
  keys: string[];
}

export function route(
  method: Route['method'],
  path: string,
  options: { operation?: FaultOperation; bearer?: boolean; scope?: string; rawBody?: boolean; control?: boolean },
  handle: Route['handle'],
): Route {
  const keys: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      keys.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return {
    method,
    path,
    operation: options.operation,
    bearer: options.bearer ?? false,
    scope: options.scope,
    rawBody: options.rawBody ?? false,
    control: options.control ?? false,
    handle,
    pattern: new RegExp(`^${source}$`),
    keys,
  };
}

export type Match = { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined;

/** The route for the request; `{allowed}` when the path exists under other methods; undefined when unknown. */
export function match(routes: readonly Route[], method: string, pathname: string): Match {
  const allowed: string[] = [];
  for (const candidate of routes) {
    const found = candidate.pattern.exec(pathname);
    if (!found) continue;
    if (candidate.method !== method) {
      allowed.push(candidate.method);
      continue;
    }
    const params: Record<string, string> = {};
    candidate.keys.forEach((key, index) => {
      params[key] = decodeURIComponent(found[index + 1] ?? '');
    });
    return { route: candidate, params };
  }
  return allowed.length > 0 ? { allowed } : undefined;
}
