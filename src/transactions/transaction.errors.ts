import { DomainError } from '../platform/domainError.ts';

/** Unknown, internal, or another merchant's transaction: all answered the same, so existence is not leaked. */
export class TransactionNotFound extends DomainError {}
