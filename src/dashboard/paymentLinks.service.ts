import type { components as api } from '../../generated/api-types.ts';
import type { components as dashboard } from '../../generated/dashboard-types.ts';
import {
  createPaymentLink,
  deactivatePaymentLinkOf,
  getPaymentLink,
  listPaymentLinkPage,
  type CreatePaymentLinkOutcome,
  type PaymentLinkStatus,
} from '../paymentLinks/paymentLink.service.ts';
import type { Deps } from '../platform/deps.ts';
import { actingAccount, besideAmount } from './dueCharges.service.ts';
import { linkPayers, linkTotals } from './paymentLinks.repository.ts';
import type { DashboardPrincipal } from './session.service.ts';

type PaymentLink = api['schemas']['PaymentLink'];
type PaymentLinkList = api['schemas']['PaymentLinkList'];
type DashboardPaymentLink = dashboard['schemas']['DashboardPaymentLink'];

/** The page's filters of "Links de pagamento": GET /v1/payment-links's page, and the status a link reads as now. */
export interface PaymentLinkFilters {
  limit: number;
  cursor?: string | undefined;
  status?: PaymentLinkStatus | undefined;
  baseUrl: string;
}

/**
 * "Novo link de pagamento": exactly POST /v1/payment-links's service (amount rules, idempotency by
 * externalRef) for the signed-in user's account; the amount's refusals beside the form's "Valor".
 */
export async function dashboardPaymentLink(
  deps: Deps,
  principal: DashboardPrincipal,
  body: api['schemas']['CreatePaymentLinkRequest'],
  baseUrl: string,
): Promise<CreatePaymentLinkOutcome> {
  const account = actingAccount(principal);
  try {
    return await createPaymentLink(deps, account, body, baseUrl);
  } catch (error) {
    throw besideAmount(error);
  }
}

/**
 * "Links de pagamento": GET /v1/payment-links's page; with a status, the links that read as it now, in the
 * same order and with cursors of the same form (a status is kept across its pages by the page).
 */
export function dashboardPaymentLinks(deps: Pick<Deps, 'db' | 'clock'>, accountId: string, filters: PaymentLinkFilters): Promise<PaymentLinkList> {
  return listPaymentLinkPage(deps, accountId, filters);
}

/** One link of the account with its newest charges (each with its payer once paid) and the totals of all. */
export async function dashboardPaymentLinkOf(deps: Pick<Deps, 'db' | 'clock'>, accountId: string, linkId: string, baseUrl: string): Promise<DashboardPaymentLink> {
  const { payments = [], ...link } = await getPaymentLink(deps, accountId, linkId, baseUrl);
  const [payers, totals] = await Promise.all([
    linkPayers(
      deps.db,
      linkId,
      payments.map((payment) => payment.transactionId),
    ),
    linkTotals(deps.db, linkId),
  ]);
  return {
    link,
    payments: payments.map((payment) => {
      const payer = payers.get(payment.transactionId);
      return { ...payment, ...(payer ? { payer: { name: payer.name, document: payer.document, documentType: payer.documentType } } : {}) };
    }),
    totals,
  };
}

/** "Desativar link": exactly POST /v1/payment-links/{linkId}/deactivate for the signed-in user's account. */
export function deactivateDashboardPaymentLink(deps: Deps, principal: DashboardPrincipal, linkId: string, baseUrl: string): Promise<PaymentLink> {
  return deactivatePaymentLinkOf(deps, actingAccount(principal).accountId, linkId, baseUrl);
}
