/**
 * Charges with a due date (API Pix `cobv`, /v1/due-charges; docs/decisions.md "Charges with a due date"): a
 * `pix_in` transaction whose amount the payer's bank computes on the day of payment from its terms
 * (./dueAmount.ts). Created, changed and cancelled at the provider first, then kept; paid through the same
 * received-Pix path as any charge (payCharge asks `duePaymentOf`, under the charge's lock, whether a Pix pays it); expired
 * by the expiry job after its last payable day; refunded and notified as any charge.
 */
import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import type { AccountRow, DueDebtorJson } from '../db/schema.ts';
import { retryWhileUnavailable, SWITCHOVER_RETRY_MS } from '../db/unavailable.ts';
import type { Deps } from '../platform/deps.ts';
import { pageOf, positionAfter, rowsToRead } from '../transactions/listPage.ts';
import { newId } from '../primitives/ids.ts';
import { saoPauloDay, saoPauloDayPeriod } from '../primitives/saoPaulo.ts';
import { ProviderFailure, ProviderTimeout, type DueChargeTerms, type RegisterDueChargeInput, type RegisteredCharge } from '../provider/port.ts';
import { release, tryConsume, type Window } from '../ratelimit/rateLimit.repository.ts';
import { findLiveIdempotentTransaction, IDEMPOTENCY_RETENTION_MS, lockTransaction } from '../transactions/transaction.repository.ts';
import { ChargeInWrongStatus, ChargeRateLimited, ProviderUnavailable } from './charge.errors.ts';
import { endCharge } from './charge.sandbox.ts';
import { removeAtProvider } from './charge.sandboxPayment.ts';
import { chargeFee, chargePayload, checkAmount, PLATFORM_CHARGE_CEILING_CENTS, settledFee, smallestCoveringAmount, type FeeRule } from './charge.service.ts';
import { normalizeCustomerDocument } from './charge.validation.ts';
import { amountDueOn, effectiveDueDate, lastPayableDate, termsProblem, type AmountDue, type DueTerms } from './dueAmount.ts';
import {
  findDueCharge,
  insertDueCharge,
  listDueCharges,
  lockDueTerms,
  reviseDueTerms,
  type DueChargeRecord,
  type DueChargeRow,
} from './dueCharge.repository.ts';
import {
  DueAmountBelowPermitted,
  DueChargeNotFound,
  DueChargeNotPending,
  DueDateInPast,
  DueDateTooFar,
  DueTermMalformed,
  DueTermsContradict,
  AmountDueDateOutOfRange,
  EmptyDueRange,
  ImpossibleDate,
  NothingToChange,
} from './dueCharge.errors.ts';

type CreateDueChargeRequest = components['schemas']['CreateDueChargeRequest'];
type UpdateDueChargeRequest = components['schemas']['UpdateDueChargeRequest'];
type DueChargeJson = components['schemas']['DueCharge'];
type DueCustomer = components['schemas']['DueChargeCustomer'];

const DEFAULT_DAYS_AFTER_DUE = 30;
const MAX_YEARS_AHEAD = 5;
const HOUR_MS = 3_600_000;

// ---- Terms -------------------------------------------------------------------------------------------------

/** `YYYY-MM-DD` that names a day of the calendar (not `2027-02-30`; any year from 0001, `0055` included). */
function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years below 100 as 19xx
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Throws `ImpossibleDate` for a date of the right shape that no calendar has. */
export function requireCalendarDate(field: ImpossibleDate['field'], value: string | undefined): void {
  if (value !== undefined && !isCalendarDate(value)) throw new ImpossibleDate(field, value);
}

/** The days an amount due is computed for: the calendar of the bank holidays' table (and no walk of centuries). */
const AMOUNT_DUE_DAYS = { first: '2000-01-01', last: '2099-12-31' } as const;

/** Exactly one of the two value fields, as the mode asks: `amountCents` (an amount) or `basisPoints` (a percentage). */
function valueFits(term: { amountCents?: number | undefined; basisPoints?: number | undefined }, percent: boolean): boolean {
  return percent ? term.basisPoints !== undefined && term.amountCents === undefined : term.amountCents !== undefined && term.basisPoints === undefined;
}

/**
 * The request's terms as ./dueAmount.ts types them, each checked against its mode (the schema checks the
 * fields, not which field a mode takes); `DueTermMalformed` names the first one that does not fit.
 */
