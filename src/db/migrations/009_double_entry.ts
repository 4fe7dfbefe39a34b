import { sql, type Kysely } from 'kysely';
import { totalsFollowFunction } from './007_withdrawal_totals.ts';

/**
 * The double-entry ledger (issue 19, docs/decisions.md "The double-entry ledger").
 *
 * - `ledger_accounts`: per merchant `available` (what it may withdraw, before holds), `held` (the memo of
 *   its precautionary holds) and `pending_out` (money reserved for withdrawals in flight); system accounts
 *   `psp_settlement` (the money at the payment provider, an asset: its balance is negative),
 *   `fee_revenue`, `holds_contra` (the other side of the hold memos) and `suspense` (differences nobody
 *   has explained; zero in a healthy ledger). Balances are credit-positive and all of them sum to zero.
 *   Merchant accounts carry a CHECK that their balance never goes below zero: the statement that would
 *   move money they do not have fails.
 * - `ledger_transfers`: immutable; two or more entries that sum to zero, with their reason and their
 *   transaction or hold. Two-phase: a `pending` transfer is completed by exactly one later transfer naming
 *   it in `pending_id` (a post or a void; UNIQUE, so never both and never twice).
 * - `ledger_entries`: immutable; one per account and transfer, with the account's balance after it and its
 *   version (consecutive per account, UNIQUE).
 * - `ledger_transfer(...)`: the only writer of the three: it checks the sum, locks the accounts in sorted
 *   order (no deadlock between two transfers), moves each balance and writes each entry.
 *
 * Existing data: `balances` and the single-entry `ledger_entries` are kept, renamed `legacy_*`, and replayed
 * entry by entry, in their order, into transfers; withdrawals already paid are posted; any difference from
 * the old balances is booked against `suspense` (none for a consistent ledger), so every balance is
 * unchanged: available = old available − old reservations, held = old held.
 */
/**
 * The withdrawal statuses whose amounts the caps count, as this migration's trigger was written with them (a
 * migration records what it did, so it names the list itself instead of importing live code; a test checks
 * that `CAP_COUNTED_STATUSES` of withdrawal.states.ts still says the same).
 */
