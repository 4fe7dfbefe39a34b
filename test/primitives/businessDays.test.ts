import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  businessDaysBetween,
  calendarDaysBetween,
  holidayName,
  isBusinessDay,
  nextBusinessDay,
} from '../../src/primitives/businessDays.ts';

/**
 * Every national and bank holiday of 2020–2035, weekends included: transcribed from date-holidays 3.37.0
 * (Brazil, its `public` and `bank` days, election Sundays left out), a source independent of the module's
 * own table and Easter computation.
 */
const HOLIDAYS: Record<number, string> = {
  2020: '01-01 02-24 02-25 04-10 04-21 05-01 06-11 09-07 10-12 11-02 11-15 12-25',
  2021: '01-01 02-15 02-16 04-02 04-21 05-01 06-03 09-07 10-12 11-02 11-15 12-25',
  2022: '01-01 02-28 03-01 04-15 04-21 05-01 06-16 09-07 10-12 11-02 11-15 12-25',
  2023: '01-01 02-20 02-21 04-07 04-21 05-01 06-08 09-07 10-12 11-02 11-15 12-25',
  2024: '01-01 02-12 02-13 03-29 04-21 05-01 05-30 09-07 10-12 11-02 11-15 11-20 12-25',
  2025: '01-01 03-03 03-04 04-18 04-21 05-01 06-19 09-07 10-12 11-02 11-15 11-20 12-25',
  2026: '01-01 02-16 02-17 04-03 04-21 05-01 06-04 09-07 10-12 11-02 11-15 11-20 12-25',
  2027: '01-01 02-08 02-09 03-26 04-21 05-01 05-27 09-07 10-12 11-02 11-15 11-20 12-25',
  2028: '01-01 02-28 02-29 04-14 04-21 05-01 06-15 09-07 10-12 11-02 11-15 11-20 12-25',
  2029: '01-01 02-12 02-13 03-30 04-21 05-01 05-31 09-07 10-12 11-02 11-15 11-20 12-25',
  2030: '01-01 03-04 03-05 04-19 04-21 05-01 06-20 09-07 10-12 11-02 11-15 11-20 12-25',
  2031: '01-01 02-24 02-25 04-11 04-21 05-01 06-12 09-07 10-12 11-02 11-15 11-20 12-25',
  2032: '01-01 02-09 02-10 03-26 04-21 05-01 05-27 09-07 10-12 11-02 11-15 11-20 12-25',
  2033: '01-01 02-28 03-01 04-15 04-21 05-01 06-16 09-07 10-12 11-02 11-15 11-20 12-25',
  2034: '01-01 02-20 02-21 04-07 04-21 05-01 06-08 09-07 10-12 11-02 11-15 11-20 12-25',
  2035: '01-01 02-05 02-06 03-23 04-21 05-01 05-24 09-07 10-12 11-02 11-15 11-20 12-25',
};

const holidaySet = new Set(
  Object.entries(HOLIDAYS).flatMap(([year, days]) => days.split(' ').map((monthDay) => `${year}-${monthDay}`)),
);

