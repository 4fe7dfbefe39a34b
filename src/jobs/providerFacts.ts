/**
 * What the provider tells PixGate, applied: the facts of a callback (src/provider/port.ts verifyCallback,
 * each confirmed by a read) and, as the safety net for lost callbacks, the received Pix of a sliding
 * window listed every minute. Every fact is idempotent: a Pix is credited once (its end-to-end id is the
 * charge's), a withdrawal or a refund is synced from the provider's read, so duplicates, retries and
 * callbacks out of order change nothing twice.
 */
import { applyReceivedPix } from '../charges/receivedPix.service.ts';
import type { Deps } from '../platform/deps.ts';
import type { ProviderFact } from '../provider/port.ts';
import { applyProviderDevolucoes } from '../refunds/providerDevolucao.service.ts';
import { syncRefund } from '../refunds/refund.service.ts';
import { syncWithdrawal } from '../withdrawals/withdrawal.settlement.ts';
import { findRecurrenceByProviderRef } from '../recurrences/recurrence.repository.ts';
import { followCycle, syncRecurrence } from '../recurrences/recurrence.sync.ts';
import { findChargeByProviderRef } from '../charges/receivedPix.repository.ts';

/** How far back the listing looks each run: callbacks lost for up to this long are caught. */
export const RECEIVED_PIX_WINDOW_MS = 15 * 60_000;

export async function applyProviderFact(deps: Deps, fact: ProviderFact): Promise<void> {
  switch (fact.kind) {
    case 'pix_received':
      await applyReceivedPix(deps, fact.pix);
      return;
    case 'withdrawal_changed':
      await syncWithdrawal(deps, fact.transactionId);
      return;
    case 'refund_changed':
      await syncRefund(deps, fact.refundId);
      return;
    case 'devolucao_made':
      await applyProviderDevolucoes(deps, fact.pix);
      return;
    case 'recurrence_changed': {
      // Pix Automático (webhookrec): the recurrence is read again and applied; one PixGate does not know is ignored.
      const recurrence = await findRecurrenceByProviderRef(deps.db, fact.recurrenceRef);
      if (recurrence) await syncRecurrence(deps, recurrence.id);
      return;
    }
    case 'recurring_charge_changed': {
      // webhookcobr: the cycle's charge is read again (its payment credited, a refusal answered, its end applied).
      const charge = await findChargeByProviderRef(deps.db, fact.chargeRef);
      if (charge?.charge_kind === 'recurring') await followCycle(deps, charge.id);
      return;
    }
  }
}

/** A callback body: verified into facts by the provider, then applied one by one (a failure is logged; the listing or reconciliation catches it later). */
export async function applyCallback(deps: Deps, body: unknown): Promise<number> {
  const facts = await deps.provider.verifyCallback(body);
  for (const fact of facts) {
    try {
      await applyProviderFact(deps, fact);
    } catch (error) {
      deps.logger.warn('provider fact not applied; the listing or reconciliation will catch it', {
        kind: fact.kind,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return facts.length;
}

/** The safety net: every Pix received in the last window, applied (already credited ones change nothing). */
export async function pollReceivedPix(deps: Deps, windowMs = RECEIVED_PIX_WINDOW_MS): Promise<number> {
  const toMs = deps.clock.now();
  let seen = 0;
  for await (const pix of deps.provider.listReceivedPix(toMs - windowMs, toMs)) {
    seen += 1;
    await applyReceivedPix(deps, pix);
    // A devolução the provider made of it (MED) whose callback was lost is booked from the listing too.
    await applyProviderDevolucoes(deps, pix);
  }
  return seen;
}
