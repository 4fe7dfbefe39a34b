/** Owner of the `accounts` table. */
import type { Transaction } from 'kysely';
import type { AccountRow, AccountUpdate, Database, Db, NewAccount } from '../db/schema.ts';

export function insertAccount(trx: Transaction<Database>, account: NewAccount): Promise<AccountRow> {
  return trx.insertInto('accounts').values(account).returningAll().executeTakeFirstOrThrow();
}

export function findAccount(db: Db, accountId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
}

/** Locks the account row: one recipient registration or webhook URL change at a time per account. */
export async function lockAccount(trx: Transaction<Database>, accountId: string): Promise<void> {
  await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}

/**
 * One page of the back office's accounts list, oldest first: of one KYC status or all, after the keyset
 * `(created_at, id)` of the last account seen, at most `limit` (every account when undefined).
 */
export function listAccountsPage(
  db: Db,
  query: {
    kycStatus?: AccountRow['kyc_status'] | undefined;
    /** true: an account user confirmed an e-mail; false: the account has users, none confirmed (issue 38). */
    emailVerified?: boolean | undefined;
    after?: { createdAt: Date; id: string } | undefined;
    limit?: number | undefined;
  },
): Promise<AccountRow[]> {
  let select = db.selectFrom('accounts').selectAll('accounts');
  if (query.kycStatus !== undefined) select = select.where('kyc_status', '=', query.kycStatus);
  if (query.emailVerified !== undefined) {
    const wanted = query.emailVerified;
    select = select.where((eb) => {
      const users = (verified: boolean) =>
        eb
          .selectFrom('dashboard_users')
          .select('dashboard_users.id')
          .whereRef('dashboard_users.account_id', '=', 'accounts.id')
          .where('dashboard_users.email_verified_at', verified ? 'is not' : 'is', null);
      return wanted ? eb.exists(users(true)) : eb.and([eb.exists(users(false)), eb.not(eb.exists(users(true)))]);
    });
  }
  const after = query.after;
  if (after !== undefined) {
    select = select.where((eb) => eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]));
  }
  select = select.orderBy('created_at', 'asc').orderBy('id', 'asc');
  if (query.limit !== undefined) select = select.limit(query.limit);
  return select.execute();
}

export function updateAccount(db: Db, accountId: string, changes: AccountUpdate): Promise<AccountRow | undefined> {
  return db.updateTable('accounts').set(changes).where('id', '=', accountId).returningAll().executeTakeFirst();
}

export async function countAccounts(db: Db): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The legal names of these accounts, by id (the back office's lists name whose money it is). */
export async function accountLegalNames(db: Db, accountIds: readonly string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db.selectFrom('accounts').select(['id', 'legal_name']).where('id', 'in', [...new Set(accountIds)]).execute();
  return new Map(rows.map((row) => [row.id, row.legal_name]));
}
