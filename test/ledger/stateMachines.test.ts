/**
 * The state machines of withdrawals and charges, walked whole: every state pair is either a listed
 * transition (with its ledger step) or throws `IllegalTransition`, and every step takes the ledger from the
 * position the source state holds to the one the target state must hold (what the ledger check compares).
 */
import { describe, expect, it } from 'vitest';
import { CHARGE_STATUSES, chargeLedgerPosition, chargeStep, chargeTransitions } from '../../src/charges/charge.states.ts';
import { IllegalTransition } from '../../src/transactions/transaction.errors.ts';
import {
  CAP_COUNTED_STATUSES,
  FINAL_STATUSES,
  withdrawalLedgerPosition,
  withdrawalStates,
  withdrawalStep,
  withdrawalTransitions,
  type LedgerPosition,
  type LedgerStep,
  type WithdrawalState,
  type WithdrawalStatus,
} from '../../src/withdrawals/withdrawal.states.ts';

const parse = (state: string): WithdrawalState | undefined => {
  if (state === 'new/-') return undefined;
  const [status, provider] = state.split('/');
  return { status: status as WithdrawalStatus, providerState: provider === '-' ? null : (provider as 'sending' | 'sent') };
};

/** Where a ledger step leads from a position; the positions a step may end in. */
function after(position: LedgerPosition, step: LedgerStep): LedgerPosition[] {
  switch (step) {
    case 'reserve':
      return position === 'none' ? ['pending'] : [];
    case 'post':
      return position === 'pending' ? ['posted'] : [];
    case 'void':
      return position === 'pending' ? ['voided_or_none'] : [];
    case 'return':
      return position === 'posted' ? ['posted'] : [];
    case 'none':
      return position === 'none' ? ['none', 'voided_or_none'] : [position];
  }
}

describe('the withdrawal state machine', () => {
  const states = ['new/-', ...withdrawalStates()];
  const allowed = new Map(withdrawalTransitions().map((t) => [`${t.from} -> ${t.to}`, t.step]));

  it('allows exactly the transitions of its table and throws IllegalTransition for every other pair', () => {
    let legal = 0;
    for (const from of states) {
      for (const to of withdrawalStates()) {
        const step = allowed.get(`${from} -> ${to}`);
        const move = () => withdrawalStep(parse(from), parse(to)!);
        if (step === undefined) {
          expect(move, `${from} -> ${to}`).toThrow(IllegalTransition);
        } else {
          expect(move(), `${from} -> ${to}`).toBe(step);
          legal++;
        }
      }
    }
    expect(legal).toBe(allowed.size);
    expect(() => withdrawalStep(undefined, { status: 'paid', providerState: 'sent' })).toThrow('illegal withdrawal transition new/- -> paid/sent');
  });

  it('moves the ledger from the position of each source state to the one its target must hold', () => {
    for (const { from, to, step } of withdrawalTransitions()) {
      const source = from === 'new/-' ? 'none' : withdrawalLedgerPosition(parse(from)!);
      const target = withdrawalLedgerPosition(parse(to)!);
      expect(source, from).toBeDefined();
      expect(after(source!, step), `${from} -> ${to} (${step})`).toContain(target);
    }
  });

  it('ends failed_unknown only in paid or failed, and keeps its pending transfer until then', () => {
    const out = withdrawalTransitions().filter((t) => t.from === 'failed_unknown/sent');
    expect(out.map((t) => [t.to, t.step])).toEqual([
      ['paid/sent', 'post'],
      ['failed/sent', 'void'],
    ]);
    expect(withdrawalLedgerPosition({ status: 'failed_unknown', providerState: 'sent' })).toBe('pending');
  });

  it('has no way out of a final status, and the caps count every status that took or may take money', () => {
    const finals = withdrawalStates().filter((state) => (FINAL_STATUSES as readonly string[]).includes(parse(state)!.status));
    expect(finals).toEqual(['refunded/sent', 'failed/-', 'failed/sent', 'cancelled/-', 'aborted/-']);
    for (const state of finals) expect(withdrawalTransitions().filter((t) => t.from === state), state).toEqual([]);
    for (const state of withdrawalStates()) {
      const position = withdrawalLedgerPosition(parse(state)!);
      const status = parse(state)!.status;
      if (position === 'pending' || position === 'posted') expect(CAP_COUNTED_STATUSES, state).toContain(status);
    }
  });
});

describe('the charge state machine', () => {
  it('allows exactly the transitions of its table and throws IllegalTransition for every other pair', () => {
    const allowed = new Map(chargeTransitions().map((t) => [`${t.from} -> ${t.to}`, t.step]));
    for (const from of [undefined, ...CHARGE_STATUSES]) {
      for (const to of CHARGE_STATUSES) {
        const step = allowed.get(`${from ?? 'new'} -> ${to}`);
        if (step === undefined) expect(() => chargeStep(from, to), `${from} -> ${to}`).toThrow(IllegalTransition);
        else expect(chargeStep(from, to)).toBe(step);
      }
    }
  });

  it('credits once on payment, debits only what was credited, and holds nothing otherwise', () => {
    for (const { from, to, step } of chargeTransitions()) {
      const source = from === 'new' ? 'none' : chargeLedgerPosition(from);
      const target = chargeLedgerPosition(to);
      if (step === 'credit') expect([source, target], `${from} -> ${to}`).toEqual(['none', 'credited']);
      if (step === 'debit') expect([source, target], `${from} -> ${to}`).toEqual(['credited', 'credited']);
      if (step === 'none') expect(target, `${from} -> ${to}`).toBe(source);
    }
  });
});
