import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf, readCookie, SESSION_COOKIE } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { toOutboxMail } from './dashboard.mapper.ts';
import { OUTBOX_COOKIE, readOutbox } from './outbox.service.ts';
import { sandboxCharge, sandboxStaticQrCodePayment, sandboxWithdrawal } from './sandbox.service.ts';

const DEFAULT_OUTBOX_LIMIT = 20;

/** Dashboard, openapi/dashboard/paths/sandbox and dev: outside production only. */
export function sandboxRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', async (req, res) => {
    const row = await sandboxCharge(deps, principalOf(res).account.id, req.params.transactionId, req.params.action);
    res.json(toApiTransaction(row, 'list'));
  });

  api.post('/dashboard/api/v1/sandbox/static-qrcodes/{staticQrCodeId}/pay', async (req, res) => {
    const body = req.body ?? {};
    res.json(await sandboxStaticQrCodePayment(deps, principalOf(res).account.id, req.params.staticQrCodeId, { amountCents: body.amountCents, payer: body.payer }));
  });

  api.post('/dashboard/api/v1/sandbox/withdrawals/{transactionId}/{action}', async (req, res) => {
    const row = await sandboxWithdrawal(deps, principalOf(res).account.id, req.params.transactionId, req.params.action);
    res.json(toApiTransaction(row, 'list'));
  });

  // Public in the document (no session required), but it reads only what the caller may read: every
  // e-mail with the outbox key, the signed-in user's own, or none (src/dashboard/outbox.service.ts).
  api.get('/dashboard/api/v1/dev/outbox', async (req, res) => {
    const { access, mails } = await readOutbox(deps, {
      key: readCookie(req, OUTBOX_COOKIE),
      sessionToken: readCookie(req, SESSION_COOKIE),
      limit: req.query.limit === undefined ? DEFAULT_OUTBOX_LIMIT : Number(req.query.limit),
    });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ access, mails: mails.map(toOutboxMail), count: mails.length });
  });
}
