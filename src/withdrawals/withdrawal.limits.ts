import { sql, type Transaction } from 'kysely';
import type { AccountRow, Database } from '../db/schema.ts';
import { messages } from '../http/messages.ts';
import { tooManyRequests } from '../http/errors.ts';
import { release, tryConsume, type Slot, type Window } from '../ratelimit/rateLimiter.ts';
import type { Deps } from '../deps.ts';

const SECOND_MS = 1_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Daily and monthly caps follow the merchant's calendar: São Paulo time, UTC−3 (no DST since 2019). */
const SAO_PAULO_OFFSET_MS = -3 * HOUR_MS;
/** When the hourly window resets within this time, the 429 says "wait a few minutes". */
const HOUR_ENDING_SOON_MS = 10 * MINUTE_MS;

/**
 * Takes one slot of each withdrawal window (1/s, 2/min, 10/h by default, per account), each an atomic
 * counter, so concurrency never admits one over a limit. On a refusal the slots already taken are given
 * back and the message names the window that refused.
 */
export async function takeWithdrawalSlots(deps: Deps, account: AccountRow, nowMs: number): Promise<Slot[]> {
  const windows: { window: Window; message: () => string }[] = [
    {
      window: { bucket: 'withdraw:second', windowMs: SECOND_MS, limit: account.withdrawals_per_second },
      message: () => messages.withdrawPerSecond,
    },
    {
      window: { bucket: 'withdraw:minute', windowMs: MINUTE_MS, limit: account.withdrawals_per_minute },
      message: () => messages.withdrawPerMinute,
    },
    {
      window: { bucket: 'withdraw:hour', windowMs: HOUR_MS, limit: account.withdrawals_per_hour },
      message: () =>
        HOUR_MS - (nowMs % HOUR_MS) <= HOUR_ENDING_SOON_MS ? messages.withdrawPerHourBurst : messages.withdrawPerHour,
    },
  ];
  const taken: Slot[] = [];
  for (const { window, message } of windows) {
    const slot = await tryConsume(deps.db, account.id, window, nowMs);
    if (!slot) {
      await giveBack(deps, account.id, taken);
      throw tooManyRequests(message());
    }
    taken.push(slot);
  }
  return taken;
}

export async function giveBack(deps: Deps, accountId: string, slots: Slot[]): Promise<void> {
  for (const slot of slots) await release(deps.db, accountId, slot);
}

export type CapRefusal = { code: 'DAILY_LIMIT_EXCEEDED' | 'MONTHLY_LIMIT_EXCEEDED'; reason: string } | undefined;

function startOfDayMs(nowMs: number): number {
  return Math.floor((nowMs + SAO_PAULO_OFFSET_MS) / DAY_MS) * DAY_MS - SAO_PAULO_OFFSET_MS;
}

function startOfMonthMs(nowMs: number): number {
  const local = new Date(nowMs + SAO_PAULO_OFFSET_MS);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - SAO_PAULO_OFFSET_MS;
}

/**
 * Daily and monthly caps on the amount withdrawn (São Paulo calendar), counting every withdrawal that took
 * or may take money: in flight, processing, waiting for approval, paid, indeterminate, returned. The caller
 * holds the account's balance row lock, so two withdrawals of one account are never counted in parallel.
 */
export async function checkCaps(
  trx: Transaction<Database>,
  account: AccountRow,
  amountCents: number,
  nowMs: number,
): Promise<CapRefusal> {
  const monthStart = new Date(startOfMonthMs(nowMs));
  const dayStart = new Date(startOfDayMs(nowMs));
  const totals = await sql<{ day: number; month: number }>`
    SELECT
      coalesce(sum(amount_cents) FILTER (WHERE created_at >= ${dayStart}), 0)::bigint AS day,
      coalesce(sum(amount_cents), 0)::bigint AS month
    FROM transactions
    WHERE account_id = ${account.id} AND type = 'withdrawal' AND created_at >= ${monthStart}
      AND status IN ('initiating', 'processing', 'pending_approval', 'paid', 'failed_unknown', 'refunded', 'partially_refunded')`.execute(trx);
  const day = Number(totals.rows[0]?.day ?? 0);
  const month = Number(totals.rows[0]?.month ?? 0);
  if (day + amountCents > account.withdrawal_daily_cap_cents) {
    return { code: 'DAILY_LIMIT_EXCEEDED', reason: messages.dailyCapReason(account.withdrawal_daily_cap_cents) };
  }
  if (month + amountCents > account.withdrawal_monthly_cap_cents) {
    return { code: 'MONTHLY_LIMIT_EXCEEDED', reason: messages.monthlyCapReason(account.withdrawal_monthly_cap_cents) };
  }
  return undefined;
}
