import { sql, type Kysely } from 'kysely';

/**
 * No ledger row every merchant locks (issue 34, docs/decisions.md "System accounts in buckets").
 *
 * Before: every charge credit, withdrawal post and refund post moved `system:psp_settlement` (and
 * `system:fee_revenue` for fees) with an UPDATE that held the row's lock until commit, so every payment of
 * every merchant waited on the same two rows: the platform's money-in rate was capped near one transfer
 * per lock hold time (measured: 0.41x the same transfers on per-merchant accounts, 0.07x with 2 ms more
 * inside the transaction).
 *
 * Now each system account is `SYSTEM_BUCKETS` rows: the account itself (`system:<kind>`, bucket 0, with all
 * of its history) and `system:<kind>#1` … `#63`, each with its own balance, version and entry chain, the
 * logical account named in `system_account`. `ledger_transfer` books a system leg on a bucket no other
 * transaction holds (`FOR UPDATE SKIP LOCKED` from a random bucket on), so a transfer waits on a system
 * account only when every one of its buckets is held at once; callers keep naming `system:<kind>`.
 * The system account's balance is the sum of its buckets (what the ledger check, the reconciliation and the
 * figures read); every bucket is an account of the zero sum and of the entry-chain check like any other.
 */
export const SYSTEM_BUCKETS = 64;

const SYSTEM_ACCOUNTS = ['system:psp_settlement', 'system:fee_revenue', 'system:holds_contra', 'system:suspense'];

/**
 * `ledger_transfer` as migration 013 wrote it, and with `buckets` the same with one change: a leg naming a
 * system account (`system:<kind>`) is booked on one of its buckets that no other transaction holds.
 */
