import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cycleDueDate, dueDateOfSequence, earliestStartDate, lastAttemptDate, nextRetryDate, sendWindow, settlementDateOf } from '../../src/recurrences/recurrence.calendar.ts';

describe('the calendar of a recurrence', () => {
  it('steps weeks, months, quarters, half-years and years from the start', () => {
    expect([0, 1, 2].map((n) => cycleDueDate('2027-01-10', 'weekly', n))).toEqual(['2027-01-10', '2027-01-17', '2027-01-24']);
    expect([0, 1, 11, 12].map((n) => cycleDueDate('2027-01-10', 'monthly', n))).toEqual(['2027-01-10', '2027-02-10', '2027-12-10', '2028-01-10']);
    expect([1, 2, 4].map((n) => cycleDueDate('2027-01-10', 'quarterly', n))).toEqual(['2027-04-10', '2027-07-10', '2028-01-10']);
    expect(cycleDueDate('2027-01-10', 'half_yearly', 3)).toBe('2028-07-10');
    expect(cycleDueDate('2027-01-10', 'yearly', 2)).toBe('2029-01-10');
  });

  it('falls on the month\'s last day when it lacks the start\'s day, and back on the start\'s day after', () => {
    expect([0, 1, 2, 3].map((n) => cycleDueDate('2027-01-31', 'monthly', n))).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
    expect(cycleDueDate('2027-11-30', 'quarterly', 1)).toBe('2028-02-29'); // leap year
    expect(cycleDueDate('2028-02-29', 'yearly', 1)).toBe('2029-02-28');
  });

  it('never goes back, and every monthly cycle lands in its own month', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2026-01-01'), max: new Date('2040-12-31'), noInvalidDate: true }), fc.nat({ max: 300 }), (start, n) => {
        const iso = start.toISOString().slice(0, 10);
        const a = cycleDueDate(iso, 'monthly', n);
        const b = cycleDueDate(iso, 'monthly', n + 1);
        expect(b > a).toBe(true);
        const months = (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5, 7)) - Number(a.slice(5, 7));
        expect(months).toBe(1);
      }),
      { numRuns: 300 },
    );
  });

  it('stops after the end date', () => {
    const recurrence = { startDate: '2027-01-10', endDate: '2027-03-10', periodicity: 'monthly' as const };
    expect([1, 2, 3, 4].map((n) => dueDateOfSequence(recurrence, n))).toEqual(['2027-01-10', '2027-02-10', '2027-03-10', undefined]);
  });

  it('debits on the next business day, and sends from ten to two days before the due date', () => {
    expect(settlementDateOf('2027-01-10')).toBe('2027-01-11'); // a Sunday
    expect(settlementDateOf('2026-12-25')).toBe('2026-12-28'); // Christmas, then a weekend
    expect(settlementDateOf('2027-01-12')).toBe('2027-01-12');
    expect(sendWindow('2027-01-10')).toEqual({ opens: '2026-12-31', closes: '2027-01-08' });
    expect(earliestStartDate('2026-11-30')).toBe('2026-12-02');
  });

  it('retries the next day, three times at most, within seven days after the settlement date', () => {
    const base = { settlementDate: '2027-03-10', policy: 'three_in_seven_days' as const };
    expect(nextRetryDate({ ...base, retriesMade: 0, today: '2027-03-10' })).toBe('2027-03-11');
    expect(nextRetryDate({ ...base, retriesMade: 2, today: '2027-03-12' })).toBe('2027-03-13');
    expect(nextRetryDate({ ...base, retriesMade: 3, today: '2027-03-13' })).toBeUndefined();
    expect(nextRetryDate({ ...base, retriesMade: 1, today: '2027-03-17' })).toBeUndefined();
    expect(nextRetryDate({ ...base, retriesMade: 0, today: '2027-03-16' })).toBe('2027-03-17');
    expect(nextRetryDate({ ...base, policy: 'none', retriesMade: 0, today: '2027-03-10' })).toBeUndefined();
    expect(lastAttemptDate('2027-03-10', 'three_in_seven_days')).toBe('2027-03-17');
    expect(lastAttemptDate('2027-03-10', 'none')).toBe('2027-03-10');
  });
});