describe('holidayName and isBusinessDay', () => {
  it.each([
    ['2026-02-16', 'Carnaval'],
    ['2026-02-17', 'Carnaval'],
    ['2026-04-03', 'Sexta-feira da Paixão'],
    ['2026-06-04', 'Corpus Christi'],
    ['2020-12-25', 'Natal'],
    ['2026-04-21', 'Tiradentes'],
    ['2026-01-01', 'Confraternização Universal'],
    ['2026-05-01', 'Dia do Trabalho'],
    ['2026-09-07', 'Independência do Brasil'],
    ['2026-10-12', 'Nossa Senhora Aparecida'],
    ['2026-11-02', 'Finados'],
    ['2027-11-15', 'Proclamação da República'],
    ['2024-11-20', 'Dia Nacional de Zumbi e da Consciência Negra'],
    ['2026-11-20', 'Dia Nacional de Zumbi e da Consciência Negra'],
  ])('names %s %s and makes it no business day', (date, name) => {
    expect(holidayName(date)).toBe(name);
    expect(isBusinessDay(date)).toBe(false);
  });

  it.each([
    ['2023-11-20', 'a Monday before Lei 14.759/2023 made 20 Nov national'],
    ['2026-02-18', 'Ash Wednesday'],
    ['2026-12-24', 'Christmas Eve'],
    ['2020-12-31', "New Year's Eve (API Pix example D counts it)"],
    ['2026-02-13', 'the Friday before Carnival'],
    ['2026-06-05', 'the Friday after Corpus Christi'],
  ])('counts %s, %s, as a business day', (date) => {
    expect(holidayName(date)).toBeUndefined();
    expect(isBusinessDay(date)).toBe(true);
  });

  it.each([['2026-02-14'], ['2026-02-15'], ['2026-03-07'], ['2026-03-08']])('counts the weekend day %s as no business day', (date) => {
    expect(isBusinessDay(date)).toBe(false);
    expect(holidayName(date)).toBeUndefined();
  });

  it('agrees with the reference table on every day of 2020–2035', () => {
    const mismatches: string[] = [];
    for (let day = new Date(Date.UTC(2020, 0, 1)); day.getUTCFullYear() <= 2035; day = new Date(day.getTime() + 86_400_000)) {
      const date = day.toISOString().slice(0, 10);
      const weekend = day.getUTCDay() === 0 || day.getUTCDay() === 6;
      const holiday = holidaySet.has(date);
      if ((holidayName(date) !== undefined) !== holiday || isBusinessDay(date) !== (!weekend && !holiday)) mismatches.push(date);
    }
    expect(mismatches).toEqual([]);
  });

  it.each([['2026-02-30'], ['2026-2-01'], ['20260201'], ['0020-01-01'], ['']])('rejects %j as a date', (date) => {
    expect(() => isBusinessDay(date)).toThrow(RangeError);
  });
});

describe('nextBusinessDay', () => {
  it.each([
    ['2026-03-10', '2026-03-10', 'a business day is itself'],
    ['2026-03-14', '2026-03-16', 'Saturday rolls to Monday'],
    ['2026-02-14', '2026-02-18', 'the Carnival weekend rolls to Ash Wednesday'],
    ['2026-04-03', '2026-04-06', 'Good Friday rolls to Monday'],
    ['2020-12-25', '2020-12-28', 'Christmas on a Friday rolls to Monday'],
    ['2026-06-04', '2026-06-05', 'Corpus Christi rolls to Friday'],
    ['2021-12-31', '2021-12-31', 'New Year\'s Eve is a business day'],
    ['2022-01-01', '2022-01-03', 'New Year on a Saturday rolls to Monday'],
  ])('%s → %s (%s)', (date, expected) => {
    expect(nextBusinessDay(date)).toBe(expected);
  });
});

describe('addCalendarDays and calendarDaysBetween', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2027-02-28', 1, '2027-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2026-03-10', 0, '2026-03-10'],
    ['2026-01-01', 365, '2027-01-01'],
  ])('%s + %i = %s', (date, days, expected) => {
    expect(addCalendarDays(date, days)).toBe(expected);
    expect(calendarDaysBetween(date, expected)).toBe(days);
  });

  it('rejects a fractional number of days', () => {
    expect(() => addCalendarDays('2026-03-10', 1.5)).toThrow(RangeError);
  });
});

describe('businessDaysBetween', () => {
  it.each([
    ['2026-03-09', '2026-03-13', 4, 'Monday to Friday: Tue, Wed, Thu, Fri'],
    ['2026-03-13', '2026-03-16', 1, 'Friday to Monday: the Monday only'],
    ['2026-02-13', '2026-02-18', 1, 'over Carnival: Ash Wednesday only'],
    ['2026-04-02', '2026-04-07', 2, 'over Good Friday: Mon and Tue'],
    ['2026-06-03', '2026-06-05', 1, 'over Corpus Christi: Friday only'],
    ['2026-03-10', '2026-03-10', 0, 'an empty interval'],
    ['2026-03-10', '2026-03-01', 0, 'an interval backwards'],
    ['2026-01-01', '2026-12-31', 249, 'the whole of 2026: 261 weekdays less 12 weekday holidays'],
  ])('(%s, %s] holds %i business days (%s)', (from, to, expected) => {
    expect(businessDaysBetween(from, to)).toBe(expected);
  });
});
