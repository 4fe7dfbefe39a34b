/**
 * charges:pay, charges:expire, charges:cancel, charges:fail, charges:refund, provider:queue, provider:clear
 * (simulated PSP only).
 */
import { integer, oneOf, optionalParty } from '../args.ts';
import { arg, defineCommand, required, type CommandInput } from '../command.ts';
import { segment } from '../http.ts';
import { renderProviderOutcomes, renderTransaction } from '../renderTransactions.ts';
import type {
  PayChargeRequest,
  ProviderOperation,
  ProviderOutcome,
  ProviderOutcomes,
  QueueProviderOutcomeRequest,
  SandboxRefundChargeRequest,
  Transaction,
} from '../types.ts';

const OPERATIONS: Readonly<Record<ProviderOperation, true>> = { registerCharge: true, sendWithdrawal: true, queryWithdrawal: true, sendRefund: true, queryRefund: true };
const OUTCOMES: Readonly<Record<ProviderOutcome, true>> = { succeed: true, fail: true, timeout: true, timeout_unsent: true, cut: true };

const chargePath = (input: CommandInput, action: string) =>
  `/admin/v1/sandbox/charges/${segment(arg(input, 0))}/${action}`;

function payBody(input: CommandInput): PayChargeRequest | undefined {
  const payer = optionalParty('payer', input.options);
  const endToEndId = input.options['end-to-end-id'];
  const body: PayChargeRequest = {};
  if (payer !== undefined) body.payer = payer;
  if (endToEndId !== undefined) body.endToEndId = endToEndId;
  return Object.keys(body).length === 0 ? undefined : body;
}

export const payCharge = defineCommand<Transaction>({
  name: 'charges:pay',
  summary: 'Pay a pending charge as the payer would (credits netCents, emits transaction.paid).',
  args: ['transactionId'],
  options: [
    { name: 'payer-name', value: '<text>', help: 'payer name (with --payer-document; default: the sandbox payer)' },
    { name: 'payer-document', value: '<cpf|cnpj>', help: "payer's CPF or CNPJ, formatted or not" },
    { name: 'end-to-end-id', value: '<E...>', help: 'end-to-end id of the payment (default: generated)' },
  ],
  request(input) {
    const body = payBody(input);
    return { method: 'POST', path: chargePath(input, 'pay'), ...(body === undefined ? {} : { body }) };
  },
  render: renderTransaction,
});

export const expireCharge = defineCommand<Transaction>({
  name: 'charges:expire',
  summary: 'Expire a pending charge now (emits transaction.expired).',
  args: ['transactionId'],
  options: [],
  request: (input) => ({ method: 'POST', path: chargePath(input, 'expire') }),
  render: renderTransaction,
});

export const cancelCharge = defineCommand<Transaction>({
  name: 'charges:cancel',
  summary: 'Cancel a pending charge (emits transaction.cancelled).',
  args: ['transactionId'],
  options: [],
  request: (input) => ({ method: 'POST', path: chargePath(input, 'cancel') }),
  render: renderTransaction,
});

export const failCharge = defineCommand<Transaction>({
  name: 'charges:fail',
  summary: 'The PSP could not complete a pending charge: failed (emits transaction.failed).',
  args: ['transactionId'],
  options: [],
  request: (input) => ({ method: 'POST', path: chargePath(input, 'fail') }),
  render: renderTransaction,
});

export const refundCharge = defineCommand<Transaction>({
  name: 'charges:refund',
  summary: 'The merchant returns (part of) a paid charge to the payer: debited, emits transaction.(partially_)refunded.',
  args: ['transactionId'],
  options: [{ name: 'amount', value: '<N>', required: true, help: 'cents returned now (>= 1; refunds add up to at most the amount)' }],
  request(input) {
    const body: SandboxRefundChargeRequest = { amountCents: integer('amount', required(input, 'amount')) };
    return { method: 'POST', path: chargePath(input, 'refund'), body };
  },
  render: renderTransaction,
});

export const queueOutcome = defineCommand<ProviderOutcomes>({
  name: 'provider:queue',
  summary: "Script the simulated PSP's next answers to an operation.",
  args: [],
  options: [
    { name: 'operation', value: '<registerCharge|sendWithdrawal|queryWithdrawal>', required: true, help: 'which PSP call' },
    {
      name: 'outcome',
      value: '<succeed|fail|timeout|timeout_unsent|cut>',
      required: true,
      help: 'how the PSP answers it (timeout: took the order; timeout_unsent: never got it; cut: took it, reply lost)',
    },
    { name: 'count', value: '<N>', help: 'for how many consecutive calls, 1 to 100 (default 1)' },
  ],
  request(input) {
    const count = input.options['count'];
    const body: QueueProviderOutcomeRequest = {
      operation: oneOf('operation', required(input, 'operation'), OPERATIONS),
      outcome: oneOf('outcome', required(input, 'outcome'), OUTCOMES),
      // The contract's default, sent explicitly so the body matches the generated type either way.
      count: count === undefined ? 1 : integer('count', count),
    };
    return { method: 'POST', path: '/admin/v1/sandbox/provider/outcomes', body };
  },
  render: renderProviderOutcomes,
});

export const clearOutcomes = defineCommand<ProviderOutcomes>({
  name: 'provider:clear',
  summary: "Clear the simulated PSP's queued answers (every call succeeds again).",
  args: [],
  options: [],
  request: () => ({ method: 'DELETE', path: '/admin/v1/sandbox/provider/outcomes' }),
  render: renderProviderOutcomes,
});
