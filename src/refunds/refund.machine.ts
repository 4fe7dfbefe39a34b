/**
 * The refund state machine, applied: `startRefund` is the one way a refund comes to be and `moveRefund` the
 * one way it changes state. Each reads the move's ledger step from the table (refund.states.ts) and books it
 * with the status (`refund_book`, `refund_move`, migration 025: the legs of each step are written there and
 * nowhere else), keyed by the pending transfer the refund holds.
 */
import type { Transaction } from 'kysely';
import type { Database, NewRefund, RefundRow } from '../db/schema.ts';
import { bookRefundStep, findRefund, insertRefund, refundMove, updateRefund, type RefundChanges } from './refund.repository.ts';
import { RefundInsufficientBalance } from './refund.errors.ts';
import { refundStep, type RefundStatus } from './refund.states.ts';

/** What a move writes besides the status. */
export type RefundMoveChanges = Omit<RefundChanges, 'status'>;

/**
 * Records a new refund, `initiating`, with its reservation (its amount from the merchant's withdrawable
 * balance to pending_out); throws `RefundInsufficientBalance` when the balance does not cover it (the
 * caller's transaction then rolls back the row).
 */
export async function startRefund(trx: Transaction<Database>, values: Omit<NewRefund, 'status'>, at: Date): Promise<RefundRow> {
  const to = 'initiating' satisfies RefundStatus;
  const step = refundStep(undefined, to);
  const refund = await insertRefund(trx, { ...values, status: to });
  if (!(await bookRefundStep(trx, refund.id, step, at))) throw new RefundInsufficientBalance();
  // As the reservation left it (its pending transfer named).
  return (await findRefund(trx, refund.id)) ?? refund;
}

/**
 * Moves a refund (its charge locked by the caller first) to `to`, booking the table's step, then writes
 * `changes`. `beyondCharge`: the provider confirmed a refund its charge could no longer give (a chargeback
 * took the rest while it was in flight): the merchant's reservation is voided and the provider's payment
 * booked to suspense, instead of the post.
 */
export async function moveRefund(
  trx: Transaction<Database>,
  row: RefundRow,
  to: RefundStatus,
  at: Date,
  changes: RefundMoveChanges = {},
  options: { beyondCharge?: boolean } = {},
): Promise<RefundRow> {
  const step = refundStep(row.status, to);
  const beyondCharge = options.beyondCharge ?? false;
  if (beyondCharge && step !== 'post') throw new Error(`refund ${row.id}: only a post can be beyond its charge`);
  const moved = await refundMove(trx, { id: row.id, from: row.status, to, step, at, beyondCharge });
  if (!moved) throw new RefundInsufficientBalance();
  return Object.keys(changes).length === 0 ? moved : updateRefund(trx, row.id, changes);
}
