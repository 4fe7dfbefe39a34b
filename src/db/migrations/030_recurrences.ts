import { sql, type Kysely } from 'kysely';

/**
 * Pix Automático (issue 37, API Pix `rec`, `solicrec`, `cobr`; docs/decisions.md "Pix Automático").
 *
 * - `recurrences`: what the payer authorises once (who pays, for what, how often, how much, the retry
 *   policy), its consent journey and where it stands, the provider's id (`idRec`), the history of its
 *   status (a JSON array, appended under the row's lock), and the scheduler's cursor: `next_sequence` and
 *   `next_cycle_date`, the due date of the next cycle not yet sent to the payer's bank (NULL: none left).
 *   `external_ref` names a recurrence of an account for good.
 * - `recurrence_cycles`: one per cycle sent, each a `pix_in` transaction (`charge_kind = 'recurring'`,
 *   `transactions.recurrence_id`), with its dates, its own status and attempts; one per sequence.
 * - `transactions.recurrence_id`: a cycle, or the immediate first payment of a `qrcode_with_payment`
 *   consent (an immediate charge, `charge_kind` NULL), named by `recurrences.first_payment_id` (no foreign
 *   key: the charge is stored with the recurrence, each naming the other).
 * - `sim_psp_recurrences`, `sim_psp_recurring_charges`: the simulated provider's own records of them (the
 *   payer's bank's answers included), as a real provider keeps them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const date = (column: string) => sql.raw(`${column} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`);
  await sql`
    CREATE TABLE recurrences (
      id text PRIMARY KEY CHECK (id ~ '^rec_[0-9a-f]{24}$'),
      account_id text NOT NULL REFERENCES accounts (id),
      provider_ref text NOT NULL UNIQUE,
      status text NOT NULL CHECK (status IN ('created', 'approved', 'rejected', 'expired', 'cancelled')),
      payer jsonb NOT NULL,
      contract text NOT NULL CHECK (char_length(contract) BETWEEN 1 AND 35),
      object text CHECK (char_length(object) BETWEEN 1 AND 35),
      periodicity text NOT NULL CHECK (periodicity IN ('weekly', 'monthly', 'quarterly', 'half_yearly', 'yearly')),
      start_date text NOT NULL CHECK (${date('start_date')}),
      end_date text CHECK (${date('end_date')} AND end_date >= start_date),
      amount_cents bigint CHECK (amount_cents > 0),
      minimum_amount_cents bigint CHECK (minimum_amount_cents > 0),
      payer_maximum_cents bigint CHECK (payer_maximum_cents > 0),
      retry_policy text NOT NULL CHECK (retry_policy IN ('none', 'three_in_seven_days')),
      consent_journey text NOT NULL CHECK (consent_journey IN ('request', 'qrcode', 'qrcode_with_payment')),
      consent_status text NOT NULL CHECK (consent_status IN ('pending', 'accepted', 'rejected', 'expired', 'cancelled')),
      consent_ref text,
      consent_expires_at timestamptz,
      payer_account jsonb,
      pix_payload text,
      first_payment_id text,
      activation_journey text CHECK (activation_journey IN ('request', 'qrcode', 'qrcode_with_payment', 'due_charge_qrcode')),
      activated_at timestamptz,
      ended jsonb,
      history jsonb NOT NULL DEFAULT '[]'::jsonb,
      next_sequence integer NOT NULL DEFAULT 1 CHECK (next_sequence >= 1),
      next_cycle_date text CHECK (${date('next_cycle_date')}),
      external_ref text CHECK (char_length(external_ref) BETWEEN 1 AND 100),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK (amount_cents IS NULL OR minimum_amount_cents IS NULL)
    )`.execute(db);
  await sql`CREATE INDEX recurrences_by_account ON recurrences (account_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE UNIQUE INDEX recurrences_external_ref ON recurrences (account_id, external_ref) WHERE external_ref IS NOT NULL`.execute(db);
  // The scheduler's scan: approved recurrences with a cycle left, by the date it falls due.
  await sql`CREATE INDEX recurrences_to_schedule ON recurrences (next_cycle_date) WHERE status = 'approved' AND next_cycle_date IS NOT NULL`.execute(db);

  await sql`ALTER TABLE transactions ADD COLUMN recurrence_id text REFERENCES recurrences (id)`.execute(db);
  await sql`CREATE INDEX transactions_by_recurrence ON transactions (recurrence_id, created_at DESC, id DESC) WHERE recurrence_id IS NOT NULL`.execute(db);
  await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_charge_kind_check`.execute(db);
  await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_charge_kind_check CHECK (charge_kind IN ('due', 'static', 'recurring'))`.execute(db);

  await sql`
    CREATE TABLE recurrence_cycles (
      transaction_id text PRIMARY KEY REFERENCES transactions (id),
      recurrence_id text NOT NULL REFERENCES recurrences (id),
      account_id text NOT NULL,
      sequence integer NOT NULL CHECK (sequence >= 1),
      due_date text NOT NULL CHECK (${date('due_date')}),
      settlement_date text NOT NULL CHECK (${date('settlement_date')} AND settlement_date >= due_date),
      status text NOT NULL CHECK (status IN ('scheduled', 'retrying', 'paid', 'failed', 'expired', 'cancelled')),
      attempts jsonb NOT NULL DEFAULT '[]'::jsonb,
      retries integer NOT NULL DEFAULT 0 CHECK (retries BETWEEN 0 AND 3),
      refusal_code text,
      refusal_reason text,
      cancelled_by text CHECK (cancelled_by IN ('merchant', 'payer', 'payer_bank', 'provider')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (recurrence_id, sequence)
    )`.execute(db);
  // Open cycles by recurrence (cancellation), and those whose last chance has passed (the expiry job).
  await sql`CREATE INDEX recurrence_cycles_open ON recurrence_cycles (recurrence_id) WHERE status IN ('scheduled', 'retrying')`.execute(db);

  await sql`
    CREATE TABLE sim_psp_recurrences (
      id_rec text PRIMARY KEY,
      body jsonb NOT NULL,
      status text NOT NULL,
      solicrec_id text UNIQUE,
      charge_ref text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE sim_psp_recurring_charges (
      txid text PRIMARY KEY,
      id_rec text NOT NULL REFERENCES sim_psp_recurrences (id_rec),
      body jsonb NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS sim_psp_recurring_charges`.execute(db);
  await sql`DROP TABLE IF EXISTS sim_psp_recurrences`.execute(db);
  await sql`DROP TABLE IF EXISTS recurrence_cycles`.execute(db);
  await sql`DROP INDEX IF EXISTS transactions_by_recurrence`.execute(db);
  await sql`ALTER TABLE transactions DROP COLUMN IF EXISTS recurrence_id`.execute(db);
  await sql`ALTER TABLE transactions DROP CONSTRAINT transactions_charge_kind_check`.execute(db);
  await sql`UPDATE transactions SET charge_kind = NULL WHERE charge_kind = 'recurring'`.execute(db);
  await sql`ALTER TABLE transactions ADD CONSTRAINT transactions_charge_kind_check CHECK (charge_kind IN ('due', 'static'))`.execute(db);
  await sql`DROP TABLE IF EXISTS recurrences`.execute(db);
}
