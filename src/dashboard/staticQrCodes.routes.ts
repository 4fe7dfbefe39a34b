import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { pageLimit } from '../transactions/listPage.ts';
import { dashboardStaticQrCode, dashboardStaticQrCodeImage, dashboardStaticQrCodeOf, dashboardStaticQrCodes, deactivateDashboardStaticQrCode } from './staticQrCodes.service.ts';

/** The size the page shows it at, twice for sharp screens (and the PNG download's). */
const DEFAULT_QR_SIZE_PX = 512;

/** Dashboard, openapi/dashboard/paths/static-qrcodes: static QR codes from the page (the /v1/static-qrcodes service). */
export function staticQrCodeRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/dashboard/api/v1/static-qrcodes', async (req, res) => {
    const outcome = await dashboardStaticQrCode(deps, principalOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.get('/dashboard/api/v1/static-qrcodes', async (req, res) => {
    // Validated by the document: limit an integer 1..100, status active or inactive.
    const query = req.query;
    res.json(
      await dashboardStaticQrCodes(deps, principalOf(res).account.id, {
        limit: pageLimit(query.limit),
        cursor: query.cursor,
        status: query.status === 'active' || query.status === 'inactive' ? query.status : undefined,
      }),
    );
  });

  api.get('/dashboard/api/v1/static-qrcodes/{staticQrCodeId}', async (req, res) => {
    res.json(await dashboardStaticQrCodeOf(deps, principalOf(res).account.id, req.params.staticQrCodeId));
  });

  api.post('/dashboard/api/v1/static-qrcodes/{staticQrCodeId}/deactivate', async (req, res) => {
    res.json(await deactivateDashboardStaticQrCode(deps, principalOf(res), req.params.staticQrCodeId));
  });

  api.get('/dashboard/api/v1/static-qrcodes/{staticQrCodeId}/qrcode', async (req, res) => {
    // Validated by the document: format png|svg, size an integer 128..1024.
    const image = await dashboardStaticQrCodeImage(deps, principalOf(res).account.id, req.params.staticQrCodeId, {
      format: req.query.format === 'svg' ? 'svg' : 'png',
      sizePx: req.query.size === undefined ? DEFAULT_QR_SIZE_PX : Number(req.query.size),
    });
    res.setHeader('Content-Type', image.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${image.fileName}"`);
    // The session's own data: never kept by a shared cache.
    res.setHeader('Cache-Control', 'private, max-age=3600');
    res.end(image.body);
  });
}
