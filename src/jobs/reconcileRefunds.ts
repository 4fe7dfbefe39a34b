import type { Deps } from '../platform/deps.ts';
import { refundsDue, syncRefund } from '../refunds/refund.service.ts';

/**
 * Job: reconciles refunds with the provider: `processing` ones whose turn has come (back-off schedule of
 * withdrawals), and `initiating` ones left by a crash. Returns how many were looked at.
 */
export async function reconcileRefunds(deps: Deps, batchSize = 100): Promise<number> {
  const due = await refundsDue(deps, batchSize);
  for (const id of due) await syncRefund(deps, id);
  return due.length;
}
