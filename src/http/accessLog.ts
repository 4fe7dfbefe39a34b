import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { Deps } from '../platform/deps.ts';
import { operationOf } from './routeGuard.ts';

/** Which listener a request came in on (a metrics label and a log field). */
export type Listener = 'merchant' | 'internal';

/** A caller's X-Request-Id is kept when it is sane (short, printable, no spaces); otherwise one is made. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
export const REQUEST_ID_HEADER = 'X-Request-Id';

function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * One JSON access line per request (pino-http) with the request id (echoed in `X-Request-Id`), the
 * operation, the status and the duration, and the HTTP metrics of the same request. Headers that carry
 * credentials are redacted by the logger (src/platform/logger.ts); bodies are never logged.
 */
export function accessLog(deps: Pick<Deps, 'logger' | 'metrics'>, listener: Listener): RequestHandler[] {
  const logging = pinoHttp({
    logger: deps.logger.pino.child({ listener }),
    genReqId: requestIdOf,
    customAttributeKeys: { responseTime: 'durationMs' },
    // 5xx is worth a look (a 502 is the PSP failing); the unhandled ones are also logged as errors.
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'warn' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${(req as { originalUrl?: string }).originalUrl ?? req.url} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${(req as { originalUrl?: string }).originalUrl ?? req.url} ${res.statusCode}`,
    // Added when the answer is finished: the operation is known only once the route guard has matched it.
    customSuccessObject: (req, res, line: object) => ({ ...line, requestId: req.id, operation: operationOf(res as unknown as Response) }),
    customErrorObject: (req, res, _error, line: object) => ({ ...line, requestId: req.id, operation: operationOf(res as unknown as Response) }),
    serializers: {
      req: (req: { id: unknown; method: string; url: string; headers: Record<string, unknown>; remoteAddress?: string }) => ({
        method: req.method,
        url: req.url,
        remoteAddress: req.remoteAddress,
        headers: req.headers,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  const measuring: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const labels = { listener, operation: operationOf(res), method: req.method, status: String(res.statusCode) };
      deps.metrics.httpRequests.inc(labels);
      deps.metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
  return [logging as unknown as RequestHandler, measuring];
}
