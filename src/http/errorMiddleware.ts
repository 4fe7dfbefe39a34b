import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { operatorMessages } from '../messages/operator.ts';
import { messages } from '../messages/merchant.ts';
import { DomainError } from '../platform/domainError.ts';
import type { Logger } from '../platform/logger.ts';
import { answerFor, type Audience } from './errorMapping.ts';
import { ApiError } from './errors.ts';
import { translateForForms, translateForOperators, translateValidationIssues, type ValidatorIssue } from './translate.ts';

interface HttpLikeError {
  status?: number;
  type?: string;
  code?: string;
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

/** The transport-level texts of each audience (failures before a request reaches an operation). */
const merchantTransportTexts = {
  malformedJson: messages.malformedJson,
  payloadTooLarge: messages.payloadTooLarge,
  unsupportedMediaType: messages.unsupportedMediaType,
  unstorableText: messages.unstorableText,
  routeNotFound: messages.routeNotFound,
  methodNotAllowed: messages.methodNotAllowed(''),
  notAcceptable: messages.notAcceptable,
  internalError: messages.internalError,
};

const transportTexts = {
  merchant: merchantTransportTexts,
  dashboard: merchantTransportTexts,
  operator: {
    malformedJson: operatorMessages.malformedJson,
    payloadTooLarge: operatorMessages.payloadTooLarge,
    unsupportedMediaType: operatorMessages.unsupportedMediaType,
    unstorableText: operatorMessages.unstorableText,
    routeNotFound: operatorMessages.routeNotFound,
    methodNotAllowed: operatorMessages.methodNotAllowed(''),
    notAcceptable: operatorMessages.notAcceptable,
    internalError: operatorMessages.internalError,
  },
} as const satisfies Record<Audience, Record<string, string>>;

/**
 * Maps anything thrown while serving a request to the contract's status and the audience's message:
 * domain errors through the one mapping (`errorMapping.ts`), then body-parser, Postgres and validator
 * failures. Anything else is a 500.
 */
export function toApiError(error: unknown, req: Request, audience: Audience = 'merchant'): ApiError {
  if (error instanceof ApiError) return error;
  const texts = transportTexts[audience];
  if (error instanceof DomainError) return answerFor(error, audience) ?? new ApiError(500, texts.internalError);
  const http = asHttpLike(error);
  // body-parser (express.json) failures.
  if (http.type === 'entity.parse.failed') return new ApiError(400, texts.malformedJson);
  if (http.type === 'entity.too.large') return new ApiError(413, texts.payloadTooLarge);
  if (http.type === 'encoding.unsupported' || http.type === 'charset.unsupported') {
    return new ApiError(415, texts.unsupportedMediaType);
  }
  // Postgres refuses text it cannot store (a NUL character, U+0000): the input is invalid, not our failure.
  if (http.code === '22021' || http.code === '22P05') return new ApiError(400, texts.unstorableText);
  // express-openapi-validator failures carry `status` and `errors`.
  if (Array.isArray(http.errors) && typeof http.status === 'number') {
    switch (http.status) {
      case 400:
        if (audience === 'operator') return translateForOperators(http.errors);
        return (audience === 'dashboard' ? translateForForms : translateValidationIssues)(operationIdOf(req), http.errors, {
          body: req.body,
          query: rawQuery(req),
          params: (req.params ?? {}) as Record<string, string>,
        });
      case 404:
        return new ApiError(404, texts.routeNotFound);
      case 405:
        return new ApiError(405, texts.methodNotAllowed);
      case 413:
        return new ApiError(413, texts.payloadTooLarge);
      case 415:
        return new ApiError(415, texts.unsupportedMediaType);
      case 406:
        return new ApiError(406, texts.notAcceptable);
      default:
        break;
    }
  }
  return new ApiError(500, texts.internalError);
}

/** The error middleware of one API: every failure leaves as `{ "error": "<message>" }`. */
export function errorMiddleware(logger: Logger, audience: Audience = 'merchant'): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const apiError = toApiError(error, req, audience);
    // A 502 named by a domain error is an expected answer (the PSP failed); the database out of reach is an
    // outage, logged as one (the pool has already discarded the broken connection); anything else at 5xx is a bug.
    if (apiError.status === 500 && isDatabaseUnavailable(error)) {
      logger.warn('database unavailable: request answered 500', {
        method: req.method,
        path: req.path,
        code: asHttpLike(error).code,
        error: error instanceof Error ? error.message : String(error),
      });
    } else if (apiError.status >= 500 && !(error instanceof ApiError) && !(error instanceof DomainError && apiError.status !== 500)) {
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

/** The last handler of an app: whatever no router took is a JSON 404. */
export const routeNotFound: RequestHandler = (_req, _res, next) => next(new ApiError(404, messages.routeNotFound));
