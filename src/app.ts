import express, { type Express } from 'express';
import { adminApi } from './backoffice/router.ts';
import type { Deps } from './platform/deps.ts';
import { errorMiddleware, routeNotFound } from './http/errorMiddleware.ts';
import { merchantApi } from './http/merchantApi.ts';
import { dashboardApi } from './http/dashboardApi.ts';
import { adminSpec, dashboardSpec, generatedDocsDir, merchantSpec } from './http/spec.ts';

export interface AppOptions {
  operatorToken: string;
}

/**
 * The HTTP application: health and docs (outside the contract), the back office under /admin/v1, and the
 * merchant API, whose route guard answers every other path with a JSON 404.
 */
export function createApp(deps: Deps, options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.set('etag', false);

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/docs', express.static(generatedDocsDir, { index: 'index.html', fallthrough: true }));
  const admin = adminApi(deps, adminSpec(), options.operatorToken);
  app.use((req, res, next) => (req.path.startsWith('/admin/') ? admin(req, res, next) : next()));
  const dashboard = dashboardApi(deps, dashboardSpec());
  app.use((req, res, next) => (req.path.startsWith('/dashboard/api/') ? dashboard(req, res, next) : next()));
  app.use(merchantApi(deps, merchantSpec()));
  app.use(routeNotFound);
  app.use(errorMiddleware(deps.logger));
  return app;
}
