import { endCharge, failCharge } from '../charges/charge.sandbox.ts';
import { removeAtProviderFirst, sandboxPayCharge } from '../charges/charge.sandboxPayment.ts';
import type { PartyJson, TransactionRow } from '../db/schema.ts';
import { messages } from '../messages/merchant.ts';
import type { Deps } from '../platform/deps.ts';
import { TransactionNotFound } from '../transactions/transaction.errors.ts';
import { getAccountTransaction } from '../transactions/transaction.service.ts';
import { applySandboxAction } from '../withdrawals/withdrawal.sandbox.ts';
import { payStaticQrCodeInSandbox, type SandboxStaticQrCodePay } from '../staticQrCodes/staticQrCode.sandboxPay.ts';
import { SandboxUnavailable } from './dashboard.errors.ts';

/**
 * Sandbox actions of the dashboard, outside production only, on the account's own transactions: what the
 * simulated PSP would report, so a merchant sees the webhooks arrive without real money. They go through
 * the same services as the back office's sandbox.
 */
export function sandboxAvailable(deps: Pick<Deps, 'config' | 'sandbox'>): boolean {
  return deps.config.nodeEnv !== 'production' && deps.sandbox !== undefined;
}

function requireSandbox(deps: Pick<Deps, 'config' | 'sandbox'>): void {
  if (!sandboxAvailable(deps)) throw new SandboxUnavailable();
}

async function ownTransaction(deps: Deps, accountId: string, transactionId: string, type: TransactionRow['type']): Promise<TransactionRow> {
  const row = await getAccountTransaction(deps, accountId, transactionId);
  if (row.type !== type) throw new TransactionNotFound();
  return row;
}

export async function sandboxCharge(deps: Deps, accountId: string, transactionId: string, action: 'pay' | 'expire' | 'cancel' | 'fail'): Promise<TransactionRow> {
  requireSandbox(deps);
  const charge = await ownTransaction(deps, accountId, transactionId, 'pix_in');
  switch (action) {
    case 'pay':
      return sandboxPayCharge(deps, charge.id, {});
    case 'expire':
      await removeAtProviderFirst(deps, charge.id);
      return endCharge(deps, charge.id, 'expired');
    case 'cancel':
      await removeAtProviderFirst(deps, charge.id);
      return endCharge(deps, charge.id, 'cancelled');
    case 'fail':
      return failCharge(deps, charge.id);
  }
}

export async function sandboxWithdrawal(deps: Deps, accountId: string, transactionId: string, action: 'settle' | 'reject'): Promise<TransactionRow> {
  requireSandbox(deps);
  const withdrawal = await ownTransaction(deps, accountId, transactionId, 'withdrawal');
  return applySandboxAction(deps, withdrawal.id, (psp) =>
    action === 'settle' ? psp.settle(withdrawal.id) : psp.reject(withdrawal.id, 'PROVIDER_REJECTED', messages.sandboxRejectedReason),
  );
}

/**
 * "Simular pagamento" of one of the account's own static QR codes (another account's: 404 as unknown): a
 * payer's bank sends a Pix naming it, applied as a real one. Its outcome is the answer, unmatched included
 * (another amount on a fixed code, a deactivated code): the sandbox shows what a real payer would get.
 */
export async function sandboxStaticQrCodePayment(
  deps: Deps,
  accountId: string,
  staticQrCodeId: string,
  input: { amountCents?: number | undefined; payer?: PartyJson | undefined },
): Promise<SandboxStaticQrCodePay['answer']> {
  requireSandbox(deps);
  return (await payStaticQrCodeInSandbox(deps, staticQrCodeId, input, accountId)).answer;
}

/** The development mail outbox: outside production, and only while no SMTP server is configured. */
export function outboxAvailable(deps: Pick<Deps, 'config'>): boolean {
  return deps.config.nodeEnv !== 'production' && !deps.config.smtpUrl;
}
