import { sql, type Kysely } from 'kysely';

/**
 * The real provider (issue 21):
 * - `transactions_provider_ref`: a received Pix names its charge by the provider's id (API Pix txid), found
 *   by this index when a callback or the listing safety net reports a payment.
 * - `unmatched_pix`: a Pix received on PixGate's key that was not credited as a charge's payment (its txid
 *   names no charge of ours, its amount differs from the charge's, or the charge could no longer be paid):
 *   the money is at the provider, not in any merchant's balance; recorded once per end-to-end id, alerted
 *   (metric, log, back office) and left to an operator, who returns it or settles it by hand.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX transactions_provider_ref ON transactions (provider_ref) WHERE provider_ref IS NOT NULL`.execute(db);
  await sql`
    CREATE TABLE unmatched_pix (
      end_to_end_id text PRIMARY KEY,
      charge_ref text,
      transaction_id text,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      received_at timestamptz NOT NULL,
      reason text NOT NULL CHECK (reason IN ('unknown_charge', 'amount_mismatch', 'charge_not_payable')),
      payer jsonb,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
      created_at timestamptz NOT NULL,
      resolved_at timestamptz,
      resolved_by text,
      resolution_note text
    )`.execute(db);
  await sql`CREATE INDEX unmatched_pix_open ON unmatched_pix (created_at) WHERE status = 'open'`.execute(db);
}
