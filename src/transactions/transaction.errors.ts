import { DomainError } from '../platform/domainError.ts';

/** Unknown, internal, or another merchant's transaction: all answered the same, so existence is not leaked. */
export class TransactionNotFound extends DomainError {}

/**
 * A state change the transaction type's state machine does not allow (withdrawal.states.ts,
 * charge.states.ts). A bug, never a client's doing: it is not a DomainError, so it is answered as the
 * contract's generic 500 and logged, and its database transaction rolls back.
 */
export class IllegalTransition extends Error {
  constructor(type: 'withdrawal' | 'charge' | 'refund', from: string, to: string) {
    super(`illegal ${type} transition ${from} -> ${to}`);
    this.name = 'IllegalTransition';
  }
}

/** A page cursor this list did not issue (edited, truncated, or another list's). */
export class InvalidCursor extends DomainError {}

/** A period whose end (`createdTo`) is not after its start (`createdFrom`). */
export class EmptyCreatedRange extends DomainError {}
