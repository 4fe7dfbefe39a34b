import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { MAX_WEBHOOK_URLS } from '../events/catalog.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { eventuallyConsistent } from '../platform/readRouting.ts';
import { attemptsOf, resendEvent, resendQuota, sendTestEvent } from '../webhooks/delivery.service.ts';
import { createEndpoint, deleteEndpoint, endpointsOf, rotateSecret, updateEndpoint } from '../webhooks/endpoint.service.ts';
import { toDashboardWebhook, toDeliveryAttempt } from './dashboard.mapper.ts';
import { optionalText } from './text.ts';

const DEFAULT_ATTEMPT_LIMIT = 50;

/** Dashboard, openapi/dashboard/paths/webhooks and deliveries: URLs, secrets, history, resends. */
export function webhookRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);
  const accountOf = (res: Parameters<typeof principalOf>[0]) => principalOf(res).account.id;

  api.get('/dashboard/api/v1/webhooks', async (_req, res) => {
    const rows = await endpointsOf(deps, accountOf(res));
    res.json({ webhooks: rows.map(toDashboardWebhook), count: rows.length, maxWebhooks: MAX_WEBHOOK_URLS });
  });

  api.post('/dashboard/api/v1/webhooks', async (req, res) => {
    const description = optionalText(req.body.description, 'description') ?? undefined;
    const { row, secret } = await createEndpoint(deps, accountOf(res), { ...req.body, description });
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ ...toDashboardWebhook(row), secret });
  });

  api.patch('/dashboard/api/v1/webhooks/{endpointId}', async (req, res) => {
    const changes = req.body.description === undefined ? req.body : { ...req.body, description: optionalText(req.body.description, 'description') };
    res.json(toDashboardWebhook(await updateEndpoint(deps, accountOf(res), req.params.endpointId, changes)));
  });

  api.delete('/dashboard/api/v1/webhooks/{endpointId}', async (req, res) => {
    await deleteEndpoint(deps, accountOf(res), req.params.endpointId);
    res.json({ endpointId: req.params.endpointId, deleted: true });
  });

  api.post('/dashboard/api/v1/webhooks/{endpointId}/rotate-secret', async (req, res) => {
    const rotated = await rotateSecret(deps, accountOf(res), req.params.endpointId);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ endpointId: req.params.endpointId, ...rotated });
  });

  api.post('/dashboard/api/v1/webhooks/{endpointId}/test', async (req, res) => {
    res.json({ endpointId: req.params.endpointId, ...(await sendTestEvent(deps, accountOf(res), req.params.endpointId)) });
  });

  api.get('/dashboard/api/v1/webhook-deliveries', async (req, res) => {
    const accountId = accountOf(res);
    const rows = await eventuallyConsistent(deps, (d) =>
      attemptsOf(d, accountId, {
        event: req.query.event,
        endpointId: req.query.endpointId,
        // Validated by the spec: success or failure.
        outcome: req.query.outcome as 'success' | 'failure' | undefined,
        transactionId: req.query.transactionId,
        limit: req.query.limit === undefined ? DEFAULT_ATTEMPT_LIMIT : Number(req.query.limit),
      }),
    );
    // The quota on the primary: it counts the resends the page has just made.
    res.json({ attempts: rows.map(toDeliveryAttempt), count: rows.length, resendQuota: await resendQuota(deps, accountId) });
  });

  api.post('/dashboard/api/v1/events/{eventId}/resend', async (req, res) => {
    const accountId = accountOf(res);
    const deliveries = await resendEvent(deps, accountId, req.params.eventId, req.body?.endpointId);
    res.status(202).json({ eventId: req.params.eventId, deliveries, resendQuota: await resendQuota(deps, accountId) });
  });
}
