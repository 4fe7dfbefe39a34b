import type { Deps } from '../deps.ts';
import type { HoldReason, HoldRow, TransactionRow } from '../db/schema.ts';
import type { EventName } from '../events/catalog.ts';
import { ApiError } from '../http/errors.ts';
import { changeHeld, debitHeld } from '../ledger/ledger.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import { newId } from '../pix/ids.ts';
import { lockTransaction, updateTransaction } from '../transactions/transaction.repository.ts';

/** The event a hold on a paid charge announces, by reason. */
const HOLD_EVENT: Record<HoldReason, EventName> = {
  med: 'transaction.infraction',
  dispute: 'transaction.dispute',
  protest: 'transaction.protest',
  administrative: 'transaction.blocked',
};

const CHARGEABLE: ReadonlySet<string> = new Set(['paid', 'partially_refunded']);

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
): Promise<HoldRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    let charge: TransactionRow | undefined;
    if (input.transactionId !== undefined) {
      charge = await lockTransaction(trx, input.transactionId);
      if (!charge || charge.account_id !== accountId) throw new ApiError(404, 'Transaction not found.');
      if (charge.type !== 'pix_in' || !CHARGEABLE.has(charge.status)) {
        throw new ApiError(409, `Holds on a transaction need a paid charge: ${charge.type} is ${charge.status}.`);
      }
      // A hold on a charge protects at most what the payer paid (the event schema promises it).
      if (input.amountCents > charge.amount_cents) throw new ApiError(409, 'A hold on a charge cannot exceed its amount.');
    }
    const hold = await trx
      .insertInto('holds')
      .values({
        id: newId('hold'),
        account_id: accountId,
        transaction_id: charge?.id ?? null,
        amount_cents: input.amountCents,
        reason: input.reason,
        note: input.note ?? null,
        status: 'active',
        created_at: now,
        released_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await changeHeld(trx, { accountId, holdId: hold.id, transactionId: charge?.id ?? null, kind: 'hold_placed', at: now }, hold.amount_cents);
    if (charge) {
      const touched = await updateTransaction(trx, charge.id, { updated_at: now });
      await enqueueEvent(trx, HOLD_EVENT[hold.reason], touched, now, holdPayload(hold));
    }
    return hold;
  });
}

async function lockActiveHold(trx: Parameters<typeof lockTransaction>[0], accountId: string, holdId: string): Promise<HoldRow> {
  const hold = await trx
    .selectFrom('holds')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', holdId)
    .forUpdate()
    .executeTakeFirst();
  if (!hold) throw new ApiError(404, 'Hold not found.');
  if (hold.status !== 'active') throw new ApiError(409, 'Hold is already released.');
  return hold;
}

/** Releases a hold: the money becomes withdrawable again. */
export async function releaseHold(deps: Deps, accountId: string, holdId: string): Promise<HoldRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const hold = await lockActiveHold(trx, accountId, holdId);
    await changeHeld(trx, { accountId, holdId, transactionId: hold.transaction_id, kind: 'hold_released', at: now }, -hold.amount_cents);
    return trx
      .updateTable('holds')
      .set({ status: 'released', released_at: now })
      .where('id', '=', holdId)
      .returningAll()
      .executeTakeFirstOrThrow();
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
): Promise<TransactionRow> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const hold = await lockActiveHold(trx, accountId, holdId);
    if (!hold.transaction_id) throw new ApiError(409, 'Hold is not on a charge.');
    const charge = await lockTransaction(trx, hold.transaction_id);
    if (!charge || !CHARGEABLE.has(charge.status)) throw new ApiError(409, 'The charge cannot be charged back.');
    const amount = amountCents ?? hold.amount_cents;
    const refunded = (charge.refunded_cents ?? 0) + amount;
    if (amount > hold.amount_cents || refunded > charge.amount_cents) {
      throw new ApiError(409, 'Chargeback exceeds the hold or the charge amount.');
    }
    const movement = { accountId, holdId, transactionId: charge.id, at: now };
    if (!(await debitHeld(trx, { ...movement, kind: 'chargeback_debit' }, amount))) {
      throw new ApiError(409, 'The available balance does not cover the chargeback.');
    }
    const rest = hold.amount_cents - amount;
    if (rest > 0) await changeHeld(trx, { ...movement, kind: 'hold_released' }, -rest);
    await trx.updateTable('holds').set({ status: 'released', released_at: now }).where('id', '=', holdId).execute();
    const updated = await updateTransaction(trx, charge.id, {
      status: refunded >= charge.amount_cents ? 'refunded' : 'partially_refunded',
      refunded_cents: refunded,
      updated_at: now,
    });
    await enqueueEvent(trx, 'transaction.chargeback', updated, now, { chargebackCents: amount });
    return updated;
  });
}
