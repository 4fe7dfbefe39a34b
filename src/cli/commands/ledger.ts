/** balance, events, ledger:check. */
import { integer, oneOf } from '../args.ts';
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

const CHECK_MODES = { incremental: true, full: true } as const;

export const ledgerCheck = defineCommand<LedgerCheck>({
  name: 'ledger:check',
  summary: "Check the whole ledger's consistency, every account at once.",
  args: [],
  options: [{ name: 'mode', value: '<incremental|full>', help: 'full re-verifies the whole history (default: what changed since the last clean check)' }],
  request(input) {
    const mode = input.options['mode'];
    const full = mode !== undefined && oneOf('mode', mode, CHECK_MODES) === 'full';
    return { method: 'GET', path: '/admin/v1/ledger/check', ...(full ? { query: { full: 'true' } } : {}) };
  },
  render: renderLedgerCheck,
});