function ledgerTransferFunction(options: { buckets: boolean }): string {
  const account = options.buckets ? 'v_account' : 'v_leg.account';
  const bucket = options.buckets
    ? `v_account := v_leg.account;
          IF v_account LIKE 'system:%' AND position('#' IN v_account) = 0 THEN
            v_account := coalesce(ledger_system_bucket(v_account), v_account);
          END IF;
          `
    : '';
  return `CREATE OR REPLACE FUNCTION ledger_transfer(
        p_reason text, p_transaction_id text, p_hold_id text, p_pending boolean, p_pending_id bigint,
        p_at timestamptz, p_accounts text[], p_amounts bigint[], p_refund_id text DEFAULT NULL) RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        v_id bigint;
        v_leg record;
        v_account text;
        v_balance bigint;
        v_version bigint;
        v_legs integer := 0;
      BEGIN
        IF coalesce(array_length(p_accounts, 1), 0) <> coalesce(array_length(p_amounts, 1), 0) THEN
          RAISE EXCEPTION 'ledger transfer %: % accounts for % amounts', p_reason, array_length(p_accounts, 1), array_length(p_amounts, 1);
        END IF;
        IF (SELECT coalesce(sum(amount), 0) FROM unnest(p_amounts) AS amount) <> 0 THEN
          RAISE EXCEPTION 'ledger transfer % does not sum to zero: %', p_reason, p_amounts;
        END IF;
        IF (SELECT count(DISTINCT account) FROM unnest(p_accounts) AS account) <> array_length(p_accounts, 1) THEN
          RAISE EXCEPTION 'ledger transfer % names an account twice: %', p_reason, p_accounts;
        END IF;
        INSERT INTO ledger_transfers (reason, transaction_id, hold_id, pending, pending_id, created_at, refund_id)
        VALUES (p_reason, p_transaction_id, p_hold_id, p_pending, p_pending_id, p_at, p_refund_id)
        RETURNING id INTO v_id;
        -- Sorted, so two transfers over the same merchant accounts lock them in the same order${options.buckets ? `; a system
        -- account's leg goes to one of its buckets that no other transaction holds (no wait in turn)` : ''}.
        FOR v_leg IN
          SELECT account, amount FROM unnest(p_accounts, p_amounts) AS leg(account, amount)
          WHERE amount <> 0 ORDER BY account
        LOOP
          ${bucket}UPDATE ledger_accounts SET balance_cents = balance_cents + v_leg.amount, version = version + 1
          WHERE id = ${account}
          RETURNING balance_cents, version INTO v_balance, v_version;
          IF NOT FOUND THEN
            RAISE EXCEPTION 'ledger transfer %: no ledger account %', p_reason, v_leg.account;
          END IF;
          INSERT INTO ledger_entries (transfer_id, account_id, amount_cents, balance_after_cents, account_version, created_at)
          VALUES (v_id, ${account}, v_leg.amount, v_balance, v_version, p_at);
          v_legs := v_legs + 1;
        END LOOP;
        IF v_legs < 2 THEN
          RAISE EXCEPTION 'ledger transfer % moves nothing', p_reason;
        END IF;
        RETURN v_id;
      END $$`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE ledger_accounts ADD COLUMN system_account text, ADD COLUMN bucket smallint`.execute(db);
  await sql`UPDATE ledger_accounts SET system_account = id, bucket = 0 WHERE owner_id IS NULL`.execute(db);
  await sql`
    INSERT INTO ledger_accounts (id, owner_id, kind, non_negative, created_at, system_account, bucket)
    SELECT a.id || '#' || b, NULL, a.kind, false, now(), a.id, b
    FROM ledger_accounts a CROSS JOIN generate_series(1, ${sql.lit(SYSTEM_BUCKETS - 1)}) AS b
    WHERE a.id IN (${sql.join(SYSTEM_ACCOUNTS)})`.execute(db);
  await sql`CREATE UNIQUE INDEX ledger_accounts_system_bucket ON ledger_accounts (system_account, bucket) WHERE system_account IS NOT NULL`.execute(db);
  await sql`ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_system_bucket_shape
    CHECK ((owner_id IS NULL) = (system_account IS NOT NULL) AND (system_account IS NULL) = (bucket IS NULL))`.execute(db);

  // The bucket of a system account that no other transaction holds, locked: from a random bucket on, then
  // from the first; only when every bucket is held does it wait (for the random one). A bucket this
  // transaction already holds is never skipped (SKIP LOCKED skips other transactions' locks only).
  await sql
    .raw(
      `CREATE FUNCTION ledger_system_bucket(p_account text) RETURNS text LANGUAGE plpgsql AS $$
      DECLARE
        v_start smallint := floor(random() * ${SYSTEM_BUCKETS})::smallint;
        v_id text;
      BEGIN
        SELECT id INTO v_id FROM ledger_accounts WHERE system_account = p_account AND bucket >= v_start
          ORDER BY bucket LIMIT 1 FOR UPDATE SKIP LOCKED;
        IF v_id IS NULL THEN
          SELECT id INTO v_id FROM ledger_accounts WHERE system_account = p_account AND bucket < v_start
            ORDER BY bucket LIMIT 1 FOR UPDATE SKIP LOCKED;
        END IF;
        IF v_id IS NULL THEN
          SELECT id INTO v_id FROM ledger_accounts WHERE system_account = p_account
            ORDER BY bucket = v_start DESC, bucket LIMIT 1 FOR UPDATE;
        END IF;
        RETURN v_id;
      END $$`,
    )
    .execute(db);

  await sql.raw(ledgerTransferFunction({ buckets: true })).execute(db);
}

/**
 * Back to one row per system account: each other bucket's balance is moved onto the account itself by a
 * `migration_difference` transfer (entries are immutable, so the buckets' history stays, with their rows),
 * and `ledger_transfer` books on the named account again.
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(ledgerTransferFunction({ buckets: false })).execute(db);
  await sql`
    SELECT ledger_transfer('migration_difference', NULL, NULL, false, NULL, now(),
      ARRAY[system_account, id], ARRAY[balance_cents, -balance_cents])
    FROM ledger_accounts WHERE bucket > 0 AND balance_cents <> 0`.execute(db);
  await sql`DROP FUNCTION ledger_system_bucket(text)`.execute(db);
  await sql`ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_system_bucket_shape`.execute(db);
  await sql`DROP INDEX ledger_accounts_system_bucket`.execute(db);
  await sql`ALTER TABLE ledger_accounts DROP COLUMN system_account, DROP COLUMN bucket`.execute(db);
}
