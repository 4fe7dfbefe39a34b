/**
 * The charge state machine, applied: `moveCharge` is the one way a charge is paid, expires, is cancelled or
 * fails, and `giveBack` the one way money of a paid charge goes back to its payer (a refund confirmed, a
 * chargeback, a devolução made outside the API). Each reads the move's ledger step from the table
 * (charge.states.ts) and books it with the status: `credit` in the same statement (`charge_move`, migration
 * 025); `debit` as the return it is (the refund's post, or the take-back of what the provider returned).
 */
import type { Transaction } from 'kysely';
import type { Database, RefundRow, TransactionRow } from '../db/schema.ts';
import { takeBack } from '../ledger/ledger.repository.ts';
import { moveRefund, type RefundMoveChanges } from '../refunds/refund.machine.ts';
import { updateTransaction, type TransactionChanges } from '../transactions/transaction.repository.ts';
import { chargeMove } from './chargeMove.repository.ts';
import { bookReturn, type BookedReturn } from './chargeReturns.repository.ts';
import { chargeStep, isReturnable, type ChargeStatus } from './charge.states.ts';

/** What a move writes besides the status. */
export type ChargeChanges = Omit<TransactionChanges, 'status'>;

/**
 * Moves a pending charge to `paid` (its amount credited: the merchant's net, PixGate's fee), `expired`,
 * `cancelled` or `failed` (nothing moves), then writes `changes`. A move the table does not allow throws
 * `IllegalTransition` before anything is written.
 */
export async function moveCharge(
  trx: Transaction<Database>,
  row: TransactionRow,
  to: Exclude<ChargeStatus, 'pending' | 'partially_refunded' | 'refunded'>,
  at: Date,
  changes: ChargeChanges = {},
): Promise<TransactionRow> {
  const step = chargeStep(row.status, to);
  if (step === 'debit') throw new Error(`charge ${row.id}: money given back moves through giveBack`);
  const moved = await chargeMove(trx, { id: row.id, from: row.status as ChargeStatus, to, step, at });
  return Object.keys(changes).length === 0 ? moved : updateTransaction(trx, row.id, changes);
}

/** Who pays what a charge gives back: its refund (posted now), or the merchant's balance (taken back now). */
export type ChargeDebit =
  | { kind: 'refund'; refund: RefundRow; changes: RefundMoveChanges }
  | { kind: 'take_back'; reason: 'chargeback' | 'charge_refunded'; holdId: string | null };

export interface GivenBack {
  /** The charge after it; undefined when it could no longer give the amount (nothing changed on it). */
  charge: TransactionRow | undefined;
  /** The refund, `refunded` (a refund's debit). */
  refund?: RefundRow;
  /** What the merchant's available balance could not cover (a take-back), booked to suspense. */
  shortfallCents: number;
}

/**
 * Money of a paid charge that went back to its payer, which the provider says left: the charge's
 * `refunded_cents` and status move within its amount (`bookReturn`), and the debit is booked. A refund is
 * posted, or, when the charge could no longer give it (a chargeback took the rest while it was in flight),
 * its reservation voided and the provider's payment booked to suspense; a take-back leaves the merchant's
 * available balance (held money included), what it cannot cover booked to suspense. The caller holds the
 * charge's row lock, and the locks of the holds it ends, before the balance.
 */
export async function giveBack(trx: Transaction<Database>, charge: TransactionRow, booked: BookedReturn, debit: ChargeDebit): Promise<GivenBack> {
  const returnable = isReturnable(charge.status);
  if (returnable) chargeStep(charge.status, booked.status);
  const updated = returnable ? await bookReturn(trx, charge.id, booked) : undefined;
  if (debit.kind === 'refund') {
    const refund = await moveRefund(trx, debit.refund, 'refunded', booked.at, debit.changes, { beyondCharge: updated === undefined });
    return { charge: updated, refund, shortfallCents: 0 };
  }
  if (!updated) return { charge: undefined, shortfallCents: 0 };
  const taken = await takeBack(trx, charge, booked.amountCents, { reason: debit.reason, holdId: debit.holdId, at: booked.at });
  return { charge: updated, shortfallCents: taken.shortfallCents };
}
