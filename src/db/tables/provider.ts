import type { Generated } from 'kysely';
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

/** A MED infraction on a received Pix, as the provider reports it and PixGate follows it (migration 018). */
export type InfractionStatus = 'open' | 'defending' | 'accepted' | 'rejected' | 'cancelled';

export interface InfractionsTable {
  /** The provider's id (Efí `idInfracao`). */
  id: string;
  account_id: string | null;
  transaction_id: string | null;
  end_to_end_id: string;
  hold_id: string | null;
  amount_cents: number;
  status: InfractionStatus;
  /** The provider's own status (Efí: ABERTA, EM_DEFESA, ACEITA, REJEITADA, CANCELADA_EFI). */
  provider_status: string;
  reason: string | null;
  situation: string | null;
  opened_at: Date;
  deadline_at: Date | null;
  /** When the provider's cautionary block of the money was first seen. */
  blocked_at: Date | null;
  defence: string | null;
  defence_analysis: 'aceito' | 'rejeitado' | null;
  defence_by: string | null;
  defence_sent_at: Date | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * A devolução of a received Pix made by the provider, not through PixGate's refunds (MED, or made outside the
 * API), booked once. One the back office asks for is `claimed` first (its amount held in the charge's
 * `refunding_cents`), then `booked` once the provider made it, or `released` when it refused it.
 */
export interface ProviderDevolucoesTable {
  end_to_end_id: string;
  id: string;
  rtr_id: string | null;
  transaction_id: string | null;
  /** The hold a chargeback ends. */
  hold_id: string | null;
  natureza: string;
  amount_cents: number;
  status: 'claimed' | 'booked' | 'released';
  /** How it was booked: a chargeback (MED), a refund (made outside the API), a Pix no charge took (unmatched), or all of it to suspense. */
  booked_as: 'chargeback' | 'refund' | 'unmatched' | 'suspense' | null;
  /** What the merchant's balance could not cover (booked to suspense, a reconciliation break). */
  shortfall_cents: number;
  returned_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ReconciliationRunsTable {
  id: Generated<number>;
  /** The São Paulo calendar day compared. */
  day: string;
  trigger: string;
  started_at: Date;
  finished_at: Date | null;
  status: 'running' | 'done' | 'failed';
  received: number | null;
  sent: number | null;
  devolucoes: number | null;
  breaks_found: number | null;
  breaks_new: number | null;
  provider_balance_cents: number | null;
  ledger_balance_cents: number | null;
  error: string | null;
}

export type BreakSettlement = 'write_off' | 'charge_merchant' | 'book_difference';

/** What a reconciliation break is about (openapi/admin BreakKind). */
export type BreakKind =
  | 'received_not_credited'
  | 'credited_not_received'
  | 'amount_differs'
  | 'sent_booked_failed'
  | 'booked_paid_not_sent'
  | 'send_unknown'
  | 'refund_differs'
  | 'devolucao_unknown'
  | 'balance_differs'
  | 'refund_beyond_charge'
  | 'devolucao_beyond_charge'
  | 'chargeback_uncovered';

export interface ReconciliationBreaksTable {
  id: string;
  kind: BreakKind;
  /** What makes it the same difference on the next run (an end-to-end id, an idEnvio, a day). */
  key: string;
  day: string | null;
  account_id: string | null;
  transaction_id: string | null;
  refund_id: string | null;
  end_to_end_id: string | null;
  ledger_cents: number | null;
  provider_cents: number | null;
  /** Money this difference put in `system:suspense` (its balance's share), until settled. */
  suspense_cents: number;
  /** How much more the provider holds than the ledger says because of it (0 once the ledger was corrected). */
  balance_cents: number;
  detail: string;
  status: 'open' | 'resolved';
  first_seen_at: Date;
  last_seen_at: Date;
  seen_count: number;
  first_run_id: number | null;
  last_run_id: number | null;
  resolved_at: Date | null;
  resolved_by: string | null;
  resolution_note: string | null;
  settlement: BreakSettlement | null;
}

/** The simulated provider's own records (it keeps what a real provider keeps). */
export interface SimPspReceivedTable {
  end_to_end_id: string;
  provider_ref: string | null;
  amount_cents: number;
  payer: Json<PartyJson> | null;
  received_at: Date;
}

export interface SimPspDevolucoesTable {
  id: string;
  end_to_end_id: string;
  rtr_id: string;
  natureza: string;
  amount_cents: number;
  returned_at: Date;
}

export interface SimPspInfractionsTable {
  id: string;
  end_to_end_id: string;
  amount_cents: number;
  status: 'ABERTA' | 'EM_DEFESA' | 'ACEITA' | 'REJEITADA' | 'CANCELADA_EFI';
  reason: string;
  situation: string | null;
  opened_at: Date;
  deadline_at: Date;
  blocked_cents: number;
  defence: string | null;
  defence_analysis: string | null;
  closed_at: Date | null;
  updated_at: Date;
}
