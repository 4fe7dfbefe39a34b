/**
 * The calendar of a recurrence (Pix Automático), pure: when each cycle falls due, the day the payer's bank
 * debits it, the window in which its charge must reach that bank, and when a refused debit may be tried
 * again. docs/decisions.md "Pix Automático" names the rules and their sources.
 */
import { addCalendarDays, nextBusinessDay } from '../primitives/businessDays.ts';
import type { RecurrencePeriodicity, RecurrenceRetryPolicy } from '../db/schema.ts';

/** API Pix's names of the periodicities (`calendario.periodicidade`). */
export const STANDARD_PERIODICITY: Record<RecurrencePeriodicity, 'SEMANAL' | 'MENSAL' | 'TRIMESTRAL' | 'SEMESTRAL' | 'ANUAL'> = {
  weekly: 'SEMANAL',
  monthly: 'MENSAL',
  quarterly: 'TRIMESTRAL',
  half_yearly: 'SEMESTRAL',
  yearly: 'ANUAL',
};

const MONTHS: Record<Exclude<RecurrencePeriodicity, 'weekly'>, number> = { monthly: 1, quarterly: 3, half_yearly: 6, yearly: 12 };

/**
 * A cycle's charge reaches the payer's bank from ten to two calendar days before its due date (the Central
 * Bank's rule for Pix Automático's payment instructions): PixGate sends it on the first day of that window.
 */
export const SEND_WINDOW_DAYS = { earliest: 10, latest: 2 } as const;
/** `three_in_seven_days`: at most three more attempts, each within seven days after the settlement date. */
export const RETRY_LIMIT = { attempts: 3, days: 7 } as const;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The due date of cycle `index` (0 = `startDate`): `index` weeks later, or `index` periods of months later
 * on the start's day of the month, the month's last day when it has fewer days (a recurrence starting on
 * the 31st falls due on 28 or 29 February, then on 31 March again).
 */
export function cycleDueDate(startDate: string, periodicity: RecurrencePeriodicity, index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`cycle index must be a non-negative integer, got ${String(index)}`);
  if (periodicity === 'weekly') return addCalendarDays(startDate, 7 * index);
  const [year, month, day] = startDate.split('-').map(Number) as [number, number, number];
  const months = month - 1 + MONTHS[periodicity] * index;
  const targetYear = year + Math.floor(months / 12);
  const targetMonth = (months % 12) + 1;
  const targetDay = Math.min(day, daysInMonth(targetYear, targetMonth));
  return `${String(targetYear).padStart(4, '0')}-${String(targetMonth).padStart(2, '0')}-${String(targetDay).padStart(2, '0')}`;
}

/** The due date of cycle `sequence` (from 1), or undefined when it would fall after `endDate`. */
export function dueDateOfSequence(recurrence: { startDate: string; endDate?: string | null | undefined; periodicity: RecurrencePeriodicity }, sequence: number): string | undefined {
  const date = cycleDueDate(recurrence.startDate, recurrence.periodicity, sequence - 1);
  return recurrence.endDate && date > recurrence.endDate ? undefined : date;
}

/** The day the payer's bank debits a cycle: its due date, or the next business day (API Pix `ajusteDiaUtil`). */
export function settlementDateOf(dueDate: string): string {
  return nextBusinessDay(dueDate);
}

/** The days on which a cycle's charge may be sent (inclusive), by its due date. */
export function sendWindow(dueDate: string): { opens: string; closes: string } {
  return { opens: addCalendarDays(dueDate, -SEND_WINDOW_DAYS.earliest), closes: addCalendarDays(dueDate, -SEND_WINDOW_DAYS.latest) };
}

/** The earliest start date a recurrence created `today` may have: its first charge must still fit the window. */
export function earliestStartDate(today: string): string {
  return addCalendarDays(today, SEND_WINDOW_DAYS.latest);
}

/** The last day a cycle may still be debited: its settlement date, plus seven days when retries are allowed. */
export function lastAttemptDate(settlementDate: string, policy: RecurrenceRetryPolicy): string {
  return policy === 'three_in_seven_days' ? addCalendarDays(settlementDate, RETRY_LIMIT.days) : settlementDate;
}

/**
 * The day of the next attempt after a refusal on `today`, or undefined when the policy allows none: the
 * next day, while fewer than three retries were made and it is within seven days after the settlement date.
 */
export function nextRetryDate(input: { settlementDate: string; policy: RecurrenceRetryPolicy; retriesMade: number; today: string }): string | undefined {
  if (input.policy !== 'three_in_seven_days' || input.retriesMade >= RETRY_LIMIT.attempts) return undefined;
  const next = addCalendarDays(input.today > input.settlementDate ? input.today : input.settlementDate, 1);
  return next <= lastAttemptDate(input.settlementDate, input.policy) ? next : undefined;
}
