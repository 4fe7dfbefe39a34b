import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import type { OpenApiDocument } from './spec.ts';

/**
 * Request validation always; response validation where `validateResponses` is on (development and tests
 * by default: it catches a handler that drifts from the contract; its cost is measured by the benchmark).
 * Security is checked by our own middleware (exact 401/403 messages), not by the validator.
 */
export function openApiValidator(apiSpec: OpenApiDocument, validateResponses: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    // The validator's types want its own OpenAPIV3.Document; our bundled JSON is one.
    apiSpec: apiSpec as unknown as Parameters<typeof OpenApiValidator.middleware>[0]['apiSpec'],
    validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateFormats: true,
    $refParser: { mode: 'dereference' },
    ignoreUndocumented: false,
  }) as unknown as RequestHandler[];
}
