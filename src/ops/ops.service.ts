import { pendingMigrations } from '../db/migrate.ts';
import type { Deps } from '../platform/deps.ts';
import type { Lifecycle } from '../platform/lifecycle.ts';
import type { OperationalSnapshot } from '../platform/metrics.ts';
import { openWithdrawalFigures } from '../transactions/transaction.repository.ts';
import { dueDeliveryBacklog } from '../webhooks/delivery.repository.ts';
import { fanOutBacklog } from '../events/event.repository.ts';
import { openBreakCounts } from '../reconciliation/reconciliation.repository.ts';
import { FAILED_UNKNOWN_DEADLINE_MS, STUCK_SEND_MS } from '../withdrawals/withdrawal.settlement.ts';

/**
 * The operator's view of a running gateway: liveness, readiness and the gauges /metrics reads from the
 * database at scrape time. (The HTTP side is src/http/ops.ts.)
 */

export type Readiness =
  | { ready: true }
  | { ready: false; reason: 'draining' | 'database unreachable' | 'migrations pending'; pending?: string[] };

/**
 * A readiness probe answers within this time: a database that does not answer sooner (a host gone, a
 * failover under way) is unreachable for the probe, which asks again at its next period.
 */
export const READINESS_TIMEOUT_MS = 2_000;

class ReadinessTimeout extends Error {
  constructor() {
    super(`the database did not answer within ${READINESS_TIMEOUT_MS} ms`);
  }
}

function withinReadinessTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ReadinessTimeout()), READINESS_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Ready: not draining, the database answers, and every migration this code knows has been applied. Asked
 * afresh on every probe, so it turns 503 while the database is unreachable and 200 once it is back.
 */
export async function readiness(deps: Pick<Deps, 'db' | 'logger'>, lifecycle: Lifecycle | undefined): Promise<Readiness> {
  if (lifecycle?.draining) return { ready: false, reason: 'draining' };
  let pending: string[];
  try {
    pending = await withinReadinessTimeout(pendingMigrations(deps.db));
  } catch (error) {
    deps.logger.warn('readiness: database unreachable', { error: error instanceof Error ? error.message : String(error) });
    return { ready: false, reason: 'database unreachable' };
  }
  if (pending.length > 0) return { ready: false, reason: 'migrations pending', pending };
  return { ready: true };
}

const secondsSince = (nowMs: number, at: Date | null) => (at === null ? 0 : Math.max(0, (nowMs - at.getTime()) / 1000));

/** Reads the backlog and open-withdrawal gauges (three indexed queries) into the metrics registry. */
export async function refreshOperationalGauges(deps: Pick<Deps, 'db' | 'clock' | 'metrics'>): Promise<OperationalSnapshot> {
  const nowMs = deps.clock.now();
  const now = new Date(nowMs);
  const [deliveries, events, withdrawals, breaks] = await Promise.all([
    dueDeliveryBacklog(deps.db, now),
    fanOutBacklog(deps.db),
    openWithdrawalFigures(deps.db, {
      now,
      overdueBefore: new Date(nowMs - FAILED_UNKNOWN_DEADLINE_MS),
      stuckBefore: new Date(nowMs - STUCK_SEND_MS),
    }),
    openBreakCounts(deps.db),
  ]);
  // An event not fanned out yet is due work too (at least one delivery each, once the worker fans it out).
  const oldest = [deliveries.oldestDueAt, events.oldestAt].filter((at): at is Date => at !== null);
  const snapshot: OperationalSnapshot = {
    webhookDeliveriesDue: deliveries.due + events.waiting,
    webhookOldestDueAgeSeconds: secondsSince(nowMs, oldest.length === 0 ? null : new Date(Math.min(...oldest.map((at) => at.getTime())))),
    failedUnknownOpen: withdrawals.failedUnknown,
    failedUnknownOldestAgeSeconds: secondsSince(nowMs, withdrawals.oldestFailedUnknownAt),
    failedUnknownOverdue: withdrawals.failedUnknownOverdue,
    withdrawalsProcessingOpen: withdrawals.processing,
    reconciliationLagSeconds: secondsSince(nowMs, withdrawals.oldestDueCheckAt),
    stuckSends: withdrawals.stuckSends,
    reconciliationBreaksOpen: breaks.reduce((sum, kind) => sum + kind.count, 0),
  };
  deps.metrics.setOperational(snapshot);
  return snapshot;
}
