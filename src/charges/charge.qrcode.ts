import QRCode from 'qrcode';
import type { Deps } from '../platform/deps.ts';
import { TransactionNotFound } from '../transactions/transaction.errors.ts';
import { getAccountTransaction } from '../transactions/transaction.service.ts';

export type QrFormat = 'png' | 'svg';

export interface QrImage {
  contentType: 'image/png' | 'image/svg+xml';
  body: Buffer | string;
}

/** Error correction M (15 %) and the standard 4-module quiet zone: what PIX apps read reliably. */
const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

/**
 * GET /v1/transactions/{id}/qrcode: the charge's BR Code (`pixPayload`, exactly) as a QR code image. Only
 * charges have one: a withdrawal is answered like an unknown transaction.
 */
export async function chargeQrCode(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  transactionId: string,
  options: { format: QrFormat; sizePx: number },
): Promise<QrImage> {
  const row = await getAccountTransaction(deps, accountId, transactionId);
  if (row.type !== 'pix_in' || row.pix_payload === null) throw new TransactionNotFound();
  return qrImage(row.pix_payload, options);
}

/** A BR Code as a QR code image (a charge's, a static QR code's: GET /v1/static-qrcodes/{id}/qrcode). */
export async function qrImage(payload: string, options: { format: QrFormat; sizePx: number }): Promise<QrImage> {
  if (options.format === 'svg') {
    return { contentType: 'image/svg+xml', body: await QRCode.toString(payload, { ...QR_OPTIONS, type: 'svg' }) };
  }
  return { contentType: 'image/png', body: await QRCode.toBuffer(payload, { ...QR_OPTIONS, type: 'png', width: options.sizePx }) };
}
