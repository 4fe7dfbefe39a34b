/**
 * The withdrawal state machine, in one place: every state a withdrawal can be in (its status and where it is
 * at the PSP, `provider_state`), every transition allowed between them with the ledger step it takes, the
 * statuses the daily and monthly caps count, and which states are final. A withdrawal moves only through
 * its transition (withdrawal.machine.ts), which reads each move's ledger step here (`withdrawalStep` throws
 * on a transition not in the table) and books it with the state; the ledger check reads the positions.
 *
 * The ledger steps (two-phase, docs/decisions.md "The double-entry ledger"):
 * - `reserve`: the pending transfer available → pending_out of amount + fee (the money is no longer the
 *   merchant's to withdraw, and not gone either);
 * - `post`: the pending transfer completes: pending_out → psp_settlement (amount) and fee_revenue (fee);
 * - `void`: the pending transfer is cancelled: pending_out → available, nothing was paid;
 * - `return`: the beneficiary's bank gave (part of) a paid withdrawal back: psp_settlement → available;
 * - `none`: a change of status or of PSP progress that moves no money (`failed_unknown` keeps its pending
 *   transfer until the outcome is known).
 */
import { IllegalTransition } from '../transactions/transaction.errors.ts';

import { HIDDEN_WITHDRAWAL_STATUSES, WITHDRAWAL_STATUSES, type WithdrawalStatus } from '../db/tables/statuses.ts';

export { HIDDEN_WITHDRAWAL_STATUSES, WITHDRAWAL_STATUSES, type WithdrawalStatus };

/** Where the order is at the PSP: not sent (null), the call in flight (`sending`), taken (`sent`). */
export type ProviderState = 'sending' | 'sent' | null;

export interface WithdrawalState {
  status: WithdrawalStatus;
  providerState: ProviderState;
}

export type LedgerStep = 'reserve' | 'post' | 'void' | 'return' | 'none';

/**
 * Statuses whose amount the daily and monthly caps count: everything that took or may take money (in
 * flight, waiting for approval, paid, indeterminate, returned). Read by migration 009's trigger.
 */
export const CAP_COUNTED_STATUSES = [
  'initiating',
  'processing',
  'pending_approval',
  'paid',
  'failed_unknown',
  'refunded',
  'partially_refunded',
] as const satisfies readonly WithdrawalStatus[];

/** Open at the PSP: reconciliation asks about these until they end. */
export const OPEN_STATUSES = ['processing', 'failed_unknown'] as const satisfies readonly WithdrawalStatus[];

/** The indeterminate status: debited (its pending transfer stands), outcome unknown until the PSP says. */
export const UNKNOWN_STATUS = 'failed_unknown' satisfies WithdrawalStatus;

/** Statuses no PSP outcome changes any more. */
export const FINAL_STATUSES = ['failed', 'cancelled', 'aborted', 'refunded'] as const satisfies readonly WithdrawalStatus[];

/** The states the services move a withdrawal into, by name (the table below lists every move between them). */
export const WITHDRAWAL = {
  /** Reserved, its PSP call in flight, the merchant not told yet (internal: never listed or answered). */
  inFlight: { status: 'initiating', providerState: 'sending' },
  /** In flight and known to the merchant: approved by the back office, or announced to a retry. */
  announcedInFlight: { status: 'processing', providerState: 'sending' },
  /** Taken by the PSP, waiting for its settlement. */
  sent: { status: 'processing', providerState: 'sent' },
  /** The PSP's answer was lost: the money stays reserved until the PSP says what happened. */
  unknown: { status: 'failed_unknown', providerState: 'sent' },
  awaitingApproval: { status: 'pending_approval', providerState: null },
  /** Refused by the PSP before the merchant was told: rolled back as if never requested, invisible. */
  aborted: { status: 'aborted', providerState: null },
  failed: { status: 'failed', providerState: null },
  cancelled: { status: 'cancelled', providerState: null },
} as const satisfies Record<string, WithdrawalState>;

/** The statuses of a paid withdrawal and of one (partly) returned by the beneficiary's bank. */
export const PAID_STATUS = 'paid' satisfies WithdrawalStatus;
export const RETURNABLE_WITHDRAWAL_STATUSES = ['paid', 'partially_refunded'] as const satisfies readonly WithdrawalStatus[];

