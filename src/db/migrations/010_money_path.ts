import { sql, type Kysely } from 'kysely';

/**
 * The money path in few round trips (issue 19, docs/decisions.md "The money path in few round trips").
 *
 * - `withdrawal_reserve(...)`: POST /v1/withdraw's whole reservation as ONE statement (one database round
 *   trip, its own transaction): claim the externalRef, take a slot of each rate-limit window, lock the
 *   available balance, check that a recipient is still active, check the daily and monthly caps, insert the
 *   withdrawal (`initiating`, `sending`), make its pending transfer and raise the third-party alert. Every
 *   refusal is an exception with its own SQLSTATE, so the statement rolls back whole: the rate-limit slots
 *   and the externalRef claimed are returned by the rollback, never by hand.
 *     PXW01 rate limited (DETAIL: second | minute | hour)   PXW02 externalRef taken (DETAIL: its transaction)
 *     PXW03 recipient no longer active                      PXW04 a cap refuses it (DETAIL: day | month)
 *     PXW05 balance (available less holds) does not cover it
 * - `withdrawal_send_outcome(...)`: the PSP's answer to that send as ONE statement: the status, the
 *   provider's reference, the void of the pending transfer when the PSP refused (with the alert, the
 *   externalRef and the rate-limit slots given back), and the events' outbox rows (rendered by the caller).
 *   Only for a withdrawal the merchant has not been told about yet (`initiating`); anything else is PXW06
 *   and the caller takes the general path. A withdrawal no longer in flight is returned unchanged.
 * - `outbox_events.fanned_out`: a money transaction writes one outbox row per event and nothing else;
 *   the delivery worker creates the deliveries (src/webhooks/delivery.service.ts `fanOutEvents`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Every event written before this migration already has its deliveries.
  await sql`ALTER TABLE outbox_events ADD COLUMN fanned_out boolean NOT NULL DEFAULT true`.execute(db);
  await sql`ALTER TABLE outbox_events ALTER COLUMN fanned_out SET DEFAULT false`.execute(db);
  await sql`CREATE INDEX outbox_events_to_fan_out ON outbox_events (created_at) WHERE NOT fanned_out`.execute(db);

  await sql.raw(WITHDRAWAL_RESERVE_010).execute(db);
  await sql.raw(WITHDRAWAL_SEND_OUTCOME_010).execute(db);
}

/** `withdrawal_reserve` as this migration wrote it (migration 025 replaces it, and restores it on the way down). */
export const WITHDRAWAL_RESERVE_010 = `CREATE FUNCTION withdrawal_reserve(
        p_id text, p_account_id text, p_amount bigint, p_fee bigint, p_external_ref text, p_key_expires_at timestamptz,
        p_pix_key text, p_pix_key_type text, p_description text, p_recipient_id text, p_at timestamptz,
        p_buckets text[], p_window_indexes bigint[], p_window_expires timestamptz[], p_limits integer[], p_window_names text[],
        p_day date, p_month date, p_daily_cap bigint, p_monthly_cap bigint) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        v_existing text;
        v_count integer;
        v_status text;
        v_day bigint;
        v_month bigint;
        i integer;
      BEGIN
        -- Withdrawals of one account are serialised here, first: the caps and the balance see every earlier
        -- one, and the account's other hot rows (rate-limit counters, totals) are then never contended.
        PERFORM 1 FROM ledger_accounts WHERE id = p_account_id || ':available' FOR UPDATE;

        IF p_external_ref IS NOT NULL THEN
          INSERT INTO idempotency_keys AS k (account_id, scope, external_ref, transaction_id, expires_at)
          VALUES (p_account_id, 'withdrawal', p_external_ref, p_id, p_key_expires_at)
          ON CONFLICT (account_id, scope, external_ref) DO UPDATE
            SET transaction_id = excluded.transaction_id, expires_at = excluded.expires_at
            WHERE k.expires_at <= p_at
          RETURNING transaction_id INTO v_existing;
          IF v_existing IS NULL THEN
            SELECT transaction_id INTO v_existing FROM idempotency_keys
            WHERE account_id = p_account_id AND scope = 'withdrawal' AND external_ref = p_external_ref;
            RAISE EXCEPTION 'externalRef taken' USING ERRCODE = 'PXW02', DETAIL = v_existing;
          END IF;
        END IF;

        FOR i IN 1 .. coalesce(array_length(p_buckets, 1), 0) LOOP
          v_count := NULL;
          IF p_limits[i] > 0 THEN
            INSERT INTO rate_limit_counters AS c (account_id, bucket, window_index, count, expires_at)
            VALUES (p_account_id, p_buckets[i], p_window_indexes[i], 1, p_window_expires[i])
            ON CONFLICT (account_id, bucket, window_index) DO UPDATE SET count = c.count + 1
              WHERE c.count < p_limits[i]
            RETURNING count INTO v_count;
          END IF;
          IF v_count IS NULL THEN
            RAISE EXCEPTION 'rate limited' USING ERRCODE = 'PXW01', DETAIL = p_window_names[i];
          END IF;
        END LOOP;

        IF p_recipient_id IS NOT NULL THEN
          SELECT status INTO v_status FROM recipients WHERE account_id = p_account_id AND id = p_recipient_id FOR SHARE;
          IF v_status IS DISTINCT FROM 'active' THEN
            RAISE EXCEPTION 'recipient not active' USING ERRCODE = 'PXW03';
          END IF;
        END IF;

        SELECT coalesce(sum(total_cents) FILTER (WHERE period = 'day'), 0), coalesce(sum(total_cents) FILTER (WHERE period = 'month'), 0)
        INTO v_day, v_month FROM withdrawal_totals
        WHERE account_id = p_account_id AND ((period = 'day' AND period_start = p_day) OR (period = 'month' AND period_start = p_month));
        IF v_day + p_amount > p_daily_cap THEN
          RAISE EXCEPTION 'daily cap' USING ERRCODE = 'PXW04', DETAIL = 'day';
        END IF;
        IF v_month + p_amount > p_monthly_cap THEN
          RAISE EXCEPTION 'monthly cap' USING ERRCODE = 'PXW04', DETAIL = 'month';
        END IF;

        INSERT INTO transactions (id, account_id, type, status, amount_cents, fee_cents, net_cents, total_deducted_cents,
          external_ref, pix_key, pix_key_type, description, recipient_id, provider_state, created_at, updated_at)
        VALUES (p_id, p_account_id, 'withdrawal', 'initiating', p_amount, p_fee, p_amount + p_fee, p_amount + p_fee,
          p_external_ref, p_pix_key, p_pix_key_type, p_description, p_recipient_id, 'sending', p_at, p_at);

        IF ledger_take_withdrawable(p_account_id, p_amount + p_fee, true, p_account_id || ':pending_out',
            'withdrawal_reserved', p_id, NULL, true, p_at) IS NULL THEN
          RAISE EXCEPTION 'insufficient balance' USING ERRCODE = 'PXW05';
        END IF;

        IF p_recipient_id IS NOT NULL THEN
          INSERT INTO withdrawal_alerts (account_id, transaction_id, recipient_id, amount_cents, pix_key_type, created_at)
          VALUES (p_account_id, p_id, p_recipient_id, p_amount, p_pix_key_type, p_at);
        END IF;
      END $$`;

