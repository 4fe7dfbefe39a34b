/** holds:place, holds:list, holds:release, holds:chargeback. */
import { integer, oneOf } from '../args.ts';
import { arg, defineCommand, optionalBody, queryOf, required, type CommandInput } from '../command.ts';
import { segment } from '../http.ts';
import { renderHold, renderHoldList } from '../renderCompliance.ts';
import { renderTransaction } from '../renderTransactions.ts';
import type { ChargebackHoldRequest, Hold, HoldList, HoldReason, HoldStatus, PlaceHoldRequest, Transaction } from '../types.ts';

const HOLD_REASONS: Readonly<Record<HoldReason, true>> = { med: true, dispute: true, protest: true, administrative: true };
const HOLD_STATUSES: Readonly<Record<HoldStatus, true>> = { active: true, released: true };

const holdsPath = (input: CommandInput) => `/admin/v1/accounts/${segment(arg(input, 0))}/holds`;
const holdPath = (input: CommandInput, action: string) => `${holdsPath(input)}/${segment(arg(input, 1))}/${action}`;

export const placeHold = defineCommand<Hold>({
  name: 'holds:place',
  summary: "Hold part of an account's balance (on a paid charge: the merchant gets the reason's event).",
  args: ['accountId'],
  options: [
    { name: 'amount', value: '<N>', required: true, help: 'cents to hold (>= 1)' },
    { name: 'reason', value: '<med|dispute|protest|administrative>', required: true, help: 'why' },
    { name: 'transaction', value: '<transactionId>', help: 'the paid charge it is about (default: the balance as a whole)' },
    { name: 'note', value: '<text>', help: 'internal note, up to 200 characters' },
  ],
  request(input) {
    const body: PlaceHoldRequest = {
      amountCents: integer('amount', required(input, 'amount')),
      reason: oneOf('reason', required(input, 'reason'), HOLD_REASONS),
    };
    const transactionId = input.options['transaction'];
    const note = input.options['note'];
    if (transactionId !== undefined) body.transactionId = transactionId;
    if (note !== undefined) body.note = note;
    return { method: 'POST', path: holdsPath(input), body };
  },
  render: renderHold,
});

export const listHolds = defineCommand<HoldList>({
  name: 'holds:list',
  summary: "List an account's holds, newest first.",
  args: ['accountId'],
  options: [{ name: 'status', value: '<active|released>', help: 'only this status (default: all)' }],
  request(input) {
    const status = input.options['status'];
    return {
      method: 'GET',
      path: holdsPath(input),
      ...queryOf({ status: status === undefined ? undefined : oneOf('status', status, HOLD_STATUSES) }),
    };
  },
  render: renderHoldList,
});

export const releaseHold = defineCommand<Hold>({
  name: 'holds:release',
  summary: 'Release an active hold: its amount becomes withdrawable again.',
  args: ['accountId', 'holdId'],
  options: [],
  request: (input) => ({ method: 'POST', path: holdPath(input, 'release') }),
  render: renderHold,
});

export const chargebackHold = defineCommand<Transaction>({
  name: 'holds:chargeback',
  summary: "End a hold on a charge with a chargeback: debits the money, emits transaction.chargeback.",
  args: ['accountId', 'holdId'],
  options: [{ name: 'amount', value: '<N>', help: "cents to take back (default: the hold's amount; the rest is released)" }],
  request(input) {
    const amount = input.options['amount'];
    const body: ChargebackHoldRequest = amount === undefined ? {} : { amountCents: integer('amount', amount) };
    return { method: 'POST', path: holdPath(input, 'chargeback'), ...optionalBody(body) };
  },
  render: renderTransaction,
});
