import type { components as api } from '../../generated/api-types.ts';
import { AccountBlocked, AccountNotApproved } from '../accounts/account.errors.ts';
import type { AccountContext } from '../accounts/auth.ts';
import { AmountAboveMaximum, AmountAbovePermitted, AmountBelowMinimum, AmountBelowPermitted } from '../charges/charge.errors.ts';
import { cancelDueCharge, createDueCharge, getDueCharge, listDueChargePage, type CreateDueChargeOutcome } from '../charges/dueCharge.service.ts';
import type { Deps } from '../platform/deps.ts';
import { DueChargeAmountOutOfRange, DueChargeDayInvalid } from './dueCharges.errors.ts';
import type { DashboardPrincipal } from './session.service.ts';

type DueCharge = api['schemas']['DueCharge'];

/** The page's filters of "Cobranças com vencimento": those of GET /v1/due-charges. */
export interface DueChargeFilters {
  limit: number;
  cursor?: string | undefined;
  status?: string | undefined;
  dueFrom?: string | undefined;
  dueTo?: string | undefined;
}

/** The account of a session that acts on its charges, with the API's account checks (approved KYC, not blocked). */
export function actingAccount(principal: DashboardPrincipal): AccountContext {
  if (principal.account.kyc_status !== 'approved') throw new AccountNotApproved();
  if (principal.account.blocked) throw new AccountBlocked();
  return { accountId: principal.account.id, account: principal.account };
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `AAAA-MM-DD` is a day of the calendar (the round trip refuses 2027-02-30 and years below 100). */
function isCalendarDay(text: string): boolean {
  const match = ISO_DAY.exec(text);
  if (!match) return false;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/**
 * Each date of a request is a day of the calendar: the document's `format: date` checks only the shape, and
 * the due-date arithmetic cannot count from a day that does not exist.
 */
function requireCalendarDays(dates: [field: string, value: string | undefined][]): void {
  for (const [field, value] of dates) if (value !== undefined && !isCalendarDay(value)) throw new DueChargeDayInvalid(field);
}

/**
 * The charges' amount refusals, said beside the form's "Valor" field (also those of payment links, whose
 * amount follows POST /v1/pix's rules); anything else as it is.
 */
export function besideAmount(error: unknown): unknown {
  if (error instanceof AmountBelowMinimum) return new DueChargeAmountOutOfRange('minimum', error.minimumCents);
  if (error instanceof AmountAboveMaximum) return new DueChargeAmountOutOfRange('maximum', error.maximumCents);
  if (error instanceof AmountBelowPermitted) return new DueChargeAmountOutOfRange('permittedMinimum', error.minimumCents);
  if (error instanceof AmountAbovePermitted) return new DueChargeAmountOutOfRange('permittedMaximum', error.maximumCents);
  return error;
}

/**
 * "Nova cobrança com vencimento": exactly POST /v1/due-charges's service (rules, terms, limits, idempotency by
 * externalRef, events) for the signed-in user's account.
 */
export async function dashboardDueCharge(deps: Deps, principal: DashboardPrincipal, body: api['schemas']['CreateDueChargeRequest']): Promise<CreateDueChargeOutcome> {
  const account = actingAccount(principal);
  requireCalendarDays([['dueDate', body.dueDate], ...(body.discount?.dates ?? []).map((item, index): [string, string] => [`discount.dates.${index}.date`, item.date])]);
  try {
    return await createDueCharge(deps, account, body);
  } catch (error) {
    throw besideAmount(error);
  }
}

/** "Cobranças com vencimento": GET /v1/due-charges's page, each with its amount due today. */
export async function dashboardDueCharges(deps: Pick<Deps, 'db' | 'clock'>, accountId: string, filters: DueChargeFilters): Promise<api['schemas']['DueChargeList']> {
  requireCalendarDays([
    ['dueFrom', filters.dueFrom],
    ['dueTo', filters.dueTo],
  ]);
  return listDueChargePage(deps, accountId, filters);
}

/** One charge with a due date of the account, with its amount due today (São Paulo). */
export function dashboardDueChargeOf(deps: Pick<Deps, 'db' | 'clock'>, accountId: string, transactionId: string): Promise<DueCharge> {
  return getDueCharge(deps, accountId, transactionId, undefined);
}

/** "Cancelar cobrança": exactly POST /v1/due-charges/{id}/cancel for the signed-in user's account. */
export function cancelDashboardDueCharge(deps: Deps, principal: DashboardPrincipal, transactionId: string): Promise<DueCharge> {
  return cancelDueCharge(deps, actingAccount(principal).accountId, transactionId);
}
