import { enqueueEvent } from '../events/outbox.ts';
import type { Deps } from '../platform/deps.ts';
import { lockDueCharges, updateTransaction } from '../transactions/transaction.repository.ts';

const BATCH_SIZE = 200;

/**
 * Job: moves pending charges past their `expiresAt` to `expired` and emits `transaction.expired`.
 * `SKIP LOCKED` lets several server processes sweep at once without touching the same charge; a charge
 * being paid at this instant holds its row lock and is skipped (and then found paid, not pending).
 * Returns how many charges expired.
 */
export async function expireDueCharges(deps: Deps): Promise<number> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const due = await lockDueCharges(trx, now, BATCH_SIZE);
    for (const row of due) {
      const expired = await updateTransaction(trx, row.id, { status: 'expired', paid_at: now, updated_at: now });
      await enqueueEvent(trx, 'transaction.expired', expired, now);
    }
    return due.length;
  });
}
