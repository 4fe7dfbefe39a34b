/** Every command of the CLI, by section, in the order `help` lists them. */
import type { Command } from '../command.ts';
import { createAccount, listAccounts, showAccount, updateAccount } from './accounts.ts';
import {
  defendInfraction,
  followInfractions,
  listBreaks,
  listInfractions,
  listReconciliationRuns,
  resolveBreak,
  runReconciliation,
} from './books.ts';
import { chargebackHold, listHolds, placeHold, releaseHold } from './holds.ts';
import { createKey, listKeys, revokeKey } from './keys.ts';
import { balance, events, ledgerCheck } from './ledger.ts';
import { reconcile, rejectWithdrawalAtPsp, returnWithdrawal, settleWithdrawal } from './psp.ts';
import { approveRecipient, deactivateRecipient, listRecipients, rejectRecipient } from './recipients.ts';
import { cancelCharge, clearOutcomes, expireCharge, failCharge, payCharge, queueOutcome, refundCharge } from './sandbox.ts';
import {
  createWebhook,
  deleteWebhook,
  dispatchWebhooks,
  listAttempts,
  listWebhooks,
  resendEvent,
  rotateWebhook,
  updateWebhook,
} from './webhooks.ts';
import { approveWithdrawal, cancelWithdrawal, listAlerts, listWithdrawals, rejectWithdrawal } from './withdrawals.ts';

export interface CommandSection {
  title: string;
  commands: readonly Command[];
}

export const SECTIONS: readonly CommandSection[] = [
  { title: 'Accounts', commands: [createAccount, listAccounts, showAccount, updateAccount] },
  { title: 'API keys', commands: [createKey, listKeys, revokeKey] },
  { title: 'Balance, events and ledger', commands: [balance, events, ledgerCheck] },
  {
    title: 'Webhooks (URLs, delivery history, resends)',
    commands: [createWebhook, listWebhooks, updateWebhook, deleteWebhook, rotateWebhook, listAttempts, resendEvent, dispatchWebhooks],
  },
  { title: 'Recipients (compliance review)', commands: [listRecipients, approveRecipient, rejectRecipient, deactivateRecipient] },
  {
    title: 'Withdrawals (approval queue and alerts)',
    commands: [listWithdrawals, approveWithdrawal, rejectWithdrawal, cancelWithdrawal, listAlerts],
  },
  { title: 'Holds', commands: [placeHold, listHolds, releaseHold, chargebackHold] },
  { title: 'MED infractions', commands: [listInfractions, followInfractions, defendInfraction] },
  {
    title: 'Reconciliation with the provider',
    commands: [runReconciliation, listReconciliationRuns, listBreaks, resolveBreak],
  },
  {
    title: 'Sandbox (simulated PSP only)',
    commands: [
      payCharge,
      expireCharge,
      cancelCharge,
      failCharge,
      refundCharge,
      settleWithdrawal,
      rejectWithdrawalAtPsp,
      returnWithdrawal,
      reconcile,
      queueOutcome,
      clearOutcomes,
    ],
  },
];

export const COMMANDS: readonly Command[] = SECTIONS.flatMap((section) => section.commands);

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}
