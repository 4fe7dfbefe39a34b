import { pendingMigrations } from '../db/migrate.ts';
import type { Deps } from '../platform/deps.ts';
import type { Lifecycle } from '../platform/lifecycle.ts';
import type { OperationalSnapshot } from '../platform/metrics.ts';
import { openWithdrawalFigures } from '../transactions/transaction.repository.ts';
import { dueDeliveryBacklog } from '../webhooks/delivery.repository.ts';
import { FAILED_UNKNOWN_DEADLINE_MS, STUCK_SEND_MS } from '../withdrawals/withdrawal.settlement.ts';

/**
 * The operator's view of a running gateway: liveness, readiness and the gauges /metrics reads from the
 * database at scrape time. (The HTTP side is src/http/ops.ts.)
 */

export type Readiness =
  | { ready: true }
  | { ready: false; reason: 'draining' | 'database unreachable' | 'migrations pending'; pending?: string[] };

/** Ready: not draining, the database answers, and every migration this code knows has been applied. */
export async function readiness(deps: Pick<Deps, 'db' | 'logger'>, lifecycle: Lifecycle | undefined): Promise<Readiness> {
  if (lifecycle?.draining) return { ready: false, reason: 'draining' };
  let pending: string[];
  try {
    pending = await pendingMigrations(deps.db);
  } catch (error) {
    deps.logger.warn('readiness: database unreachable', { error: error instanceof Error ? error.message : String(error) });
    return { ready: false, reason: 'database unreachable' };
  }
  if (pending.length > 0) return { ready: false, reason: 'migrations pending', pending };
  return { ready: true };
}

const secondsSince = (nowMs: number, at: Date | null) => (at === null ? 0 : Math.max(0, (nowMs - at.getTime()) / 1000));

/** Reads the backlog and open-withdrawal gauges (two indexed queries) into the metrics registry. */
export async function refreshOperationalGauges(deps: Pick<Deps, 'db' | 'clock' | 'metrics'>): Promise<OperationalSnapshot> {
  const nowMs = deps.clock.now();
  const now = new Date(nowMs);
  const [backlog, withdrawals] = await Promise.all([
    dueDeliveryBacklog(deps.db, now),
    openWithdrawalFigures(deps.db, {
      now,
      overdueBefore: new Date(nowMs - FAILED_UNKNOWN_DEADLINE_MS),
      stuckBefore: new Date(nowMs - STUCK_SEND_MS),
    }),
  ]);
  const snapshot: OperationalSnapshot = {
    webhookDeliveriesDue: backlog.due,
    webhookOldestDueAgeSeconds: secondsSince(nowMs, backlog.oldestDueAt),
    failedUnknownOpen: withdrawals.failedUnknown,
    failedUnknownOldestAgeSeconds: secondsSince(nowMs, withdrawals.oldestFailedUnknownAt),
    failedUnknownOverdue: withdrawals.failedUnknownOverdue,
    withdrawalsProcessingOpen: withdrawals.processing,
    reconciliationLagSeconds: secondsSince(nowMs, withdrawals.oldestDueCheckAt),
    stuckSends: withdrawals.stuckSends,
  };
  deps.metrics.setOperational(snapshot);
  return snapshot;
}
