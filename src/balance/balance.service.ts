import type { components } from '../../generated/api-types.ts';
import { checkLedger } from '../ledger/ledger.check.ts';
import { readAvailable, readBalance } from '../ledger/ledger.repository.ts';
import type { Deps } from '../platform/deps.ts';

type Balance = components['schemas']['Balance'];

/**
 * GET /v1/balance: `available` is the gross balance (holds are not subtracted, as the contract says);
 * `pending` is always 0; `updatedAt` is the time of the response.
 */
export async function merchantBalance(deps: Pick<Deps, 'db' | 'clock'>, accountId: string): Promise<Balance> {
  return { available: await readAvailable(deps.db, accountId), pending: 0, currency: 'BRL', updatedAt: deps.clock.now() };
}

/** The back office's view of a balance: every part of it, and whether the ledger agrees with it. */
export async function balanceReport(deps: Pick<Deps, 'db'>, accountId: string) {
  const balance = await readBalance(deps.db, accountId);
  const violations = await checkLedger(deps.db, { accountId });
  return { balance, violations: violations.map((violation) => violation.problem) };
}

/**
 * The withdrawable balance (available − held, as the ledger keeps it) of each account, read once per account:
 * what an approval now would take a withdrawal's amount and fee from.
 */
export async function withdrawableBalances(deps: Pick<Deps, 'db'>, accountIds: Iterable<string>): Promise<Map<string, number>> {
  const balances = new Map<string, number>();
  for (const accountId of new Set(accountIds)) balances.set(accountId, (await readBalance(deps.db, accountId)).withdrawableCents);
  return balances;
}
