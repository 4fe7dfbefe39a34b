import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { dashboardCharge, dashboardChargeQrCode } from './charges.service.ts';

/** The size the page shows it at, twice for sharp screens. */
const DEFAULT_QR_SIZE_PX = 512;

/** Dashboard, openapi/dashboard/paths/charges and transactions/get-transaction-qrcode: a charge from the page, and its QR code. */
export function chargeRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/dashboard/api/v1/charges', async (req, res) => {
    const outcome = await dashboardCharge(deps, principalOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.get('/dashboard/api/v1/transactions/{transactionId}/qrcode', async (req, res) => {
    const sizePx = req.query.size === undefined ? DEFAULT_QR_SIZE_PX : Number(req.query.size);
    const image = await dashboardChargeQrCode(deps, principalOf(res).account.id, req.params.transactionId, sizePx);
    res.setHeader('Content-Type', image.contentType);
    // The session's own data: never kept by a shared cache.
    res.setHeader('Cache-Control', 'private, max-age=3600');
    res.end(image.body);
  });
}
