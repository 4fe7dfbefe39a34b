import { sql, type Kysely } from 'kysely';

/**
 * Static QR codes (issue 36, docs/decisions.md "Static QR codes").
 *
 * - `static_qrcodes`: one reusable BR Code on the installation's receiving Pix key, naming itself by its
 *   `txid` (BR Code field 62-05: at most 25 alphanumerics for a static code, so never a cob's or cobv's txid,
 *   26 to 35). Open amount (`amount_cents` NULL) or fixed. `external_ref` names a code of an account for good
 *   (a unique index, no retention window: a code lives for years). `active` until deactivated, for good;
 *   `deactivated_at` is when, and a Pix the provider received before it still pays it. The description is
 *   kept as sent; at most 72 characters fit field 26 beside the shortest key (99 − 18 for the GUI − 4 − 1 −
 *   4), the contract's 37 fit beside any key but a long e-mail.
 * - `transactions.static_qrcode_id`: a payment of a static code is a `pix_in` transaction of its own,
 *   `charge_kind = 'static'`, created and paid in one database transaction when its Pix arrives. Both are
 *   set together or neither.
 * - `transactions_static_qrcode_payment`: one payment per end-to-end id among the static codes' payments,
 *   so the same Pix read twice (a callback and the listing, two callbacks at once) is credited once: the
 *   second insert finds the first and does nothing.
 * - `transactions_by_static_qrcode`: a code's payments (its counts, its list), newest first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE static_qrcodes (
      id text PRIMARY KEY CHECK (id ~ '^sqr_[0-9a-f]{24}$'),
      account_id text NOT NULL REFERENCES accounts (id),
      txid text NOT NULL UNIQUE CHECK (txid ~ '^[A-Za-z0-9]{1,25}$'),
      amount_cents bigint CHECK (amount_cents >= 100),
      description text CHECK (char_length(description) BETWEEN 1 AND 72),
      external_ref text CHECK (char_length(external_ref) BETWEEN 1 AND 100),
      pix_payload text NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'inactive')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deactivated_at timestamptz,
      CHECK ((status = 'inactive') = (deactivated_at IS NOT NULL))
    )`.execute(db);
  await sql`CREATE INDEX static_qrcodes_by_account ON static_qrcodes (account_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE UNIQUE INDEX static_qrcodes_external_ref ON static_qrcodes (account_id, external_ref) WHERE external_ref IS NOT NULL`.execute(db);

  await sql`ALTER TABLE transactions ADD COLUMN static_qrcode_id text REFERENCES static_qrcodes (id)`.execute(db);
  await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_charge_kind_check`.execute(db);
  await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_charge_kind_check CHECK (charge_kind IN ('due', 'static'))`.execute(db);
  await sql`
    ALTER TABLE transactions ADD CONSTRAINT transactions_static_qrcode_kind
      CHECK ((static_qrcode_id IS NOT NULL) = (charge_kind IS NOT DISTINCT FROM 'static'))`.execute(db);
  await sql`CREATE UNIQUE INDEX transactions_static_qrcode_payment ON transactions (end_to_end_id) WHERE static_qrcode_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX transactions_by_static_qrcode ON transactions (static_qrcode_id, created_at DESC, id DESC) WHERE static_qrcode_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS transactions_by_static_qrcode`.execute(db);
  await sql`DROP INDEX IF EXISTS transactions_static_qrcode_payment`.execute(db);
  await sql`ALTER TABLE transactions DROP CONSTRAINT IF EXISTS transactions_static_qrcode_kind`.execute(db);
  await sql`ALTER TABLE transactions DROP COLUMN IF EXISTS static_qrcode_id`.execute(db);
  await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_charge_kind_check`.execute(db);
  // The codes' payments stay, paid charges read as immediate ones.
  await sql`UPDATE transactions SET charge_kind = NULL WHERE charge_kind = 'static'`.execute(db);
  await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_charge_kind_check CHECK (charge_kind IN ('due'))`.execute(db);
  await sql`DROP TABLE IF EXISTS static_qrcodes`.execute(db);
}
