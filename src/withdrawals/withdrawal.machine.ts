/**
 * The withdrawal state machine, applied: `moveWithdrawal` is the one way a stored withdrawal changes state,
 * and `insertWithdrawal` the one way a withdrawal the general path records comes to be. Each reads the
 * move's ledger step from the table (withdrawal.states.ts) and books it with the status in one statement
 * (`withdrawal_move`, migration 025: the legs of each step are written there and nowhere else), keyed by
 * the pending transfer the row holds. Dispatch, settlement, review, resolution and reconciliation call it;
 * none of them names a movement of money.
 *
 * A new automatic withdrawal is reserved by `withdrawal_reserve` (withdrawalPath.repository.ts), one
 * statement, with the step the table names for `new → initiating/sending`: the only reservation of a new
 * withdrawal.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database, NewTransaction, TransactionRow } from '../db/schema.ts';
import type { EventName } from '../events/catalog.ts';
import type { EventExtras } from '../events/event.types.ts';
import { renderEvent } from '../events/outbox.ts';
import { insertTransaction, type TransactionChanges } from '../transactions/transaction.repository.ts';
import { InsufficientBalance } from './withdrawal.errors.ts';
import { withdrawalMove } from './withdrawalPath.repository.ts';
import { stateOf, withdrawalStep, type WithdrawalState } from './withdrawal.states.ts';

/** What a move writes besides the state: the columns a withdrawal's transitions set. */
export type WithdrawalChanges = Pick<
  TransactionChanges,
  | 'provider_ref'
  | 'refused_code'
  | 'refused_reason'
  | 'paid_at'
  | 'updated_at'
  | 'end_to_end_id'
  | 'beneficiary'
  | 'refunded_cents'
  | 'refund_end_to_end_id'
  | 'resolved_by'
  | 'resolution_note'
  | 'resolved_at'
>;

/** The events a withdrawal's move announces (none needs extras). */
export type WithdrawalEvent = { [E in EventName]: E extends `transfer.${string}` ? (Record<never, never> extends EventExtras<E> ? E : never) : never }[EventName];

export interface MoveOptions {
  /** What a `return` step gives back. */
  returnedCents?: number;
  /** The events of the move, rendered from the withdrawal as it will be and written with it. */
  events?: WithdrawalEvent[];
}

/**
 * Moves a withdrawal to `to` in one statement: the row is locked and checked to be still in the state read
 * (SQLSTATE PXM01 otherwise, nothing changed: `movedMeanwhile`), the table's step booked, the state and
 * `changes` written, and the move's events put in the outbox. A reservation the balance does not cover throws
 * `InsufficientBalance`, nothing changed; a move the table does not allow throws `IllegalTransition` before
 * anything is sent. `db` is the caller's database transaction, or the pool for a move that is all its
 * transaction.
 */
export async function moveWithdrawal(
  db: Kysely<Database> | Transaction<Database>,
  row: TransactionRow,
  to: WithdrawalState,
  at: Date,
  changes: WithdrawalChanges = {},
  options: MoveOptions = {},
): Promise<TransactionRow> {
  const from = stateOf(row);
  const step = withdrawalStep(from, to);
  const returned = options.returnedCents;
  if (step === 'return' && !(returned !== undefined && returned > 0)) throw new Error(`withdrawal ${row.id}: a return needs the amount returned`);
  const written: Record<string, unknown> = { ...changes };
  if (typeof changes.beneficiary === 'string') written.beneficiary = JSON.parse(changes.beneficiary) as unknown;
  const after = { ...row, ...written, status: to.status, provider_state: to.providerState } as TransactionRow;
  const events = (options.events ?? []).map((event) => renderEvent(event, after, at));
  const moved = await withdrawalMove(db, { id: row.id, from, to, step, at, cents: returned ?? null, changes: written, events });
  if (!moved) throw new InsufficientBalance();
  return moved;
}
/**
 * Records a new withdrawal in a state whose move from nothing books no money (waiting for approval, or
 * refused by a cap). A new withdrawal that reserves money is `withdrawal_reserve`'s alone.
 */
export async function insertWithdrawal(
  trx: Transaction<Database>,
  values: Omit<NewTransaction, 'status' | 'provider_state'>,
  to: WithdrawalState,
): Promise<TransactionRow> {
  const step = withdrawalStep(undefined, to);
  if (step !== 'none') throw new Error(`a new withdrawal moving to ${to.status} is reserved by withdrawal_reserve, not inserted`);
  return insertTransaction(trx, { ...values, status: to.status, provider_state: to.providerState });
}
