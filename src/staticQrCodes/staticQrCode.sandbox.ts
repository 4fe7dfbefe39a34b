/**
 * The sandbox's "a payer pays this static QR code", whichever provider runs: the provider's payer end
 * receives a Pix with the code's txid (the simulation records it, the fake provider receives it and calls
 * back), and the Pix comes back through the provider's read, applied by the same code as a callback
 * (applyReceivedPix). Nothing is checked first: a payer's bank sends what the payer types, so the sandbox
 * can produce every outcome (credited, or left unmatched: another amount, a deactivated code).
 */
import { applyReceivedPix, type ReceivedPixOutcome } from '../charges/receivedPix.service.ts';
import type { PartyJson } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { requireSandbox } from '../provider/sandbox.ts';
import { StaticQrCodeNotFound } from './staticQrCode.errors.ts';
import { findStaticQrCode } from './staticQrCode.repository.ts';

/** What the sandbox's payer pays an open code when told no amount: R$ 10,00. */
const DEFAULT_OPEN_AMOUNT_CENTS = 1_000;

export async function sandboxPayStaticQrCode(
  deps: Deps,
  staticQrCodeId: string,
  input: { amountCents?: number | undefined; payer?: PartyJson | undefined } = {},
): Promise<ReceivedPixOutcome & { endToEndId: string }> {
  const sandbox = requireSandbox(deps);
  const code = await findStaticQrCode(deps.db, undefined, staticQrCodeId);
  if (!code) throw new StaticQrCodeNotFound();
  const amountCents = input.amountCents ?? (code.amount_cents === null ? DEFAULT_OPEN_AMOUNT_CENTS : Number(code.amount_cents));
  const endToEndId = await sandbox.payStaticQrCode({ txid: code.txid, amountCents, payer: input.payer });
  const pix = await deps.provider.readReceivedPix(endToEndId);
  if (!pix) throw new Error(`the provider does not know the Pix ${endToEndId} it just received`);
  return { ...(await applyReceivedPix(deps, pix)), endToEndId };
}
