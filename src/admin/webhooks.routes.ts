import { Router } from 'express';
import type { WebhookEndpointRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { requireAccountId } from './accountLookup.ts';
import { failCharge, refundCharge } from '../charges/charge.sandbox.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { dispatchOnce } from '../webhooks/dispatcher.ts';
import { createEndpoint, deleteEndpoint, rotateSecret, updateEndpoint } from '../webhooks/endpoints.ts';
import { resendEvent } from '../webhooks/resend.ts';

/** The first 12 characters of a secret tell secrets apart without revealing them. */
const SECRET_PREFIX_CHARS = 12;

function toAdminEndpoint(row: WebhookEndpointRow) {
  return {
    endpointId: row.id,
    accountId: row.account_id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    secretPrefix: row.secret.slice(0, SECRET_PREFIX_CHARS),
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
}

/** Back office for webhooks: URLs and secrets, delivery history, manual resend, sandbox charge actions. */
export function webhookAdminRoutes(deps: Deps, requireSimulated: () => unknown): Router {
  const router = Router();
  const requireAccount = (accountId: string) => requireAccountId(deps, accountId);

  router.post('/admin/v1/accounts/:accountId/webhooks', async (req, res) => {
    const accountId = await requireAccount(req.params.accountId);
    const body = req.body as { url: string; events?: string[]; description?: string };
    const { row, secret } = await createEndpoint(deps, accountId, body);
    res.status(201).json({ ...toAdminEndpoint(row), secret });
  });

  router.get('/admin/v1/accounts/:accountId/webhooks', async (req, res) => {
    const accountId = await requireAccount(req.params.accountId);
    const rows = await deps.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    res.json({ webhooks: rows.map(toAdminEndpoint), count: rows.length });
  });

  router.patch('/admin/v1/accounts/:accountId/webhooks/:endpointId', async (req, res) => {
    const body = req.body as { url?: string; events?: string[]; description?: string | null; enabled?: boolean };
    res.json(toAdminEndpoint(await updateEndpoint(deps, req.params.accountId, req.params.endpointId, body)));
  });

  router.delete('/admin/v1/accounts/:accountId/webhooks/:endpointId', async (req, res) => {
    await deleteEndpoint(deps, req.params.accountId, req.params.endpointId);
    res.json({ endpointId: req.params.endpointId, deleted: true });
  });

  router.post('/admin/v1/accounts/:accountId/webhooks/:endpointId/rotate-secret', async (req, res) => {
    const rotated = await rotateSecret(deps, req.params.accountId, req.params.endpointId);
    res.json({ endpointId: req.params.endpointId, ...rotated });
  });

  router.get('/admin/v1/accounts/:accountId/webhook-attempts', async (req, res) => {
    const accountId = await requireAccount(req.params.accountId);
    let query = deps.db.selectFrom('webhook_attempts').selectAll().where('account_id', '=', accountId);
    if (req.query.eventId !== undefined) query = query.where('event_id', '=', String(req.query.eventId));
    if (req.query.endpointId !== undefined) query = query.where('endpoint_id', '=', String(req.query.endpointId));
    const limit = req.query.limit === undefined ? 50 : Number(req.query.limit);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    res.json({
      attempts: rows.map((row) => ({
        attemptId: row.id,
        eventId: row.event_id,
        event: row.event,
        endpointId: row.endpoint_id,
        url: row.url,
        attemptNumber: row.attempt_number,
        trigger: row.trigger,
        requestBody: row.request_body,
        httpStatus: row.http_status,
        durationMs: row.duration_ms,
        responseExcerpt: row.response_excerpt,
        error: row.error,
        createdAt: row.created_at.getTime(),
      })),
      count: rows.length,
    });
  });

  router.post('/admin/v1/accounts/:accountId/events/:eventId/resend', async (req, res) => {
    const accountId = await requireAccount(req.params.accountId);
    const endpointId = (req.body as { endpointId?: string } | undefined)?.endpointId;
    const deliveries = await resendEvent(deps, accountId, req.params.eventId, endpointId);
    res.status(202).json({ eventId: req.params.eventId, deliveries });
  });

  router.post('/admin/v1/webhooks/dispatch', async (_req, res) => {
    res.json({ attempted: await dispatchOnce(deps) });
  });

  router.post('/admin/v1/sandbox/charges/:transactionId/refund', async (req, res) => {
    requireSimulated();
    const { amountCents } = req.body as { amountCents: number };
    res.json(toApiTransaction(await refundCharge(deps, req.params.transactionId, amountCents), 'single'));
  });

  router.post('/admin/v1/sandbox/charges/:transactionId/fail', async (req, res) => {
    requireSimulated();
    res.json(toApiTransaction(await failCharge(deps, req.params.transactionId), 'single'));
  });

  return router;
}
