import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { requireAccount } from '../accounts/account.service.ts';
import type { HoldRow, TransactionRow } from '../db/schema.ts';
import { chargebackHold, holdsOfAccount, placeHold, releaseHold } from '../holds/hold.service.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { auditing } from './audit.ts';
import { toAdminHold } from './holds.mapper.ts';

/** Back office, openapi/admin/paths/holds: precautionary holds, their release and their chargeback. */
export function holdRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);
  /** The hold as the back office shows it, before an action on it (audit log); undefined when unknown. */
  const holdBefore = async (accountId: string, holdId: string) => {
    const row = (await holdsOfAccount(deps, accountId)).find((hold) => hold.id === holdId);
    return row ? toAdminHold(row) : undefined;
  };

  api.post('/admin/v1/accounts/{accountId}/holds', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    const row = await placeHold(
      deps,
      account.id,
      req.body,
      auditing(deps, req, res, (placed: HoldRow) => ({ action: 'hold.place', target: { type: 'hold', id: placed.id }, accountId: account.id, after: toAdminHold(placed) })),
    );
    res.status(201).json(toAdminHold(row));
  });

  api.get('/admin/v1/accounts/{accountId}/holds', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    // Validated by the spec: active or released.
    const rows = await holdsOfAccount(deps, account.id, req.query.status as HoldRow['status'] | undefined);
    res.json({ holds: rows.map(toAdminHold), count: rows.length });
  });

  api.post('/admin/v1/accounts/{accountId}/holds/{holdId}/release', async (req, res) => {
    const before = await holdBefore(req.params.accountId, req.params.holdId);
    const row = await releaseHold(
      deps,
      req.params.accountId,
      req.params.holdId,
      auditing(deps, req, res, (released: HoldRow) => ({ action: 'hold.release', target: { type: 'hold', id: released.id }, accountId: req.params.accountId, before, after: toAdminHold(released) })),
    );
    res.json(toAdminHold(row));
  });

  api.post('/admin/v1/accounts/{accountId}/holds/{holdId}/chargeback', async (req, res) => {
    const before = await holdBefore(req.params.accountId, req.params.holdId);
    const row = await chargebackHold(
      deps,
      req.params.accountId,
      req.params.holdId,
      req.body?.amountCents,
      auditing(deps, req, res, (charged: TransactionRow) => ({
        action: 'hold.chargeback',
        target: { type: 'hold', id: req.params.holdId },
        accountId: req.params.accountId,
        before,
        after: toApiTransaction(charged, 'single'),
      })),
    );
    res.json(toApiTransaction(row, 'single'));
  });
}