/** `withdrawal_send_outcome` as this migration wrote it (migration 025 drops it, and restores it on the way down). */
export const WITHDRAWAL_SEND_OUTCOME_010 = `CREATE FUNCTION withdrawal_send_outcome(
        p_id text, p_status text, p_provider_state text, p_provider_ref text, p_at timestamptz,
        p_event_ids text[], p_event_names text[], p_payloads text[],
        p_buckets text[], p_window_indexes bigint[]) RETURNS SETOF transactions LANGUAGE plpgsql AS $$
      DECLARE
        v_row transactions;
      BEGIN
        SELECT * INTO v_row FROM transactions WHERE id = p_id FOR UPDATE;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'withdrawal % vanished', p_id;
        END IF;
        IF v_row.provider_state IS DISTINCT FROM 'sending' THEN
          RETURN NEXT v_row;
          RETURN;
        END IF;
        IF v_row.status <> 'initiating' THEN
          RAISE EXCEPTION 'withdrawal % is %: general path', p_id, v_row.status USING ERRCODE = 'PXW06';
        END IF;

        IF p_status = 'aborted' THEN
          PERFORM ledger_complete_pending(p_id, 'withdrawal_voided', p_at,
            ARRAY[v_row.account_id || ':pending_out', v_row.account_id || ':available'], ARRAY[-v_row.net_cents, v_row.net_cents]);
          DELETE FROM withdrawal_alerts WHERE transaction_id = p_id;
          DELETE FROM idempotency_keys WHERE account_id = v_row.account_id AND scope = 'withdrawal' AND transaction_id = p_id;
          UPDATE rate_limit_counters c SET count = c.count - 1
          FROM unnest(p_buckets, p_window_indexes) AS slot(bucket, window_index)
          WHERE c.account_id = v_row.account_id AND c.bucket = slot.bucket AND c.window_index = slot.window_index AND c.count > 0;
        END IF;

        UPDATE transactions
        SET status = p_status, provider_state = p_provider_state, provider_ref = coalesce(p_provider_ref, provider_ref), updated_at = p_at
        WHERE id = p_id
        RETURNING * INTO v_row;

        INSERT INTO outbox_events (id, account_id, event, transaction_id, payload, created_at)
        SELECT event.id, v_row.account_id, event.name, p_id, event.payload::json, p_at
        FROM unnest(p_event_ids, p_event_names, p_payloads) AS event(id, name, payload);

        RETURN NEXT v_row;
      END $$`;

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS withdrawal_send_outcome(text, text, text, text, timestamptz, text[], text[], text[], text[], bigint[])`.execute(db);
  await sql`DROP FUNCTION IF EXISTS withdrawal_reserve`.execute(db);
  await sql`DROP INDEX IF EXISTS outbox_events_to_fan_out`.execute(db);
  await sql`ALTER TABLE outbox_events DROP COLUMN IF EXISTS fanned_out`.execute(db);
}