export function termsOf(body: Pick<CreateDueChargeRequest, 'fine' | 'interest' | 'discount' | 'rebate'>): DueChargeTerms {
  const { fine, interest, discount, rebate } = body;
  for (const item of discount?.dates ?? []) requireCalendarDate('discount', item.date);
  if (fine && !valueFits(fine, fine.mode === 'percent')) throw new DueTermMalformed('fine');
  if (interest && !valueFits(interest, interest.mode.startsWith('percent_'))) throw new DueTermMalformed('interest');
  if (discount) {
    const byDates = discount.mode.endsWith('_until_dates');
    const percent = discount.mode.startsWith('percent_');
    const fits = byDates
      ? discount.dates !== undefined && discount.amountCents === undefined && discount.basisPoints === undefined && discount.dates.every((item) => valueFits(item, percent))
      : discount.dates === undefined && valueFits(discount, percent);
    if (!fits) throw new DueTermMalformed('discount');
  }
  if (rebate && !valueFits(rebate, rebate.mode === 'percent')) throw new DueTermMalformed('rebate');
  // The checks above make these the shapes dueAmount.ts declares (a mode with the field it takes).
  return {
    ...(fine ? { fine: fine as NonNullable<DueChargeTerms['fine']> } : {}),
    ...(interest ? { interest: interest as NonNullable<DueChargeTerms['interest']> } : {}),
    ...(discount ? { discount: discount as NonNullable<DueChargeTerms['discount']> } : {}),
    ...(rebate ? { rebate: rebate as NonNullable<DueChargeTerms['rebate']> } : {}),
  };
}

function dueTermsOf(row: { amountCents: number; dueDate: string; daysAfterDue: number; terms: DueChargeTerms }): DueTerms {
  const { fine, interest, discount, rebate } = row.terms;
  return {
    originalCents: row.amountCents,
    dueDate: row.dueDate,
    daysAfterDue: row.daysAfterDue,
    ...(fine ? { fine } : {}),
    ...(interest ? { interest } : {}),
    ...(discount ? { discount } : {}),
    ...(rebate ? { rebate } : {}),
  };
}

/** The last due date accepted: the same day five years on (29 February: the 28th). */
function lastDueDateFrom(today: string): string {
  const [year, month, day] = today.split('-');
  const candidate = `${Number(year) + MAX_YEARS_AHEAD}-${month}-${day}`;
  return month === '02' && day === '29' ? `${Number(year) + MAX_YEARS_AHEAD}-02-28` : candidate;
}

/**
 * Every rule of a charge's terms beyond the schema: the due date within today and five years, the terms'
 * own contradictions (API Pix's `CobVOperacaoInvalida`), and the smallest amount they can come to still
 * covering the fee. Answers the fee on the amount billed.
 */
function checkTerms(account: AccountRow, due: DueTerms, todayDate: string): number {
  if (due.dueDate < todayDate) throw new DueDateInPast(todayDate);
  const lastDueDate = lastDueDateFrom(todayDate);
  if (due.dueDate > lastDueDate) throw new DueDateTooFar(lastDueDate);
  const fee = checkAmount(account, due.originalCents);
  const problem = termsProblem(due);
  if (problem !== undefined && problem !== 'discount_dates_count') {
    const dates = due.discount && 'dates' in due.discount ? due.discount.dates.map((item) => item.date) : [];
    if (problem === 'discount_date_after_due') throw new DueTermsContradict(problem, dates.find((date) => date > due.dueDate));
    if (problem === 'duplicate_discount_date') throw new DueTermsContradict(problem, dates.find((date, index) => dates.indexOf(date) !== index));
    throw new DueTermsContradict(problem);
  }
  const rule = feeRuleOf(account);
  const smallest = smallestAmountDue(due, todayDate);
  if (smallest - chargeFee(smallest, rule) < 1) throw new DueAmountBelowPermitted(smallestCoveringAmount(smallest, PLATFORM_CHARGE_CEILING_CENTS, rule));
  return fee;
}

/**
 * The least a payer can pay (the most discount): on the earliest day (today) for a per-day discount, on a
 * discount's own date for discounts until dates (the earliest is not always the largest).
 */
function smallestAmountDue(due: DueTerms, todayDate: string): number {
  const days = new Set([todayDate, effectiveDueDate(due.dueDate)]);
  if (due.discount && 'dates' in due.discount) for (const item of due.discount.dates) if (item.date >= todayDate) days.add(item.date);
  let smallest = Number.POSITIVE_INFINITY;
  for (const day of days) {
    const amount = amountDueOn(due, day);
    if (amount.payable) smallest = Math.min(smallest, amount.amountCents);
  }
  return smallest === Number.POSITIVE_INFINITY ? due.originalCents : smallest;
}

