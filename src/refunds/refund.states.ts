/**
 * The refund (devolução) state machine: its statuses, the transitions allowed with the ledger step of each,
 * and what the ledger holds in each status. A refund moves only through its transitions (refund.machine.ts:
 * `startRefund`, `moveRefund`), which read each move's step here (`refundStep` throws on a transition not
 * in the table) and book it with the status; the ledger check reads `refundLedgerPosition`.
 *
 * Ledger steps: `reserve` (accepted here: a pending transfer available → pending_out of the amount, within
 * the holds), `post` (the payer's bank confirmed: pending_out → psp_settlement), `void` (refused or never
 * sent: pending_out → available), `none`.
 *
 * - `initiating` (internal): reserved, the provider being asked. Never shown: the merchant is answered once
 *   the provider has (or a crash leaves it to reconciliation, which asks the provider).
 * - `processing`: the provider took it (or its answer was lost: reconciliation asks it).
 * - `refunded` / `failed`: final. `aborted` (internal): the provider refused it at once; answered 502,
 *   nothing debited, never shown.
 */
import { IllegalTransition } from '../transactions/transaction.errors.ts';

import { REFUND_STATUSES, type RefundStatus } from '../db/tables/statuses.ts';

export { REFUND_STATUSES, type RefundStatus };

/** Statuses the merchant never sees. */
export const HIDDEN_REFUND_STATUSES = ['initiating', 'aborted'] as const satisfies readonly RefundStatus[];
export type VisibleRefundStatus = Exclude<RefundStatus, (typeof HIDDEN_REFUND_STATUSES)[number]>;

/** Statuses whose amount is reserved (pending transfer open): they count against what is still refundable. */
export const IN_FLIGHT_REFUND_STATUSES = ['initiating', 'processing'] as const satisfies readonly RefundStatus[];

export type RefundLedgerStep = 'reserve' | 'post' | 'void' | 'none';
/** `pending`: one open pending transfer of the amount; `posted`; `voided`. */
export type RefundLedgerPosition = 'pending' | 'posted' | 'voided';

const TABLE: Record<RefundStatus | 'new', { position: RefundLedgerPosition | 'none'; to: Partial<Record<RefundStatus, RefundLedgerStep>> }> = {
  new: { position: 'none', to: { initiating: 'reserve' } },
  initiating: { position: 'pending', to: { processing: 'none', refunded: 'post', failed: 'void', aborted: 'void' } },
  processing: { position: 'pending', to: { refunded: 'post', failed: 'void' } },
  refunded: { position: 'posted', to: {} },
  failed: { position: 'voided', to: {} },
  aborted: { position: 'voided', to: {} },
};

/** The ledger step of moving a refund from `from` (undefined: new) to `to`; throws on an illegal move. */
export function refundStep(from: RefundStatus | undefined, to: RefundStatus): RefundLedgerStep {
  const source = from ?? 'new';
  const step = TABLE[source].to[to];
  if (step === undefined) throw new IllegalTransition('refund', source, to);
  return step;
}

export function refundTransitions(): { from: string; to: RefundStatus; step: RefundLedgerStep }[] {
  return Object.entries(TABLE).flatMap(([from, row]) =>
    Object.entries(row.to).map(([to, step]) => ({ from, to: to as RefundStatus, step: step as RefundLedgerStep })),
  );
}

export function refundLedgerPosition(status: string): RefundLedgerPosition | undefined {
  const row = (TABLE as Record<string, (typeof TABLE)['new'] | undefined>)[status];
  return row === undefined || row.position === 'none' ? undefined : row.position;
}

export function isHiddenRefundStatus(status: RefundStatus): status is (typeof HIDDEN_REFUND_STATUSES)[number] {
  return (HIDDEN_REFUND_STATUSES as readonly string[]).includes(status);
}

export function isInFlightRefund(status: RefundStatus): boolean {
  return (IN_FLIGHT_REFUND_STATUSES as readonly string[]).includes(status);
}
