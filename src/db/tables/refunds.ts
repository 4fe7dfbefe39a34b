import type { ColumnType } from 'kysely';
import type { RefundStatus } from './statuses.ts';

/** Refunds (devoluções) of paid charges, their externalRefs, and the simulated provider's record of them. */

export interface RefundsTable {
  id: string;
  account_id: string;
  /** The refunded charge. */
  transaction_id: string;
  amount_cents: number;
  status: RefundStatus;
  external_ref: string | null;
  description: string | null;
  provider_ref: string | null;
  refund_end_to_end_id: string | null;
  refused_code: string | null;
  refused_reason: string | null;
  next_check_at: Date | null;
  created_at: Date;
  updated_at: Date;
  refunded_at: Date | null;
  /** When the merchant was first told of it (201, or an idempotent 200): it never ends `aborted` after that. */
  acknowledged_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The pending transfer of its reservation (migration 025), written by the ledger step that makes it. */
  pending_transfer_id: ColumnType<string | null, never, never>;
}

export interface RefundIdempotencyKeysTable {
  account_id: string;
  external_ref: string;
  refund_id: string;
  expires_at: Date;
}

export type SimRefundState = 'accepted' | 'refunded' | 'rejected';

export interface SimPspRefundsTable {
  refund_id: string;
  end_to_end_id: string;
  amount_cents: number;
  description: string | null;
  state: SimRefundState;
  settle_at: Date | null;
  refund_end_to_end_id: string | null;
  refused_code: string | null;
  refused_reason: string | null;
  created_at: Date;
  updated_at: Date;
}
