import type { components } from '../../generated/dashboard-types.ts';
import type { InfractionRow } from '../db/schema.ts';
import { defendInfraction, infractionsOf } from '../infractions/infraction.service.ts';
import type { Deps } from '../platform/deps.ts';
import { TotpNotEnabled } from './dashboard.errors.ts';
import type { DashboardPrincipal } from './session.service.ts';
import { verifyUserTotp } from './twoFactor.service.ts';

type DashboardDefenceRequest = components['schemas']['DashboardDefenceRequest'];

const LISTED = 100;

/** The account's MED infractions, newest first. */
export function accountInfractions(deps: Pick<Deps, 'db'>, accountId: string): Promise<InfractionRow[]> {
  return infractionsOf(deps, { accountId, limit: LISTED });
}

/**
 * The merchant's defence of one of the account's infractions: the current TOTP code of the user first
 * (two-factor must be on: `aceito` gives the money back, and no defence can be taken back), then the back
 * office's own service, scoped to the account (another merchant's infraction is not found).
 */
export async function dashboardDefendInfraction(
  deps: Deps,
  principal: DashboardPrincipal,
  infractionId: string,
  body: DashboardDefenceRequest,
): Promise<InfractionRow> {
  if (!principal.user.totp_enabled_at) throw new TotpNotEnabled();
  await verifyUserTotp(deps, principal.user, body.totpCode);
  return defendInfraction(deps, {
    infractionId,
    accountId: principal.account.id,
    defence: { analysis: body.analysis, text: body.text.trim() },
    by: principal.user.email,
  });
}