function feeRuleOf(account: AccountRow): FeeRule {
  return { fixedCents: account.charge_fee_fixed_cents, bps: account.charge_fee_bps };
}

/** The debtor as stored: the document stripped and its type lower-cased (checked as POST /v1/pix checks it). */
function debtorOf(customer: DueCustomer): DueDebtorJson {
  const document = normalizeCustomerDocument(customer.document);
  return {
    name: customer.name.trim(),
    ...(customer.email !== undefined ? { email: customer.email } : {}),
    ...(customer.phone !== undefined ? { phone: customer.phone } : {}),
    document,
    ...(customer.address ? { address: { ...customer.address, street: customer.address.street.trim(), city: customer.address.city.trim() } } : {}),
  };
}

/** The first instant after the last payable day (São Paulo): the charge's `expires_at`. */
function expiryOf(lastDay: string): Date {
  return new Date(saoPauloDayPeriod(lastDay).toMs + 1);
}

// ---- Answers -----------------------------------------------------------------------------------------------

function amountDueJson(amount: AmountDue, date: string): DueChargeJson['amountDue'] {
  if (!amount.payable) return { date, payable: false };
  return {
    date,
    payable: true,
    amountCents: amount.amountCents,
    fineCents: amount.fineCents,
    interestCents: amount.interestCents,
    discountCents: amount.discountCents,
    rebateCents: amount.rebateCents,
  };
}

const PAID_STATUSES: readonly string[] = ['paid', 'partially_refunded', 'refunded'];

/** The amount due of a stored charge on a São Paulo day. */
export function amountDueOf(due: DueChargeRow, date: string): AmountDue {
  return amountDueOn(dueTermsOf({ amountCents: due.original_cents, dueDate: due.due_date, daysAfterDue: due.days_after_due, terms: due.terms }), date);
}

export function toDueChargeJson({ charge, due }: DueChargeRecord, date: string, idempotent = false): DueChargeJson {
  const paid = PAID_STATUSES.includes(charge.status);
  const { fine, interest, discount, rebate } = due.terms;
  return {
    transactionId: charge.id,
    status: charge.status as DueChargeJson['status'],
    pixPayload: charge.pix_payload ?? '',
    amountCents: due.original_cents,
    dueDate: due.due_date,
    lastPayableDate: due.last_payable_date,
    daysAfterDue: due.days_after_due,
    customer: due.debtor as DueCustomer,
    ...(due.description !== null ? { description: due.description } : {}),
    ...(charge.external_ref !== null ? { externalRef: charge.external_ref } : {}),
    ...(fine ? { fine } : {}),
    ...(interest ? { interest } : {}),
    ...(discount ? { discount: discount as DueChargeJson['discount'] } : {}),
    ...(rebate ? { rebate } : {}),
    revision: due.revision,
    amountDue: amountDueJson(amountDueOf(due, date), date),
    ...(paid ? { paidAmountCents: charge.amount_cents, feeCents: charge.fee_cents } : {}),
    ...(paid && charge.end_to_end_id !== null ? { endToEndId: charge.end_to_end_id } : {}),
    createdAt: charge.created_at.getTime(),
    ...(paid && charge.paid_at !== null ? { paidAt: charge.paid_at.getTime() } : {}),
    ...(idempotent ? { idempotent: true } : {}),
  };
}

// ---- Operations --------------------------------------------------------------------------------------------

export type CreateDueChargeOutcome = { kind: 'created' | 'replayed'; body: DueChargeJson };

/**
 * POST /v1/due-charges: validated (400s), a rate-limit slot taken (the charges' hourly bucket), the cobv
 * registered at the provider (outside any database transaction), then the charge, its terms and its
 * externalRef's claim stored together. A repeated externalRef is answered with its charge (200), the slot
 * given back; anything but a 201 gives the slot back.
 */
/** A request checked against every rule, with its transaction id: what the provider is asked and what is stored. */
export interface PreparedDueCharge {
  input: RegisterDueChargeInput;
  feeCents: number;
  lastPayableDate: string;
  feeRule: FeeRule;
}

