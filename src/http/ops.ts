import { Router } from 'express';
import type { Deps } from '../platform/deps.ts';
import type { Lifecycle } from '../platform/lifecycle.ts';
import { readiness, refreshOperationalGauges } from '../ops/ops.service.ts';
import { setOperation } from './routeGuard.ts';

/**
 * Outside the contracts, on both listeners: `/health` (the process is alive and serving HTTP) and `/ready`
 * (it should get traffic: not draining, database reachable, migrations applied; 503 otherwise), with the read
 * replica's status and lag as detail when DATABASE_READ_URL is set.
 */
export function healthRoutes(deps: Deps, lifecycle: Lifecycle | undefined): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    setOperation(res, 'health');
    res.json({ status: 'ok' });
  });
  router.get('/ready', async (_req, res) => {
    setOperation(res, 'ready');
    const state = await readiness(deps, lifecycle);
    res.setHeader('Cache-Control', 'no-store');
    // The read replica's state is detail, not readiness: while it lags or is out of reach the reads go to the primary.
    const replica = deps.replica === undefined ? {} : { replica: deps.replica.state() };
    if (state.ready) res.json({ status: 'ready', ...replica });
    else res.status(503).json({ status: 'not ready', reason: state.reason, ...(state.pending ? { pending: state.pending } : {}), ...replica });
  });
  return router;
}

/** `/metrics` in the Prometheus text format: internal listener only (never the merchant host). */
export function metricsRoute(deps: Deps): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    setOperation(res, 'metrics');
    try {
      await refreshOperationalGauges(deps);
    } catch (error) {
      // The process metrics are still worth serving when the database is down; the gauges keep their last value.
      deps.logger.warn('metrics: operational gauges not refreshed', { error: error instanceof Error ? error.message : String(error) });
    }
    const { contentType, body } = await deps.metrics.exposition();
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(body);
  });
  return router;
}
