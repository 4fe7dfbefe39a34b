import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { requireAccount } from '../accounts/account.service.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { attemptsOf, dispatchOnce, resendEvent } from '../webhooks/delivery.service.ts';
import { createEndpoint, deleteEndpoint, endpointsOf, findEndpoint, rotateSecret, updateEndpoint, type SecretRotation } from '../webhooks/endpoint.service.ts';
import type { WebhookEndpointRow } from '../db/schema.ts';
import { audited, auditing } from './audit.ts';
import { toAdminAttempt, toAdminEndpoint } from './webhooks.mapper.ts';

const DEFAULT_ATTEMPT_LIMIT = 50;

/** Back office, openapi/admin/paths/webhooks: URLs and secrets, delivery history, manual resend. */
export function webhookRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/admin/v1/accounts/{accountId}/webhooks', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    const { row, secret } = await createEndpoint(
      deps,
      account.id,
      req.body,
      auditing(deps, req, res, (created: WebhookEndpointRow) => ({ action: 'webhook.create', target: { type: 'webhook', id: created.id }, accountId: account.id, after: toAdminEndpoint(created) })),
    );
    res.status(201).json({ ...toAdminEndpoint(row), secret });
  });

  api.get('/admin/v1/accounts/{accountId}/webhooks', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    const rows = await endpointsOf(deps, account.id);
    res.json({ webhooks: rows.map(toAdminEndpoint), count: rows.length });
  });

  api.patch('/admin/v1/accounts/{accountId}/webhooks/{endpointId}', async (req, res) => {
    const before = toAdminEndpoint(await findEndpoint(deps, req.params.accountId, req.params.endpointId));
    const row = await updateEndpoint(
      deps,
      req.params.accountId,
      req.params.endpointId,
      req.body,
      auditing(deps, req, res, (changed: WebhookEndpointRow) => ({ action: 'webhook.update', target: { type: 'webhook', id: changed.id }, accountId: req.params.accountId, before, after: toAdminEndpoint(changed) })),
    );
    res.json(toAdminEndpoint(row));
  });

  api.delete('/admin/v1/accounts/{accountId}/webhooks/{endpointId}', async (req, res) => {
    await deleteEndpoint(
      deps,
      req.params.accountId,
      req.params.endpointId,
      auditing(deps, req, res, (deleted: WebhookEndpointRow) => ({ action: 'webhook.delete', target: { type: 'webhook', id: deleted.id }, accountId: req.params.accountId, before: toAdminEndpoint(deleted), after: null })),
    );
    res.json({ endpointId: req.params.endpointId, deleted: true });
  });

  api.post('/admin/v1/accounts/{accountId}/webhooks/{endpointId}/rotate-secret', async (req, res) => {
    const rotated = await rotateSecret(
      deps,
      req.params.accountId,
      req.params.endpointId,
      auditing(deps, req, res, (rotation: SecretRotation) => ({
        action: 'webhook.rotateSecret',
        target: { type: 'webhook', id: req.params.endpointId },
        accountId: req.params.accountId,
        before: { secretPrefix: rotation.previousPrefix },
        after: { secretPrefix: rotation.secretPrefix, previousSecretExpiresAt: rotation.previousSecretExpiresAt },
      })),
    );
    res.json({ endpointId: req.params.endpointId, ...rotated });
  });

  api.get('/admin/v1/accounts/{accountId}/webhook-attempts', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    const limit = req.query.limit === undefined ? DEFAULT_ATTEMPT_LIMIT : Number(req.query.limit);
    const rows = await attemptsOf(deps, account.id, { eventId: req.query.eventId, endpointId: req.query.endpointId, limit });
    res.json({ attempts: rows.map(toAdminAttempt), count: rows.length });
  });

  api.post('/admin/v1/accounts/{accountId}/events/{eventId}/resend', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    const deliveries = await resendEvent(
      deps,
      account.id,
      req.params.eventId,
      req.body?.endpointId,
      auditing(deps, req, res, (created: { deliveryId: string; endpointId: string }[]) => ({
        action: 'event.resend',
        target: { type: 'event', id: req.params.eventId },
        accountId: account.id,
        after: { deliveries: created },
      })),
    );
    res.status(202).json({ eventId: req.params.eventId, deliveries });
  });

  api.post('/admin/v1/webhooks/dispatch', async (req, res) => {
    const attempted = await dispatchOnce(deps);
    await audited(deps, req, res, { action: 'webhooks.dispatch', target: { type: 'worker', id: null }, after: { attempted } });
    res.json({ attempted });
  });
}
