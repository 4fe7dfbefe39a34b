/** withdrawals:list, withdrawals:approve, withdrawals:reject, withdrawals:cancel, alerts:list. */
import { integer, oneOf } from '../args.ts';
import { arg, defineCommand, optionalBody, queryOf, type CommandInput } from '../command.ts';
import { segment } from '../http.ts';
import { renderAlertList, renderTransaction, renderWithdrawalList } from '../renderTransactions.ts';
import type { AdminWithdrawalList, Transaction, TransactionStatus, WithdrawalAlertList, WithdrawalReasonRequest } from '../types.ts';

const TRANSACTION_STATUSES: Readonly<Record<TransactionStatus, true>> = {
  pending: true,
  processing: true,
  pending_approval: true,
  paid: true,
  failed: true,
  failed_unknown: true,
  cancelled: true,
  expired: true,
  refunded: true,
  partially_refunded: true,
};

const ACCOUNT_OPTION = { name: 'account', value: '<accountId>', help: "only this account's" };
const LIMIT_OPTION = { name: 'limit', value: '<N>', help: 'how many, newest first, 1 to 100 (default 50)' };
const REASON_OPTION = {
  name: 'reason',
  value: '<text>',
  help: "refusedReason the MERCHANT sees, up to 300 characters (default: the service's standard text)",
};

const withdrawalPath = (input: CommandInput, action: string) => `/admin/v1/withdrawals/${segment(arg(input, 0))}/${action}`;
const limitOf = (input: CommandInput) => {
  const raw = input.options['limit'];
  return raw === undefined ? undefined : String(integer('limit', raw));
};

function reasonBody(input: CommandInput): WithdrawalReasonRequest {
  const reason = input.options['reason'];
  return reason === undefined ? {} : { reason };
}

export const listWithdrawals = defineCommand<AdminWithdrawalList>({
  name: 'withdrawals:list',
  summary: 'List withdrawals of every account, newest first (the approval queue with --status pending_approval).',
  args: [],
  options: [{ name: 'status', value: '<status>', help: 'only this status, e.g. pending_approval, failed_unknown' }, ACCOUNT_OPTION, LIMIT_OPTION],
  request(input) {
    const status = input.options['status'];
    return {
      method: 'GET',
      path: '/admin/v1/withdrawals',
      ...queryOf({
        status: status === undefined ? undefined : oneOf('status', status, TRANSACTION_STATUSES),
        accountId: input.options['account'],
        limit: limitOf(input),
      }),
    };
  },
  render: renderWithdrawalList,
});

export const approveWithdrawal = defineCommand<Transaction>({
  name: 'withdrawals:approve',
  summary: 'Approve a withdrawal pending approval: debits it and sends it to the PSP (read the status).',
  args: ['transactionId'],
  options: [],
  request: (input) => ({ method: 'POST', path: withdrawalPath(input, 'approve') }),
  render: renderTransaction,
});

export const rejectWithdrawal = defineCommand<Transaction>({
  name: 'withdrawals:reject',
  summary: 'Reject a withdrawal pending approval (failed, REJECTED_BY_COMPLIANCE; never debited).',
  args: ['transactionId'],
  options: [REASON_OPTION],
  request: (input) => ({ method: 'POST', path: withdrawalPath(input, 'reject'), ...optionalBody(reasonBody(input)) }),
  render: renderTransaction,
});

export const cancelWithdrawal = defineCommand<Transaction>({
  name: 'withdrawals:cancel',
  summary: 'Cancel a withdrawal pending approval (cancelled, CANCELLED_BY_REQUEST; never debited).',
  args: ['transactionId'],
  options: [REASON_OPTION],
  request: (input) => ({ method: 'POST', path: withdrawalPath(input, 'cancel'), ...optionalBody(reasonBody(input)) }),
  render: renderTransaction,
});

export const listAlerts = defineCommand<WithdrawalAlertList>({
  name: 'alerts:list',
  summary: 'List the alerts raised by third-party withdrawals, newest first.',
  args: [],
  options: [ACCOUNT_OPTION, LIMIT_OPTION],
  request: (input) => ({
    method: 'GET',
    path: '/admin/v1/withdrawal-alerts',
    ...queryOf({ accountId: input.options['account'], limit: limitOf(input) }),
  }),
  render: renderAlertList,
});
