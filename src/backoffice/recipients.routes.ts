import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { requireAccount } from '../accounts/account.service.ts';
import type { RecipientStatus } from '../db/schema.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { approveRecipient, deactivateRecipient, recipientsOfAccount, rejectRecipient } from '../recipients/recipient.review.ts';
import { toAdminRecipient } from './recipients.mapper.ts';

/** Back office, openapi/admin/paths/recipients: the compliance review of third-party recipients. */
export function recipientRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/admin/v1/accounts/{accountId}/recipients', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    // Validated by the spec: one of the recipient statuses.
    const rows = await recipientsOfAccount(deps, account.id, req.query.status as RecipientStatus | undefined);
    res.json({ recipients: rows.map(toAdminRecipient), count: rows.length });
  });

  api.post('/admin/v1/accounts/{accountId}/recipients/{recipientId}/approve', async (req, res) => {
    res.json(toAdminRecipient(await approveRecipient(deps, req.params.accountId, req.params.recipientId)));
  });

  api.post('/admin/v1/accounts/{accountId}/recipients/{recipientId}/reject', async (req, res) => {
    res.json(toAdminRecipient(await rejectRecipient(deps, req.params.accountId, req.params.recipientId, req.body?.note)));
  });

  api.post('/admin/v1/accounts/{accountId}/recipients/{recipientId}/deactivate', async (req, res) => {
    const result = await deactivateRecipient(deps, req.params.accountId, req.params.recipientId, req.body?.note);
    res.json({ recipient: toAdminRecipient(result.recipient), cancelledWithdrawals: result.cancelledWithdrawals });
  });
}
