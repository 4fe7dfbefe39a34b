/**
 * Sign-up's one-account-per-CNPJ rule (issue 22, defect 12): the accounts that already hold a CNPJ (KYC not
 * rejected) and the e-mails of their active owners. Reads `accounts` and `dashboard_users` only.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../db/schema.ts';

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

/**
 * Inside the sign-up's transaction: waits for any other sign-up of the same CNPJ to commit (a transaction
 * advisory lock keyed by the CNPJ), then tells whether the CNPJ is still free. Two sign-ups of one CNPJ at the
 * same instant both passed the check made before the transaction and opened two accounts; now the second
 * finds the first's account here.
 */
export async function cnpjFreeForSignUp(trx: Transaction<Database>, companyCnpj: string): Promise<boolean> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`signup-cnpj:${companyCnpj}`}, 0))`.execute(trx);
  const taken = await trx.selectFrom('accounts').select('id').where('company_cnpj', '=', companyCnpj).where('kyc_status', '!=', 'rejected').limit(1).executeTakeFirst();
  return taken === undefined;
}
