import type { ColumnType, Generated } from 'kysely';

/** The double-entry ledger, holds and rate-limit counters. */

/** What an account of the ledger is for (migration 009). */
export type LedgerAccountKind = 'available' | 'held' | 'pending_out' | 'psp_settlement' | 'fee_revenue' | 'holds_contra' | 'suspense';

/**
 * An account of the double-entry ledger: a merchant's (`<accountId>:available|held|pending_out`, never below
 * zero) or the system's (`system:<kind>`). Balances are credit-positive and all of them sum to zero.
 */
export interface LedgerAccountsTable {
  id: string;
  owner_id: string | null;
  kind: LedgerAccountKind;
  non_negative: boolean;
  balance_cents: Generated<number>;
  /** How many entries the account has: its last entry's `account_version`. */
  version: Generated<number>;
  created_at: Date;
  /**
   * A system account's buckets (migration 024): the system account they make up (`system:<kind>`), and which
   * bucket this row is (0: the account itself). Null for a merchant's accounts.
   */
  system_account: Generated<string | null>;
  bucket: Generated<number | null>;
}

/** Why money moved. */
export type TransferReason =
  | 'charge_paid'
  | 'charge_refunded'
  | 'chargeback'
  | 'withdrawal_reserved'
  | 'withdrawal_posted'
  | 'withdrawal_voided'
  | 'withdrawal_returned'
  | 'refund_reserved'
  | 'refund_posted'
  | 'refund_voided'
  | 'hold_placed'
  | 'hold_released'
  | 'correction'
  | 'migration_difference'
  /** A refund the provider confirmed past what its charge could still give back: PixGate's loss, in suspense. */
  | 'refund_beyond_charge'
  /** A reconciliation break's suspense money settled: written off by PixGate or charged to the merchant. */
  | 'suspense_settled'
  /** A difference between the provider's balance and the ledger, booked by an operator (a provider's fee). */
  | 'provider_adjustment';

/** An immutable transfer: two or more entries summing to zero; pending ones are completed by one post or void. */
export interface LedgerTransfersTable {
  id: Generated<number>;
  reason: TransferReason;
  transaction_id: string | null;
  hold_id: string | null;
  /** The refund this transfer reserves, posts or voids (its charge is `transaction_id`). */
  refund_id: Generated<string | null>;
  pending: boolean;
  /** The pending transfer this one posts or voids. */
  pending_id: number | null;
  created_at: Date;
}

/** An immutable entry: one account's share of a transfer, with the balance and version it left. */
export interface LedgerEntriesTable {
  id: Generated<number>;
  transfer_id: number;
  account_id: string;
  amount_cents: number;
  balance_after_cents: number;
  account_version: number;
  created_at: Date;
}

/** How far the incremental ledger check has verified an account. */
export interface LedgerCheckpointsTable {
  account_id: string;
  version: number;
  balance_cents: number;
}

export interface LedgerCheckRunsTable {
  id: Generated<number>;
  started_at: Date;
  /** The xmin of the check's snapshot (xid8): every change it could not see was made by a transaction at or above it. */
  snapshot_xmin: string | null;
}

export type HoldReason = 'med' | 'dispute' | 'protest' | 'administrative';

export interface HoldsTable {
  id: string;
  account_id: string;
  transaction_id: string | null;
  amount_cents: number;
  reason: HoldReason;
  note: string | null;
  status: 'active' | 'released';
  created_at: Date;
  released_at: Date | null;
  /** A MED hold: the provider's infraction it blocks money for, and that infraction's deadline. */
  infraction_id: ColumnType<string | null, string | null | undefined, string | null>;
  deadline_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface RateLimitCountersTable {
  account_id: string;
  bucket: string;
  window_index: number;
  count: number;
  expires_at: Date;
}
