/** balance, events, ledger:check. */
import { integer } from '../args.ts';
import { arg, defineCommand, type CommandInput } from '../command.ts';
import { segment } from '../http.ts';
import { renderBalance, renderEvents, renderLedgerCheck } from '../render.ts';
import type { AccountBalance, AccountEventList, LedgerCheck } from '../types.ts';

const accountPath = (input: CommandInput) => `/admin/v1/accounts/${segment(arg(input, 0))}`;

export const balance = defineCommand<AccountBalance>({
  name: 'balance',
  summary: "Show an account's balance (available, held, reserved, withdrawable) and check its ledger.",
  args: ['accountId'],
  options: [],
  request: (input) => ({ method: 'GET', path: `${accountPath(input)}/balance` }),
  render: renderBalance,
});

export const events = defineCommand<AccountEventList>({
  name: 'events',
  summary: "List an account's most recent webhook events (outbox), newest first.",
  args: ['accountId'],
  options: [{ name: 'limit', value: '<N>', help: 'how many, 1 to 100 (default 50)' }],
  request(input) {
    const limit = input.options['limit'];
    return {
      method: 'GET',
      path: `${accountPath(input)}/events`,
      ...(limit === undefined ? {} : { query: { limit: String(integer('limit', limit)) } }),
    };
  },
  render: renderEvents,
});

export const ledgerCheck = defineCommand<LedgerCheck>({
  name: 'ledger:check',
  summary: "Check the whole ledger's consistency, every account at once.",
  args: [],
  options: [],
  request: () => ({ method: 'GET', path: '/admin/v1/ledger/check' }),
  render: renderLedgerCheck,
});
