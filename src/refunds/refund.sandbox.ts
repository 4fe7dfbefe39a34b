import type { TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { requireSandbox, type ProviderSandbox } from '../provider/sandbox.ts';
import { findTransactionById } from '../transactions/transaction.repository.ts';
import { RefundActionRefused, RefundNotFound } from './refund.errors.ts';
import { findRefund } from './refund.repository.ts';
import { syncRefund } from './refund.service.ts';

/**
 * A sandbox action at the simulated PSP on a refund (confirm or refuse it), then the refund reconciled
 * with it at once, exactly as the reconciliation job would a moment later. Answers the charge.
 */
export async function applyRefundSandboxAction(
  deps: Deps,
  refundId: string,
  change: (psp: ProviderSandbox) => Promise<boolean>,
): Promise<TransactionRow> {
  const psp = requireSandbox(deps);
  const refund = await findRefund(deps.db, refundId);
  if (!refund || refund.status === 'aborted') throw new RefundNotFound();
  if (!(await change(psp))) throw new RefundActionRefused(refund.status);
  await syncRefund(deps, refundId);
  const charge = await findTransactionById(deps.db, refund.transaction_id);
  if (!charge) throw new RefundNotFound();
  return charge;
}

/** The charge a refund belongs to (the audit log's target of a refund's sandbox action). */
export async function chargeOfRefund(deps: Pick<Deps, 'db'>, refundId: string): Promise<string | undefined> {
  return (await findRefund(deps.db, refundId))?.transaction_id;
}