const key = (state: WithdrawalState) => `${state.status}/${state.providerState ?? '-'}`;

/** What the ledger holds for a withdrawal in each state (what the ledger check compares). */
export type LedgerPosition = 'none' | 'pending' | 'posted' | 'voided_or_none';

interface StateRow {
  position: LedgerPosition;
  to: Partial<Record<string, LedgerStep>>;
}

/** `status/provider_state` → the states it may move to, with the ledger step of each move. */
const TABLE: Record<string, StateRow> = {
  // A new withdrawal: reserved and in flight, waiting for approval, or refused by a cap.
  'new/-': { position: 'none', to: { 'initiating/sending': 'reserve', 'pending_approval/-': 'none', 'failed/-': 'none' } },
  'initiating/sending': {
    position: 'pending',
    to: {
      'processing/sent': 'none',
      'failed_unknown/sent': 'none',
      'aborted/-': 'void',
      // The provider refused the order itself before accepting it (a 4xx: the key's owner, risk analysis):
      // recorded and announced as failed, as a cap's refusal is; the reservation is voided.
      'failed/-': 'void',
      // A retry found it in flight and announced it to the merchant (transfer.created).
      'processing/sending': 'none',
    },
  },
  'pending_approval/-': {
    position: 'none',
    to: { 'processing/sending': 'reserve', 'failed/-': 'none', 'cancelled/-': 'none' },
  },
  'processing/sending': {
    position: 'pending',
    to: { 'processing/sent': 'none', 'failed_unknown/sent': 'none', 'failed/-': 'void' },
  },
  'processing/sent': {
    position: 'pending',
    to: { 'paid/sent': 'post', 'failed/sent': 'void' },
  },
  'failed_unknown/sent': {
    position: 'pending',
    // The contract: `failed_unknown` ends in `paid` or `failed` only.
    to: { 'paid/sent': 'post', 'failed/sent': 'void' },
  },
  'paid/sent': { position: 'posted', to: { 'partially_refunded/sent': 'return', 'refunded/sent': 'return' } },
  'partially_refunded/sent': { position: 'posted', to: { 'partially_refunded/sent': 'return', 'refunded/sent': 'return' } },
  'refunded/sent': { position: 'posted', to: {} },
  'failed/-': { position: 'voided_or_none', to: {} },
  'failed/sent': { position: 'voided_or_none', to: {} },
  'cancelled/-': { position: 'none', to: {} },
  'aborted/-': { position: 'voided_or_none', to: {} },
};

/** Every state of the table with the moves out of it (for tests and documentation). */
export function withdrawalTransitions(): { from: string; to: string; step: LedgerStep }[] {
  return Object.entries(TABLE).flatMap(([from, row]) =>
    Object.entries(row.to).map(([to, step]) => ({ from, to, step: step as LedgerStep })),
  );
}

/** Every state a stored withdrawal can be in, as `status/provider_state`. */
export function withdrawalStates(): string[] {
  return Object.keys(TABLE).filter((state) => state !== 'new/-');
}

/**
 * The ledger step of moving a withdrawal from `from` (undefined: it does not exist yet) to `to`; throws
 * `IllegalTransition` for a move the table does not allow.
 */
export function withdrawalStep(from: WithdrawalState | undefined, to: WithdrawalState): LedgerStep {
  const source = from === undefined ? 'new/-' : key(from);
  const step = TABLE[source]?.to[key(to)];
  if (step === undefined) throw new IllegalTransition('withdrawal', source, key(to));
  return step;
}

/** What the ledger must hold for a withdrawal in this state; undefined for a state not in the table. */
export function withdrawalLedgerPosition(state: WithdrawalState): LedgerPosition | undefined {
  return TABLE[key(state)]?.position;
}

export function isOpenAtProvider(status: string): boolean {
  return (OPEN_STATUSES as readonly string[]).includes(status);
}

export function isHiddenWithdrawalStatus<S extends string>(status: S): status is Extract<S, (typeof HIDDEN_WITHDRAWAL_STATUSES)[number]> {
  return (HIDDEN_WITHDRAWAL_STATUSES as readonly string[]).includes(status);
}

/** The state of a stored row (its status and provider_state columns). */
export function stateOf(row: { status: string; provider_state: ProviderState }): WithdrawalState {
  return { status: row.status as WithdrawalStatus, providerState: row.provider_state };
}
