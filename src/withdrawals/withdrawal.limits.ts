import type { Transaction } from 'kysely';
import type { AccountRow, Database } from '../db/schema.ts';
import { messages } from '../messages/merchant.ts';
import { tryConsume, windowAt, type Window } from '../ratelimit/rateLimit.repository.ts';
import { WithdrawalRateLimited } from './withdrawal.errors.ts';
import { withdrawnInPeriods, type CapPeriods } from './withdrawalTotals.repository.ts';
import type { SlotRequest } from './withdrawalPath.repository.ts';

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Daily and monthly caps follow the merchant's calendar: São Paulo time, UTC−3 (no DST since 2019). */
const SAO_PAULO_OFFSET_MS = -3 * HOUR_MS;
/** When the hourly window resets within this time, the 429 says "wait a few minutes". */
const HOUR_ENDING_SOON_MS = 10 * MINUTE_MS;

/** The withdrawal windows of an account: 1/s, 2/min, 10/h by default. */
function withdrawalWindows(account: AccountRow): { window: Window; name: WithdrawalRateLimited['window'] }[] {
  return [
    { window: { bucket: 'withdraw:second', windowMs: SECOND_MS, limit: account.withdrawals_per_second }, name: 'second' },
    { window: { bucket: 'withdraw:minute', windowMs: MINUTE_MS, limit: account.withdrawals_per_minute }, name: 'minute' },
    { window: { bucket: 'withdraw:hour', windowMs: HOUR_MS, limit: account.withdrawals_per_hour }, name: 'hour' },
  ];
}

/** The slot of each withdrawal window a withdrawal at `nowMs` takes. */
export function withdrawalSlots(account: AccountRow, nowMs: number): SlotRequest[] {
  return withdrawalWindows(account).map(({ window, name }) => ({ bucket: window.bucket, limit: window.limit, name, ...windowAt(window, nowMs) }));
}

/** The 429 of a window that refused, saying "wait a few minutes" when the hourly window resets soon. */
export function rateLimited(window: string, nowMs: number): WithdrawalRateLimited {
  const name: WithdrawalRateLimited['window'] = window === 'second' || window === 'minute' ? window : 'hour';
  return new WithdrawalRateLimited(name, HOUR_MS - (nowMs % HOUR_MS) <= HOUR_ENDING_SOON_MS);
}

/**
 * Takes one slot of each withdrawal window in the caller's database transaction, each an atomic counter,
 * so concurrency never admits one over a limit. A refusal throws the 429 naming the window; the slots
 * already taken are returned by the transaction's rollback (so are they when anything later fails).
 */
export async function takeWithdrawalSlots(trx: Transaction<Database>, account: AccountRow, nowMs: number): Promise<void> {
  for (const { window, name } of withdrawalWindows(account)) {
    if (!(await tryConsume(trx, account.id, window, nowMs))) throw rateLimited(name, nowMs);
  }
}

export type CapRefusal = { code: 'DAILY_LIMIT_EXCEEDED' | 'MONTHLY_LIMIT_EXCEEDED'; reason: string } | undefined;

/** The São Paulo day and month of an instant, as the keys of `withdrawal_totals` (`YYYY-MM-DD`). */
export function capPeriodsAt(nowMs: number): CapPeriods {
  const local = new Date(nowMs + SAO_PAULO_OFFSET_MS).toISOString();
  return { day: local.slice(0, 10), month: `${local.slice(0, 7)}-01` };
}

/**
 * Daily and monthly caps on the amount withdrawn (São Paulo calendar), counting every withdrawal that took
 * or may take money: in flight, processing, waiting for approval, paid, indeterminate, returned. The totals
 * are kept as statuses change (migration 007), so this costs two primary-key reads however many withdrawals
 * came before. The caller holds the account's balance row lock, so two withdrawals of one account are never
 * checked in parallel.
 */
export async function checkCaps(
  trx: Transaction<Database>,
  account: AccountRow,
  amountCents: number,
  nowMs: number,
): Promise<CapRefusal> {
  const { dayCents: day, monthCents: month } = await withdrawnInPeriods(trx, account.id, capPeriodsAt(nowMs));
  if (day + amountCents > account.withdrawal_daily_cap_cents) {
    return { code: 'DAILY_LIMIT_EXCEEDED', reason: messages.dailyCapReason(account.withdrawal_daily_cap_cents) };
  }
  if (month + amountCents > account.withdrawal_monthly_cap_cents) {
    return { code: 'MONTHLY_LIMIT_EXCEEDED', reason: messages.monthlyCapReason(account.withdrawal_monthly_cap_cents) };
  }
  return undefined;
}
