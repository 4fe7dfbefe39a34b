import express, { type Express, type RequestHandler } from 'express';
import { adminApi } from './backoffice/router.ts';
import { accessLog } from './http/accessLog.ts';
import { dashboardApi } from './http/dashboardApi.ts';
import { errorMiddleware, routeNotFound } from './http/errorMiddleware.ts';
import { merchantApi } from './http/merchantApi.ts';
import { paymentLinkPages } from './paymentLinks/paymentLink.pageRoutes.ts';
import { healthRoutes, metricsRoute } from './http/ops.ts';
import { setOperation } from './http/routeGuard.ts';
import { adminSpec, dashboardSpec, generatedAdminDocsDir, generatedDocsDir, merchantSpec } from './http/spec.ts';
import { docsPages, webApp } from './http/webApps.ts';
import type { Deps } from './platform/deps.ts';
import type { Lifecycle } from './platform/lifecycle.ts';

export interface AppOptions {
  /** Draining after SIGTERM: /ready answers 503. */
  lifecycle?: Lifecycle | undefined;
}

export interface AdminAppOptions extends AppOptions {
  operatorToken: string;
}

const docsOperation: RequestHandler = (_req, res, next) => {
  setOperation(res, 'docs');
  next();
};

/** HSTS for a year, subdomains included (no `preload`: joining browsers' list is a deployment's decision). */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * Headers of every answer of both listeners (APIs, docs, pages, health): no content sniffing, so a JSON
 * answer that echoes a value is never read as HTML or script; in production, HTTPS only for a year (the
 * gateway sits behind TLS there; browsers ignore the header over plain HTTP).
 */
function transportHeaders(deps: Deps): RequestHandler {
  const production = deps.config.nodeEnv === 'production';
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (production) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    next();
  };
}

function baseApp(deps: Deps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.set('etag', false);
  app.use(transportHeaders(deps));
  return app;
}

/**
 * The merchant-facing listener: health and readiness, the merchant docs (merchant API, dashboard API and
 * webhooks; never the back office's), the dashboard's API under /dashboard/api and its pages at
 * /dashboard/, and the merchant API, whose route guard answers every other path, `/admin/…` and
 * `/metrics` included, with a JSON 404.
 */
export function createApp(deps: Deps, options: AppOptions = {}): Express {
  const app = baseApp(deps);
  app.use(accessLog(deps, 'merchant'));
  app.use(healthRoutes(deps, options.lifecycle));
  app.use('/docs', docsOperation, docsPages(generatedDocsDir));
  const dashboard = dashboardApi(deps, dashboardSpec());
  app.use((req, res, next) => (req.path.startsWith('/dashboard/api/') ? dashboard(req, res, next) : next()));
  app.use(webApp('dashboard', '/dashboard'));
  // The payment links' public pages (/pay/…): no API key, outside the merchant API's route guard.
  app.use(paymentLinkPages(deps));
  app.use(merchantApi(deps, merchantSpec()));
  app.use(routeNotFound);
  app.use(errorMiddleware(deps.logger));
  return app;
}

/**
 * The service team's internal listener (ADMIN_HOST:ADMIN_PORT, 127.0.0.1:3001 by default, never the merchant
 * host): health and readiness, `/metrics`, the back-office reference at /docs/, the back office under
 * /admin/v1 (the automation token, or an operator's console session) and the console's pages at
 * /console/ (`/` leads there).
 */
export function createAdminApp(deps: Deps, options: AdminAppOptions): Express {
  const app = baseApp(deps);
  app.use(accessLog(deps, 'internal'));
  app.use(healthRoutes(deps, options.lifecycle));
  app.use(metricsRoute(deps));
  app.use('/docs', docsOperation, docsPages(generatedAdminDocsDir));
  const admin = adminApi(deps, adminSpec(), options.operatorToken);
  app.use((req, res, next) => (req.path.startsWith('/admin/') ? admin(req, res, next) : next()));
  app.get('/', (_req, res) => res.redirect(302, '/console/'));
  app.use(webApp('console', '/console'));
  app.use(routeNotFound);
  app.use(errorMiddleware(deps.logger, 'operator'));
  return app;
}
