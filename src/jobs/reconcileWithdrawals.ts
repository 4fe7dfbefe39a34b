import type { Deps } from '../platform/deps.ts';
import { listOpenWithdrawalsDue, listStuckSends } from '../transactions/transaction.repository.ts';
import { STUCK_SEND_MS, syncWithdrawal } from '../withdrawals/withdrawal.settlement.ts';

/**
 * Job: reconciles withdrawals with the PSP. First sends stuck in flight (a crash), then open withdrawals
 * (processing, failed_unknown) whose turn has come, least recently checked first. Returns how many were
 * looked at.
 */
export async function reconcileWithdrawals(deps: Deps, batchSize = 100): Promise<number> {
  const nowMs = deps.clock.now();
  const stuck = await listStuckSends(deps.db, new Date(nowMs - STUCK_SEND_MS), batchSize);
  const open = await listOpenWithdrawalsDue(deps.db, new Date(nowMs), batchSize);
  for (const id of [...stuck, ...open]) await syncWithdrawal(deps, id);
  return stuck.length + open.length;
}
