/**
 * The amount due of a Pix charge with a due date (API Pix `cobv`) on a given payment date: pure, in integer
 * cents and integer basis points (1 bp = 0.01 %, API Pix's two-decimal `valorPerc` × 100).
 *
 * Source: API Pix 2.9.0 (openapi/upstream/bacen-pix-api-2.9.0.yaml), `calendario.validadeAposVencimento`
 * with its examples A–G, `CobVValor`, the `CobVOperacaoInvalida` violations and `componentesValor`. Decisions:
 * - Effective due date: a due date on a weekend or bank holiday rolls to the next business day, and "all
 *   the fields that refer to it (validadeAposVencimento, desconto, juros, multa) assume the extension" (API Pix).
 * - Last payable date: the effective due date plus `daysAfterDue` calendar days, rolled to a business day
 *   (this reproduces examples A–G; A and E show the roll, B–E show counting from the effective date).
 * - On or before the effective due date: no fine, no interest, and the discount the date earns. After it:
 *   the fine once, plus interest for the days after the effective due date, calendar or business days as the
 *   modality says (business days counted in (effective due date, payment date]).
 * - Per-period rates are simple, pro rata: month = 30 and year = 360 calendar days (the commercial month and
 *   year, so 12 % a year and 1 % a month charge the same), month = 21 and year = 252 business days (252 is
 *   the business-day year of the Brazilian market, ANBIMA/B3; 21 = 252 / 12 keeps the same equivalence).
 * - The rebate (abatimento) always applies; a percent rebate is of the original amount, as `CobVValor` says.
 *   Fine, interest and discount are computed on the original less the rebate: the rebate lowers what the
 *   document is worth, and nothing is charged or granted on the part that is not owed.
 * - Discounts until dates (modalities 1, 2): the earliest date not before the payment gives its discount; a
 *   date on a non-business day rolls to the next business day like the due date. Per-day early discounts
 *   (3–6) count the days from the payment date to the effective due date, calendar or business.
 * - Rounding: each component (rebate, fine, interest, discount) is computed exactly and rounded to the cent
 *   half up once, at its end; interest is rate × days × base before that single rounding, not day by day.
 * - The amount due is original − rebate − discount + fine + interest (API Pix's `componentesValor`) and never
 *   below 1 cent: the rebate and the discount are capped so the identity still holds.
 */
import {
  addCalendarDays,
  businessDaysBetween,
  calendarDaysBetween,
  nextBusinessDay,
} from '../primitives/businessDays.ts';

export type FineTerms = { mode: 'fixed'; amountCents: number } | { mode: 'percent'; basisPoints: number };
export type InterestTerms = {
  mode:
    | 'fixed_per_calendar_day' | 'percent_per_calendar_day' | 'percent_per_month_calendar_days' | 'percent_per_year_calendar_days'
    | 'fixed_per_business_day' | 'percent_per_business_day' | 'percent_per_month_business_days' | 'percent_per_year_business_days';
  /** fixed_* modes take amountCents, percent_* take basisPoints. */
  amountCents?: number;
  basisPoints?: number;
};
export type RebateTerms = { mode: 'fixed'; amountCents: number } | { mode: 'percent'; basisPoints: number };
export type DiscountTerms =
  | { mode: 'fixed_until_dates'; dates: { date: string; amountCents: number }[] }
  | { mode: 'percent_until_dates'; dates: { date: string; basisPoints: number }[] }
  | { mode: 'fixed_per_calendar_day_early'; amountCents: number }
  | { mode: 'fixed_per_business_day_early'; amountCents: number }
  | { mode: 'percent_per_calendar_day_early'; basisPoints: number }
  | { mode: 'percent_per_business_day_early'; basisPoints: number };
export interface DueTerms {
  originalCents: number;
  dueDate: string;
  /** API Pix's validadeAposVencimento, >= 0. */
  daysAfterDue: number;
  fine?: FineTerms;
  interest?: InterestTerms;
  rebate?: RebateTerms;
  discount?: DiscountTerms;
}
export type AmountDue =
  | { payable: true; amountCents: number; originalCents: number; fineCents: number; interestCents: number; discountCents: number; rebateCents: number; late: boolean }
  | { payable: false; reason: 'past_validity' };

type DayCount = 'calendar' | 'business';

/** How each interest modality (API Pix juros 1..8) counts days and how many days its rate covers. */
const INTEREST_MODES: Record<InterestTerms['mode'], { dayCount: DayCount; fixed: boolean; daysPerPeriod: number }> = {
  fixed_per_calendar_day: { dayCount: 'calendar', fixed: true, daysPerPeriod: 1 },
  percent_per_calendar_day: { dayCount: 'calendar', fixed: false, daysPerPeriod: 1 },
  percent_per_month_calendar_days: { dayCount: 'calendar', fixed: false, daysPerPeriod: 30 },
  percent_per_year_calendar_days: { dayCount: 'calendar', fixed: false, daysPerPeriod: 360 },
  fixed_per_business_day: { dayCount: 'business', fixed: true, daysPerPeriod: 1 },
  percent_per_business_day: { dayCount: 'business', fixed: false, daysPerPeriod: 1 },
  percent_per_month_business_days: { dayCount: 'business', fixed: false, daysPerPeriod: 21 },
  percent_per_year_business_days: { dayCount: 'business', fixed: false, daysPerPeriod: 252 },
};

const EARLY_DISCOUNT_DAY_COUNT: Record<Exclude<DiscountTerms['mode'], 'fixed_until_dates' | 'percent_until_dates'>, DayCount> = {
  fixed_per_calendar_day_early: 'calendar',
  percent_per_calendar_day_early: 'calendar',
  fixed_per_business_day_early: 'business',
  percent_per_business_day_early: 'business',
};

