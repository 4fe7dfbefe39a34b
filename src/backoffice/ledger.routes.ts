import type { Router } from 'express';
import type { paths } from '../../generated/admin-types.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import { checkWholeLedger } from '../ledger/ledger.check.ts';
import type { Deps } from '../platform/deps.ts';

/** Back office, openapi/admin/paths/ledger: the consistency check of the whole ledger. */
export function ledgerRoutes(router: Router, deps: Deps): void {
  typedRoutes<paths>(router).get('/admin/v1/ledger/check', async (req, res) => {
    const violations = await checkWholeLedger(deps, String(req.query.full) === 'true');
    res.json({ consistent: violations.length === 0, violations });
  });
}
