import { sql, type Kysely } from 'kysely';

/**
 * Payment links (issue 36, docs/decisions.md "Payment links").
 *
 * - `payment_links`: a fixed amount and a description behind a public page (`/pay/{id}`). `status` keeps
 *   only what the merchant decides (`active` until deactivated, for good); `expired` (past `expires_at`) and
 *   `used` (a single-use link whose charge was paid) are read from the clock and the charges, so no job and
 *   no hook in the payment path has to turn a link. `external_ref` names a link of an account for good.
 * - `current_transaction_id`: a single-use link's charge of the moment, swapped by one conditional update
 *   (the charge it replaces is named in the WHERE), so two payers opening the page at once get the same
 *   charge. No foreign key: the pointer and the charge are written by the same statement.
 * - `transactions.payment_link_id`: each charge made for a link (an immediate charge, `charge_kind` NULL),
 *   set at creation, for good; `transactions_by_payment_link` lists a link's charges, newest first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE payment_links (
      id text PRIMARY KEY CHECK (id ~ '^pl_[0-9a-f]{24}$'),
      account_id text NOT NULL REFERENCES accounts (id),
      amount_cents bigint NOT NULL CHECK (amount_cents >= 100),
      description text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 140),
      reusable boolean NOT NULL,
      external_ref text CHECK (char_length(external_ref) BETWEEN 1 AND 100),
      expires_at timestamptz,
      status text NOT NULL CHECK (status IN ('active', 'inactive')),
      current_transaction_id text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deactivated_at timestamptz,
      CHECK ((status = 'inactive') = (deactivated_at IS NOT NULL))
    )`.execute(db);
  await sql`CREATE INDEX payment_links_by_account ON payment_links (account_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE UNIQUE INDEX payment_links_external_ref ON payment_links (account_id, external_ref) WHERE external_ref IS NOT NULL`.execute(db);

  await sql`ALTER TABLE transactions ADD COLUMN payment_link_id text REFERENCES payment_links (id)`.execute(db);
  await sql`CREATE INDEX transactions_by_payment_link ON transactions (payment_link_id, created_at DESC, id DESC) WHERE payment_link_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS transactions_by_payment_link`.execute(db);
  // The links' charges stay, read as immediate charges.
  await sql`ALTER TABLE transactions DROP COLUMN IF EXISTS payment_link_id`.execute(db);
  await sql`DROP TABLE IF EXISTS payment_links`.execute(db);
}
