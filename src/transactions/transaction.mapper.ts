import type { components } from '../../generated/api-types.ts';
import type { TransactionRow, TransactionStatus } from '../db/schema.ts';

export type ApiTransaction = components['schemas']['Transaction'];
export type ApiTransactionDetail = components['schemas']['TransactionDetail'];

/** Statuses in which settlement data (endToEndId, payer/beneficiary, refund id) is shown. */
const SETTLED: ReadonlySet<TransactionStatus> = new Set(['paid', 'refunded', 'partially_refunded']);

export type TransactionView = 'single' | 'list' | 'event';

/** The columns the merchant API shows (what a list selects: no customer, key, provider or review data). */
export const SHOWN_COLUMNS = [
  'id',
  'type',
  'status',
  'amount_cents',
  'fee_cents',
  'net_cents',
  'paid_at',
  'created_at',
  'updated_at',
  'external_ref',
  'static_qrcode_id',
  'payment_link_id',
  'recurrence_id',
  'pix_payload',
  'expires_at',
  'end_to_end_id',
  'payer',
  'beneficiary',
  'refund_end_to_end_id',
  'refunded_cents',
  'refused_code',
  'refused_reason',
] as const satisfies readonly (keyof TransactionRow)[];

export type ShownTransaction = Pick<TransactionRow, (typeof SHOWN_COLUMNS)[number]>;

/**
 * The one row-to-API mapper of transactions. It applies the contract's omission rules: settlement fields
 * appear only on settled transactions and are omitted (never null) otherwise; `refusedCode`/`refusedReason`
 * only when known; `pixPayload` is null for withdrawals in the single read and omitted in the list.
 */
export function toApiTransaction(row: ShownTransaction, view: TransactionView): ApiTransaction {
  const status = row.status;
  if (status === 'initiating' || status === 'aborted') {
    // Reads leave these rows out (see transaction.repository.ts); reaching here is a bug, not input.
    throw new Error(`internal status ${status} of ${row.id} must not be exposed`);
  }
  const tx: ApiTransaction = {
    transactionId: row.id,
    type: row.type,
    amountCents: row.amount_cents,
    feeCents: row.fee_cents,
    netCents: row.net_cents,
    status,
    paidAt: row.paid_at ? row.paid_at.getTime() : null,
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
  };
  if (row.external_ref !== null) tx.externalRef = row.external_ref;
  // A payment of a static QR code names the code (since 2026-11-29).
  if (row.static_qrcode_id !== null) tx.staticQrCodeId = row.static_qrcode_id;
  // A charge of a payment link names the link (since 2026-11-30).
  if (row.payment_link_id !== null) tx.paymentLinkId = row.payment_link_id;
  // A cycle of a recurrence, or its first payment, names the recurrence (since 2026-11-30).
  if (row.recurrence_id !== null) tx.recurrenceId = row.recurrence_id;
  if (row.type === 'pix_in') {
    if (view !== 'event') tx.pixPayload = row.pix_payload;
    if (row.expires_at) tx.expiresAt = Math.floor(row.expires_at.getTime() / 1000);
  } else if (view === 'single') {
    tx.pixPayload = null;
  }
  if (SETTLED.has(status)) {
    if (row.end_to_end_id) tx.endToEndId = row.end_to_end_id;
    if (row.type === 'pix_in' && row.payer) tx.payer = row.payer;
    if (row.type === 'withdrawal' && row.beneficiary) tx.beneficiary = row.beneficiary;
    if (status !== 'paid') {
      if (row.refund_end_to_end_id) tx.refundEndToEndId = row.refund_end_to_end_id;
      if (row.refunded_cents !== null) tx.refundedCents = row.refunded_cents;
    }
  }
  if (row.refused_code !== null) tx.refusedCode = row.refused_code;
  if (row.refused_reason !== null) tx.refusedReason = row.refused_reason;
  return tx;
}

/** The single read (GET /v1/transactions/{id}): `pixPayload` always present, null for withdrawals. */
export function toApiTransactionDetail(row: ShownTransaction): ApiTransactionDetail {
  const tx = toApiTransaction(row, 'single');
  return { ...tx, pixPayload: tx.pixPayload ?? null };
}

/** The transaction as events carry it: the list fields without `pixPayload` (events never carry the BR Code). */
export function toEventTransaction(row: TransactionRow): Omit<ApiTransaction, 'pixPayload'> {
  const { pixPayload: _notInEvents, ...fields } = toApiTransaction(row, 'event');
  return fields;
}
