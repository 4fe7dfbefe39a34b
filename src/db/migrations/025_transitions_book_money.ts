import { sql, type Kysely } from 'kysely';
import { WITHDRAWAL_RESERVE_010, WITHDRAWAL_SEND_OUTCOME_010 } from './010_money_path.ts';

/**
 * One transition per money state machine, booking its own money (issue 34, docs/decisions.md "One
 * transition per state machine").
 *
 * - `transactions.pending_transfer_id`, `refunds.pending_transfer_id`: the open pending transfer a
 *   withdrawal or a refund holds (its reservation), written when it is made; a post or a void completes
 *   that transfer by its id (`ledger_complete`), no longer the one found by transaction or by refund id
 *   (`ledger_complete_pending`, `ledger_complete_refund` stay for the history migration 009 replays).
 * - `withdrawal_book`, `refund_book`, `charge_book`: the legs of each ledger step of a state machine, the
 *   only place they are written (reserve, post, void, return; credit). The step itself is the caller's: the
 *   state machine's table (src/.../*.states.ts) names it.
 * - `withdrawal_move`, `refund_move`, `charge_move`: a state change in one statement: the row is locked and
 *   must be in the state the caller read (else SQLSTATE PXM01), the step's money is booked, the status
 *   written; no row comes back when a reservation is not covered (nothing changed). A withdrawal's move also
 *   writes the columns its transition sets (`p_changes`) and its events' outbox rows (rendered by the
 *   caller from the row it will be), so the send outcome of POST /v1/withdraw stays one statement.
 * - `withdrawal_reserve` takes the step from its caller and books it through `withdrawal_book`; the send
 *   outcome's own statement (`withdrawal_send_outcome`) is gone: every outcome goes through the withdrawal's
 *   transition (src/withdrawals/withdrawal.machine.ts).
 */

