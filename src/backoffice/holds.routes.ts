import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { requireAccount } from '../accounts/account.service.ts';
import type { HoldRow } from '../db/schema.ts';
import { chargebackHold, holdsOfAccount, placeHold, releaseHold } from '../holds/hold.service.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { toAdminHold } from './holds.mapper.ts';

/** Back office, openapi/admin/paths/holds: precautionary holds, their release and their chargeback. */
export function holdRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/admin/v1/accounts/{accountId}/holds', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    res.status(201).json(toAdminHold(await placeHold(deps, account.id, req.body)));
  });

  api.get('/admin/v1/accounts/{accountId}/holds', async (req, res) => {
    const account = await requireAccount(deps, req.params.accountId);
    // Validated by the spec: active or released.
    const rows = await holdsOfAccount(deps, account.id, req.query.status as HoldRow['status'] | undefined);
    res.json({ holds: rows.map(toAdminHold), count: rows.length });
  });

  api.post('/admin/v1/accounts/{accountId}/holds/{holdId}/release', async (req, res) => {
    res.json(toAdminHold(await releaseHold(deps, req.params.accountId, req.params.holdId)));
  });

  api.post('/admin/v1/accounts/{accountId}/holds/{holdId}/chargeback', async (req, res) => {
    res.json(toApiTransaction(await chargebackHold(deps, req.params.accountId, req.params.holdId, req.body?.amountCents), 'single'));
  });
}
