import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import type { TransactionRow } from '../db/schema.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import {
  approveWithdrawal,
  cancelWithdrawal,
  rejectWithdrawal,
  thirdPartyAlerts,
  withdrawalForReview,
  withdrawalsForReview,
} from '../withdrawals/withdrawal.review.ts';
import { resolveWithdrawal } from '../withdrawals/withdrawal.resolution.ts';
import type { AuditStep } from '../audit/audit.service.ts';
import { auditing } from './audit.ts';
import { toAdminAlert, toAdminWithdrawal, withAccountName, withBalance } from './withdrawals.mapper.ts';
import { legalNamesOf } from '../accounts/account.service.ts';
import { withdrawableBalances } from '../balance/balance.service.ts';

const DEFAULT_LIMIT = 50;
const limitOf = (raw: string | undefined) => (raw === undefined ? DEFAULT_LIMIT : Number(raw));

/** Back office, openapi/admin/paths/withdrawals: the approval queue and third-party alerts. */
export function withdrawalRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.get('/admin/v1/withdrawals', async (req, res) => {
    const rows = await withdrawalsForReview(deps, {
      // Validated by the spec: one of the transaction statuses.
      status: req.query.status as TransactionRow['status'] | undefined,
      accountId: req.query.accountId,
      limit: limitOf(req.query.limit),
    });
    const nowMs = deps.clock.now();
    // The approval queue shows whether the account's balance covers each withdrawal now (issue 22, defect 3).
    const balances = await withdrawableBalances(deps, rows.filter((row) => row.status === 'pending_approval').map((row) => row.account_id));
    // And whose money it is, by name (issue 38, defect 11).
    const names = await legalNamesOf(deps, rows.map((row) => row.account_id));
    const shown = (row: TransactionRow) => withAccountName(withBalance(toAdminWithdrawal(row, nowMs), balances.get(row.account_id)), names.get(row.account_id));
    res.json({ withdrawals: rows.map(shown), count: rows.length });
  });

  /** Reads the withdrawal, applies the decision with its audit entry (written in the decision's transaction). */
  async function decide(
    req: Parameters<typeof auditing>[1],
    res: Parameters<typeof auditing>[2],
    action: string,
    transactionId: string,
    apply: (audit: AuditStep<TransactionRow>) => Promise<TransactionRow>,
  ) {
    const before = toAdminWithdrawal(await withdrawalForReview(deps, transactionId), deps.clock.now());
    return apply(
      auditing(deps, req, res, (row: TransactionRow) => ({
        action,
        target: { type: 'withdrawal', id: row.id },
        accountId: row.account_id,
        before,
        after: toAdminWithdrawal(row, deps.clock.now()),
      })),
    );
  }

  api.post('/admin/v1/withdrawals/{transactionId}/approve', async (req, res) => {
    res.json(toApiTransaction(await decide(req, res, 'withdrawal.approve', req.params.transactionId, (audit) => approveWithdrawal(deps, req.params.transactionId, audit)), 'single'));
  });

  api.post('/admin/v1/withdrawals/{transactionId}/reject', async (req, res) => {
    res.json(toApiTransaction(await decide(req, res, 'withdrawal.reject', req.params.transactionId, (audit) => rejectWithdrawal(deps, req.params.transactionId, req.body?.reason, audit)), 'single'));
  });

  api.post('/admin/v1/withdrawals/{transactionId}/cancel', async (req, res) => {
    const reason = req.body?.reason;
    const refusal = reason === undefined ? undefined : { code: 'CANCELLED_BY_REQUEST', reason };
    res.json(toApiTransaction(await decide(req, res, 'withdrawal.cancel', req.params.transactionId, (audit) => cancelWithdrawal(deps, req.params.transactionId, refusal, audit)), 'single'));
  });

  api.post('/admin/v1/withdrawals/{transactionId}/resolve', async (req, res) => {
    const resolved = await decide(req, res, 'withdrawal.resolve', req.params.transactionId, (audit) => resolveWithdrawal(deps, req.params.transactionId, req.body, audit));
    res.json(toAdminWithdrawal(resolved, deps.clock.now()));
  });

  api.get('/admin/v1/withdrawal-alerts', async (req, res) => {
    const rows = await thirdPartyAlerts(deps, { accountId: req.query.accountId, limit: limitOf(req.query.limit) });
    res.json({ alerts: rows.map(toAdminAlert), count: rows.length });
  });
}
