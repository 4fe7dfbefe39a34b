/**
 * The fake's business-day calendar, for charges with a due date (`cobv`): the standard's
 * `CobDataDeVencimento.validadeAposVencimento` (openapi/upstream/bacen-pix-api-2.9.0.yaml, examples A to G).
 * A due date on a weekend or a holiday is moved to the next business day; the charge may then be paid for
 * `validadeAposVencimento` calendar days more, and when that last day is not a business day it moves to the
 * next business day as well (example A: due Tuesday 2020-10-20, 4 days, last day Monday 2020-10-26; F: due
 * Friday 2021-08-27, 5 days, last day Wednesday 2021-09-01; E: due on Christmas 2020, 4 days, last day
 * Monday 2021-01-04 past New Year's Day and the weekend).
 *
 * Holidays: the national ones only (the standard speaks of the payer's holidays, which include local ones
 * by municipality: the fake knows none of those). The list the fake keeps, by rule so that it covers every
 * year:
 * - fixed dates, by law: 1 January, 21 April, 1 May, 7 September, 2 November, 15 November, 25 December
 *   (Lei 662/1949 as amended by Lei 10.607/2002), 12 October (Lei 6.802/1980), 20 November from 2024 on
 *   (Lei 14.759/2023);
 * - the days without business in the financial system that hang on Easter: Carnival Monday and Tuesday
 *   (Easter − 48 and − 47), Good Friday (Easter − 2) and Corpus Christi (Easter + 60), as ANBIMA's calendar
 *   of national holidays (the one Brazil's financial market counts business days by) lists them.
 * Easter is computed with the anonymous Gregorian algorithm (Meeus / Jones / Butcher).
 *
 * Dates are `YYYY-MM-DD` strings; "today" is the date in America/Sao_Paulo.
 */
import { DAY_MS } from './values.ts';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Fixed national holidays as `MM-DD`, and the first year each applies. */
const FIXED_HOLIDAYS: readonly { monthDay: string; from: number }[] = [
  { monthDay: '01-01', from: 0 },
  { monthDay: '04-21', from: 0 },
  { monthDay: '05-01', from: 0 },
  { monthDay: '09-07', from: 0 },
  { monthDay: '10-12', from: 0 },
  { monthDay: '11-02', from: 0 },
  { monthDay: '11-15', from: 0 },
  { monthDay: '11-20', from: 2024 },
  { monthDay: '12-25', from: 0 },
];

/** Days from Easter Sunday of the holidays that hang on it. */
const EASTER_OFFSETS: readonly number[] = [-48, -47, -2, 60];

const SAO_PAULO_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Milliseconds (UTC midnight) of a valid `YYYY-MM-DD`, or undefined (2021-02-30 is not a date). */
export function parseDate(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = DATE_PATTERN.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  return formatDate(ms) === value ? ms : undefined;
}

/** `YYYY-MM-DD` of a UTC-midnight (or any) instant, read in UTC. */
function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The date in America/Sao_Paulo at that instant. */
export function saoPauloDate(ms: number): string {
  return SAO_PAULO_DATE.format(new Date(ms));
}

export function addDays(date: string, days: number): string {
  const ms = parseDate(date);
  if (ms === undefined) throw new TypeError(`not a date: ${date}`);
  return formatDate(ms + days * DAY_MS);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round(((parseDate(to) ?? 0) - (parseDate(from) ?? 0)) / DAY_MS);
}

function easterSunday(year: number): string {
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
  return formatDate(Date.UTC(year, month - 1, day));
}

const holidayCache = new Map<number, Set<string>>();

/** The national holidays of `year` (see the header), as `YYYY-MM-DD`. */
export function nationalHolidays(year: number): ReadonlySet<string> {
  let holidays = holidayCache.get(year);
  if (holidays === undefined) {
    const easter = easterSunday(year);
    holidays = new Set([
      ...FIXED_HOLIDAYS.filter((holiday) => year >= holiday.from).map((holiday) => `${String(year).padStart(4, '0')}-${holiday.monthDay}`),
      ...EASTER_OFFSETS.map((offset) => addDays(easter, offset)),
    ]);
    holidayCache.set(year, holidays);
  }
  return holidays;
}

export function isBusinessDay(date: string): boolean {
  const ms = parseDate(date);
  if (ms === undefined) throw new TypeError(`not a date: ${date}`);
  const weekday = new Date(ms).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !nationalHolidays(new Date(ms).getUTCFullYear()).has(date);
}

/** The date itself when a business day, else the next business day. */
export function nextBusinessDay(date: string): string {
  let day = date;
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

/** Business days after `from` up to and including `to` (0 when `to` is not after `from`). */
export function businessDaysBetween(from: string, to: string): number {
  let count = 0;
  for (let day = addDays(from, 1); day <= to; day = addDays(day, 1)) if (isBusinessDay(day)) count += 1;
  return count;
}

/** The due date as the payer sees it: moved to the next business day when it is not one. */
export function adjustedDueDate(dataDeVencimento: string): string {
  return nextBusinessDay(dataDeVencimento);
}

/** The last day a charge with a due date can be paid (examples A to G of the standard). */
export function lastPayableDay(dataDeVencimento: string, validadeAposVencimento: number): string {
  return nextBusinessDay(addDays(adjustedDueDate(dataDeVencimento), validadeAposVencimento));
}
