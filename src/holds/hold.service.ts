import { notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import type { Deps } from '../platform/deps.ts';
import type { HoldReason, HoldRow, TransactionRow } from '../db/schema.ts';
import type { EventName } from '../events/catalog.ts';
import { changeHeld, debitCharge } from '../ledger/ledger.repository.ts';
import { chargeStep, isReturnable, refundedStatus } from '../charges/charge.states.ts';
import { enqueueEvent } from '../events/outbox.ts';
import { newId } from '../primitives/ids.ts';
import { TransactionNotFound } from '../transactions/transaction.errors.ts';
import { lockTransaction, updateTransaction } from '../transactions/transaction.repository.ts';
import {
  ChargebackExceedsHold,
  ChargebackNotCovered,
  ChargeNotChargeable,
  HoldAlreadyReleased,
  HoldExceedsCharge,
  HoldNeedsPaidCharge,
  HoldNotFound,
  HoldNotOnCharge,
} from './hold.errors.ts';
import { insertHold, listHolds, lockHold, markHoldReleased } from './hold.repository.ts';

/** The event a hold on a paid charge announces, by reason. */
const HOLD_EVENT: Record<HoldReason, EventName> = {
  med: 'transaction.infraction',
  dispute: 'transaction.dispute',
  protest: 'transaction.protest',
  administrative: 'transaction.blocked',
};


function holdPayload(hold: HoldRow) {
  return { hold: { holdId: hold.id, amountCents: hold.amount_cents, reason: hold.reason } };
}

/**
 * Places a precautionary hold (central-bank MED, dispute, protest, administrative block). A hold never
 * changes `available`; it reduces what can be withdrawn. On a paid charge it also emits the matching
 * event (transaction.infraction / dispute / protest / blocked) in the same database transaction.
 */
export async function placeHold(
  deps: Deps,
  accountId: string,
  input: { amountCents: number; reason: HoldReason; transactionId?: string | undefined; note?: string | undefined },
  audit: AuditStep<HoldRow> = notAudited,
): Promise<HoldRow> {
  const now = new Date(deps.clock.now());
  return withAudit(deps.db, audit, async (trx) => {
    let charge: TransactionRow | undefined;
    if (input.transactionId !== undefined) {
      charge = await lockTransaction(trx, input.transactionId);
      if (!charge || charge.account_id !== accountId) throw new TransactionNotFound();
      if (charge.type !== 'pix_in' || !isReturnable(charge.status)) {
        throw new HoldNeedsPaidCharge(charge.type, charge.status);
      }
      // A hold on a charge protects at most what the payer paid (the event schema promises it).
      if (input.amountCents > charge.amount_cents) throw new HoldExceedsCharge();
    }
    const hold = await insertHold(trx, {
      id: newId('hold'),
      account_id: accountId,
      transaction_id: charge?.id ?? null,
      amount_cents: input.amountCents,
      reason: input.reason,
      note: input.note ?? null,
      created_at: now,
    });
    await changeHeld(trx, accountId, hold.amount_cents, { reason: 'hold_placed', holdId: hold.id, transactionId: charge?.id ?? null, at: now });
    if (charge) {
      const touched = await updateTransaction(trx, charge.id, { updated_at: now });
      await enqueueEvent(trx, HOLD_EVENT[hold.reason], touched, now, holdPayload(hold));
    }
    return hold;
  });
}

async function lockActiveHold(trx: Parameters<typeof lockTransaction>[0], accountId: string, holdId: string): Promise<HoldRow> {
  const hold = await lockHold(trx, accountId, holdId);
  if (!hold) throw new HoldNotFound();
  if (hold.status !== 'active') throw new HoldAlreadyReleased();
  return hold;
}

/** Releases a hold: the money becomes withdrawable again. */
export async function releaseHold(deps: Deps, accountId: string, holdId: string, audit: AuditStep<HoldRow> = notAudited): Promise<HoldRow> {
  const now = new Date(deps.clock.now());
  return withAudit(deps.db, audit, async (trx) => {
    const hold = await lockActiveHold(trx, accountId, holdId);
    await changeHeld(trx, accountId, -hold.amount_cents, { reason: 'hold_released', holdId, transactionId: hold.transaction_id, at: now });
    return markHoldReleased(trx, holdId, now);
  });
}

/**
 * Ends a hold on a charge with a chargeback: the held money is debited (up to the hold), the rest of the
 * hold released, the charge becomes `refunded` or `partially_refunded`, and `transaction.chargeback` is
 * emitted, all in one database transaction.
 */
export async function chargebackHold(
  deps: Deps,
  accountId: string,
  holdId: string,
  amountCents?: number,
  audit: AuditStep<TransactionRow> = notAudited,
): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return withAudit(deps.db, audit, async (trx) => {
    const hold = await lockActiveHold(trx, accountId, holdId);
    if (!hold.transaction_id) throw new HoldNotOnCharge();
    const charge = await lockTransaction(trx, hold.transaction_id);
    if (!charge || !isReturnable(charge.status)) throw new ChargeNotChargeable();
    const amount = amountCents ?? hold.amount_cents;
    const refunded = (charge.refunded_cents ?? 0) + amount;
    if (amount > hold.amount_cents || refunded > charge.amount_cents) {
      throw new ChargebackExceedsHold();
    }
    const status = refundedStatus(refunded, charge.amount_cents);
    chargeStep(charge.status, status);
    // The hold ends (its whole memo released) and the charged-back amount goes back through the PSP: the
    // held money itself may be taken, so only available must cover it.
    await changeHeld(trx, accountId, -hold.amount_cents, { reason: 'hold_released', holdId, transactionId: charge.id, at: now });
    if (!(await debitCharge(trx, charge, amount, { reason: 'chargeback', holdId, at: now }))) throw new ChargebackNotCovered();
    await markHoldReleased(trx, holdId, now);
    const updated = await updateTransaction(trx, charge.id, {
      status,
      refunded_cents: refunded,
      updated_at: now,
    });
    await enqueueEvent(trx, 'transaction.chargeback', updated, now, { chargebackCents: amount });
    return updated;
  });
}

/** The back office's list of an account's holds, newest first. */
export function holdsOfAccount(deps: Pick<Deps, 'db'>, accountId: string, status?: HoldRow['status']): Promise<HoldRow[]> {
  return listHolds(deps.db, accountId, status);
}