/** Every rule of POST /v1/due-charges on one request (the 400s), as the provider's input under a new transaction id. */
export function prepareDueCharge(auth: AccountContext, body: CreateDueChargeRequest, nowMs: number): PreparedDueCharge {
  requireCalendarDate('dueDate', body.dueDate);
  const terms = termsOf(body);
  const daysAfterDue = body.daysAfterDue ?? DEFAULT_DAYS_AFTER_DUE;
  const due = dueTermsOf({ amountCents: body.amountCents, dueDate: body.dueDate, daysAfterDue, terms });
  const feeCents = checkTerms(auth.account, due, saoPauloDay(nowMs));
  const debtor = debtorOf(body.customer);
  return {
    input: {
      transactionId: newId('tx'),
      accountId: auth.accountId,
      externalRef: body.externalRef,
      amountCents: body.amountCents,
      createdAtMs: nowMs,
      dueDate: body.dueDate,
      daysAfterDue,
      terms,
      debtor,
      description: body.description,
    },
    feeCents,
    lastPayableDate: lastPayableDate(due),
    feeRule: feeRuleOf(auth.account),
  };
}

/**
 * Stores a charge the provider created (its BR Code, or one built from its location: no amount in it, the
 * payer's bank reads the amount of the day from the location), claiming its externalRef.
 */
export function storeDueCharge(deps: Pick<Deps, 'db'>, account: AccountRow, prepared: PreparedDueCharge, registered: RegisteredCharge) {
  const { input } = prepared;
  const pixPayload = chargePayload(registered, account);
  return insertDueCharge(
    deps.db,
    {
      id: input.transactionId,
      accountId: input.accountId,
      amountCents: input.amountCents,
      feeCents: prepared.feeCents,
      pixPayload,
      providerRef: registered.providerRef,
      expiresAt: expiryOf(prepared.lastPayableDate),
      createdAt: new Date(input.createdAtMs),
      externalRef: input.externalRef ?? null,
      dueDate: input.dueDate,
      daysAfterDue: input.daysAfterDue,
      lastPayableDate: prepared.lastPayableDate,
      terms: input.terms,
      debtor: input.debtor,
      description: input.description ?? null,
      feeRule: prepared.feeRule,
    },
    input.externalRef === undefined ? undefined : { expiresAt: new Date(input.createdAtMs + IDEMPOTENCY_RETENTION_MS) },
  );
}

/** The live charge with a due date an externalRef names, if any (7 days). */
export async function liveDueCharge(deps: Pick<Deps, 'db'>, accountId: string, externalRef: string, nowMs: number): Promise<DueChargeRecord | undefined> {
  const existing = await findLiveIdempotentTransaction(deps.db, accountId, 'due_charge', externalRef, nowMs);
  return existing && (await findDueCharge(deps.db, accountId, existing.id));
}

export async function createDueCharge(deps: Deps, auth: AccountContext, body: CreateDueChargeRequest): Promise<CreateDueChargeOutcome> {
  const { account } = auth;
  const nowMs = deps.clock.now();
  const today = saoPauloDay(nowMs);
  const prepared = prepareDueCharge(auth, body, nowMs);
  const externalRef = body.externalRef;

  const replay = async (): Promise<CreateDueChargeOutcome | undefined> => {
    const found = externalRef === undefined ? undefined : await liveDueCharge(deps, auth.accountId, externalRef, nowMs);
    return found ? { kind: 'replayed', body: toDueChargeJson(found, today, true) } : undefined;
  };

  const window: Window = { bucket: 'charge:hour', windowMs: HOUR_MS, limit: account.charge_rate_per_hour };
  const slot = await retryWhileUnavailable(() => tryConsume(deps.db, auth.accountId, window, nowMs), { timeoutMs: SWITCHOVER_RETRY_MS, firstPauseMs: 100 });
  if (!slot) {
    const replayed = await replay();
    if (replayed) return replayed;
    throw new ChargeRateLimited();
  }
  try {
    const earlier = await replay();
    if (earlier) {
      await release(deps.db, auth.accountId, slot);
      return earlier;
    }
    const { transactionId } = prepared.input;
    const registered = await deps.provider.registerDueCharge(prepared.input);
    const claim = await storeDueCharge(deps, account, prepared, registered);
    if (!claim.claimed) {
      // A concurrent request with this externalRef stored its charge first: this one is answered with it.
      await release(deps.db, auth.accountId, slot);
      if (claim.existing.provider_ref !== registered.providerRef) {
        void deps.provider.removeCharge({ transactionId, providerRef: registered.providerRef, kind: 'due' }).catch(() => undefined);
      }
      const found = await findDueCharge(deps.db, auth.accountId, claim.existing.id);
      if (!found) throw new Error(`externalRef ${externalRef} claimed by ${claim.existing.id}, which is not a charge with a due date`);
      return { kind: 'replayed', body: toDueChargeJson(found, today, true) };
    }
    const stored = await findDueCharge(deps.db, auth.accountId, transactionId);
    if (!stored) throw new Error(`charge ${transactionId} stored but not readable`);
    return { kind: 'created', body: toDueChargeJson(stored, today) };
  } catch (error) {
    await release(deps.db, auth.accountId, slot);
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout) {
      const replayed = await replay();
      if (replayed) return replayed;
      throw new ProviderUnavailable();
    }
    throw error;
  }
}

