/**
 * The sandbox's "a payer pays this charge", whichever provider runs: the simulation applies the payment
 * directly (it has no payer end); the fake provider is paid by its own payer end and the Pix comes back
 * the way a real provider's does, through its read, applied by the same code as a callback
 * (applyReceivedPix). The charge is checked first, so the provider never receives money PixGate refuses.
 */
import type { PartyJson, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { requireSandbox } from '../provider/sandbox.ts';
import { findTransactionById } from '../transactions/transaction.repository.ts';
import { ChargeInWrongStatus, ChargeNotFound } from './charge.errors.ts';
import { payCharge } from './charge.sandbox.ts';
import { applyReceivedPix } from './receivedPix.service.ts';

export async function sandboxPayCharge(
  deps: Deps,
  transactionId: string,
  input: { payer?: PartyJson | undefined; endToEndId?: string | undefined },
): Promise<TransactionRow> {
  const sandbox = requireSandbox(deps);
  if (sandbox.kind === 'simulated') return payCharge(deps, transactionId, input);
  const charge = await findTransactionById(deps.db, transactionId);
  if (!charge || charge.type !== 'pix_in') throw new ChargeNotFound();
  if (charge.status !== 'pending') throw new ChargeInWrongStatus('pay', charge.status);
  if (charge.expires_at && charge.expires_at.getTime() <= deps.clock.now()) throw new ChargeInWrongStatus('pay', 'expired');
  const endToEndId = await sandbox.payAtProvider({ providerRef: charge.provider_ref ?? '', amountCents: charge.amount_cents, payer: input.payer });
  if (endToEndId === undefined) throw new ChargeInWrongStatus('pay', charge.status);
  const pix = await deps.provider.readReceivedPix(endToEndId);
  if (!pix) throw new Error(`the provider does not know the Pix ${endToEndId} it just received`);
  const applied = await applyReceivedPix(deps, pix);
  if (applied.outcome === 'unmatched') throw new ChargeInWrongStatus('pay', applied.charge?.status ?? charge.status);
  return applied.charge;
}

/**
 * Removes a pending charge at a real provider before it ends here (API Pix keeps an expired cob `ATIVA`, so
 * it could be paid late). Answers whether the charge may end: false when the provider had it paid already,
 * in which case that payment is credited instead (the Pix arrived first, its callback not yet). Throws when
 * the provider could not be asked. The expiry job and the sandbox's expire and cancel share it.
 */
export async function removeAtProvider(deps: Deps, charge: Pick<TransactionRow, 'id' | 'provider_ref'>): Promise<boolean> {
  if (deps.provider.name === 'simulated' || charge.provider_ref === null) return true;
  const removed = await deps.provider.removeCharge({ transactionId: charge.id, providerRef: charge.provider_ref });
  if (removed.state !== 'paid') return true;
  for (const endToEndId of removed.endToEndIds) {
    const pix = await deps.provider.readReceivedPix(endToEndId);
    if (pix) await applyReceivedPix(deps, pix);
  }
  return false;
}

/** The sandbox's expiry or cancellation: removed at a real provider first (a charge found paid there is credited, and then cannot end). */
export async function removeAtProviderFirst(deps: Deps, transactionId: string): Promise<void> {
  if (deps.provider.name === 'simulated') return;
  const charge = await findTransactionById(deps.db, transactionId);
  if (!charge || charge.type !== 'pix_in' || charge.status !== 'pending') return;
  await removeAtProvider(deps, charge);
}
