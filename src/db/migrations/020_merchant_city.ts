import { sql, type Kysely } from 'kysely';

/**
 * The merchant's city (issue 38, defect 12): `accounts.city`, `accounts.state`, `accounts.city_ibge_code`,
 * the municipality as the IBGE names it, its UF and its 7-digit IBGE code, asked at sign-up and changed in
 * the dashboard's account settings. The BR Code's merchant city (field 60) is made from it; an account
 * without one (opened before this, or by the back office) keeps the former `SAO PAULO` until its owner sets
 * it. Nothing is backfilled: no one knows the city of an existing account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE accounts ADD COLUMN city text`.execute(db);
  await sql`ALTER TABLE accounts ADD COLUMN state text CHECK (state ~ '^[A-Z]{2}$')`.execute(db);
  await sql`ALTER TABLE accounts ADD COLUMN city_ibge_code text CHECK (city_ibge_code ~ '^[0-9]{7}$')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE accounts DROP COLUMN IF EXISTS city_ibge_code`.execute(db);
  await sql`ALTER TABLE accounts DROP COLUMN IF EXISTS state`.execute(db);
  await sql`ALTER TABLE accounts DROP COLUMN IF EXISTS city`.execute(db);
}