export const CAP_COUNTED_BY_TRIGGER = ['initiating', 'processing', 'pending_approval', 'paid', 'failed_unknown', 'refunded', 'partially_refunded'] as const;
const CAP_COUNTED = `(${CAP_COUNTED_BY_TRIGGER.map((status) => `'${status}'`).join(', ')})`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE balances RENAME TO legacy_balances`.execute(db);
  await sql`ALTER INDEX balances_pkey RENAME TO legacy_balances_pkey`.execute(db);
  await sql`ALTER TABLE ledger_entries RENAME TO legacy_ledger_entries`.execute(db);
  await sql`ALTER INDEX ledger_entries_pkey RENAME TO legacy_ledger_entries_pkey`.execute(db);
  await sql`ALTER INDEX ledger_entries_account RENAME TO legacy_ledger_entries_account`.execute(db);
  await sql`ALTER INDEX ledger_entries_transaction RENAME TO legacy_ledger_entries_transaction`.execute(db);
  await sql`ALTER SEQUENCE ledger_entries_id_seq RENAME TO legacy_ledger_entries_id_seq`.execute(db);

  await sql`
    CREATE TABLE ledger_accounts (
      id text PRIMARY KEY,
      owner_id text REFERENCES accounts(id),
      kind text NOT NULL CHECK (kind IN ('available', 'held', 'pending_out', 'psp_settlement', 'fee_revenue', 'holds_contra', 'suspense')),
      non_negative boolean NOT NULL,
      balance_cents bigint NOT NULL DEFAULT 0,
      version bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX ledger_accounts_owner_kind ON ledger_accounts (owner_id, kind)`.execute(db);

  await sql`
    CREATE TABLE ledger_transfers (
      id bigserial PRIMARY KEY,
      reason text NOT NULL,
      transaction_id text REFERENCES transactions(id),
      hold_id text REFERENCES holds(id),
      pending boolean NOT NULL DEFAULT false,
      pending_id bigint UNIQUE REFERENCES ledger_transfers(id),
      created_at timestamptz NOT NULL,
      CHECK (NOT (pending AND pending_id IS NOT NULL))
    )`.execute(db);
  await sql`CREATE INDEX ledger_transfers_transaction ON ledger_transfers (transaction_id)`.execute(db);

  await sql`
    CREATE TABLE ledger_entries (
      id bigserial PRIMARY KEY,
      transfer_id bigint NOT NULL REFERENCES ledger_transfers(id),
      account_id text NOT NULL REFERENCES ledger_accounts(id),
      amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
      balance_after_cents bigint NOT NULL,
      account_version bigint NOT NULL,
      created_at timestamptz NOT NULL,
      CONSTRAINT ledger_entries_account_version UNIQUE (account_id, account_version)
    )`.execute(db);
  await sql`CREATE INDEX ledger_entries_transfer ON ledger_entries (transfer_id)`.execute(db);

  // Corrections are new transfers: rows once written are never changed or removed.
  await sql
    .raw(
      `CREATE FUNCTION ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% rows are immutable: a correction is a new transfer', TG_TABLE_NAME USING ERRCODE = 'PX009';
      END $$`,
    )
    .execute(db);
  for (const table of ['ledger_transfers', 'ledger_entries']) {
    await sql`CREATE TRIGGER ${sql.id(`${table}_immutable`)} BEFORE UPDATE OR DELETE ON ${sql.table(table)}
      FOR EACH ROW EXECUTE FUNCTION ledger_immutable()`.execute(db);
  }

  await sql
    .raw(
      `CREATE FUNCTION ledger_transfer(
        p_reason text, p_transaction_id text, p_hold_id text, p_pending boolean, p_pending_id bigint,
        p_at timestamptz, p_accounts text[], p_amounts bigint[]) RETURNS bigint LANGUAGE plpgsql AS $$
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
        INSERT INTO ledger_transfers (reason, transaction_id, hold_id, pending, pending_id, created_at)
        VALUES (p_reason, p_transaction_id, p_hold_id, p_pending, p_pending_id, p_at)
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

  // Moves money from a merchant's available balance to another account, under the lock of that balance
  // (holds are placed under the same lock): all of it must be covered by available less the holds when
  // p_within_holds (withdrawals, refunds), by available alone otherwise (a chargeback takes the held money).
  // Null, moving nothing, when not covered.
  await sql
    .raw(
      `CREATE FUNCTION ledger_take_withdrawable(
        p_owner text, p_amount bigint, p_within_holds boolean, p_to text, p_reason text, p_transaction_id text,
        p_hold_id text, p_pending boolean, p_at timestamptz) RETURNS bigint LANGUAGE plpgsql AS $$
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
          ARRAY[p_owner || ':available', p_to], ARRAY[-p_amount, p_amount]);
      END $$`,
    )
    .execute(db);

  // Completes the open pending transfer of a transaction (post or void): the legs must release from
  // pending_out exactly what the pending transfer put there.
  await sql
    .raw(
      `CREATE FUNCTION ledger_complete_pending(
        p_transaction_id text, p_reason text, p_at timestamptz, p_accounts text[], p_amounts bigint[])
        RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        v_pending bigint;
        v_reserved bigint;
        v_released bigint;
      BEGIN
        SELECT t.id INTO v_pending FROM ledger_transfers t
        WHERE t.transaction_id = p_transaction_id AND t.pending
          AND NOT EXISTS (SELECT 1 FROM ledger_transfers c WHERE c.pending_id = t.id);
        IF v_pending IS NULL THEN
          RAISE EXCEPTION 'transaction % has no open pending transfer to %', p_transaction_id, p_reason;
        END IF;
        SELECT sum(e.amount_cents) INTO v_reserved FROM ledger_entries e
        WHERE e.transfer_id = v_pending AND e.account_id LIKE '%:pending_out';
        SELECT -sum(amount) INTO v_released FROM unnest(p_accounts, p_amounts) AS leg(account, amount)
        WHERE account LIKE '%:pending_out';
        IF v_released IS DISTINCT FROM v_reserved THEN
          RAISE EXCEPTION 'transaction %: % releases % of the % pending', p_transaction_id, p_reason, v_released, v_reserved;
        END IF;
        RETURN ledger_transfer(p_reason, p_transaction_id, NULL, false, v_pending, p_at, p_accounts, p_amounts);
      END $$`,
    )
    .execute(db);

  // What the incremental ledger check has verified: per account, up to which version.
  await sql`
    CREATE TABLE ledger_checkpoints (
      account_id text PRIMARY KEY REFERENCES ledger_accounts(id),
      version bigint NOT NULL,
      balance_cents bigint NOT NULL
    )`.execute(db);
  await sql`CREATE TABLE ledger_check_runs (id bigserial PRIMARY KEY, started_at timestamptz NOT NULL)`.execute(db);
  // When a transaction last changed status (database time): the incremental check re-reads those.
  await sql`ALTER TABLE transactions ADD COLUMN status_changed_at timestamptz`.execute(db);
  await sql`CREATE INDEX transactions_status_changed ON transactions (status_changed_at) WHERE status_changed_at IS NOT NULL`.execute(db);
  await sql
    .raw(
      `CREATE FUNCTION transactions_stamp_status() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.status_changed_at := clock_timestamp();
        RETURN NEW;
      END $$`,
    )
    .execute(db);
  await sql`CREATE TRIGGER transactions_status_stamp BEFORE UPDATE OF status ON transactions
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION transactions_stamp_status()`.execute(db);

  await openAccounts(db);
  await replayLegacyLedger(db);
  await sql`ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_non_negative CHECK (NOT non_negative OR balance_cents >= 0)`.execute(db);

  // The caps' totals follow the statuses the withdrawal state machine says they count.
  await sql.raw(totalsFollowFunction(CAP_COUNTED)).execute(db);
}

