import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountDueOn,
  effectiveDueDate,
  lastPayableDate,
  termsProblem,
  type AmountDue,
  type DiscountTerms,
  type DueTerms,
  type InterestTerms,
} from '../../src/charges/dueAmount.ts';
import { isBusinessDay } from '../../src/primitives/businessDays.ts';

/*
 * An independent computation of the amount due: Date objects walked one day at a time, every component an
 * exact fraction of BigInts summed day by day and rounded once. From the module it takes only which days are
 * business days (test/primitives/businessDays.test.ts checks that against a reference table).
 */
const DAY_MS = 86_400_000;
const toDate = (iso: string): Date => new Date(`${iso}T00:00:00Z`);
const toIso = (date: Date): string => date.toISOString().slice(0, 10);
const plusDays = (date: Date, days: number): Date => new Date(date.getTime() + days * DAY_MS);
const isBusiness = (date: Date): boolean => isBusinessDay(toIso(date));

function rolled(date: Date): Date {
  let day = date;
  while (!isBusiness(day)) day = plusDays(day, 1);
  return day;
}

/** Each day after `from` up to and including `to`. */
function daysAfter(from: Date, to: Date): Date[] {
  const days: Date[] = [];
  for (let day = plusDays(from, 1); day <= to; day = plusDays(day, 1)) days.push(day);
  return days;
}

type Fraction = { num: bigint; den: bigint };
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
function fraction(num: bigint, den = 1n): Fraction {
  const divisor = gcd(num, den) || 1n;
  return { num: num / divisor, den: den / divisor };
}
const sum = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.den + b.num * a.den, a.den * b.den);
function roundHalfUp({ num, den }: Fraction): bigint {
  const whole = num / den;
  return 2n * (num - whole * den) >= den ? whole + 1n : whole;
}
const percentOf = (base: bigint, basisPoints: number): Fraction => fraction(base * BigInt(basisPoints), 10_000n);
const valueOf = (value: { amountCents: number } | { basisPoints: number }, base: bigint): bigint =>
  'amountCents' in value ? BigInt(value.amountCents) : roundHalfUp(percentOf(base, value.basisPoints));

/** What one day adds, from the modality's name: "fixed" or a percentage, per day, month (30 | 21) or year (360 | 252). */
function perDay(mode: string, value: { amountCents?: number; basisPoints?: number }, base: bigint): Fraction {
  if (mode.startsWith('fixed')) return fraction(BigInt(value.amountCents ?? 0));
  const daily = percentOf(base, value.basisPoints ?? 0);
  const business = mode.includes('business');
  if (mode.includes('month')) return fraction(daily.num, daily.den * (business ? 21n : 30n));
  if (mode.includes('year')) return fraction(daily.num, daily.den * (business ? 252n : 360n));
  return daily;
}

function accrued(mode: string, value: { amountCents?: number; basisPoints?: number }, base: bigint, from: Date, to: Date): bigint {
  const counted = daysAfter(from, to).filter((day) => !mode.includes('business') || isBusiness(day));
  return roundHalfUp(counted.reduce((total) => sum(total, perDay(mode, value, base)), fraction(0n)));
}

function expectedDiscount(discount: DiscountTerms, base: bigint, payment: Date, due: Date): bigint {
  if ('dates' in discount) {
    const earning = discount.dates.filter(({ date }) => rolled(toDate(date)) >= payment);
    const earliest = earning.reduce<(typeof earning)[number] | undefined>((best, entry) => (!best || entry.date < best.date ? entry : best), undefined);
    return earliest ? valueOf(earliest, base) : 0n;
  }
  return accrued(discount.mode, discount, base, payment, due);
}

