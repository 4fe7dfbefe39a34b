import type { ErrorRequestHandler, Request } from 'express';
import { ApiError } from './errors.ts';
import { messages } from './messages.ts';
import { translateValidationIssues, type ValidatorIssue } from './translate.ts';

interface HttpLikeError {
  status?: number;
  type?: string;
  errors?: ValidatorIssue[];
  message?: string;
}

function asHttpLike(error: unknown): HttpLikeError {
  return error !== null && typeof error === 'object' ? (error as HttpLikeError) : {};
}

function operationIdOf(req: Request): string | undefined {
  // express-openapi-validator attaches the matched operation to the request before validating it.
  const openapi = (req as Request & { openapi?: { schema?: { operationId?: string } } }).openapi;
  return openapi?.schema?.operationId;
}

function rawQuery(req: Request): URLSearchParams {
  const index = req.originalUrl.indexOf('?');
  return new URLSearchParams(index === -1 ? '' : req.originalUrl.slice(index + 1));
}

/** Maps anything thrown while serving a request to the contract's status and Portuguese message. */
export function toApiError(error: unknown, req: Request): ApiError {
  if (error instanceof ApiError) return error;
  const http = asHttpLike(error);
  // body-parser (express.json) failures.
  if (http.type === 'entity.parse.failed') return new ApiError(400, messages.malformedJson);
  if (http.type === 'entity.too.large') return new ApiError(413, messages.payloadTooLarge);
  if (http.type === 'encoding.unsupported' || http.type === 'charset.unsupported') {
    return new ApiError(415, messages.unsupportedMediaType);
  }
  // Postgres refuses text it cannot store (a NUL character, U+0000): the input is invalid, not our failure.
  if ((error as { code?: string } | null)?.code === '22021' || (error as { code?: string } | null)?.code === '22P05') {
    return new ApiError(400, messages.unstorableText);
  }
  // express-openapi-validator failures carry `status` and `errors`.
  if (Array.isArray(http.errors) && typeof http.status === 'number') {
    switch (http.status) {
      case 400:
        return translateValidationIssues(operationIdOf(req), http.errors, {
          body: req.body,
          query: rawQuery(req),
          params: (req.params ?? {}) as Record<string, string>,
        });
      case 404:
        return new ApiError(404, messages.routeNotFound);
      case 405:
        return new ApiError(405, messages.methodNotAllowed(''));
      case 413:
        return new ApiError(413, messages.payloadTooLarge);
      case 415:
        return new ApiError(415, messages.unsupportedMediaType);
      case 406:
        return new ApiError(406, messages.notAcceptable);
      default:
        break;
    }
  }
  return new ApiError(500, messages.internalError);
}

export interface Logger {
  error(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
}

export const consoleLogger: Logger = {
  error: (message, details) => console.error(JSON.stringify({ level: 'error', message, ...details })),
  info: (message, details) => console.log(JSON.stringify({ level: 'info', message, ...details })),
};

/** The single error middleware: every failure leaves as `{ "error": "<mensagem>" }`. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const apiError = toApiError(error, req);
    if (apiError.status >= 500 && !(error instanceof ApiError)) {
      // Never log request headers or bodies: they carry API keys and personal data.
      logger.error('unhandled error', {
        method: req.method,
        path: req.path,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
    }
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(apiError.headers ?? {})) res.setHeader(name, value);
    res.status(apiError.status).json({ error: apiError.message, ...apiError.extra });
  };
}