/** `withdrawal_reserve` of migration 010 with the reservation booked through `withdrawal_book`, its step given. */
function withdrawalReserveBookingItsStep(): string {
  let text = WITHDRAWAL_RESERVE_010;
  const replace = (from: string, to: string) => {
    if (text.split(from).length !== 2) throw new Error(`migration 025: withdrawal_reserve of 010 no longer holds ${from}`);
    text = text.replace(from, to);
  };
  replace('p_daily_cap bigint, p_monthly_cap bigint)', 'p_daily_cap bigint, p_monthly_cap bigint, p_step text)');
  replace(
    `IF ledger_take_withdrawable(p_account_id, p_amount + p_fee, true, p_account_id || ':pending_out',
            'withdrawal_reserved', p_id, NULL, true, p_at) IS NULL THEN`,
    'IF NOT withdrawal_book(p_id, p_step, p_at, NULL) THEN',
  );
  return text;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE transactions ADD COLUMN pending_transfer_id bigint REFERENCES ledger_transfers(id)`.execute(db);
  await sql`ALTER TABLE refunds ADD COLUMN pending_transfer_id bigint REFERENCES ledger_transfers(id)`.execute(db);
  // Every reservation made before: a withdrawal's (its refund_id is null) and a refund's.
  await sql`
    UPDATE transactions t SET pending_transfer_id = p.id
    FROM ledger_transfers p
    WHERE p.transaction_id = t.id AND p.pending AND p.refund_id IS NULL AND t.type = 'withdrawal'`.execute(db);
  await sql`UPDATE refunds r SET pending_transfer_id = p.id FROM ledger_transfers p WHERE p.refund_id = r.id AND p.pending`.execute(db);

  // Completes one pending transfer (post or void) by its id: it must be pending and not completed yet, and
  // the legs must release from pending_out exactly what it put there. The completion carries the pending
  // transfer's transaction and refund.
  await sql
    .raw(
      `CREATE FUNCTION ledger_complete(p_pending bigint, p_reason text, p_at timestamptz, p_accounts text[], p_amounts bigint[])
        RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        v_pending ledger_transfers;
        v_reserved bigint;
        v_released bigint;
      BEGIN
        SELECT * INTO v_pending FROM ledger_transfers WHERE id = p_pending AND pending;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'no pending transfer % to %', p_pending, p_reason;
        END IF;
        IF EXISTS (SELECT 1 FROM ledger_transfers WHERE pending_id = p_pending) THEN
          RAISE EXCEPTION 'pending transfer % of % is completed already: not %', p_pending, v_pending.transaction_id, p_reason;
        END IF;
        SELECT sum(amount_cents) INTO v_reserved FROM ledger_entries WHERE transfer_id = p_pending AND account_id LIKE '%:pending_out';
        SELECT -sum(amount) INTO v_released FROM unnest(p_accounts, p_amounts) AS leg(account, amount) WHERE account LIKE '%:pending_out';
        IF v_released IS DISTINCT FROM v_reserved THEN
          RAISE EXCEPTION 'pending transfer %: % releases % of the % pending', p_pending, p_reason, v_released, v_reserved;
        END IF;
        RETURN ledger_transfer(p_reason, v_pending.transaction_id, NULL, false, p_pending, p_at, p_accounts, p_amounts, v_pending.refund_id);
      END $$`,
    )
    .execute(db);

  // A withdrawal's ledger steps. reserve: amount + fee from available (less holds) to pending_out, pending
  // (false when not covered, nothing moved); post: pending_out to the PSP (amount) and PixGate (fee); void:
  // pending_out back to available; return: what the beneficiary's bank gave back (p_cents), PSP to
  // available; none: nothing.
  await sql
    .raw(
      `CREATE FUNCTION withdrawal_book(p_id text, p_step text, p_at timestamptz, p_cents bigint) RETURNS boolean LANGUAGE plpgsql AS $$
      DECLARE
        v transactions;
        v_pending bigint;
      BEGIN
        SELECT * INTO v FROM transactions WHERE id = p_id AND type = 'withdrawal';
        IF NOT FOUND THEN
          RAISE EXCEPTION 'withdrawal % not found', p_id;
        END IF;
        CASE p_step
          WHEN 'none' THEN
            NULL;
          WHEN 'reserve' THEN
            v_pending := ledger_take_withdrawable(v.account_id, v.net_cents, true, v.account_id || ':pending_out',
              'withdrawal_reserved', p_id, NULL, true, p_at);
            IF v_pending IS NULL THEN
              RETURN false;
            END IF;
            UPDATE transactions SET pending_transfer_id = v_pending WHERE id = p_id;
          WHEN 'post' THEN
            PERFORM ledger_complete(v.pending_transfer_id, 'withdrawal_posted', p_at,
              ARRAY[v.account_id || ':pending_out', 'system:psp_settlement', 'system:fee_revenue'],
              ARRAY[-v.net_cents, v.amount_cents, v.fee_cents]);
          WHEN 'void' THEN
            PERFORM ledger_complete(v.pending_transfer_id, 'withdrawal_voided', p_at,
              ARRAY[v.account_id || ':pending_out', v.account_id || ':available'], ARRAY[-v.net_cents, v.net_cents]);
          WHEN 'return' THEN
            PERFORM ledger_transfer('withdrawal_returned', p_id, NULL, false, NULL, p_at,
              ARRAY['system:psp_settlement', v.account_id || ':available'], ARRAY[-p_cents, p_cents]);
          ELSE
            RAISE EXCEPTION 'withdrawal %: no ledger step %', p_id, p_step;
        END CASE;
        RETURN true;
      END $$`,
    )
    .execute(db);

  await sql
    .raw(
      `CREATE FUNCTION withdrawal_move(p_id text, p_from_status text, p_from_provider_state text, p_to_status text, p_to_provider_state text,
        p_step text, p_at timestamptz, p_cents bigint, p_changes jsonb, p_event_ids text[], p_event_names text[], p_payloads text[])
        RETURNS SETOF transactions LANGUAGE plpgsql AS $$
      DECLARE
        v transactions;
        n transactions;
      BEGIN
        SELECT * INTO v FROM transactions WHERE id = p_id AND type = 'withdrawal' FOR UPDATE;
        IF NOT FOUND OR v.status <> p_from_status OR v.provider_state IS DISTINCT FROM p_from_provider_state THEN
          RAISE EXCEPTION 'withdrawal % is %/%, not %/%', p_id, v.status, coalesce(v.provider_state, '-'), p_from_status, coalesce(p_from_provider_state, '-')
            USING ERRCODE = 'PXM01';
        END IF;
        -- A move that books nothing (most of them) skips the booking's read of the row.
        IF p_step <> 'none' AND NOT withdrawal_book(p_id, p_step, p_at, p_cents) THEN
          RETURN;
        END IF;
        n := jsonb_populate_record(v, p_changes);
        UPDATE transactions SET status = p_to_status, provider_state = p_to_provider_state,
          provider_ref = n.provider_ref, refused_code = n.refused_code, refused_reason = n.refused_reason, paid_at = n.paid_at,
          updated_at = n.updated_at, end_to_end_id = n.end_to_end_id, beneficiary = n.beneficiary, refunded_cents = n.refunded_cents,
          refund_end_to_end_id = n.refund_end_to_end_id, resolved_by = n.resolved_by, resolution_note = n.resolution_note,
          resolved_at = n.resolved_at
        WHERE id = p_id RETURNING * INTO v;
        INSERT INTO outbox_events (id, account_id, event, transaction_id, payload, created_at)
        SELECT event.id, v.account_id, event.name, p_id, event.payload::json, p_at
        FROM unnest(p_event_ids, p_event_names, p_payloads) AS event(id, name, payload);
        RETURN NEXT v;
      END $$`,
    )
    .execute(db);

  // A refund's ledger steps. reserve: its amount from available (less holds) to pending_out, pending (false
  // when not covered); post: pending_out to the PSP, or, when the provider paid past what the charge could
  // give (p_beyond), the reservation voided and the PSP's payment booked to suspense; void: back to available.
  await sql
    .raw(
      `CREATE FUNCTION refund_book(p_id text, p_step text, p_at timestamptz, p_beyond boolean) RETURNS boolean LANGUAGE plpgsql AS $$
      DECLARE
        v refunds;
        v_pending bigint;
      BEGIN
        SELECT * INTO v FROM refunds WHERE id = p_id;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'refund % not found', p_id;
        END IF;
        CASE p_step
          WHEN 'none' THEN
            NULL;
          WHEN 'reserve' THEN
            v_pending := ledger_take_withdrawable(v.account_id, v.amount_cents, true, v.account_id || ':pending_out',
              'refund_reserved', v.transaction_id, NULL, true, p_at, p_id);
            IF v_pending IS NULL THEN
              RETURN false;
            END IF;
            UPDATE refunds SET pending_transfer_id = v_pending WHERE id = p_id;
          WHEN 'post' THEN
            IF p_beyond THEN
              PERFORM ledger_complete(v.pending_transfer_id, 'refund_voided', p_at,
                ARRAY[v.account_id || ':pending_out', v.account_id || ':available'], ARRAY[-v.amount_cents, v.amount_cents]);
              PERFORM ledger_transfer('refund_beyond_charge', v.transaction_id, NULL, false, NULL, p_at,
                ARRAY['system:suspense', 'system:psp_settlement'], ARRAY[-v.amount_cents, v.amount_cents], p_id);
            ELSE
              PERFORM ledger_complete(v.pending_transfer_id, 'refund_posted', p_at,
                ARRAY[v.account_id || ':pending_out', 'system:psp_settlement'], ARRAY[-v.amount_cents, v.amount_cents]);
            END IF;
          WHEN 'void' THEN
            PERFORM ledger_complete(v.pending_transfer_id, 'refund_voided', p_at,
              ARRAY[v.account_id || ':pending_out', v.account_id || ':available'], ARRAY[-v.amount_cents, v.amount_cents]);
          ELSE
            RAISE EXCEPTION 'refund %: no ledger step %', p_id, p_step;
        END CASE;
        RETURN true;
      END $$`,
    )
    .execute(db);

  await sql
    .raw(
      `CREATE FUNCTION refund_move(p_id text, p_from_status text, p_to_status text, p_step text, p_at timestamptz, p_beyond boolean)
        RETURNS SETOF refunds LANGUAGE plpgsql AS $$
      DECLARE
        v refunds;
      BEGIN
        SELECT * INTO v FROM refunds WHERE id = p_id FOR UPDATE;
        IF NOT FOUND OR v.status <> p_from_status THEN
          RAISE EXCEPTION 'refund % is %, not %', p_id, v.status, p_from_status USING ERRCODE = 'PXM01';
        END IF;
        IF p_step <> 'none' AND NOT refund_book(p_id, p_step, p_at, p_beyond) THEN
          RETURN;
        END IF;
        UPDATE refunds SET status = p_to_status WHERE id = p_id RETURNING * INTO v;
        RETURN NEXT v;
      END $$`,
    )
    .execute(db);

  // A charge's ledger step of its own: credit (paid: the payer's amount arrived at the PSP, the merchant gets
  // amount − fee, PixGate the fee). What it gives back later is booked by the refund's post or by the
  // take-back of a chargeback or a devolução (src/charges/charge.machine.ts).
  await sql
    .raw(
      `CREATE FUNCTION charge_book(p_id text, p_step text, p_at timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
      DECLARE
        v transactions;
      BEGIN
        SELECT * INTO v FROM transactions WHERE id = p_id AND type = 'pix_in';
        IF NOT FOUND THEN
          RAISE EXCEPTION 'charge % not found', p_id;
        END IF;
        CASE p_step
          WHEN 'none' THEN
            NULL;
          WHEN 'credit' THEN
            PERFORM ledger_transfer('charge_paid', p_id, NULL, false, NULL, p_at,
              ARRAY['system:psp_settlement', v.account_id || ':available', 'system:fee_revenue'],
              ARRAY[-v.amount_cents, v.amount_cents - v.fee_cents, v.fee_cents]);
          ELSE
            RAISE EXCEPTION 'charge %: no ledger step % of its own', p_id, p_step;
        END CASE;
        RETURN true;
      END $$`,
    )
    .execute(db);

  await sql
    .raw(
      `CREATE FUNCTION charge_move(p_id text, p_from_status text, p_to_status text, p_step text, p_at timestamptz)
        RETURNS SETOF transactions LANGUAGE plpgsql AS $$
      DECLARE
        v transactions;
      BEGIN
        SELECT * INTO v FROM transactions WHERE id = p_id AND type = 'pix_in' FOR UPDATE;
        IF NOT FOUND OR v.status <> p_from_status THEN
          RAISE EXCEPTION 'charge % is %, not %', p_id, v.status, p_from_status USING ERRCODE = 'PXM01';
        END IF;
        IF p_step <> 'none' THEN
          PERFORM charge_book(p_id, p_step, p_at);
        END IF;
        UPDATE transactions SET status = p_to_status WHERE id = p_id RETURNING * INTO v;
        RETURN NEXT v;
      END $$`,
    )
    .execute(db);

  await sql`DROP FUNCTION withdrawal_reserve`.execute(db);
  await sql.raw(withdrawalReserveBookingItsStep()).execute(db);
  await sql`DROP FUNCTION withdrawal_send_outcome(text, text, text, text, timestamptz, text[], text[], text[], text[], bigint[])`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(WITHDRAWAL_SEND_OUTCOME_010).execute(db);
  await sql`DROP FUNCTION withdrawal_reserve`.execute(db);
  await sql.raw(WITHDRAWAL_RESERVE_010).execute(db);
  await sql`DROP FUNCTION charge_move(text, text, text, text, timestamptz)`.execute(db);
  await sql`DROP FUNCTION charge_book(text, text, timestamptz)`.execute(db);
  await sql`DROP FUNCTION refund_move(text, text, text, text, timestamptz, boolean)`.execute(db);
  await sql`DROP FUNCTION refund_book(text, text, timestamptz, boolean)`.execute(db);
  await sql`DROP FUNCTION withdrawal_move(text, text, text, text, text, text, timestamptz, bigint, jsonb, text[], text[], text[])`.execute(db);
  await sql`DROP FUNCTION withdrawal_book(text, text, timestamptz, bigint)`.execute(db);
  await sql`DROP FUNCTION ledger_complete(bigint, text, timestamptz, text[], bigint[])`.execute(db);
  await sql`ALTER TABLE refunds DROP COLUMN pending_transfer_id`.execute(db);
  await sql`ALTER TABLE transactions DROP COLUMN pending_transfer_id`.execute(db);
}