/** The system accounts, and the three accounts of every merchant. */
async function openAccounts(db: Kysely<unknown>): Promise<void> {
  await sql`
    INSERT INTO ledger_accounts (id, owner_id, kind, non_negative, created_at)
    VALUES ('system:psp_settlement', NULL, 'psp_settlement', false, now()),
           ('system:fee_revenue', NULL, 'fee_revenue', false, now()),
           ('system:holds_contra', NULL, 'holds_contra', false, now()),
           ('system:suspense', NULL, 'suspense', false, now())`.execute(db);
  await sql`
    INSERT INTO ledger_accounts (id, owner_id, kind, non_negative, created_at)
    SELECT a.id || ':' || kind, a.id, kind, true, a.created_at
    FROM accounts a CROSS JOIN unnest(ARRAY['available', 'held', 'pending_out']) AS kind`.execute(db);
}

/**
 * Replays the single-entry history into transfers, entry by entry in the order it was written: a charge's
 * credit becomes its net amount credited with its fee to fee_revenue, both from psp_settlement; a
 * reservation becomes the withdrawal's pending transfer (the old debit that followed it moves nothing
 * more); a release or a reversal voids it; a return posts it first; refunds and chargebacks go back to
 * psp_settlement; hold deltas move the held memo. Then withdrawals that reached `paid` are posted, and what
 * still differs from the old balances goes to suspense.
 */
