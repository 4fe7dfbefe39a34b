/**
 * Brazilian bank business days ("dias úteis" of the Sistema Financeiro Nacional) on ISO dates `YYYY-MM-DD`.
 *
 * A day is not a business day when it is a Saturday, a Sunday, or one of these (the rules in force since 2024):
 * - national holidays of Lei 662/1949 as rewritten by Lei 10.607/2002: 1 Jan, 21 Apr, 1 May, 7 Sep, 2 Nov,
 *   15 Nov, 25 Dec; 12 Oct by Lei 6.802/1980; 20 Nov by Lei 14.759/2023, from 2024 on;
 * - Carnival Monday and Tuesday, Good Friday and Corpus Christi: not legal national holidays, but not
 *   business days for operations in the financial market (Resolução CMN 4.880/2020; FEBRABAN's and ANBIMA's
 *   calendars list them every year).
 * Ash Wednesday, 24 Dec and 31 Dec are business days (banks open late or close to the public only):
 * API Pix 2.9.0's example D counts 2020-12-31 as a business day.
 *
 * A table and Easter computed here rather than a dependency: thirteen rules that change by law only, each
 * with its source, checked against date-holidays 3.37.0's `public` and `bank` days for 2020–2035.
 */

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of an ISO date; throws on anything that is not a real calendar date. */
function parseDay(isoDate: string): number {
  const match = ISO_DATE.exec(isoDate);
  const day = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS : NaN;
  // The round trip rejects 2026-02-30 (which Date.UTC rolls over) and years below 100 (which it maps to 19xx).
  if (!Number.isInteger(day) || formatDay(day) !== isoDate) throw new RangeError(`not an ISO date (YYYY-MM-DD): ${isoDate}`);
  return day;
}

function formatDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Easter Sunday of a Gregorian year, as a day number (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

const FIXED_HOLIDAYS: readonly { monthDay: string; name: string; fromYear?: number }[] = [
  { monthDay: '01-01', name: 'Confraternização Universal' },
  { monthDay: '04-21', name: 'Tiradentes' },
  { monthDay: '05-01', name: 'Dia do Trabalho' },
  { monthDay: '09-07', name: 'Independência do Brasil' },
  { monthDay: '10-12', name: 'Nossa Senhora Aparecida' },
  { monthDay: '11-02', name: 'Finados' },
  { monthDay: '11-15', name: 'Proclamação da República' },
  { monthDay: '11-20', name: 'Dia Nacional de Zumbi e da Consciência Negra', fromYear: 2024 },
  { monthDay: '12-25', name: 'Natal' },
];

/** Days from Easter Sunday: Carnival Monday −48, Tuesday −47, Good Friday −2, Corpus Christi +60. */
const EASTER_HOLIDAYS: readonly { offsetDays: number; name: string }[] = [
  { offsetDays: -48, name: 'Carnaval' },
  { offsetDays: -47, name: 'Carnaval' },
  { offsetDays: -2, name: 'Sexta-feira da Paixão' },
  { offsetDays: 60, name: 'Corpus Christi' },
];

const holidaysByYear = new Map<number, Map<string, string>>();

function holidaysOf(year: number): Map<string, string> {
  let holidays = holidaysByYear.get(year);
  if (!holidays) {
    holidays = new Map();
    for (const { monthDay, name, fromYear } of FIXED_HOLIDAYS) {
      if (fromYear === undefined || year >= fromYear) holidays.set(`${year}-${monthDay}`, name);
    }
    const easter = easterSunday(year);
    for (const { offsetDays, name } of EASTER_HOLIDAYS) holidays.set(formatDay(easter + offsetDays), name);
    holidaysByYear.set(year, holidays);
  }
  return holidays;
}

/** The holiday's name when the date is a national or bank holiday; undefined on other days, weekends included. */
export function holidayName(isoDate: string): string | undefined {
  parseDay(isoDate);
  return holidaysOf(Number(isoDate.slice(0, 4))).get(isoDate);
}

export function isBusinessDay(isoDate: string): boolean {
  const weekday = new Date(parseDay(isoDate) * DAY_MS).getUTCDay();
  return weekday !== 0 && weekday !== 6 && holidayName(isoDate) === undefined;
}

/** The date itself when it is a business day, else the first business day after it. */
export function nextBusinessDay(isoDate: string): string {
  let day = isoDate;
  while (!isBusinessDay(day)) day = addCalendarDays(day, 1);
  return day;
}

/** The date `days` calendar days later (earlier when negative). */
export function addCalendarDays(isoDate: string, days: number): string {
  if (!Number.isSafeInteger(days)) throw new RangeError(`days must be an integer, got ${String(days)}`);
  return formatDay(parseDay(isoDate) + days);
}

/** The number of calendar days from `fromExclusive` to `toInclusive` (negative when `toInclusive` is earlier). */
export function calendarDaysBetween(fromExclusive: string, toInclusive: string): number {
  return parseDay(toInclusive) - parseDay(fromExclusive);
}

/** The number of business days in (fromExclusive, toInclusive]; 0 when `toInclusive` is not after `fromExclusive`. */
export function businessDaysBetween(fromExclusive: string, toInclusive: string): number {
  const last = parseDay(toInclusive);
  let count = 0;
  for (let day = parseDay(fromExclusive) + 1; day <= last; day++) {
    if (isBusinessDay(formatDay(day))) count++;
  }
  return count;
}