export async function getDueCharge(deps: Pick<Deps, 'db' | 'clock'>, accountId: string, transactionId: string, date: string | undefined): Promise<DueChargeJson> {
  requireCalendarDate('date', date);
  if (date !== undefined && (date < AMOUNT_DUE_DAYS.first || date > AMOUNT_DUE_DAYS.last)) throw new AmountDueDateOutOfRange(date);
  const found = await findDueCharge(deps.db, accountId, transactionId);
  if (!found) throw new DueChargeNotFound();
  return toDueChargeJson(found, date ?? saoPauloDay(deps.clock.now()));
}

const TRANSACTION_ID = /^tx_[0-9a-f]{24}$/;

export async function listDueChargePage(
  deps: Pick<Deps, 'db' | 'clock'>,
  accountId: string,
  options: { limit: number; cursor?: string | undefined; status?: string | undefined; dueFrom?: string | undefined; dueTo?: string | undefined },
): Promise<components['schemas']['DueChargeList']> {
  requireCalendarDate('dueFrom', options.dueFrom);
  requireCalendarDate('dueTo', options.dueTo);
  if (options.dueFrom !== undefined && options.dueTo !== undefined && options.dueTo < options.dueFrom) throw new EmptyDueRange();
  const after = positionAfter(options.cursor, TRANSACTION_ID);
  const rows = await listDueCharges(deps.db, accountId, { status: options.status, dueFrom: options.dueFrom, dueTo: options.dueTo, after, limit: rowsToRead(options.limit) });
  const { page, nextCursor } = pageOf(rows, options.limit, (row) => ({ createdAtUs: row.createdAtUs, id: row.charge.id }));
  const today = saoPauloDay(deps.clock.now());
  return { dueCharges: page.map((row) => toDueChargeJson(row, today)), count: page.length, ...(nextCursor !== undefined ? { nextCursor } : {}) };
}

/** The request's value of a nullable field: absent keeps the current one, null removes it. */
function merged<T>(value: T | null | undefined, current: T | undefined): T | undefined {
  return value === undefined ? current : (value ?? undefined);
}

/**
 * PATCH /v1/due-charges/{id}: the fields sent replace the charge's (null removes a term or the note), every
 * rule of creation checked on the result; revised at the provider, then kept with `revision` + 1. A charge
 * no longer pending (here or at the provider) is answered 409 with its status.
 */
