/** withdrawals:settle, withdrawals:reject-psp, withdrawals:return, reconcile (simulated PSP only). */
import { integer, optionalParty } from '../args.ts';
import { arg, defineCommand, optionalBody, required, type CommandInput } from '../command.ts';
import { segment } from '../http.ts';
import { renderReconcile, renderTransaction } from '../renderTransactions.ts';
import type {
  ReconcileResult,
  SandboxRejectWithdrawalRequest,
  SandboxReturnWithdrawalRequest,
  SandboxSettleWithdrawalRequest,
  Transaction,
} from '../types.ts';

const pspPath = (input: CommandInput, action: string) =>
  `/admin/v1/sandbox/withdrawals/${segment(arg(input, 0))}/${action}`;

export const settleWithdrawal = defineCommand<Transaction>({
  name: 'withdrawals:settle',
  summary: 'The simulated PSP settles a withdrawal it accepted: paid, emits transfer.paid.',
  args: ['transactionId'],
  options: [
    { name: 'beneficiary-name', value: '<text>', help: 'beneficiary name (with --beneficiary-document; default: the expected one)' },
    { name: 'beneficiary-document', value: '<cpf|cnpj>', help: "beneficiary's CPF or CNPJ, formatted or not" },
  ],
  request(input) {
    const beneficiary = optionalParty('beneficiary', input.options);
    const body: SandboxSettleWithdrawalRequest = beneficiary === undefined ? {} : { beneficiary };
    return { method: 'POST', path: pspPath(input, 'settle'), ...optionalBody(body) };
  },
  render: renderTransaction,
});

export const rejectWithdrawalAtPsp = defineCommand<Transaction>({
  name: 'withdrawals:reject-psp',
  summary: 'The simulated PSP refuses a withdrawal it accepted: failed, money returned, emits transfer.failed.',
  args: ['transactionId'],
  options: [
    { name: 'code', value: '<REFUSED_CODE>', required: true, help: 'refusedCode, e.g. PIX_KEY_NOT_FOUND' },
    { name: 'reason', value: '<text>', required: true, help: 'refusedReason the merchant sees, 1 to 300 characters' },
  ],
  request(input) {
    const body: SandboxRejectWithdrawalRequest = {
      refusedCode: required(input, 'code'),
      refusedReason: required(input, 'reason'),
    };
    return { method: 'POST', path: pspPath(input, 'reject'), body };
  },
  render: renderTransaction,
});

export const returnWithdrawal = defineCommand<Transaction>({
  name: 'withdrawals:return',
  summary: "The beneficiary's bank returns (part of) a paid withdrawal: credited, the fee is not.",
  args: ['transactionId'],
  options: [{ name: 'amount', value: '<N>', required: true, help: 'cents returned now' }],
  request(input) {
    const body: SandboxReturnWithdrawalRequest = { amountCents: integer('amount', required(input, 'amount')) };
    return { method: 'POST', path: pspPath(input, 'return'), body };
  },
  render: renderTransaction,
});

export const reconcile = defineCommand<ReconcileResult>({
  name: 'reconcile',
  summary: 'Run the withdrawal reconciliation job now (it also runs every few seconds).',
  args: [],
  options: [],
  request: () => ({ method: 'POST', path: '/admin/v1/sandbox/reconcile' }),
  render: renderReconcile,
});
