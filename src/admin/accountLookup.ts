import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';

/** The id of an existing account, or the back office's 404. */
export async function requireAccountId(deps: Deps, accountId: string): Promise<string> {
  const account = await deps.db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  if (!account) throw new ApiError(404, 'Account not found.');
  return account.id;
}