function expectedAmountDue(terms: DueTerms, paymentIso: string): AmountDue {
  const payment = toDate(paymentIso);
  const due = rolled(toDate(terms.dueDate));
  if (payment > rolled(plusDays(due, terms.daysAfterDue))) return { payable: false, reason: 'past_validity' };
  const original = BigInt(terms.originalCents);
  const late = payment > due;
  const rebate = [terms.rebate ? valueOf(terms.rebate, original) : 0n, original - 1n].reduce((a, b) => (a < b ? a : b));
  const base = original - rebate;
  const fine = late && terms.fine ? valueOf(terms.fine, base) : 0n;
  const interest = late && terms.interest ? accrued(terms.interest.mode, terms.interest, base, due, payment) : 0n;
  const rawDiscount = !late && terms.discount ? expectedDiscount(terms.discount, base, payment, due) : 0n;
  const discount = rawDiscount < base - 1n ? rawDiscount : base - 1n;
  return {
    payable: true,
    amountCents: Number(base - discount + fine + interest),
    originalCents: terms.originalCents,
    fineCents: Number(fine),
    interestCents: Number(interest),
    discountCents: Number(discount),
    rebateCents: Number(rebate),
    late,
  };
}

const isoDate = (min: string, max: string) => fc.date({ min: toDate(min), max: toDate(max), noInvalidDate: true }).map(toIso);
const cents = fc.oneof(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 0, max: 10_000_000_000 }));
const basisPoints = fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 1_000_000 }));
const fixedOrPercent = fc.oneof(
  fc.record({ mode: fc.constant('fixed' as const), amountCents: cents }),
  fc.record({ mode: fc.constant('percent' as const), basisPoints }),
);
const INTEREST_MODES: InterestTerms['mode'][] = [
  'fixed_per_calendar_day', 'percent_per_calendar_day', 'percent_per_month_calendar_days', 'percent_per_year_calendar_days',
  'fixed_per_business_day', 'percent_per_business_day', 'percent_per_month_business_days', 'percent_per_year_business_days',
];
const interest = fc.constantFrom(...INTEREST_MODES).chain((mode): fc.Arbitrary<InterestTerms> =>
  mode.startsWith('fixed') ? fc.record({ mode: fc.constant(mode), amountCents: cents }) : fc.record({ mode: fc.constant(mode), basisPoints }),
);
const discount = (dueDate: string): fc.Arbitrary<DiscountTerms> => {
  const date = fc.integer({ min: 0, max: 40 }).map((daysBefore) => toIso(plusDays(toDate(dueDate), -daysBefore)));
  return fc.oneof(
    fc.record({ mode: fc.constant('fixed_until_dates' as const), dates: fc.array(fc.record({ date, amountCents: cents }), { minLength: 1, maxLength: 3 }) }),
    fc.record({ mode: fc.constant('percent_until_dates' as const), dates: fc.array(fc.record({ date, basisPoints }), { minLength: 1, maxLength: 3 }) }),
    fc.record({ mode: fc.constantFrom('fixed_per_calendar_day_early' as const, 'fixed_per_business_day_early' as const), amountCents: cents }),
    fc.record({ mode: fc.constantFrom('percent_per_calendar_day_early' as const, 'percent_per_business_day_early' as const), basisPoints }),
  );
};
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const terms: fc.Arbitrary<DueTerms> = isoDate('2020-01-01', '2035-06-30').chain((dueDate) =>
  fc.record({
    originalCents: fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: 10_000_000_000 })),
    dueDate: fc.constant(dueDate),
    daysAfterDue: fc.integer({ min: 0, max: 60 }),
    fine: optional(fixedOrPercent),
    interest: optional(interest),
    rebate: optional(fixedOrPercent),
    discount: optional(discount(dueDate)),
  }),
);
const paymentFor = (dueDate: string) => fc.integer({ min: -60, max: 120 }).map((days) => toIso(plusDays(toDate(dueDate), days)));
const termsAndPayment = terms.chain((t) => fc.tuple(fc.constant(t), paymentFor(t.dueDate)));