export async function updateDueCharge(deps: Deps, auth: AccountContext, transactionId: string, body: UpdateDueChargeRequest): Promise<DueChargeJson> {
  if (Object.keys(body).length === 0) throw new NothingToChange();
  requireCalendarDate('dueDate', body.dueDate);
  const found = await findDueCharge(deps.db, auth.accountId, transactionId);
  if (!found) throw new DueChargeNotFound();
  if (found.charge.status !== 'pending') throw new DueChargeNotPending('change', found.charge.status);
  const nowMs = deps.clock.now();
  const today = saoPauloDay(nowMs);
  const current = found.due;
  const terms = termsOf({
    fine: merged(body.fine, current.terms.fine),
    interest: merged(body.interest, current.terms.interest),
    discount: merged(body.discount, current.terms.discount as CreateDueChargeRequest['discount']),
    rebate: merged(body.rebate, current.terms.rebate),
  });
  const amountCents = body.amountCents ?? current.original_cents;
  const dueDate = body.dueDate ?? current.due_date;
  const daysAfterDue = body.daysAfterDue ?? current.days_after_due;
  const due = dueTermsOf({ amountCents, dueDate, daysAfterDue, terms });
  const fee = checkTerms(auth.account, due, today);
  const debtor = body.customer ? debtorOf(body.customer) : current.debtor;
  const description = body.description === undefined ? current.description : body.description;
  const revised = await deps.provider
    .reviseDueCharge({
      transactionId,
      accountId: auth.accountId,
      amountCents,
      createdAtMs: found.charge.created_at.getTime(),
      dueDate,
      daysAfterDue,
      terms,
      debtor,
      description: description ?? undefined,
      providerRef: found.charge.provider_ref ?? '',
    })
    .catch((error: unknown) => {
      if (error instanceof ProviderFailure || error instanceof ProviderTimeout) throw new ProviderUnavailable();
      throw error;
    });
  if (!revised) {
    const now = await findDueCharge(deps.db, auth.accountId, transactionId);
    throw new DueChargeNotPending('change', now?.charge.status === 'pending' ? 'paid' : (now?.charge.status ?? 'pending'));
  }
  const lastDay = lastPayableDate(due);
  const at = new Date(nowMs);
  await deps.db.transaction().execute(async (trx) => {
    const row = await lockTransaction(trx, transactionId);
    if (!row || row.status !== 'pending') throw new DueChargeNotPending('change', row?.status ?? 'pending');
    await lockDueTerms(trx, transactionId);
    await reviseDueTerms(trx, transactionId, { amountCents, feeCents: fee, dueDate, daysAfterDue, lastPayableDate: lastDay, expiresAt: expiryOf(lastDay), terms, debtor, description, at });
  });
  const after = await findDueCharge(deps.db, auth.accountId, transactionId);
  if (!after) throw new DueChargeNotFound();
  return toDueChargeJson(after, today);
}

/**
 * POST /v1/due-charges/{id}/cancel: removed at the provider, then `cancelled` with `transaction.cancelled`.
 * Paid there first: that payment is credited and the answer is 409 with the charge's status. A cancelled
 * charge is answered as it is (a retry).
 */
export async function cancelDueCharge(deps: Deps, accountId: string, transactionId: string): Promise<DueChargeJson> {
  const found = await findDueCharge(deps.db, accountId, transactionId);
  if (!found) throw new DueChargeNotFound();
  const today = saoPauloDay(deps.clock.now());
  if (found.charge.status === 'cancelled') return toDueChargeJson(found, today);
  if (found.charge.status !== 'pending') throw new DueChargeNotPending('cancel', found.charge.status);
  const removable = await removeAtProvider(deps, found.charge).catch((error: unknown) => {
    if (error instanceof ProviderFailure || error instanceof ProviderTimeout) throw new ProviderUnavailable();
    throw error;
  });
  if (removable) {
    await endCharge(deps, transactionId, 'cancelled').catch((error: unknown) => {
      if (error instanceof ChargeInWrongStatus) return undefined;
      throw error;
    });
  }
  const after = await findDueCharge(deps.db, accountId, transactionId);
  if (!after) throw new DueChargeNotFound();
  if (after.charge.status !== 'cancelled') throw new DueChargeNotPending('cancel', after.charge.status);
  return toDueChargeJson(after, today);
}

/**
 * Whether a received Pix pays a charge with a due date on these terms (read by payCharge under the charge's
 * lock, so a PATCH cannot change them between this answer and the credit): its amount is the amount due on
 * the São Paulo day the provider received it. Answers the amount and fee to credit, or why it does not pay it.
 */
export function duePaymentOf(
  due: DueChargeRow,
  pix: { amountCents: number; receivedAtMs: number },
): { pays: true; amountCents: number; feeCents: number } | { pays: false; reason: 'amount_mismatch' | 'charge_not_payable' } {
  const amount = amountDueOf(due, saoPauloDay(pix.receivedAtMs));
  if (!amount.payable) return { pays: false, reason: 'charge_not_payable' };
  if (amount.amountCents !== pix.amountCents) return { pays: false, reason: 'amount_mismatch' };
  return { pays: true, amountCents: pix.amountCents, feeCents: settledFee(pix.amountCents, { fixedCents: due.fee_fixed_cents, bps: due.fee_bps }) };
}

/** What the sandbox's payer pays on a day: the amount due then (undefined: not payable that day). */
export async function sandboxAmountDue(deps: Pick<Deps, 'db' | 'clock'>, transactionId: string): Promise<number | undefined> {
  const found = await findDueCharge(deps.db, undefined, transactionId);
  if (!found) return undefined;
  const amount = amountDueOf(found.due, saoPauloDay(deps.clock.now()));
  return amount.payable ? amount.amountCents : undefined;
}

