/**
 * The sandbox's "a payer pays this charge", whichever provider runs: the provider's payer end pays it (the
 * simulation records the Pix, the fake provider receives it), and the Pix comes back the way a real
 * provider's does, through its read, applied by the same code as a callback (applyReceivedPix). The charge
 * is checked first, so the provider never receives money PixGate refuses.
 */
import type { PartyJson, TransactionRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import type { ChargeKind } from '../provider/port.ts';
import { requireSandbox } from '../provider/sandbox.ts';
import { findTransactionById } from '../transactions/transaction.repository.ts';
import { ChargeInWrongStatus, ChargeNotFound } from './charge.errors.ts';
import { sandboxAmountDue } from './dueCharge.service.ts';
import { applyReceivedPix } from './receivedPix.service.ts';

/**
 * Which of the provider's charges a charge is: a charge with a due date is its `cobv`, any other its `cob`
 * (a static QR code's payments have no charge of their own at the provider).
 */
export function providerKindOf(charge: Pick<TransactionRow, 'charge_kind'>): ChargeKind {
  return charge.charge_kind === 'due' ? 'due' : 'immediate';
}

/** How long a refused sandbox payment waits for the concurrent payment that took the charge to be credited. */
const CONCURRENT_PAYMENT_WAIT_MS = 5_000;

/** The charge's status once a concurrent payment of it is credited (pending while it is not, until the wait ends). */
async function statusOncePaid(deps: Deps, transactionId: string): Promise<string> {
  const deadline = Date.now() + CONCURRENT_PAYMENT_WAIT_MS;
  for (;;) {
    const charge = await findTransactionById(deps.db, transactionId);
    if (!charge || charge.status !== 'pending' || Date.now() >= deadline) return charge?.status ?? 'pending';
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function sandboxPayCharge(
  deps: Deps,
  transactionId: string,
  input: { payer?: PartyJson | undefined; endToEndId?: string | undefined },
): Promise<TransactionRow> {
  const sandbox = requireSandbox(deps);
  const charge = await findTransactionById(deps.db, transactionId);
  if (!charge || charge.type !== 'pix_in') throw new ChargeNotFound();
  if (charge.status !== 'pending') throw new ChargeInWrongStatus('pay', charge.status);
  if (charge.expires_at && charge.expires_at.getTime() <= deps.clock.now()) throw new ChargeInWrongStatus('pay', 'expired');
  // A charge with a due date is paid the amount due today (fine and interest on a late day), as a payer's bank would.
  const kind = providerKindOf(charge);
  const amountCents = kind === 'due' ? await sandboxAmountDue(deps, charge.id) : charge.amount_cents;
  if (amountCents === undefined) throw new ChargeInWrongStatus('pay', 'expired');
  const endToEndId = await sandbox.payAtProvider({
    providerRef: charge.provider_ref ?? '',
    amountCents,
    payer: input.payer,
    endToEndId: input.endToEndId,
    kind,
  });
  if (endToEndId === undefined) {
    // The provider took no payment: another one paid the charge first (it is being credited now), or the
    // charge ended there. Answered with what the charge is once that payment has been applied.
    throw new ChargeInWrongStatus('pay', await statusOncePaid(deps, transactionId));
  }
  const pix = await deps.provider.readReceivedPix(endToEndId);
  if (!pix) throw new Error(`the provider does not know the Pix ${endToEndId} it just received`);
  const applied = await applyReceivedPix(deps, pix);
  if (applied.outcome === 'unmatched') throw new ChargeInWrongStatus('pay', applied.charge?.status ?? charge.status);
  return applied.charge;
}

/**
 * Removes a pending charge at the provider before it ends here (API Pix keeps an expired cob `ATIVA`, so
 * it could be paid late). Answers whether the charge may end: false when the provider had it paid already,
 * in which case that payment is credited instead (the Pix arrived first, its callback not yet). Throws when
 * the provider could not be asked. The expiry job and the sandbox's expire and cancel share it.
 */
export async function removeAtProvider(deps: Deps, charge: Pick<TransactionRow, 'id' | 'provider_ref' | 'charge_kind'>): Promise<boolean> {
  if (charge.provider_ref === null) return true;
  const removed = await deps.provider.removeCharge({ transactionId: charge.id, providerRef: charge.provider_ref, kind: providerKindOf(charge) });
  if (removed.state !== 'paid') return true;
  for (const endToEndId of removed.endToEndIds) {
    const pix = await deps.provider.readReceivedPix(endToEndId);
    if (pix) await applyReceivedPix(deps, pix);
  }
  return false;
}

/** The sandbox's expiry or cancellation: removed at a real provider first (a charge found paid there is credited, and then cannot end). */
export async function removeAtProviderFirst(deps: Deps, transactionId: string): Promise<void> {
  const charge = await findTransactionById(deps.db, transactionId);
  if (!charge || charge.type !== 'pix_in' || charge.status !== 'pending') return;
  await removeAtProvider(deps, charge);
}