async function replayLegacyLedger(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `DO $$
      DECLARE
        e record;
        v_open bigint;
        v_amount bigint;
        w record;
        d record;
      BEGIN
        FOR e IN
          SELECT le.*, t.fee_cents, t.amount_cents AS tx_amount
          FROM legacy_ledger_entries le LEFT JOIN transactions t ON t.id = le.transaction_id
          ORDER BY le.id
        LOOP
          IF e.held_delta_cents <> 0 THEN
            PERFORM ledger_transfer(CASE WHEN e.held_delta_cents > 0 THEN 'hold_placed' ELSE 'hold_released' END,
              e.transaction_id, e.hold_id, false, NULL, e.created_at,
              ARRAY[e.account_id || ':held', 'system:holds_contra'], ARRAY[e.held_delta_cents, -e.held_delta_cents]);
          END IF;
          SELECT t.id INTO v_open FROM ledger_transfers t
          WHERE e.transaction_id IS NOT NULL AND t.transaction_id = e.transaction_id AND t.pending
            AND NOT EXISTS (SELECT 1 FROM ledger_transfers c WHERE c.pending_id = t.id);
          IF e.kind = 'charge_credit' AND e.amount_cents <> 0 THEN
            PERFORM ledger_transfer('charge_paid', e.transaction_id, NULL, false, NULL, e.created_at,
              ARRAY[e.account_id || ':available', 'system:psp_settlement', 'system:fee_revenue'],
              ARRAY[e.amount_cents, -(e.amount_cents + coalesce(e.fee_cents, 0)), coalesce(e.fee_cents, 0)]);
          ELSIF e.kind = 'withdrawal_reserved' AND e.reserved_delta_cents > 0 THEN
            PERFORM ledger_transfer('withdrawal_reserved', e.transaction_id, NULL, true, NULL, e.created_at,
              ARRAY[e.account_id || ':available', e.account_id || ':pending_out'], ARRAY[-e.reserved_delta_cents, e.reserved_delta_cents]);
          ELSIF e.kind = 'withdrawal_debit' AND v_open IS NULL AND e.amount_cents < 0 THEN
            -- A debit from before reservations existed: it is the pending transfer itself.
            PERFORM ledger_transfer('withdrawal_reserved', e.transaction_id, NULL, true, NULL, e.created_at,
              ARRAY[e.account_id || ':available', e.account_id || ':pending_out'], ARRAY[e.amount_cents, -e.amount_cents]);
          ELSIF e.kind IN ('withdrawal_reservation_released', 'withdrawal_reversal') AND v_open IS NOT NULL THEN
            SELECT amount_cents INTO v_amount FROM ledger_entries WHERE transfer_id = v_open AND account_id LIKE '%:pending_out';
            PERFORM ledger_complete_pending(e.transaction_id, 'withdrawal_voided', e.created_at,
              ARRAY[e.account_id || ':pending_out', e.account_id || ':available'], ARRAY[-v_amount, v_amount]);
          ELSIF e.kind = 'withdrawal_returned' AND e.amount_cents > 0 THEN
            IF v_open IS NOT NULL THEN
              SELECT amount_cents INTO v_amount FROM ledger_entries WHERE transfer_id = v_open AND account_id LIKE '%:pending_out';
              PERFORM ledger_complete_pending(e.transaction_id, 'withdrawal_posted', e.created_at,
                ARRAY[e.account_id || ':pending_out', 'system:psp_settlement', 'system:fee_revenue'],
                ARRAY[-v_amount, v_amount - coalesce(e.fee_cents, 0), coalesce(e.fee_cents, 0)]);
            END IF;
            PERFORM ledger_transfer('withdrawal_returned', e.transaction_id, NULL, false, NULL, e.created_at,
              ARRAY['system:psp_settlement', e.account_id || ':available'], ARRAY[-e.amount_cents, e.amount_cents]);
          ELSIF e.kind IN ('refund_debit', 'chargeback_debit') AND e.amount_cents < 0 THEN
            PERFORM ledger_transfer(CASE WHEN e.kind = 'refund_debit' THEN 'charge_refunded' ELSE 'chargeback' END,
              e.transaction_id, e.hold_id, false, NULL, e.created_at,
              ARRAY[e.account_id || ':available', 'system:psp_settlement'], ARRAY[e.amount_cents, -e.amount_cents]);
          ELSIF e.kind = 'adjustment' AND e.amount_cents <> 0 THEN
            PERFORM ledger_transfer('correction', e.transaction_id, NULL, false, NULL, e.created_at,
              ARRAY[e.account_id || ':available', 'system:suspense'], ARRAY[e.amount_cents, -e.amount_cents]);
          END IF;
        END LOOP;

        -- Withdrawals paid (or returned after being paid) whose pending transfer is still open: posted.
        FOR w IN
          SELECT t.id, t.account_id, t.fee_cents, coalesce(t.paid_at, t.updated_at) AS at, p.id AS pending_id
          FROM transactions t JOIN ledger_transfers p ON p.transaction_id = t.id AND p.pending
          WHERE t.type = 'withdrawal' AND t.status IN ('paid', 'refunded', 'partially_refunded')
            AND NOT EXISTS (SELECT 1 FROM ledger_transfers c WHERE c.pending_id = p.id)
          ORDER BY t.created_at, t.id
        LOOP
          SELECT amount_cents INTO v_amount FROM ledger_entries WHERE transfer_id = w.pending_id AND account_id LIKE '%:pending_out';
          PERFORM ledger_complete_pending(w.id, 'withdrawal_posted', w.at,
            ARRAY[w.account_id || ':pending_out', 'system:psp_settlement', 'system:fee_revenue'],
            ARRAY[-v_amount, v_amount - w.fee_cents, w.fee_cents]);
        END LOOP;

        -- Whatever still differs from the old balances (an inconsistent old ledger) is booked to suspense.
        FOR d IN
          SELECT b.account_id,
            (b.available_cents - b.reserved_cents) - (SELECT balance_cents FROM ledger_accounts WHERE id = b.account_id || ':available') AS available_gap,
            b.held_cents - (SELECT balance_cents FROM ledger_accounts WHERE id = b.account_id || ':held') AS held_gap
          FROM legacy_balances b
        LOOP
          IF d.available_gap <> 0 THEN
            PERFORM ledger_transfer('migration_difference', NULL, NULL, false, NULL, now(),
              ARRAY[d.account_id || ':available', 'system:suspense'], ARRAY[d.available_gap, -d.available_gap]);
          END IF;
          IF d.held_gap <> 0 THEN
            PERFORM ledger_transfer('migration_difference', NULL, NULL, false, NULL, now(),
              ARRAY[d.account_id || ':held', 'system:holds_contra'], ARRAY[d.held_gap, -d.held_gap]);
          END IF;
        END LOOP;
      END $$`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('009_double_entry is not reversible: the ledger is immutable (restore a backup instead)');
}
