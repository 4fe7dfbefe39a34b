import { removeAtProvider } from '../charges/charge.sandboxPayment.ts';
import { moveCharge } from '../charges/charge.machine.ts';
import { enqueueEvent } from '../events/outbox.ts';
import type { Deps } from '../platform/deps.ts';
import { findDueCharges, lockDueCharges } from '../transactions/transaction.repository.ts';

const BATCH_SIZE = 200;

/**
 * Job: moves pending charges past their `expiresAt` to `expired` and emits `transaction.expired`.
 * `SKIP LOCKED` lets several server processes sweep at once without touching the same charge; a charge
 * being paid at this instant holds its row lock and is skipped (and then found paid, not pending).
 *
 * Each charge is first removed at the provider (API Pix keeps an expired cob `ATIVA`), and a charge the
 * provider reports paid is credited instead (the Pix arrived before the expiry, its callback not yet). A
 * charge past its `expiresAt` expires whatever else the provider answers, or when it cannot be asked: the
 * provider itself takes no payment past the cob's own expiry (the same instant), and a Pix that arrives
 * for it afterwards is an unmatched Pix (left to an operator, and in the reconciliation). Returns how many
 * charges expired.
 */
export async function expireDueCharges(deps: Deps): Promise<number> {
  const now = new Date(deps.clock.now());
  for (const charge of await findDueCharges(deps.db, now, BATCH_SIZE)) {
    try {
      await removeAtProvider(deps, charge);
    } catch (error) {
      deps.logger.warn('charge not removed at the provider; it expires all the same (a Pix for it from now on is an unmatched Pix)', {
        transactionId: charge.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return deps.db.transaction().execute(async (trx) => {
    // Those the provider had paid are paid now, no longer pending: they are not locked here.
    const due = await lockDueCharges(trx, now, BATCH_SIZE);
    for (const row of due) {
      const expired = await moveCharge(trx, row, 'expired', now, { paid_at: now, updated_at: now });
      await enqueueEvent(trx, 'transaction.expired', expired, now);
    }
    return due.length;
  });
}
