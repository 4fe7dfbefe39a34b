import { sql, type Kysely } from 'kysely';

/**
 * Refunds (devoluções) of paid charges (issue 20, docs/decisions.md "Refunds").
 *
 * - `refunds`: one row per refund, with its state (src/refunds/refund.states.ts), the provider's reference
 *   and outcome; `next_check_at` schedules reconciliation with the provider.
 * - `refund_idempotency_keys`: the refunds' externalRefs, per account, kept 7 days (the rules of
 *   `idempotency_keys`, whose rows must name a transaction).
 * - `ledger_transfers.refund_id`: a refund's transfers carry its charge (`transaction_id`) and the refund
 *   itself, so each of several refunds of one charge has its own pending transfer, posted or voided once.
 *   `ledger_transfer` and `ledger_take_withdrawable` take it as a new last argument (default null: every
 *   existing caller unchanged); `ledger_complete_refund` completes a refund's open pending transfer.
 * - `sim_psp_refunds`: the simulated provider's own record of the refunds it was asked for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE refunds (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      transaction_id text NOT NULL REFERENCES transactions(id),
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      status text NOT NULL CHECK (status IN ('initiating', 'processing', 'refunded', 'failed', 'aborted')),
      external_ref text,
      description text,
      provider_ref text,
      refund_end_to_end_id text,
      refused_code text,
      refused_reason text,
      next_check_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      refunded_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX refunds_transaction ON refunds (transaction_id, created_at DESC, id DESC)`.execute(db);
  // Reconciliation's queue: only refunds still open at the provider.
  await sql`CREATE INDEX refunds_open ON refunds (next_check_at) WHERE status IN ('initiating', 'processing')`.execute(db);

  await sql`
    CREATE TABLE refund_idempotency_keys (
      account_id text NOT NULL REFERENCES accounts(id),
      external_ref text NOT NULL,
      refund_id text NOT NULL REFERENCES refunds(id) DEFERRABLE INITIALLY DEFERRED,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, external_ref)
    )`.execute(db);

  await sql`ALTER TABLE ledger_transfers ADD COLUMN refund_id text REFERENCES refunds(id)`.execute(db);
  await sql`CREATE INDEX ledger_transfers_refund ON ledger_transfers (refund_id) WHERE refund_id IS NOT NULL`.execute(db);

  await sql`DROP FUNCTION ledger_take_withdrawable(text, bigint, boolean, text, text, text, text, boolean, timestamptz)`.execute(db);
  await sql`DROP FUNCTION ledger_transfer(text, text, text, boolean, bigint, timestamptz, text[], bigint[])`.execute(db);
  await sql
    .raw(
      `CREATE FUNCTION ledger_transfer(
        p_reason text, p_transaction_id text, p_hold_id text, p_pending boolean, p_pending_id bigint,
        p_at timestamptz, p_accounts text[], p_amounts bigint[], p_refund_id text DEFAULT NULL) RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        v_id bigint;
        v_leg record;
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
        -- Sorted, so two transfers over the same accounts lock them in the same order.
        FOR v_leg IN
          SELECT account, amount FROM unnest(p_accounts, p_amounts) AS leg(account, amount)
          WHERE amount <> 0 ORDER BY account
        LOOP
          UPDATE ledger_accounts SET balance_cents = balance_cents + v_leg.amount, version = version + 1
          WHERE id = v_leg.account
          RETURNING balance_cents, version INTO v_balance, v_version;
          IF NOT FOUND THEN
            RAISE EXCEPTION 'ledger transfer %: no ledger account %', p_reason, v_leg.account;
          END IF;
          INSERT INTO ledger_entries (transfer_id, account_id, amount_cents, balance_after_cents, account_version, created_at)
          VALUES (v_id, v_leg.account, v_leg.amount, v_balance, v_version, p_at);
          v_legs := v_legs + 1;
        END LOOP;
        IF v_legs < 2 THEN
          RAISE EXCEPTION 'ledger transfer % moves nothing', p_reason;
        END IF;
        RETURN v_id;
      END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE FUNCTION ledger_take_withdrawable(
        p_owner text, p_amount bigint, p_within_holds boolean, p_to text, p_reason text, p_transaction_id text,
        p_hold_id text, p_pending boolean, p_at timestamptz, p_refund_id text DEFAULT NULL) RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        v_available bigint;
        v_held bigint;
      BEGIN
        SELECT balance_cents INTO v_available FROM ledger_accounts WHERE id = p_owner || ':available' FOR UPDATE;
        SELECT balance_cents INTO v_held FROM ledger_accounts WHERE id = p_owner || ':held';
        IF v_available IS NULL OR v_available - (CASE WHEN p_within_holds THEN coalesce(v_held, 0) ELSE 0 END) < p_amount THEN
          RETURN NULL;
        END IF;
        RETURN ledger_transfer(p_reason, p_transaction_id, p_hold_id, p_pending, NULL, p_at,
          ARRAY[p_owner || ':available', p_to], ARRAY[-p_amount, p_amount], p_refund_id);
      END $$`,
    )
    .execute(db);
  // Completes a refund's open pending transfer (post or void): the legs release from pending_out exactly
  // what it reserved.
  await sql
    .raw(
      `CREATE FUNCTION ledger_complete_refund(
        p_refund_id text, p_reason text, p_at timestamptz, p_accounts text[], p_amounts bigint[])
        RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        v_pending bigint;
        v_transaction_id text;
        v_reserved bigint;
        v_released bigint;
      BEGIN
        SELECT t.id, t.transaction_id INTO v_pending, v_transaction_id FROM ledger_transfers t
        WHERE t.refund_id = p_refund_id AND t.pending
          AND NOT EXISTS (SELECT 1 FROM ledger_transfers c WHERE c.pending_id = t.id);
        IF v_pending IS NULL THEN
          RAISE EXCEPTION 'refund % has no open pending transfer to %', p_refund_id, p_reason;
        END IF;
        SELECT sum(e.amount_cents) INTO v_reserved FROM ledger_entries e
        WHERE e.transfer_id = v_pending AND e.account_id LIKE '%:pending_out';
        SELECT -sum(amount) INTO v_released FROM unnest(p_accounts, p_amounts) AS leg(account, amount)
        WHERE account LIKE '%:pending_out';
        IF v_released IS DISTINCT FROM v_reserved THEN
          RAISE EXCEPTION 'refund %: % releases % of the % pending', p_refund_id, p_reason, v_released, v_reserved;
        END IF;
        RETURN ledger_transfer(p_reason, v_transaction_id, NULL, false, v_pending, p_at, p_accounts, p_amounts, p_refund_id);
      END $$`,
    )
    .execute(db);

  await sql`
    CREATE TABLE sim_psp_refunds (
      refund_id text PRIMARY KEY,
      end_to_end_id text NOT NULL,
      amount_cents bigint NOT NULL,
      description text,
      state text NOT NULL CHECK (state IN ('accepted', 'refunded', 'rejected')),
      settle_at timestamptz,
      refund_end_to_end_id text,
      refused_code text,
      refused_reason text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS sim_psp_refunds`.execute(db);
  await sql`DROP FUNCTION IF EXISTS ledger_complete_refund`.execute(db);
  await sql`ALTER TABLE ledger_transfers DROP COLUMN IF EXISTS refund_id`.execute(db);
  await sql`DROP TABLE IF EXISTS refund_idempotency_keys`.execute(db);
  await sql`DROP TABLE IF EXISTS refunds`.execute(db);
}
