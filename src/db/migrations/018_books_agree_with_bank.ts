import { sql, type Kysely } from 'kysely';

/**
 * The books agree with the bank (issue 32, docs/decisions.md "The books agree with the bank").
 *
 * - `transactions.refunding_cents`: what a charge's refunds in flight have reserved. With `refunded_cents`
 *   (refunds confirmed, chargebacks and devoluções made outside the API, as booked) it bounds what the charge
 *   can still give back: the statements that reserve a refund and book an operator's chargeback add to them
 *   only while `refunded + refunding + amount <= amount_cents` (transaction.repository.ts), and the database
 *   refuses any write that takes `refunded_cents` past the amount or either below zero
 *   (`transactions_returns_bounded`; NOT VALID so a ledger already wrong can still be migrated, its rows
 *   reported by the check).
 * - `transactions.provider_status` / `provider_status_at`: a withdrawal's last word from the provider (its
 *   read, its callback, the reconciliation's listing), kept after the withdrawal is final: the ledger check
 *   compares a resolution with it, the reconciliation a booking.
 * - The status stamp (migration 011) also fires when `refunded_cents`, `refunding_cents` or
 *   `provider_status` change, so the incremental check re-reads those rows.
 * - `refunds.acknowledged_at`: when the merchant was first told of the refund (201, or an idempotent 200):
 *   such a refund must never end `aborted`.
 * - `holds.infraction_id`, `holds.deadline_at`: a MED hold names the provider's infraction and its deadline.
 * - `infractions`: the provider's MED infractions on received Pix, as PixGate follows them.
 * - `provider_devolucoes`: devoluções of received Pix made by the provider, not through PixGate's refunds
 *   (MED, or one made outside the API), each booked once; one the back office asks for (a chargeback, the
 *   sandbox's devolução) is `claimed` first, its amount held in the charge's `refunding_cents` until the
 *   provider has made it (`booked`) or refused it (`released`).
 * - `reconciliation_runs`, `reconciliation_breaks`: the daily comparison of the ledger with the provider's
 *   own listings and balance; each difference a break, recorded once, resolved with a note.
 * - `sim_psp_received`, `sim_psp_devolucoes`, `sim_psp_infractions`: the simulated provider's own record
 *   of received Pix, of the devoluções it made and of its infractions, as a real provider keeps them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE transactions ADD COLUMN refunding_cents bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`
    UPDATE transactions t SET refunding_cents = r.cents
    FROM (SELECT transaction_id, sum(amount_cents) AS cents FROM refunds WHERE status IN ('initiating', 'processing') GROUP BY transaction_id) r
    WHERE t.id = r.transaction_id`.execute(db);
  await sql`
    ALTER TABLE transactions ADD CONSTRAINT transactions_returns_bounded CHECK (
      refunding_cents >= 0 AND coalesce(refunded_cents, 0) >= 0
      AND coalesce(refunded_cents, 0) <= amount_cents AND refunding_cents <= amount_cents) NOT VALID`.execute(db);
  await sql`ALTER TABLE transactions ADD COLUMN provider_status text, ADD COLUMN provider_status_at timestamptz`.execute(db);

  await sql`DROP TRIGGER transactions_status_stamp ON transactions`.execute(db);
  await sql`CREATE TRIGGER transactions_status_stamp BEFORE UPDATE OF status, refunded_cents, refunding_cents, provider_status ON transactions
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.refunded_cents IS DISTINCT FROM NEW.refunded_cents
      OR OLD.refunding_cents IS DISTINCT FROM NEW.refunding_cents OR OLD.provider_status IS DISTINCT FROM NEW.provider_status)
    EXECUTE FUNCTION transactions_stamp_status()`.execute(db);

  await sql`ALTER TABLE refunds ADD COLUMN acknowledged_at timestamptz`.execute(db);
  await sql`UPDATE refunds SET acknowledged_at = updated_at WHERE status IN ('processing', 'refunded', 'failed')`.execute(db);

  await sql`ALTER TABLE holds ADD COLUMN infraction_id text, ADD COLUMN deadline_at timestamptz`.execute(db);
  await sql`CREATE UNIQUE INDEX holds_infraction ON holds (infraction_id) WHERE infraction_id IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE infractions (
      id text PRIMARY KEY,
      account_id text REFERENCES accounts(id),
      transaction_id text REFERENCES transactions(id),
      end_to_end_id text NOT NULL,
      hold_id text REFERENCES holds(id),
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      status text NOT NULL CHECK (status IN ('open', 'defending', 'accepted', 'rejected', 'cancelled')),
      provider_status text NOT NULL,
      reason text,
      situation text,
      opened_at timestamptz NOT NULL,
      deadline_at timestamptz,
      blocked_at timestamptz,
      defence text,
      defence_analysis text CHECK (defence_analysis IN ('aceito', 'rejeitado')),
      defence_by text,
      defence_sent_at timestamptz,
      closed_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX infractions_transaction ON infractions (transaction_id)`.execute(db);
  await sql`CREATE INDEX infractions_account ON infractions (account_id, opened_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX infractions_open ON infractions (opened_at) WHERE status IN ('open', 'defending')`.execute(db);

  await sql`
    CREATE TABLE provider_devolucoes (
      end_to_end_id text NOT NULL,
      id text NOT NULL,
      rtr_id text,
      transaction_id text REFERENCES transactions(id),
      hold_id text REFERENCES holds(id),
      natureza text NOT NULL,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      status text NOT NULL CHECK (status IN ('claimed', 'booked', 'released')),
      booked_as text CHECK (booked_as IN ('chargeback', 'refund', 'unmatched', 'suspense')),
      shortfall_cents bigint NOT NULL DEFAULT 0 CHECK (shortfall_cents >= 0),
      returned_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (end_to_end_id, id),
      CHECK ((status = 'booked') = (booked_as IS NOT NULL))
    )`.execute(db);
  await sql`CREATE INDEX provider_devolucoes_transaction ON provider_devolucoes (transaction_id)`.execute(db);
  await sql`CREATE INDEX provider_devolucoes_claimed ON provider_devolucoes (created_at) WHERE status = 'claimed'`.execute(db);
  // A devolução is found by the Pix it returns: the charge whose end-to-end id it names.
  await sql`CREATE INDEX transactions_end_to_end ON transactions (end_to_end_id) WHERE end_to_end_id IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE reconciliation_runs (
      id bigserial PRIMARY KEY,
      day text NOT NULL CHECK (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      trigger text NOT NULL,
      started_at timestamptz NOT NULL,
      finished_at timestamptz,
      status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
      received integer,
      sent integer,
      devolucoes integer,
      breaks_found integer,
      breaks_new integer,
      provider_balance_cents bigint,
      ledger_balance_cents bigint,
      error text
    )`.execute(db);
  await sql`CREATE INDEX reconciliation_runs_day ON reconciliation_runs (day DESC, id DESC)`.execute(db);
  await sql`
    CREATE TABLE reconciliation_breaks (
      id text PRIMARY KEY,
      kind text NOT NULL,
      key text NOT NULL,
      day text,
      account_id text REFERENCES accounts(id),
      transaction_id text REFERENCES transactions(id),
      refund_id text REFERENCES refunds(id),
      end_to_end_id text,
      ledger_cents bigint,
      provider_cents bigint,
      suspense_cents bigint NOT NULL DEFAULT 0,
      balance_cents bigint NOT NULL DEFAULT 0,
      detail text NOT NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
      first_seen_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      seen_count integer NOT NULL DEFAULT 1,
      first_run_id bigint REFERENCES reconciliation_runs(id),
      last_run_id bigint REFERENCES reconciliation_runs(id),
      resolved_at timestamptz,
      resolved_by text,
      resolution_note text,
      settlement text CHECK (settlement IN ('write_off', 'charge_merchant', 'book_difference')),
      CONSTRAINT reconciliation_breaks_once UNIQUE (kind, key)
    )`.execute(db);
  await sql`CREATE INDEX reconciliation_breaks_open ON reconciliation_breaks (first_seen_at, id) WHERE status = 'open'`.execute(db);
  await sql`CREATE INDEX reconciliation_breaks_listing ON reconciliation_breaks (first_seen_at DESC, id DESC)`.execute(db);

  await sql`
    CREATE TABLE sim_psp_received (
      end_to_end_id text PRIMARY KEY,
      provider_ref text,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      payer jsonb,
      received_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX sim_psp_received_at ON sim_psp_received (received_at)`.execute(db);
  await sql`CREATE INDEX sim_psp_received_ref ON sim_psp_received (provider_ref)`.execute(db);
  // The charges the simulation had paid before it kept its own record (their provider_ref is `sim-…`).
  await sql`
    INSERT INTO sim_psp_received (end_to_end_id, provider_ref, amount_cents, payer, received_at)
    SELECT end_to_end_id, provider_ref, amount_cents, payer::jsonb, coalesce(paid_at, updated_at)
    FROM transactions
    WHERE type = 'pix_in' AND end_to_end_id IS NOT NULL AND provider_ref LIKE 'sim-%'
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    CREATE TABLE sim_psp_devolucoes (
      id text PRIMARY KEY,
      end_to_end_id text NOT NULL,
      rtr_id text NOT NULL,
      natureza text NOT NULL,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      returned_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX sim_psp_devolucoes_e2e ON sim_psp_devolucoes (end_to_end_id)`.execute(db);
  await sql`
    CREATE TABLE sim_psp_infractions (
      id text PRIMARY KEY,
      end_to_end_id text NOT NULL,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      status text NOT NULL CHECK (status IN ('ABERTA', 'EM_DEFESA', 'ACEITA', 'REJEITADA', 'CANCELADA_EFI')),
      reason text NOT NULL,
      situation text,
      opened_at timestamptz NOT NULL,
      deadline_at timestamptz NOT NULL,
      blocked_cents bigint NOT NULL DEFAULT 0,
      defence text,
      defence_analysis text,
      closed_at timestamptz,
      updated_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sim_psp_infractions', 'sim_psp_devolucoes', 'sim_psp_received', 'reconciliation_breaks', 'reconciliation_runs', 'provider_devolucoes', 'infractions']) {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
  }
  await sql`DROP INDEX IF EXISTS holds_infraction`.execute(db);
  await sql`ALTER TABLE holds DROP COLUMN IF EXISTS infraction_id, DROP COLUMN IF EXISTS deadline_at`.execute(db);
  await sql`ALTER TABLE refunds DROP COLUMN IF EXISTS acknowledged_at`.execute(db);
  await sql`DROP TRIGGER transactions_status_stamp ON transactions`.execute(db);
  await sql`CREATE TRIGGER transactions_status_stamp BEFORE UPDATE OF status ON transactions
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION transactions_stamp_status()`.execute(db);
  await sql`ALTER TABLE transactions DROP CONSTRAINT IF EXISTS transactions_returns_bounded`.execute(db);
  await sql`ALTER TABLE transactions DROP COLUMN IF EXISTS provider_status, DROP COLUMN IF EXISTS provider_status_at, DROP COLUMN IF EXISTS refunding_cents`.execute(db);
}
