import type { components as api } from '../../generated/api-types.ts';
import { AccountBlocked, AccountNotApproved } from '../accounts/account.errors.ts';
import { chargeQrCode, type QrImage } from '../charges/charge.qrcode.ts';
import { createCharge, type CreateChargeOutcome } from '../charges/charge.service.ts';
import type { Deps } from '../platform/deps.ts';
import type { DashboardPrincipal } from './session.service.ts';

/**
 * "Nova cobrança": exactly POST /v1/pix's service (rules, limits, idempotency by externalRef, messages,
 * events) for the signed-in user's account, with the API's account checks (approved KYC, not blocked).
 */
export function dashboardCharge(deps: Deps, principal: DashboardPrincipal, body: api['schemas']['CreateChargeRequest']): Promise<CreateChargeOutcome> {
  if (principal.account.kyc_status !== 'approved') throw new AccountNotApproved();
  if (principal.account.blocked) throw new AccountBlocked();
  return createCharge(deps, { accountId: principal.account.id, account: principal.account }, body);
}

/** The charge's QR code as a PNG, from GET /v1/transactions/{id}/qrcode's service; anything else is "not found". */
export function dashboardChargeQrCode(deps: Pick<Deps, 'db'>, accountId: string, transactionId: string, sizePx: number): Promise<QrImage> {
  return chargeQrCode(deps, accountId, transactionId, { format: 'png', sizePx });
}
