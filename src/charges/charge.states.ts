/**
 * The charge (PIX in) state machine: its statuses, the transitions allowed with the ledger step of each,
 * and what the ledger holds in each status. A charge moves only through its transitions (charge.machine.ts:
 * `moveCharge`, `giveBack`), which read each move's step here (`chargeStep` throws on a transition not in
 * the table) and book it with the status; the ledger check reads `chargeLedgerPosition`.
 *
 * Ledger steps: `credit` (paid: psp_settlement → the merchant's net amount and PixGate's fee), `debit`
 * (a refund or chargeback gives part of the amount back: available → psp_settlement), `none`.
 */
import { IllegalTransition } from '../transactions/transaction.errors.ts';

import { CHARGE_STATUSES, type ChargeStatus } from '../db/tables/statuses.ts';

export { CHARGE_STATUSES, type ChargeStatus };

export type ChargeLedgerStep = 'credit' | 'debit' | 'none';

/** Statuses in which part of a paid charge may still be given back (refund, chargeback) or held. */
export const RETURNABLE_CHARGE_STATUSES = ['paid', 'partially_refunded'] as const satisfies readonly ChargeStatus[];

/** `credited`: the net amount was credited (less what was given back since); `none`: nothing moved. */
export type ChargeLedgerPosition = 'none' | 'credited';

const TABLE: Record<ChargeStatus | 'new', { position: ChargeLedgerPosition; to: Partial<Record<ChargeStatus, ChargeLedgerStep>> }> = {
  new: { position: 'none', to: { pending: 'none' } },
  pending: { position: 'none', to: { paid: 'credit', expired: 'none', cancelled: 'none', failed: 'none' } },
  paid: { position: 'credited', to: { partially_refunded: 'debit', refunded: 'debit' } },
  partially_refunded: { position: 'credited', to: { partially_refunded: 'debit', refunded: 'debit' } },
  refunded: { position: 'credited', to: {} },
  expired: { position: 'none', to: {} },
  cancelled: { position: 'none', to: {} },
  failed: { position: 'none', to: {} },
};

/** The ledger step of moving a charge from `from` (undefined: new) to `to`; throws on an illegal move. */
export function chargeStep(from: string | undefined, to: ChargeStatus): ChargeLedgerStep {
  const source = from ?? 'new';
  const step = (TABLE as Record<string, (typeof TABLE)['new'] | undefined>)[source]?.to[to];
  if (step === undefined) throw new IllegalTransition('charge', source, to);
  return step;
}

export function chargeTransitions(): { from: string; to: ChargeStatus; step: ChargeLedgerStep }[] {
  return Object.entries(TABLE).flatMap(([from, row]) =>
    Object.entries(row.to).map(([to, step]) => ({ from, to: to as ChargeStatus, step: step as ChargeLedgerStep })),
  );
}

export function chargeLedgerPosition(status: string): ChargeLedgerPosition | undefined {
  return (TABLE as Record<string, (typeof TABLE)['new'] | undefined>)[status]?.position;
}

/**
 * A paid transaction after `refundedCents` of its `amountCents` were given back: a charge's refunds and
 * chargebacks, a withdrawal's returns (both machines name these two statuses alike).
 */
export function refundedStatus(refundedCents: number, amountCents: number): 'refunded' | 'partially_refunded' {
  return refundedCents >= amountCents ? 'refunded' : 'partially_refunded';
}

export function isReturnable(status: string): boolean {
  return (RETURNABLE_CHARGE_STATUSES as readonly string[]).includes(status);
}
