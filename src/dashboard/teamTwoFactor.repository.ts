/** The account's team two-factor setting (`accounts.team_two_factor_required`, migration 016). */
import type { Db } from '../db/schema.ts';

export async function setTeamTwoFactorRequired(db: Db, accountId: string, required: boolean, at: Date): Promise<void> {
  await db.updateTable('accounts').set({ team_two_factor_required: required, updated_at: at }).where('id', '=', accountId).execute();
}
