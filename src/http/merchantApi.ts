import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import type { AuthContext, IpMessageFamily } from '../accounts/auth.ts';
import { balanceRoutes } from '../balance/balance.routes.ts';
import { chargeRoutes } from '../charges/charge.routes.ts';
import type { Deps } from '../deps.ts';
import { recipientRoutes } from '../recipients/recipient.routes.ts';
import { transactionRoutes } from '../transactions/transaction.routes.ts';
import { withdrawalRoutes } from '../withdrawals/withdrawal.routes.ts';
import { ApiError } from './errors.ts';
import { messages } from './messages.ts';
import { routeGuard } from './routeGuard.ts';
import type { OpenApiDocument } from './spec.ts';
import { openApiValidator } from './validator.ts';

const JSON_BODY_LIMIT = '64kb';

function ipFamily(path: string): IpMessageFamily {
  if (path.startsWith('/v1/withdraw')) return 'withdraw';
  if (path.startsWith('/v1/recipients')) return 'recipients';
  return 'default';
}

export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth as AuthContext | undefined;
  if (!auth) throw new Error('route mounted without authentication');
  return auth;
}

function authenticate(deps: Deps): RequestHandler {
  return async (req: Request, res, next) => {
    const path = req.baseUrl + req.path;
    res.locals.auth = await deps.authenticator.authenticate(req.get('authorization'), req.ip ?? '', ipFamily(path));
    next();
  };
}

/** POST bodies must be JSON: anything else is a 415 before the body is read. */
const requireJson: RequestHandler = (req, _res, next) => {
  if (req.method === 'POST' && !req.is('application/json')) {
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
  router.use(express.json({ limit: JSON_BODY_LIMIT, strict: false }));
  router.use(openApiValidator(spec, deps.config.validateResponses));
  chargeRoutes(router, deps);
  transactionRoutes(router, deps);
  balanceRoutes(router, deps);
  withdrawalRoutes(router, deps);
  recipientRoutes(router, deps);
  return router;
}
