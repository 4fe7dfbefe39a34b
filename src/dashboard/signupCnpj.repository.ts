/**
 * Sign-up's one-account-per-CNPJ rule (issue 22, defect 12): the accounts that already hold a CNPJ (KYC not
 * rejected) and the e-mails of their active owners. Reads `accounts` and `dashboard_users` only.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export async function ownersOfCnpj(db: Db, companyCnpj: string): Promise<{ accountId: string; ownerEmails: string[] } | undefined> {
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where('company_cnpj', '=', companyCnpj)
    .where('kyc_status', '!=', 'rejected')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  if (!account) return undefined;
  const owners = await db
    .selectFrom('dashboard_users')
    .select('email')
    .where('account_id', '=', account.id)
    .where('role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .where('password_hash', 'is not', null)
    .execute();
  return { accountId: account.id, ownerEmails: owners.map((owner) => owner.email) };
}