const BASIS_POINTS_PER_UNIT = 10_000n;

export function effectiveDueDate(dueDate: string): string {
  return nextBusinessDay(dueDate);
}

export function lastPayableDate({ dueDate, daysAfterDue }: Pick<DueTerms, 'dueDate' | 'daysAfterDue'>): string {
  nonNegative('daysAfterDue', daysAfterDue);
  return nextBusinessDay(addCalendarDays(effectiveDueDate(dueDate), daysAfterDue));
}

export function amountDueOn(terms: DueTerms, paymentDate: string): AmountDue {
  addCalendarDays(paymentDate, 0); // throws unless paymentDate is an ISO date, which string comparison needs
  if (!Number.isSafeInteger(terms.originalCents) || terms.originalCents < 1) {
    throw new RangeError(`originalCents must be a positive integer, got ${String(terms.originalCents)}`);
  }
  if (paymentDate > lastPayableDate(terms)) return { payable: false, reason: 'past_validity' };

  const dueDate = effectiveDueDate(terms.dueDate);
  const late = paymentDate > dueDate;
  const rebateCents = Math.min(terms.rebate ? valueOf(terms.rebate, terms.originalCents) : 0, terms.originalCents - 1);
  const baseCents = terms.originalCents - rebateCents;
  const fineCents = late && terms.fine ? valueOf(terms.fine, baseCents) : 0;
  const interestCents = late && terms.interest ? interestOf(terms.interest, baseCents, dueDate, paymentDate) : 0;
  const discountCents = !late && terms.discount ? Math.min(discountOf(terms.discount, baseCents, dueDate, paymentDate), baseCents - 1) : 0;
  return {
    payable: true,
    amountCents: baseCents - discountCents + fineCents + interestCents,
    originalCents: terms.originalCents,
    fineCents,
    interestCents,
    discountCents,
    rebateCents,
    late,
  };
}

/**
 * The first of API Pix's CobVOperacaoInvalida violations on the values, checked in this order: the number of
 * discount dates (1..3), a date given twice, a date after the due date, a discount that is the whole amount
 * or more (or 100 % or more), a rebate that is.
 */
export function termsProblem(terms: DueTerms):
  | 'discount_date_after_due' | 'discount_not_below_amount' | 'rebate_not_below_amount' | 'discount_dates_count' | 'duplicate_discount_date'
  | undefined {
  const { discount, rebate, originalCents } = terms;
  const discountValues = !discount ? [] : 'dates' in discount ? discount.dates : [discount];
  if (discount && 'dates' in discount) {
    const dates = discount.dates.map(({ date }) => date);
    if (dates.length < 1 || dates.length > 3) return 'discount_dates_count';
    if (new Set(dates).size !== dates.length) return 'duplicate_discount_date';
    if (dates.some((date) => date > terms.dueDate)) return 'discount_date_after_due';
  }
  if (discountValues.some((value) => notBelowWhole(value, originalCents))) return 'discount_not_below_amount';
  if (rebate && notBelowWhole(rebate, originalCents)) return 'rebate_not_below_amount';
  return undefined;
}

function notBelowWhole(value: { amountCents: number } | { basisPoints: number }, originalCents: number): boolean {
  return 'amountCents' in value ? value.amountCents >= originalCents : value.basisPoints >= 10_000;
}

/** A fixed amount as it is, or a percentage of `baseCents` (rounded half up). */
function valueOf(value: { amountCents: number } | { basisPoints: number }, baseCents: number): number {
  return 'amountCents' in value ? nonNegative('amountCents', value.amountCents) : percentOf(baseCents, value.basisPoints, 1, 1);
}

function interestOf(interest: InterestTerms, baseCents: number, dueDate: string, paymentDate: string): number {
  const { dayCount, fixed, daysPerPeriod } = INTEREST_MODES[interest.mode];
  const days = daysBetween(dayCount, dueDate, paymentDate);
  if (fixed) return nonNegative('interest.amountCents', interest.amountCents) * days;
  return percentOf(baseCents, nonNegative('interest.basisPoints', interest.basisPoints), days, daysPerPeriod);
}

function discountOf(discount: DiscountTerms, baseCents: number, dueDate: string, paymentDate: string): number {
  if ('dates' in discount) {
    const byDate = [...discount.dates].sort((a, b) => a.date.localeCompare(b.date));
    const earned = byDate.find(({ date }) => nextBusinessDay(date) >= paymentDate);
    return earned ? valueOf(earned, baseCents) : 0;
  }
  const days = daysBetween(EARLY_DISCOUNT_DAY_COUNT[discount.mode], paymentDate, dueDate);
  return 'amountCents' in discount
    ? nonNegative('discount.amountCents', discount.amountCents) * days
    : percentOf(baseCents, nonNegative('discount.basisPoints', discount.basisPoints), days, 1);
}

function daysBetween(dayCount: DayCount, fromExclusive: string, toInclusive: string): number {
  return dayCount === 'calendar' ? calendarDaysBetween(fromExclusive, toInclusive) : businessDaysBetween(fromExclusive, toInclusive);
}

/** baseCents × basisPoints / 10 000 × days / daysPerPeriod, exact in BigInt, rounded half up to the cent. */
function percentOf(baseCents: number, basisPoints: number, days: number, daysPerPeriod: number): number {
  const numerator = BigInt(baseCents) * BigInt(nonNegative('basisPoints', basisPoints)) * BigInt(days);
  const denominator = BASIS_POINTS_PER_UNIT * BigInt(daysPerPeriod);
  return Number((2n * numerator + denominator) / (2n * denominator));
}

function nonNegative(name: string, value: number | undefined): number {
  if (value === undefined || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}
