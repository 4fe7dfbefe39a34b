import type { TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { requireSandbox, type ProviderSandbox } from '../provider/sandbox.ts';
import { findTransactionById } from '../transactions/transaction.repository.ts';
import { ProviderActionRefused, WithdrawalNotFound } from './withdrawal.errors.ts';
import { syncWithdrawal } from './withdrawal.settlement.ts';
import { isHiddenWithdrawalStatus } from './withdrawal.states.ts';

/**
 * A sandbox action at the provider's sandbox (settle, refuse, return a withdrawal), then the withdrawal
 * reconciled with it at once, exactly as the reconciliation job would later.
 */
export async function applySandboxAction(
  deps: Deps,
  transactionId: string,
  change: (psp: ProviderSandbox) => Promise<boolean>,
): Promise<TransactionRow> {
  const psp = requireSandbox(deps);
  const row = await findTransactionById(deps.db, transactionId);
  if (!row || row.type !== 'withdrawal' || isHiddenWithdrawalStatus(row.status)) throw new WithdrawalNotFound();
  if (!(await change(psp))) throw new ProviderActionRefused(row.status);
  const synced = await syncWithdrawal(deps, transactionId);
  if (!synced) throw new WithdrawalNotFound();
  return synced;
}
