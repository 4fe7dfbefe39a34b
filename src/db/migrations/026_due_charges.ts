import { sql, type Kysely } from 'kysely';

/**
 * Charges with a due date (issue 36, API Pix `cobv`, docs/decisions.md "Charges with a due date").
 *
 * - `transactions.charge_kind`: what kind of charge a `pix_in` row is: NULL an immediate charge (`cob`, every
 *   charge before this), `due` a charge with a due date. The provider is asked by the kind (`/cob` or `/cobv`).
 * - `due_charges`: a charge with a due date's own terms (dates as ISO `YYYY-MM-DD` text: São Paulo's calendar
 *   days, compared as text, never turned into an instant by a driver), one row per such transaction: the due date, the days
 *   it stays payable after it and the last such day, the amount billed (the transaction's `amount_cents`
 *   becomes the amount paid once paid), the terms (fine, interest, discount, rebate: src/charges/dueAmount.ts),
 *   the debtor with address, the note to the payer, the revision the provider has, and the fee rule of the
 *   account when it was created (the fee is computed on the amount paid, with the rule of the day it was
 *   billed).
 * - `idempotency_keys.scope` takes `due_charge`: POST /v1/due-charges keeps its own externalRefs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE transactions ADD COLUMN charge_kind text CHECK (charge_kind IN ('due'))`.execute(db);
  await sql`
    CREATE TABLE due_charges (
      transaction_id text PRIMARY KEY REFERENCES transactions (id),
      account_id text NOT NULL,
      due_date text NOT NULL CHECK (due_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      days_after_due integer NOT NULL CHECK (days_after_due BETWEEN 0 AND 365),
      last_payable_date text NOT NULL CHECK (last_payable_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' AND last_payable_date >= due_date),
      original_cents bigint NOT NULL CHECK (original_cents > 0),
      terms jsonb NOT NULL DEFAULT '{}'::jsonb,
      debtor jsonb NOT NULL,
      description text CHECK (char_length(description) <= 140),
      revision integer NOT NULL DEFAULT 0 CHECK (revision >= 0),
      fee_fixed_cents bigint NOT NULL CHECK (fee_fixed_cents >= 0),
      fee_bps integer NOT NULL CHECK (fee_bps >= 0),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX due_charges_by_account ON due_charges (account_id, created_at DESC, transaction_id DESC)`.execute(db);
  await sql`CREATE INDEX due_charges_by_due_date ON due_charges (account_id, due_date)`.execute(db);
  await sql`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_scope_check`.execute(db);
  await sql`ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_scope_check CHECK (scope IN ('charge', 'withdrawal', 'due_charge'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM idempotency_keys WHERE scope = 'due_charge'`.execute(db);
  await sql`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_scope_check`.execute(db);
  await sql`ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_scope_check CHECK (scope IN ('charge', 'withdrawal'))`.execute(db);
  await sql`DROP TABLE IF EXISTS due_charges`.execute(db);
  await sql`ALTER TABLE transactions DROP COLUMN IF EXISTS charge_kind`.execute(db);
}
