import { withAudit } from '../audit/audit.service.ts';
import { updateAccount } from '../accounts/account.repository.ts';
import { AccountNotFound } from '../accounts/account.errors.ts';
import type { AccountRow } from '../db/schema.ts';
import { userAuditStep, type RequestSource } from '../identity/securityAudit.ts';
import type { Deps } from '../platform/deps.ts';
import { resolveMerchantCity } from './merchantCity.ts';
import type { DashboardPrincipal } from './session.service.ts';

/**
 * The merchant's city from the account settings (issue 38, defect 12): owners and admins (the operation's
 * `x-roles`) set the municipality that every BR Code made from now on carries. Checked against the IBGE's
 * list like the sign-up; the change and its audit entry (`account.city_changed`, before and after) commit
 * together.
 */
export async function changeMerchantCity(
  deps: Pick<Deps, 'db' | 'clock'>,
  principal: DashboardPrincipal,
  input: { city: string; state: string },
  source: RequestSource,
): Promise<AccountRow> {
  const city = resolveMerchantCity(input.city, input.state);
  const before = { city: principal.account.city, state: principal.account.state };
  const audit = userAuditStep(deps, principal.user, source, (row: AccountRow) => ({
    action: 'account.city_changed',
    target: { type: 'account', id: row.id },
    accountId: row.id,
    before,
    after: { city: row.city, state: row.state, cityIbgeCode: row.city_ibge_code },
  }));
  return withAudit(deps.db, audit, async (trx) => {
    const row = await updateAccount(trx, principal.account.id, {
      city: city.name,
      state: city.state,
      city_ibge_code: city.ibgeCode,
      updated_at: new Date(deps.clock.now()),
    });
    if (!row) throw new AccountNotFound();
    return row;
  });
}
