import type { Generated } from 'kysely';

/** Balances, their ledger entries, holds and rate-limit counters. */

export interface BalancesTable {
  account_id: string;
  available_cents: number;
  held_cents: number;
  /** Withdrawals being sent: reserved, not yet debited; not withdrawable. */
  reserved_cents: Generated<number>;
  updated_at: Date;
}

export type LedgerEntryKind =
  | 'charge_credit'
  | 'withdrawal_debit'
  | 'withdrawal_reversal'
  | 'refund_debit'
  | 'hold_placed'
  | 'hold_released'
  | 'withdrawal_reserved'
  | 'withdrawal_reservation_released'
  | 'withdrawal_returned'
  | 'chargeback_debit'
  | 'adjustment';

export interface LedgerEntriesTable {
  id: Generated<number>;
  account_id: string;
  transaction_id: string | null;
  hold_id: string | null;
  kind: LedgerEntryKind;
  /** Signed effect on available_cents. */
  amount_cents: number;
  /** Signed effect on held_cents. */
  held_delta_cents: number;
  /** Signed effect on reserved_cents. */
  reserved_delta_cents: Generated<number>;
  created_at: Date;
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
}

export interface RateLimitCountersTable {
  account_id: string;
  bucket: string;
  window_index: number;
  count: number;
  expires_at: Date;
}
