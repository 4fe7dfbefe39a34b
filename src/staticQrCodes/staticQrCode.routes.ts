import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { pageLimit } from '../transactions/listPage.ts';
import { createStaticQrCode, deactivateStaticQrCodeOf, getStaticQrCode, listStaticQrCodePage, staticQrCodeImage } from './staticQrCode.service.ts';

const DEFAULT_QR_SIZE_PX = 512;

/** /v1/static-qrcodes: reusable BR Codes on PixGate's key, on the merchant router. */
export function staticQrCodeRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/v1/static-qrcodes', async (req, res) => {
    const outcome = await createStaticQrCode(deps, authOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.get('/v1/static-qrcodes', async (req, res) => {
    // Validated by the spec: limit is an integer 1..100, status active or inactive.
    const query = req.query;
    res.json(
      await listStaticQrCodePage(deps, authOf(res).accountId, {
        limit: pageLimit(query.limit),
        cursor: query.cursor,
        status: query.status === 'active' || query.status === 'inactive' ? query.status : undefined,
      }),
    );
  });

  api.get('/v1/static-qrcodes/{id}', async (req, res) => {
    res.json(await getStaticQrCode(deps, authOf(res).accountId, req.params.id));
  });

  api.post('/v1/static-qrcodes/{id}/deactivate', async (req, res) => {
    res.json(await deactivateStaticQrCodeOf(deps, authOf(res).accountId, req.params.id));
  });

  api.get('/v1/static-qrcodes/{id}/qrcode', async (req, res) => {
    // Validated by the spec: format is png|svg, size an integer 128..1024.
    const image = await staticQrCodeImage(deps, authOf(res).accountId, req.params.id, {
      format: req.query.format === 'svg' ? 'svg' : 'png',
      sizePx: req.query.size === undefined ? DEFAULT_QR_SIZE_PX : Number(req.query.size),
    });
    res.setHeader('Content-Type', image.contentType);
    res.setHeader('Cache-Control', 'private, max-age=86400');
    res.end(image.body);
  });
}
