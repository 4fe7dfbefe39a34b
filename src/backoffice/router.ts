import express, { Router } from 'express';
import { errorMiddleware } from '../http/errorMiddleware.ts';
import { routeGuard } from '../http/routeGuard.ts';
import type { OpenApiDocument } from '../http/spec.ts';
import { openApiValidator } from '../http/validator.ts';
import { operatorMessages } from '../messages/operator.ts';
import type { Deps } from '../platform/deps.ts';
import { accountRoutes } from './accounts.routes.ts';
import { apiKeyRoutes } from './apiKeys.routes.ts';
import { holdRoutes } from './holds.routes.ts';
import { infractionRoutes } from './infractions.routes.ts';
import { reconciliationRoutes } from './reconciliation.routes.ts';
import { ledgerRoutes } from './ledger.routes.ts';
import { backofficeAccess } from '../http/backofficeAccess.ts';
import { operatorRoutes } from './operators.routes.ts';
import { sessionRoutes } from './session.routes.ts';
import { recipientRoutes } from './recipients.routes.ts';
import { providerRoutes } from './provider.routes.ts';
import { sandboxRoutes } from './sandbox.routes.ts';
import { webhookRoutes } from './webhooks.routes.ts';
import { withdrawalRoutes } from './withdrawals.routes.ts';

const JSON_BODY_LIMIT = '64kb';

/**
 * The back office under /admin/v1, one route file per resource as `openapi/admin/paths/` is split: unknown
 * route or method (404/405) → the automation token or an operator's console session, with the CSRF
 * token and the operation's roles (401/403) → JSON → validation against openapi/admin → the operation.
 * Every action is written to the audit log. Failures answer in Portuguese, from the operator catalogue.
 */
export function adminApi(deps: Deps, spec: OpenApiDocument, operatorToken: string): Router {
  const router = Router();
  router.use(routeGuard(spec, { notFound: operatorMessages.routeNotFound, methodNotAllowed: operatorMessages.methodNotAllowed }));
  router.use(backofficeAccess(deps, spec, operatorToken));
  router.use(express.json({ limit: JSON_BODY_LIMIT, strict: false }));
  router.use(openApiValidator(spec, deps.config.validateResponses));
  sessionRoutes(router, deps);
  operatorRoutes(router, deps);
  accountRoutes(router, deps);
  apiKeyRoutes(router, deps);
  webhookRoutes(router, deps);
  recipientRoutes(router, deps);
  holdRoutes(router, deps);
  withdrawalRoutes(router, deps);
  ledgerRoutes(router, deps);
  providerRoutes(router, deps);
  infractionRoutes(router, deps);
  reconciliationRoutes(router, deps);
  sandboxRoutes(router, deps);
  router.use(errorMiddleware(deps.logger, 'operator'));
  return router;
}
