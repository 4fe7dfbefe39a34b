/**
 * The end of every suite: the books compared with the provider (src/reconciliation), over everything the
 * suite did, as the daily run compares a day. Answers the open breaks (kind and what differs): none when the
 * ledger agrees with the provider's own records and balance. Breaks a test made and resolved on purpose stay
 * resolved when found again.
 */
import type { Deps } from '../../src/platform/deps.ts';
import { reconcile } from '../../src/reconciliation/reconciliation.service.ts';

const DAY_MS = 86_400_000;

export async function booksDisagreeWithProvider(deps: Deps): Promise<string[]> {
  const nowMs = deps.clock.now();
  // Everything the suite did: its manual clock starts in 2026, and may have been moved days ahead.
  const report = await reconcile(deps, { fromMs: 0, toMs: nowMs + DAY_MS, trigger: 'test' });
  return report.breaks.filter((found) => found.status === 'open').map((found) => `${found.kind}: ${found.detail}`);
}
