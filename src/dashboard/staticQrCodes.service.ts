import type { components as api } from '../../generated/api-types.ts';
import type { components as dashboard } from '../../generated/dashboard-types.ts';
import type { QrFormat, QrImage } from '../charges/charge.qrcode.ts';
import type { Deps } from '../platform/deps.ts';
import {
  createStaticQrCode,
  deactivateStaticQrCodeOf,
  getStaticQrCode,
  listStaticQrCodePage,
  staticQrCodeImage,
  type CreateStaticQrCodeOutcome,
} from '../staticQrCodes/staticQrCode.service.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import type { TransactionRow } from '../db/schema.ts';
import { actingAccount, besideAmount } from './dueCharges.service.ts';
import type { DashboardPrincipal } from './session.service.ts';
import { staticQrCodePayments } from './staticQrCodes.repository.ts';

type StaticQrCode = api['schemas']['StaticQrCode'];
type DashboardStaticQrCode = dashboard['schemas']['DashboardStaticQrCode'];
type Payment = dashboard['schemas']['DashboardStaticQrPayment'];

/** The payments the page lists under a code (the newest; the totals count them all). */
const PAYMENTS_SHOWN = 100;

/** The page's filters of "QR codes estáticos": those of GET /v1/static-qrcodes. */
export interface StaticQrCodeFilters {
  limit: number;
  cursor?: string | undefined;
  status?: 'active' | 'inactive' | undefined;
}

/**
 * "Novo QR code estático": exactly POST /v1/static-qrcodes's service (amount and description rules, the
 * hourly limit, idempotency by externalRef) for the signed-in user's account (approved, not blocked).
 */
export async function dashboardStaticQrCode(deps: Deps, principal: DashboardPrincipal, body: api['schemas']['CreateStaticQrCodeRequest']): Promise<CreateStaticQrCodeOutcome> {
  const account = actingAccount(principal);
  try {
    return await createStaticQrCode(deps, account, body);
  } catch (error) {
    // The amount's refusals beside the form's "Valor" field, in reais, as the due charges' form says them.
    throw besideAmount(error);
  }
}

/** "QR codes estáticos": GET /v1/static-qrcodes's page, each with its totals. */
export function dashboardStaticQrCodes(deps: Pick<Deps, 'db'>, accountId: string, filters: StaticQrCodeFilters): Promise<api['schemas']['StaticQrCodeList']> {
  return listStaticQrCodePage(deps, accountId, filters);
}

/** A payment as "Pagamentos" shows it: the charge's amount, payer (when known), paid at, end-to-end id. */
function toPayment(row: TransactionRow): Payment {
  const charge = toApiTransaction(row, 'list');
  return {
    transactionId: charge.transactionId,
    status: charge.status,
    amountCents: charge.amountCents,
    feeCents: charge.feeCents,
    netCents: charge.netCents,
    paidAt: charge.paidAt ?? charge.createdAt,
    ...(charge.endToEndId !== undefined ? { endToEndId: charge.endToEndId } : {}),
    ...(charge.payer !== undefined ? { payer: charge.payer } : {}),
  };
}

/** One code of the account with its totals and its payments, newest first (another account's: 404). */
export async function dashboardStaticQrCodeOf(deps: Pick<Deps, 'db'>, accountId: string, staticQrCodeId: string): Promise<DashboardStaticQrCode> {
  const code = await getStaticQrCode(deps, accountId, staticQrCodeId);
  const payments = await staticQrCodePayments(deps.db, accountId, code.staticQrCodeId, PAYMENTS_SHOWN);
  return { ...code, payments: payments.map(toPayment) };
}

/** "Desativar QR code": exactly POST /v1/static-qrcodes/{id}/deactivate for the signed-in user's account. */
export function deactivateDashboardStaticQrCode(deps: Pick<Deps, 'db' | 'clock'>, principal: DashboardPrincipal, staticQrCodeId: string): Promise<StaticQrCode> {
  return deactivateStaticQrCodeOf(deps, actingAccount(principal).accountId, staticQrCodeId);
}

/** The code's image as GET /v1/static-qrcodes/{id}/qrcode renders it, with the file name the download saves. */
export async function dashboardStaticQrCodeImage(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  staticQrCodeId: string,
  options: { format: QrFormat; sizePx: number },
): Promise<QrImage & { fileName: string }> {
  const image = await staticQrCodeImage(deps, accountId, staticQrCodeId, options);
  return { ...image, fileName: `pixgate-qr-${staticQrCodeId}.${options.format}` };
}
