/** Every command of the CLI, in the order `help` lists them. */
import type { Command } from '../command.ts';
import { createAccount, listAccounts, showAccount, updateAccount } from './accounts.ts';
import { createKey, listKeys, revokeKey } from './keys.ts';
import { balance, events } from './ledger.ts';
import { cancelCharge, clearOutcomes, expireCharge, payCharge, queueOutcome } from './sandbox.ts';

export const COMMANDS: readonly Command[] = [
  createAccount,
  listAccounts,
  showAccount,
  updateAccount,
  createKey,
  listKeys,
  revokeKey,
  balance,
  events,
  payCharge,
  expireCharge,
  cancelCharge,
  queueOutcome,
  clearOutcomes,
];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}
