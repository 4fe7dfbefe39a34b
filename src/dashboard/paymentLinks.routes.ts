import type { Router } from 'express';
import type { paths } from '../../generated/dashboard-types.ts';
import { principalOf } from '../http/dashboardAccess.ts';
import { typedRoutes } from '../http/typedRoutes.ts';
import { publicBaseUrl } from '../paymentLinks/paymentLink.routes.ts';
import type { PaymentLinkStatus } from '../paymentLinks/paymentLink.service.ts';
import type { Deps } from '../platform/deps.ts';
import { pageLimit } from '../transactions/listPage.ts';
import { dashboardPaymentLink, dashboardPaymentLinkOf, dashboardPaymentLinks, deactivateDashboardPaymentLink } from './paymentLinks.service.ts';

/**
 * Dashboard, openapi/dashboard/paths/payment-links: payment links from the page (the /v1/payment-links
 * service); each link's `url` on the same public address as the API gives it.
 */
export function paymentLinkRoutes(router: Router, deps: Deps): void {
  const api = typedRoutes<paths>(router);

  api.post('/dashboard/api/v1/payment-links', async (req, res) => {
    const outcome = await dashboardPaymentLink(deps, principalOf(res), req.body, publicBaseUrl(deps, req));
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.body);
  });

  api.get('/dashboard/api/v1/payment-links', async (req, res) => {
    // Validated by the document: limit an integer 1..100, status one of the list.
    const query = req.query;
    res.json(
      await dashboardPaymentLinks(deps, principalOf(res).account.id, {
        limit: pageLimit(query.limit),
        cursor: query.cursor,
        status: query.status as PaymentLinkStatus | undefined,
        baseUrl: publicBaseUrl(deps, req),
      }),
    );
  });

  api.get('/dashboard/api/v1/payment-links/{linkId}', async (req, res) => {
    res.json(await dashboardPaymentLinkOf(deps, principalOf(res).account.id, req.params.linkId, publicBaseUrl(deps, req)));
  });

  api.post('/dashboard/api/v1/payment-links/{linkId}/deactivate', async (req, res) => {
    res.json(await deactivateDashboardPaymentLink(deps, principalOf(res), req.params.linkId, publicBaseUrl(deps, req)));
  });
}
