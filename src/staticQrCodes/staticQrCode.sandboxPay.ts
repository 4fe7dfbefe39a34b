/**
 * The sandbox's "a payer pays this static QR code" as the back office and the dashboard offer it: the code
 * found (in the given account only, for the dashboard), the payment made by ./staticQrCode.sandbox.ts, and
 * one answer for both (openapi/components/schemas/SandboxStaticQrCodePayment.yaml): what became of the Pix,
 * with the code's payment when it was credited.
 */
import type { components } from '../../generated/dashboard-types.ts';
import type { PartyJson } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { toApiTransaction } from '../transactions/transaction.mapper.ts';
import { StaticQrCodeNotFound } from './staticQrCode.errors.ts';
import { findStaticQrCode } from './staticQrCode.repository.ts';
import { sandboxPayStaticQrCode } from './staticQrCode.sandbox.ts';

type SandboxStaticQrCodePayment = components['schemas']['SandboxStaticQrCodePayment'];

export interface SandboxStaticQrCodePay {
  /** The code's account (the audit entry's). */
  accountId: string;
  answer: SandboxStaticQrCodePayment;
}

/**
 * Pays the code in the sandbox; `accountId` limits it to that account's codes (another's: not found). Every
 * outcome is an answer, a Pix left unmatched included (another amount on a fixed code, a deactivated code).
 */
export async function payStaticQrCodeInSandbox(
  deps: Deps,
  staticQrCodeId: string,
  input: { amountCents?: number | undefined; payer?: PartyJson | undefined },
  accountId?: string,
): Promise<SandboxStaticQrCodePay> {
  const code = await findStaticQrCode(deps.db, accountId, staticQrCodeId);
  if (!code) throw new StaticQrCodeNotFound();
  const result = await sandboxPayStaticQrCode(deps, code.id, input);
  const answer: SandboxStaticQrCodePayment =
    result.outcome === 'unmatched'
      ? { outcome: 'unmatched', reason: result.reason, endToEndId: result.endToEndId }
      : { outcome: result.outcome, endToEndId: result.endToEndId, payment: toApiTransaction(result.charge, 'single') };
  return { accountId: code.account_id, answer };
}
