import type { RequestHandler, Response } from 'express';
import { ApiError } from './errors.ts';
import { messages } from '../messages/merchant.ts';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface RouteEntry {
  pattern: RegExp;
  methods: string[];
  /** The document's operation per method (its operationId names the metrics label and access-log field). */
  operations: Record<string, Record<string, unknown>>;
}

export interface SpecPaths {
  paths?: Record<string, Partial<Record<(typeof HTTP_METHODS)[number], unknown>> | undefined>;
}

/**
 * Answers unknown routes (404) and known routes with an unknown method (405 with `Allow`) before
 * authentication runs, so a typo in a path never looks like a credentials problem.
 */
export interface RouteGuardTexts {
  notFound: string;
  methodNotAllowed: (allowed: string) => string;
}

/** Names the operation a request reached (metrics label and access-log field). */
export function setOperation(res: Response, operation: string): void {
  res.locals.operation = operation;
}

/** The operation a request reached, or `unmatched` (an unknown path or method). */
export function operationOf(res: Response): string {
  return typeof res.locals.operation === 'string' ? res.locals.operation : 'unmatched';
}

const merchantTexts: RouteGuardTexts = { notFound: messages.routeNotFound, methodNotAllowed: messages.methodNotAllowed };

function routesOf(spec: SpecPaths): RouteEntry[] {
  return Object.entries(spec.paths ?? {}).map(([template, item]) => {
    const methods = HTTP_METHODS.filter((method) => item?.[method] !== undefined);
    return {
      pattern: new RegExp(
        `^${template
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}/?$`,
      ),
      methods: methods.map((method) => method.toUpperCase()),
      operations: Object.fromEntries(methods.map((method) => [method.toUpperCase(), (item?.[method] ?? {}) as Record<string, unknown>])),
    };
  });
}

/** The document's operation for a method and path (undefined when there is none). */
export function operationMatcher(spec: SpecPaths): (method: string, path: string) => Record<string, unknown> | undefined {
  const routes = routesOf(spec);
  return (method, path) => routes.find((candidate) => candidate.pattern.test(path))?.operations[method];
}

export function routeGuard(spec: SpecPaths, texts: RouteGuardTexts = merchantTexts): RequestHandler {
  const routes = routesOf(spec);

  return (req, res, next) => {
    const path = req.baseUrl + req.path;
    const route = routes.find((candidate) => candidate.pattern.test(path));
    if (!route) return next(new ApiError(404, texts.notFound));
    const operationId = route.operations[req.method]?.operationId;
    if (typeof operationId === 'string') setOperation(res, operationId);
    if (!route.methods.includes(req.method)) {
      const allowed = route.methods.join(', ');
      return next(new ApiError(405, texts.methodNotAllowed(allowed), { headers: { Allow: allowed } }));
    }
    next();
  };
}
