import { AccountBlocked, AccountNotApproved } from '../accounts/account.errors.ts';
import type { components } from '../../generated/dashboard-types.ts';
import type { components as api } from '../../generated/api-types.ts';
import type { RecipientRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { recipientsOfAccount } from '../recipients/recipient.review.ts';
import { registerRecipient, type RegisterOutcome } from '../recipients/recipient.service.ts';
import { createRefund, type CreateRefundOutcome } from '../refunds/refund.service.ts';
import { createWithdrawal, type CreateWithdrawalOutcome } from '../withdrawals/withdrawal.service.ts';
import { TotpNotEnabled } from './dashboard.errors.ts';
import { normalizeText } from './text.ts';
import type { DashboardPrincipal } from './session.service.ts';
import { verifyUserTotp } from './twoFactor.service.ts';

type DashboardWithdrawalRequest = components['schemas']['DashboardWithdrawalRequest'];
type DashboardRefundRequest = components['schemas']['DashboardRefundRequest'];

/** The contract's account checks of the API, for money moved from the dashboard: approved KYC, not blocked. */
function requireUsableAccount(principal: DashboardPrincipal): void {
  if (principal.account.kyc_status !== 'approved') throw new AccountNotApproved();
  if (principal.account.blocked) throw new AccountBlocked();
}

/**
 * A withdrawal from the dashboard: the current TOTP code of the user first (two-factor must be on), then
 * exactly POST /v1/withdraw's service, with its rules, limits, messages and events.
 */
export async function dashboardWithdrawal(deps: Deps, principal: DashboardPrincipal, body: DashboardWithdrawalRequest): Promise<CreateWithdrawalOutcome> {
  requireUsableAccount(principal);
  if (!principal.user.totp_enabled_at) throw new TotpNotEnabled();
  const { totpCode, ...withdrawal } = body;
  await verifyUserTotp(deps, principal.user, totpCode);
  return createWithdrawal(deps, { accountId: principal.account.id, account: principal.account }, withdrawal);
}

/**
 * "Devolver" on a charge: money leaves the account as with a withdrawal, so the current TOTP code of the user
 * first (two-factor must be on), then exactly POST /v1/transactions/{id}/refunds's service.
 */
export async function dashboardRefund(deps: Deps, principal: DashboardPrincipal, transactionId: string, body: DashboardRefundRequest): Promise<CreateRefundOutcome> {
  requireUsableAccount(principal);
  if (!principal.user.totp_enabled_at) throw new TotpNotEnabled();
  const { totpCode, ...refund } = body;
  await verifyUserTotp(deps, principal.user, totpCode);
  return createRefund(deps, { accountId: principal.account.id, account: principal.account }, transactionId, refund);
}

/**
 * Exactly POST /v1/recipients, for the account of the signed-in user, with the form's texts normalised
 * first (src/dashboard/text.ts): the service then checks the legal name as it always does (2 characters or
 * more), so "   " is refused with the API's message and "Fornecedor   Alfa" is stored "Fornecedor Alfa".
 */
export function dashboardRegisterRecipient(
  deps: Deps,
  principal: DashboardPrincipal,
  body: api['schemas']['CreateRecipientRequest'],
): Promise<RegisterOutcome> {
  requireUsableAccount(principal);
  const texts = { legalName: normalizeText(body.legalName), ...(typeof body.label === 'string' ? { label: normalizeText(body.label) } : {}) };
  return registerRecipient(deps, { accountId: principal.account.id, account: principal.account }, { ...body, ...texts });
}

/** Every recipient of the account, in any review state. */
export function recipientsOf(deps: Pick<Deps, 'db'>, accountId: string): Promise<RecipientRow[]> {
  return recipientsOfAccount(deps, accountId);
}
