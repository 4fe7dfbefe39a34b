/**
 * Static QR codes (migration 027): reusable BR Codes on the installation's receiving key, each naming itself
 * by its `txid`; a Pix received with that txid is a payment of its own (`transactions.static_qrcode_id`).
 */
export type StaticQrCodeStatus = 'active' | 'inactive';

export interface StaticQrCodesTable {
  id: string;
  account_id: string;
  /** BR Code field 62-05: at most 25 alphanumerics. */
  txid: string;
  /** A fixed amount; NULL: the payer types it. */
  amount_cents: number | null;
  description: string | null;
  external_ref: string | null;
  pix_payload: string;
  status: StaticQrCodeStatus;
  created_at: Date;
  updated_at: Date;
  /** Set with `inactive`, for good: a Pix the provider received before it still pays the code. */
  deactivated_at: Date | null;
}
