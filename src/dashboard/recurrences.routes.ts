import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import type { RecurrenceStatus } from '../db/schema.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { pageLimit } from '../transactions/listPage.ts';
import {
  cancelDashboardRecurrence,
  dashboardRecurrence,
  dashboardRecurrenceCycles,
  dashboardRecurrenceOf,
  dashboardRecurrenceQrCode,
  dashboardRecurrences,
  sandboxRecurrence,
  sandboxRecurrenceCycle,
  sandboxRecurrenceRun,
} from './recurrences.service.ts';

/** The size the page shows the consent's QR code at, twice for sharp screens. */
const DEFAULT_QR_SIZE_PX = 512;

/**
 * Dashboard, openapi/dashboard/paths/recurrences and the sandbox's recurrence actions: Pix Automático from
 * the page (the /v1/recurrences service; the back office's sandbox of the payer's bank).
 */
export function recurrenceRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/dashboard/api/v1/recurrences', async (req, res) => {
    const outcome = await dashboardRecurrence(deps, principalOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.get('/dashboard/api/v1/recurrences', async (req, res) => {
    // Validated by the document: limit an integer 1..100, status one of the list.
    const query = req.query;
    res.json(await dashboardRecurrences(deps, principalOf(res).account.id, { limit: pageLimit(query.limit), cursor: query.cursor, status: query.status as RecurrenceStatus | undefined }));
  });

  api.get('/dashboard/api/v1/recurrences/{recurrenceId}', async (req, res) => {
    res.json(await dashboardRecurrenceOf(deps, principalOf(res).account.id, req.params.recurrenceId));
  });

  api.post('/dashboard/api/v1/recurrences/{recurrenceId}/cancel', async (req, res) => {
    res.json(await cancelDashboardRecurrence(deps, principalOf(res), req.params.recurrenceId));
  });

  api.get('/dashboard/api/v1/recurrences/{recurrenceId}/cycles', async (req, res) => {
    const query = req.query;
    res.json(await dashboardRecurrenceCycles(deps, principalOf(res).account.id, req.params.recurrenceId, { limit: pageLimit(query.limit), cursor: query.cursor }));
  });

  api.get('/dashboard/api/v1/recurrences/{recurrenceId}/qrcode', async (req, res) => {
    const sizePx = req.query.size === undefined ? DEFAULT_QR_SIZE_PX : Number(req.query.size);
    const image = await dashboardRecurrenceQrCode(deps, principalOf(res).account.id, req.params.recurrenceId, sizePx);
    res.setHeader('Content-Type', image.contentType);
    // The session's own data, and a consent's QR code changes with its status: never kept.
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(image.body);
  });

  api.post('/dashboard/api/v1/sandbox/recurrences/run', async (_req, res) => {
    res.json(await sandboxRecurrenceRun(deps));
  });

  api.post('/dashboard/api/v1/sandbox/recurrences/{recurrenceId}/{action}', async (req, res) => {
    res.json(await sandboxRecurrence(deps, principalOf(res).account.id, req.params.recurrenceId, req.params.action));
  });

  api.post('/dashboard/api/v1/sandbox/recurrence-cycles/{transactionId}/{action}', async (req, res) => {
    const body = req.body ?? {};
    res.json(await sandboxRecurrenceCycle(deps, principalOf(res).account.id, req.params.transactionId, req.params.action, body.refusalCode));
  });
}