describe('amountDueOn, against the independent computation', () => {
  it('gives the same amount and components for any terms and payment date', () => {
    fc.assert(fc.property(termsAndPayment, ([t, payment]) => {
      expect(amountDueOn(t, payment)).toEqual(expectedAmountDue(t, payment));
    }), { numRuns: 1_000 });
  });

  it('adds up as API Pix componentesValor says and is never below 1 cent', () => {
    fc.assert(fc.property(termsAndPayment, ([t, payment]) => {
      const due = amountDueOn(t, payment);
      if (!due.payable) return;
      expect(due.amountCents).toBe(due.originalCents - due.rebateCents - due.discountCents + due.fineCents + due.interestCents);
      expect(due.amountCents).toBeGreaterThanOrEqual(1);
      expect(due.late ? due.discountCents : due.fineCents + due.interestCents).toBe(0);
    }));
  });

  it('never falls as a late payment is made later', () => {
    fc.assert(fc.property(terms, fc.nat(60), fc.nat(60), (t, a, b) => {
      const [early, later] = [a, b].sort((x, y) => x - y).map((days) => toIso(plusDays(toDate(effectiveDueDate(t.dueDate)), days + 1)));
      const [first, second] = [amountDueOn(t, early!), amountDueOn(t, later!)];
      if (first.payable && second.payable) expect(second.amountCents).toBeGreaterThanOrEqual(first.amountCents);
    }));
  });
});

describe('lastPayableDate and effectiveDueDate', () => {
  it.each([
    ['A', '2020-10-20', 4, '2020-10-20', '2020-10-26'],
    ['B', '2020-12-25', 0, '2020-12-28', '2020-12-28'],
    ['C', '2020-12-25', 1, '2020-12-28', '2020-12-29'],
    ['D', '2020-12-25', 3, '2020-12-28', '2020-12-31'],
    ['E', '2020-12-25', 4, '2020-12-28', '2021-01-04'],
    ['F', '2021-08-27', 5, '2021-08-27', '2021-09-01'],
    ['G', '2021-08-28', 5, '2021-08-30', '2021-09-06'],
  ])('follows API Pix example %s: due %s + %i days, effective %s, last %s', (_, dueDate, daysAfterDue, effective, last) => {
    expect(effectiveDueDate(dueDate)).toBe(effective);
    expect(lastPayableDate({ dueDate, daysAfterDue })).toBe(last);
    const t = { originalCents: 100, dueDate, daysAfterDue };
    for (let day = toDate(dueDate); day <= toDate(last); day = plusDays(day, 1)) expect(amountDueOn(t, toIso(day)).payable).toBe(true);
    expect(amountDueOn(t, toIso(plusDays(toDate(last), 1)))).toEqual({ payable: false, reason: 'past_validity' });
  });

  it('is a business day at least daysAfterDue calendar days after the effective due date', () => {
    fc.assert(fc.property(terms, (t) => {
      const last = lastPayableDate(t);
      expect(isBusinessDay(last)).toBe(true);
      expect(toDate(last).getTime()).toBeGreaterThanOrEqual(plusDays(toDate(effectiveDueDate(t.dueDate)), t.daysAfterDue).getTime());
    }));
  });
});

