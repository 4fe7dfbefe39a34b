import { removeAtProvider } from '../charges/charge.sandboxPayment.ts';
import { enqueueEvent } from '../events/outbox.ts';
import type { Deps } from '../platform/deps.ts';
import { findDueCharges, lockDueCharges, updateTransaction } from '../transactions/transaction.repository.ts';

const BATCH_SIZE = 200;

/**
 * Job: moves pending charges past their `expiresAt` to `expired` and emits `transaction.expired`.
 * `SKIP LOCKED` lets several server processes sweep at once without touching the same charge; a charge
 * being paid at this instant holds its row lock and is skipped (and then found paid, not pending).
 *
 * On a real provider a charge is first removed there (API Pix keeps an expired cob `ATIVA`), so it can
 * never be paid late: a charge the provider reports paid is credited instead (the Pix arrived before the
 * expiry, its callback not yet); one the provider could not be asked about waits for the next run.
 * Returns how many charges expired.
 */
export async function expireDueCharges(deps: Deps): Promise<number> {
  const now = new Date(deps.clock.now());
  const onlyIds = deps.provider.name === 'simulated' ? undefined : await removeDueAtProvider(deps, now);
  return deps.db.transaction().execute(async (trx) => {
    const due = await lockDueCharges(trx, now, BATCH_SIZE, onlyIds);
    for (const row of due) {
      const expired = await updateTransaction(trx, row.id, { status: 'expired', paid_at: now, updated_at: now });
      await enqueueEvent(trx, 'transaction.expired', expired, now);
    }
    return due.length;
  });
}

/** Removes due charges at the provider; answers the ids that may now expire here. */
async function removeDueAtProvider(deps: Deps, now: Date): Promise<string[]> {
  const removable: string[] = [];
  for (const charge of await findDueCharges(deps.db, now, BATCH_SIZE)) {
    try {
      if (await removeAtProvider(deps, charge)) removable.push(charge.id);
    } catch (error) {
      deps.logger.warn('charge not removed at the provider; its expiry waits for the next run', {
        transactionId: charge.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return removable;
}
