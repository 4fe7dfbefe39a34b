import type { Deps } from '../deps.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import { updateTransaction } from '../transactions/transaction.repository.ts';

const BATCH_SIZE = 200;

/**
 * Moves pending charges past their `expiresAt` to `expired` and emits `transaction.expired`.
 * `SKIP LOCKED` lets several server processes sweep at once without touching the same charge; a charge
 * being paid at this instant holds its row lock and is skipped (and then found paid, not pending).
 * Returns how many charges expired.
 */
export async function expireDueCharges(deps: Deps): Promise<number> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('transactions')
      .selectAll()
      .where('status', '=', 'pending')
      .where('type', '=', 'pix_in')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(BATCH_SIZE)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const row of due) {
      const expired = await updateTransaction(trx, row.id, { status: 'expired', paid_at: now, updated_at: now });
      await enqueueEvent(trx, 'transaction.expired', expired, now);
    }
    return due.length;
  });
}
