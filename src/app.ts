import express, { type Express, type RequestHandler } from 'express';
import { adminApi } from './backoffice/router.ts';
import { dashboardApi } from './http/dashboardApi.ts';
import { errorMiddleware, routeNotFound } from './http/errorMiddleware.ts';
import { merchantApi } from './http/merchantApi.ts';
import { adminSpec, dashboardSpec, generatedDocsDir, merchantSpec } from './http/spec.ts';
import { webApp } from './http/webApps.ts';
import type { Deps } from './platform/deps.ts';

export interface AppOptions {
  operatorToken: string;
}

function baseApp(deps: Deps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.set('etag', false);
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  return app;
}

/** The back office's reference is the service team's: it is never served on the merchant host. */
const hideAdminDocs: RequestHandler = (req, _res, next) => (req.path === '/admin.html' ? routeNotFound(req, _res, next) : next());

/**
 * The merchant host: health and the public docs (outside the contract), the dashboard's API under
 * /dashboard/api and its pages at /dashboard/, and the merchant API, whose route guard answers every other path with a JSON 404.
 */
export function createApp(deps: Deps): Express {
  const app = baseApp(deps);
  app.use('/docs', hideAdminDocs, express.static(generatedDocsDir, { index: 'index.html', fallthrough: true }));
  const dashboard = dashboardApi(deps, dashboardSpec());
  app.use((req, res, next) => (req.path.startsWith('/dashboard/api/') ? dashboard(req, res, next) : next()));
  app.use(webApp('dashboard', '/dashboard'));
  app.use(merchantApi(deps, merchantSpec()));
  app.use(routeNotFound);
  app.use(errorMiddleware(deps.logger));
  return app;
}

/**
 * The service team's own listener (ADMIN_HOST:ADMIN_PORT, never the merchant host): health, the
 * back-office reference, the back office under /admin/v1 (operator token for automation, console
 * sessions for people) and the console's pages at /console/ (`/` leads there).
 */
export function createAdminApp(deps: Deps, options: AppOptions): Express {
  const app = baseApp(deps);
  app.get('/docs/admin.html', (_req, res) => res.sendFile('admin.html', { root: generatedDocsDir }));
  const admin = adminApi(deps, adminSpec(), options.operatorToken);
  app.use((req, res, next) => (req.path.startsWith('/admin/') ? admin(req, res, next) : next()));
  app.get('/', (_req, res) => res.redirect(302, '/console/'));
  app.use(webApp('console', '/console'));
  app.use(routeNotFound);
  app.use(errorMiddleware(deps.logger, 'operator'));
  return app;
}
