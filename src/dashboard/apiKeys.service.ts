import { apiKeysOf, issueApiKey, revokeKey, type IssuedApiKey } from '../accounts/account.service.ts';
import type { ApiKeyRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { EmailNotVerified, KycNotApproved } from './dashboard.errors.ts';
import type { DashboardPrincipal } from './session.service.ts';
import { optionalText } from './text.ts';

/**
 * Dispositivos / Chaves de API. A key is generated only for an account with approved KYC and by a user
 * with a verified e-mail (contract, Authentication item 3); the secret is in the answer only.
 */
export async function generateApiKey(deps: Deps, principal: DashboardPrincipal, label: string | undefined): Promise<IssuedApiKey> {
  if (principal.account.kyc_status !== 'approved') throw new KycNotApproved();
  if (!principal.user.email_verified_at) throw new EmailNotVerified();
  return issueApiKey(deps, principal.account, optionalText(label, 'label'), new Date(deps.clock.now()), principal.user.id);
}

export function listApiKeys(deps: Pick<Deps, 'db'>, accountId: string): Promise<ApiKeyRow[]> {
  return apiKeysOf(deps, accountId);
}

/** Revoked at once in this process, within the authentication cache (5 s) in the others. */
export function revokeApiKey(deps: Deps, accountId: string, keyId: string): Promise<ApiKeyRow> {
  return revokeKey(deps, accountId, keyId);
}
