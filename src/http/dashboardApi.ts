import express, { type RequestHandler, Router } from 'express';
import { accountRoutes } from '../dashboard/account.routes.ts';
import { apiKeyRoutes } from '../dashboard/apiKeys.routes.ts';
import { chargeRoutes } from '../dashboard/charges.routes.ts';
import { dueChargeRoutes } from '../dashboard/dueCharges.routes.ts';
import { paymentLinkRoutes } from '../dashboard/paymentLinks.routes.ts';
import { recurrenceRoutes } from '../dashboard/recurrences.routes.ts';
import { exportRoutes } from '../dashboard/exports.routes.ts';
import { infractionRoutes } from '../dashboard/infractions.routes.ts';
import { moneyOutRoutes } from '../dashboard/moneyOut.routes.ts';
import { overviewRoutes } from '../dashboard/overview.routes.ts';
import { sandboxRoutes } from '../dashboard/sandbox.routes.ts';
import { sessionRoutes } from '../dashboard/session.routes.ts';
import { staticQrCodeRoutes } from '../dashboard/staticQrCodes.routes.ts';
import { twoFactorRoutes } from '../dashboard/twoFactor.routes.ts';
import { userRoutes } from '../dashboard/users.routes.ts';
import { webhookRoutes } from '../dashboard/webhooks.routes.ts';
import { messages } from '../messages/merchant.ts';
import type { Deps } from '../platform/deps.ts';
import { dashboardAccess } from './dashboardAccess.ts';
import { errorMiddleware } from './errorMiddleware.ts';
import { ApiError } from './errors.ts';
import { routeGuard } from './routeGuard.ts';
import type { OpenApiDocument } from './spec.ts';
import { openApiValidator } from './validator.ts';

const JSON_BODY_LIMIT = '64kb';

/** Bodies are JSON: a POST, PATCH or DELETE that sends one of another type is a 415 before it is read. */
const requireJson: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (hasBody && !req.is('application/json')) return next(new ApiError(415, messages.unsupportedMediaType));
  next();
};

/**
 * The dashboard's API under /dashboard/api/v1, in the order a request meets it: unknown route or method
 * (404/405) → session, second factor, CSRF token and role, as the dashboard document declares them per
 * operation (401/403) → Content-Type (415) → JSON (400/413) → validation against openapi/dashboard (400
 * with the field) → the operation. Errors answer in Portuguese with the form field (`field`).
 */
export function dashboardApi(deps: Deps, spec: OpenApiDocument): Router {
  const router = Router();
  router.use(routeGuard(spec));
  router.use(dashboardAccess(deps, spec));
  router.use(requireJson);
  router.use(express.json({ limit: JSON_BODY_LIMIT, strict: false }));
  router.use(openApiValidator(spec, deps.config.validateResponses));
  sessionRoutes(router, deps);
  twoFactorRoutes(router, deps);
  userRoutes(router, deps);
  overviewRoutes(router, deps);
  accountRoutes(router, deps);
  exportRoutes(router, deps);
  apiKeyRoutes(router, deps);
  webhookRoutes(router, deps);
  moneyOutRoutes(router, deps);
  infractionRoutes(router, deps);
  chargeRoutes(router, deps);
  dueChargeRoutes(router, deps);
  paymentLinkRoutes(router, deps);
  staticQrCodeRoutes(router, deps);
  recurrenceRoutes(router, deps);
  sandboxRoutes(router, deps);
  router.use(errorMiddleware(deps.logger, 'dashboard'));
  return router;
}
