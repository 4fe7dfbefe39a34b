import type { Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { chargeQrCode } from './charge.qrcode.ts';
import { createCharge } from './charge.service.ts';

const DEFAULT_QR_SIZE_PX = 512;

/** POST /v1/pix and GET /v1/transactions/{id}/qrcode (the charge's QR code image), on the merchant router. */
export function chargeRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/v1/pix', async (req, res) => {
    const outcome = await createCharge(deps, authOf(res), req.body);
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.get('/v1/transactions/{id}/qrcode', async (req, res) => {
    // Validated by the spec: format is png|svg, size an integer 128..1024.
    const image = await chargeQrCode(deps, authOf(res).accountId, req.params.id, {
      format: req.query.format === 'svg' ? 'svg' : 'png',
      sizePx: req.query.size === undefined ? DEFAULT_QR_SIZE_PX : Number(req.query.size),
    });
    res.setHeader('Content-Type', image.contentType);
    res.setHeader('Cache-Control', 'private, max-age=86400');
    res.end(image.body);
  });
}
