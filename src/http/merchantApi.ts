import express, { type RequestHandler, Router } from 'express';
import { balanceRoutes } from '../balance/balance.routes.ts';
import { chargeRoutes } from '../charges/charge.routes.ts';
import { dueChargeRoutes } from '../charges/dueCharge.routes.ts';
import type { Deps } from '../platform/deps.ts';
import { recipientRoutes } from '../recipients/recipient.routes.ts';
import { paymentLinkRoutes } from '../paymentLinks/paymentLink.routes.ts';
import { staticQrCodeRoutes } from '../staticQrCodes/staticQrCode.routes.ts';
import { recurrenceRoutes } from '../recurrences/recurrence.routes.ts';
import { transactionRoutes } from '../transactions/transaction.routes.ts';
import { refundRoutes } from '../refunds/refund.routes.ts';
import { withdrawalRoutes } from '../withdrawals/withdrawal.routes.ts';
import { ApiError } from './errors.ts';
import { messages } from '../messages/merchant.ts';
import { authenticate } from './merchantAuth.ts';
import { routeGuard } from './routeGuard.ts';
import type { OpenApiDocument } from './spec.ts';
import { openApiValidator } from './validator.ts';

const JSON_BODY_LIMIT = '64kb';
/** A batch of up to 500 charges with a due date (POST /v1/due-charge-batches) is larger than any other body. */
const BATCH_BODY_LIMIT = '1mb';

/**
 * An operation that takes no body (POST /v1/due-charges/{id}/cancel, POST /v1/static-qrcodes/{id}/deactivate):
 * sent without one, it needs no Content-Type.
 */
const BODILESS = /^\/v1\/(due-charges\/[^/]+\/cancel|recurrences\/[^/]+\/cancel|static-qrcodes\/[^/]+\/deactivate|payment-links\/[^/]+\/deactivate)$/;

/** POST and PATCH bodies must be JSON: anything else is a 415 before the body is read. */
const requireJson: RequestHandler = (req, _res, next) => {
  const empty = req.headers['content-type'] === undefined && (req.headers['content-length'] ?? '0') === '0' && req.headers['transfer-encoding'] === undefined;
  const bodiless = empty && BODILESS.test(req.path);
  if ((req.method === 'POST' || req.method === 'PATCH') && !bodiless && !req.is('application/json')) {
    return next(new ApiError(415, messages.unsupportedMediaType));
  }
  next();
};

/**
 * The merchant API under /v1, in the order a request meets it: unknown route/method (404/405) →
 * authentication and account checks (401/403) → Content-Type (415) → JSON parsing (400/413) →
 * validation against the contract (400 with the contract's message) → the operation.
 */
export function merchantApi(deps: Deps, spec: OpenApiDocument): Router {
  const router = Router();
  router.use(routeGuard(spec));
  router.use(authenticate(deps));
  router.use(requireJson);
  router.use('/v1/due-charge-batches', express.json({ limit: BATCH_BODY_LIMIT, strict: false }));
  router.use(express.json({ limit: JSON_BODY_LIMIT, strict: false }));
  router.use(openApiValidator(spec, deps.config.validateResponses));
  chargeRoutes(router, deps);
  dueChargeRoutes(router, deps);
  staticQrCodeRoutes(router, deps);
  paymentLinkRoutes(router, deps);
  recurrenceRoutes(router, deps);
  transactionRoutes(router, deps);
  balanceRoutes(router, deps);
  withdrawalRoutes(router, deps);
  refundRoutes(router, deps);
  recipientRoutes(router, deps);
  return router;
}
