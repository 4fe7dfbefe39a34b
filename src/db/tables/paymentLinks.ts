/**
 * Payment links (migration 029): a fixed amount and a description behind a public page; each charge made
 * for a payer carries `transactions.payment_link_id`.
 */
export type PaymentLinkStoredStatus = 'active' | 'inactive';

export interface PaymentLinksTable {
  id: string;
  account_id: string;
  amount_cents: number;
  description: string;
  reusable: boolean;
  external_ref: string | null;
  /** NULL: the link never expires. */
  expires_at: Date | null;
  /** Only the merchant's decision; `expired` and `used` are read from the clock and the charges. */
  status: PaymentLinkStoredStatus;
  /** A single-use link's charge of the moment (NULL before the first open; never set on a reusable link). */
  current_transaction_id: string | null;
  created_at: Date;
  updated_at: Date;
  deactivated_at: Date | null;
}
