/**
 * The statuses a row may hold, below the tables that type them (issue 34: the layers hold). The state
 * machines that move rows between them (`charges/charge.states.ts`, `withdrawals/withdrawal.states.ts`,
 * `refunds/refund.states.ts`) import and re-export these lists; the database's CHECK constraints and the
 * contract name the same values.
 */

export const CHARGE_STATUSES = ['pending', 'paid', 'partially_refunded', 'refunded', 'expired', 'cancelled', 'failed'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

export const WITHDRAWAL_STATUSES = [
  'initiating',
  'pending_approval',
  'processing',
  'failed_unknown',
  'paid',
  'partially_refunded',
  'refunded',
  'failed',
  'cancelled',
  'aborted',
] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** The internal states the merchant never sees: in flight before the first answer, or refused at once. */
export const HIDDEN_WITHDRAWAL_STATUSES = ['initiating', 'aborted'] as const satisfies readonly WithdrawalStatus[];

export const REFUND_STATUSES = ['initiating', 'processing', 'refunded', 'failed', 'aborted'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