describe('amountDueOn, worked examples', () => {
  const base = { originalCents: 10_000, dueDate: '2026-03-10', daysAfterDue: 30 };
  const paid = (amountCents: number, parts: Partial<Extract<AmountDue, { payable: true }>> = {}): AmountDue =>
    ({ payable: true, amountCents, originalCents: 10_000, fineCents: 0, interestCents: 0, discountCents: 0, rebateCents: 0, late: false, ...parts });

  it.each<[string, DueTerms, string, AmountDue]>([
    ['2 % fine and 1 % a month, 10 days late: 333.33 rounds to 333',
      { ...base, originalCents: 100_000, fine: { mode: 'percent', basisPoints: 200 }, interest: { mode: 'percent_per_month_calendar_days', basisPoints: 100 } },
      '2026-03-20', paid(102_333, { originalCents: 100_000, fineCents: 2_000, interestCents: 333, late: true })],
    ['no fine on the due date', { ...base, fine: { mode: 'percent', basisPoints: 200 } }, '2026-03-10', paid(10_000)],
    ['a due date on the Carnival Saturday is paid on Ash Wednesday without fine',
      { ...base, dueDate: '2026-02-14', fine: { mode: 'fixed', amountCents: 500 }, interest: { mode: 'fixed_per_calendar_day', amountCents: 10 } },
      '2026-02-18', paid(10_000)],
    ['two days after that Ash Wednesday: fine and 2 days of interest',
      { ...base, dueDate: '2026-02-14', fine: { mode: 'fixed', amountCents: 500 }, interest: { mode: 'fixed_per_calendar_day', amountCents: 10 } },
      '2026-02-20', paid(10_520, { fineCents: 500, interestCents: 20, late: true })],
    ['1 % per business day over Good Friday: 2 business days', { ...base, dueDate: '2026-04-02', interest: { mode: 'percent_per_business_day', basisPoints: 100 } },
      '2026-04-07', paid(10_200, { interestCents: 200, late: true })],
    ['1 % per calendar day over Good Friday: 5 days', { ...base, dueDate: '2026-04-02', interest: { mode: 'percent_per_calendar_day', basisPoints: 100 } },
      '2026-04-07', paid(10_500, { interestCents: 500, late: true })],
    ['12.6 % a year over 10 business days of 252', { ...base, originalCents: 252_000, dueDate: '2026-03-02', interest: { mode: 'percent_per_year_business_days', basisPoints: 1_260 } },
      '2026-03-16', paid(253_260, { originalCents: 252_000, interestCents: 1_260, late: true })],
    ['12.6 % a year over 14 calendar days of 360: 1234.8 rounds to 1235', { ...base, originalCents: 252_000, dueDate: '2026-03-02', interest: { mode: 'percent_per_year_calendar_days', basisPoints: 1_260 } },
      '2026-03-16', paid(253_235, { originalCents: 252_000, interestCents: 1_235, late: true })],
    ['1 % a month over 10 business days of 21', { ...base, originalCents: 21_000, dueDate: '2026-03-02', interest: { mode: 'percent_per_month_business_days', basisPoints: 100 } },
      '2026-03-16', paid(21_100, { originalCents: 21_000, interestCents: 100, late: true })],
    ['half a cent rounds up', { ...base, originalCents: 150, fine: { mode: 'percent', basisPoints: 100 } }, '2026-03-11', paid(152, { originalCents: 150, fineCents: 2, late: true })],
    ['less than half a cent rounds down', { ...base, originalCents: 149, fine: { mode: 'percent', basisPoints: 100 } }, '2026-03-11', paid(150, { originalCents: 149, fineCents: 1, late: true })],
    ['10 % rebate: fine and interest on the rest', { ...base, rebate: { mode: 'percent', basisPoints: 1_000 }, fine: { mode: 'percent', basisPoints: 200 }, interest: { mode: 'percent_per_calendar_day', basisPoints: 10 } },
      '2026-03-13', paid(9_207, { rebateCents: 1_000, fineCents: 180, interestCents: 27, late: true })],
    ['a rebate and a discount on the due date', { ...base, rebate: { mode: 'fixed', amountCents: 1_000 }, discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-03-10', amountCents: 500 }] } },
      '2026-03-10', paid(8_500, { rebateCents: 1_000, discountCents: 500 })],
    ['no discount after the effective due date', { ...base, discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-03-10', amountCents: 500 }] } },
      '2026-03-11', paid(10_000, { late: true })],
    ['1 cent at least, whatever the discount', { ...base, originalCents: 1_000, dueDate: '2026-03-31', discount: { mode: 'fixed_per_calendar_day_early', amountCents: 100 } },
      '2026-03-01', paid(1, { originalCents: 1_000, discountCents: 999 })],
    ['after the last payable date: not payable', { ...base, daysAfterDue: 0 }, '2026-03-11', { payable: false, reason: 'past_validity' }],
  ])('%s', (_, t, payment, expected) => {
    expect(amountDueOn(t, payment)).toEqual(expected);
  });

  const untilDates: DueTerms = { ...base, dueDate: '2026-06-30', discount: { mode: 'fixed_until_dates', dates: [{ date: '2026-06-20', amountCents: 300 }, { date: '2026-06-10', amountCents: 500 }] } };
  it.each([['2026-06-05', 500], ['2026-06-10', 500], ['2026-06-11', 300], ['2026-06-22', 300], ['2026-06-23', 0]])(
    'gives the discount of the earliest date not passed, a Saturday date rolled to Monday: paid %s, %i off',
    (payment, discountCents) => {
      expect(amountDueOn(untilDates, payment)).toEqual(paid(10_000 - discountCents, { discountCents }));
    },
  );

  it.each<[DiscountTerms, number]>([
    [{ mode: 'percent_per_calendar_day_early', basisPoints: 10 }, 40],
    [{ mode: 'percent_per_business_day_early', basisPoints: 10 }, 30],
    [{ mode: 'fixed_per_calendar_day_early', amountCents: 25 }, 100],
    [{ mode: 'fixed_per_business_day_early', amountCents: 25 }, 75],
  ])('counts early days to a due date after Corpus Christi: %o gives %i off', (d, discountCents) => {
    expect(amountDueOn({ ...base, dueDate: '2026-06-05', discount: d }, '2026-06-01')).toEqual(paid(10_000 - discountCents, { discountCents }));
  });
});

describe('termsProblem', () => {
  const base = { originalCents: 10_000, dueDate: '2026-03-10', daysAfterDue: 30 };
  const fixedDates = (...dates: [string, number][]): DiscountTerms => ({ mode: 'fixed_until_dates', dates: dates.map(([date, amountCents]) => ({ date, amountCents })) });

  it.each<[string, DueTerms, ReturnType<typeof termsProblem>]>([
    ['valid terms', { ...base, rebate: { mode: 'percent', basisPoints: 9_999 }, discount: fixedDates(['2026-03-01', 500], ['2026-03-10', 9_999]) }, undefined],
    ['no discount date', { ...base, discount: fixedDates() }, 'discount_dates_count'],
    ['four discount dates', { ...base, discount: fixedDates(['2026-03-01', 1], ['2026-03-02', 1], ['2026-03-03', 1], ['2026-03-04', 1]) }, 'discount_dates_count'],
    ['a date twice', { ...base, discount: fixedDates(['2026-03-01', 1], ['2026-03-01', 2]) }, 'duplicate_discount_date'],
    ['a date after the due date', { ...base, discount: fixedDates(['2026-03-11', 1]) }, 'discount_date_after_due'],
    ['a discount of the whole amount', { ...base, discount: fixedDates(['2026-03-01', 10_000]) }, 'discount_not_below_amount'],
    ['a 100 % discount', { ...base, discount: { mode: 'percent_until_dates', dates: [{ date: '2026-03-01', basisPoints: 10_000 }] } }, 'discount_not_below_amount'],
    ['a per-day discount of the whole amount', { ...base, discount: { mode: 'fixed_per_business_day_early', amountCents: 10_000 } }, 'discount_not_below_amount'],
    ['a rebate of the whole amount', { ...base, rebate: { mode: 'fixed', amountCents: 10_000 } }, 'rebate_not_below_amount'],
    ['a 100 % rebate', { ...base, rebate: { mode: 'percent', basisPoints: 10_000 } }, 'rebate_not_below_amount'],
    ['a late date and a whole rebate: the date first', { ...base, rebate: { mode: 'fixed', amountCents: 10_000 }, discount: fixedDates(['2026-03-11', 1]) }, 'discount_date_after_due'],
  ])('%s → %s', (_, t, expected) => {
    expect(termsProblem(t)).toBe(expected);
  });
});
