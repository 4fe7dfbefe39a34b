import type { Json } from './json.ts';
import type { PartyJson } from './transactions.ts';

/** A Pix received on PixGate's key and not credited as a charge's payment (migration 015), for an operator. */
export interface UnmatchedPixTable {
  end_to_end_id: string;
  /** The provider's charge id the payment named (API Pix txid), if any. */
  charge_ref: string | null;
  /** The charge that txid names, when there is one. */
  transaction_id: string | null;
  amount_cents: number;
  received_at: Date;
  reason: UnmatchedPixReason;
  payer: Json<PartyJson> | null;
  status: 'open' | 'resolved';
  created_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
  resolution_note: string | null;
}

export type UnmatchedPixReason = 'unknown_charge' | 'amount_mismatch' | 'charge_not_payable';
