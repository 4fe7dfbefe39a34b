import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { requireAccount } from '../accounts/account.service.ts';
import type { RecipientRow, RecipientStatus } from '../db/schema.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import {
  approveRecipient,
  deactivateRecipient,
  recipientOfAccount,
  recipientQueue,
  recipientsOfAccount,
  rejectRecipient,
} from '../recipients/recipient.review.ts';
import type { AuditStep } from '../audit/audit.service.ts';
import { auditing } from './audit.ts';
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

  /** Reads the recipient, applies the review decision with its audit entry (written in the decision's transaction). */
  async function review(
    req: Parameters<typeof auditing>[1],
    res: Parameters<typeof auditing>[2],
    action: string,
    params: { accountId: string; recipientId: string },
    decide: (audit: AuditStep<RecipientRow>) => Promise<RecipientRow>,
  ) {
    const before = toAdminRecipient(await recipientOfAccount(deps, params.accountId, params.recipientId));
    const row = await decide(
      auditing(deps, req, res, (decided: RecipientRow) => ({
        action,
        target: { type: 'recipient', id: decided.id },
        accountId: params.accountId,
        before,
        after: toAdminRecipient(decided),
      })),
    );
    return toAdminRecipient(row);
  }

  api.get('/admin/v1/recipients', async (req, res) => {
    // Validated by the spec: one of the recipient statuses; limit 1..100.
    const status = (req.query.status ?? 'pending_review') as RecipientStatus;
    const rows = await recipientQueue(deps, status, req.query.limit === undefined ? 50 : Number(req.query.limit));
    res.json({
      recipients: rows.map(({ account_legal_name, ...row }) => ({ accountId: row.account_id, accountLegalName: account_legal_name, recipient: toAdminRecipient(row) })),
      count: rows.length,
    });
  });

  api.post('/admin/v1/accounts/{accountId}/recipients/{recipientId}/approve', async (req, res) => {
    res.json(await review(req, res, 'recipient.approve', req.params, (audit) => approveRecipient(deps, req.params.accountId, req.params.recipientId, audit, req.body?.note)));
  });

  api.post('/admin/v1/accounts/{accountId}/recipients/{recipientId}/reject', async (req, res) => {
    res.json(await review(req, res, 'recipient.reject', req.params, (audit) => rejectRecipient(deps, req.params.accountId, req.params.recipientId, req.body?.note, audit)));
  });

  api.post('/admin/v1/accounts/{accountId}/recipients/{recipientId}/deactivate', async (req, res) => {
    let cancelledWithdrawals: string[] = [];
    const recipient = await review(req, res, 'recipient.deactivate', req.params, async (audit) => {
      const result = await deactivateRecipient(deps, req.params.accountId, req.params.recipientId, req.body?.note, audit);
      cancelledWithdrawals = result.cancelledWithdrawals;
      return result.recipient;
    });
    res.json({ recipient, cancelledWithdrawals });
  });
}
