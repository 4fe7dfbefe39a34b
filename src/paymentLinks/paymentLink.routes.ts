import type { Request, Router } from 'express';
import type { paths } from '../../generated/api-types.ts';
import { authOf } from '../http/merchantAuth.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import type { Deps } from '../platform/deps.ts';
import { pageLimit } from '../transactions/listPage.ts';
import { createPaymentLink, deactivatePaymentLinkOf, getPaymentLink, listPaymentLinkPage } from './paymentLink.service.ts';

/**
 * Where the merchant listener is reached from outside: the origin of the configured public address of the
 * dashboard (DASHBOARD_URL, the same listener), else the request's own scheme and host (behind a proxy,
 * TRUST_PROXY makes them the client's).
 */
export function publicBaseUrl(deps: Deps, req: Request): string {
  if (deps.config.dashboardUrl !== undefined) return new URL(deps.config.dashboardUrl).origin;
  return `${req.protocol}://${req.get('host') ?? `${deps.config.host}:${deps.config.port}`}`;
}

/** /v1/payment-links: links to a hosted payment page, on the merchant router. */
export function paymentLinkRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/v1/payment-links', async (req, res) => {
    const outcome = await createPaymentLink(deps, authOf(res), req.body, publicBaseUrl(deps, req));
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.get('/v1/payment-links', async (req, res) => {
    // Validated by the spec: limit is an integer 1..100.
    const query = req.query;
    res.json(
      await listPaymentLinkPage(deps, authOf(res).accountId, {
        limit: pageLimit(query.limit),
        cursor: query.cursor,
        baseUrl: publicBaseUrl(deps, req),
      }),
    );
  });

  api.get('/v1/payment-links/{linkId}', async (req, res) => {
    res.json(await getPaymentLink(deps, authOf(res).accountId, req.params.linkId, publicBaseUrl(deps, req)));
  });

  api.post('/v1/payment-links/{linkId}/deactivate', async (req, res) => {
    res.json(await deactivatePaymentLinkOf(deps, authOf(res).accountId, req.params.linkId, publicBaseUrl(deps, req)));
  });
}
