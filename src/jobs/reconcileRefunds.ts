import type { Deps } from '../platform/deps.ts';
import { refundsDue, syncRefund } from '../refunds/refund.service.ts';
import { settleStaleClaims } from '../refunds/providerDevolucao.service.ts';

/**
 * Job: reconciles refunds with the provider: `processing` ones whose turn has come (back-off schedule of
 * withdrawals), `initiating` ones left by a crash, and devoluções the back office asked for whose process
 * died before booking the provider's answer. Returns how many were looked at.
 */
export async function reconcileRefunds(deps: Deps, batchSize = 100): Promise<number> {
  const due = await refundsDue(deps, batchSize);
  for (const id of due) await syncRefund(deps, id);
  return due.length + (await settleStaleClaims(deps, batchSize));
}
