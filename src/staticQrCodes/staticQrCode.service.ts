/**
 * Static QR codes (issue 36, /v1/static-qrcodes; docs/decisions.md "Static QR codes"): one reusable BR Code
 * on the installation's receiving Pix key that names itself by its txid (field 62-05). Nothing is registered
 * at the provider: a payer's bank sends the txid with the Pix, the provider reports it, and
 * ./staticQrCode.payment.ts turns each such Pix into a paid charge of its own. Created, read, listed and
 * deactivated here; its image is the charges' (../charges/charge.qrcode.ts).
 */
import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import { ChargeRateLimited } from '../charges/charge.errors.ts';
import { qrImage, type QrFormat, type QrImage } from '../charges/charge.qrcode.ts';
import { checkAmount, merchantCityOf, merchantNameOf } from '../charges/charge.service.ts';
import type { StaticQrCodeStatus } from '../db/schema.ts';
import { retryWhileUnavailable, SWITCHOVER_RETRY_MS } from '../db/unavailable.ts';
import type { Deps } from '../platform/deps.ts';
import { buildStaticBrCode, encodeTlv, PIX_GUI, toAsciiPrintable } from '../primitives/brcode.ts';
import { pageOf, positionAfter, rowsToRead } from '../transactions/listPage.ts';
import { newId } from '../primitives/ids.ts';
import { release, tryConsume, type Window } from '../ratelimit/rateLimit.repository.ts';
import { StaticDescriptionTooLong, StaticQrCodeNotFound } from './staticQrCode.errors.ts';
import {
  deactivateStaticQrCode,
  findStaticQrCode,
  findStaticQrCodeByRef,
  insertStaticQrCode,
  listStaticQrCodes,
  NO_PAYMENTS,
  paymentStats,
  type PaymentStats,
  type StaticQrCodeRow,
} from './staticQrCode.repository.ts';

type CreateStaticQrCodeRequest = components['schemas']['CreateStaticQrCodeRequest'];
type StaticQrCodeJson = components['schemas']['StaticQrCode'];

const HOUR_MS = 3_600_000;
/** BR Code field 26 holds at most 99 characters: the GUI, the key and the description, each a TLV. */
const FIELD_26_MAX = 99;
const TLV_HEADER = 4;

/** The txid of a code: `s` + its id's 24 hex (25 characters, the most a static code's field 62-05 takes). */
export function txidOf(id: string): string {
  return `s${id.replace(/^sqr_/, '')}`;
}

/** How many characters of description fit field 26 beside `key` (the contract's 37 beside any key of 36 or fewer). */
export function descriptionRoom(key: string): number {
  return FIELD_26_MAX - encodeTlv('00', PIX_GUI).length - (TLV_HEADER + key.trim().length) - TLV_HEADER;
}

function toJson(code: StaticQrCodeRow, stats: PaymentStats, idempotent = false): StaticQrCodeJson {
  return {
    staticQrCodeId: code.id,
    status: code.status,
    ...(code.amount_cents !== null ? { amountCents: Number(code.amount_cents) } : {}),
    ...(code.description !== null ? { description: code.description } : {}),
    ...(code.external_ref !== null ? { externalRef: code.external_ref } : {}),
    txid: code.txid,
    pixPayload: code.pix_payload,
    paymentsCount: stats.count,
    receivedCents: stats.receivedCents,
    ...(stats.lastPaidAt !== undefined ? { lastPaidAt: stats.lastPaidAt.getTime() } : {}),
    createdAt: code.created_at.getTime(),
    ...(code.deactivated_at !== null ? { deactivatedAt: code.deactivated_at.getTime() } : {}),
    ...(idempotent ? { idempotent: true } : {}),
  };
}

async function withStats(deps: Pick<Deps, 'db'>, code: StaticQrCodeRow, idempotent = false): Promise<StaticQrCodeJson> {
  const stats = await paymentStats(deps.db, [code.id]);
  return toJson(code, stats.get(code.id) ?? NO_PAYMENTS, idempotent);
}

export type CreateStaticQrCodeOutcome = { kind: 'created' | 'replayed'; body: StaticQrCodeJson };

/**
 * POST /v1/static-qrcodes: validated (the amount as POST /v1/pix's, the description against the room the
 * receiving key leaves), a slot of the charges' hourly limit taken, the BR Code built and the code stored
 * with its externalRef's claim. A repeated externalRef is answered with its code (200) without a slot.
 */
export async function createStaticQrCode(deps: Deps, auth: AccountContext, body: CreateStaticQrCodeRequest): Promise<CreateStaticQrCodeOutcome> {
  const { account } = auth;
  const nowMs = deps.clock.now();
  if (body.amountCents !== undefined) checkAmount(account, body.amountCents);
  const key = deps.provider.receivingKey;
  const description = body.description?.trim() || undefined;
  const room = descriptionRoom(key);
  if (description !== undefined && toAsciiPrintable(description).length > room) throw new StaticDescriptionTooLong(Math.max(0, room));
  const externalRef = body.externalRef;
  const replay = async (): Promise<CreateStaticQrCodeOutcome | undefined> => {
    const existing = externalRef === undefined ? undefined : await findStaticQrCodeByRef(deps.db, auth.accountId, externalRef);
    return existing ? { kind: 'replayed', body: await withStats(deps, existing, true) } : undefined;
  };
  const earlier = await replay();
  if (earlier) return earlier;

  const window: Window = { bucket: 'charge:hour', windowMs: HOUR_MS, limit: account.charge_rate_per_hour };
  const slot = await retryWhileUnavailable(() => tryConsume(deps.db, auth.accountId, window, nowMs), { timeoutMs: SWITCHOVER_RETRY_MS, firstPauseMs: 100 });
  if (!slot) throw new ChargeRateLimited();
  try {
    const id = newId('sqr');
    const txid = txidOf(id);
    const pixPayload = buildStaticBrCode({
      pixKey: key,
      ...(description !== undefined ? { description } : {}),
      ...(body.amountCents !== undefined ? { amountCents: body.amountCents } : {}),
      merchantName: merchantNameOf(account),
      merchantCity: merchantCityOf(account),
      txid,
    });
    const at = new Date(nowMs);
    const stored = await insertStaticQrCode(deps.db, {
      id,
      account_id: auth.accountId,
      txid,
      amount_cents: body.amountCents ?? null,
      description: description ?? null,
      external_ref: externalRef ?? null,
      pix_payload: pixPayload,
      status: 'active',
      created_at: at,
      updated_at: at,
      deactivated_at: null,
    });
    if (!stored.created) {
      // A concurrent request with this externalRef stored its code first: this one is answered with it.
      await release(deps.db, auth.accountId, slot);
      return { kind: 'replayed', body: await withStats(deps, stored.row, true) };
    }
    return { kind: 'created', body: toJson(stored.row, NO_PAYMENTS) };
  } catch (error) {
    await release(deps.db, auth.accountId, slot);
    throw error;
  }
}

async function codeOf(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<StaticQrCodeRow> {
  const code = await findStaticQrCode(deps.db, accountId, id);
  if (!code) throw new StaticQrCodeNotFound();
  return code;
}

export async function getStaticQrCode(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<StaticQrCodeJson> {
  return withStats(deps, await codeOf(deps, accountId, id));
}

const STATIC_QRCODE_ID = /^sqr_[0-9a-f]{24}$/;

export async function listStaticQrCodePage(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  options: { limit: number; cursor?: string | undefined; status?: StaticQrCodeStatus | undefined },
): Promise<components['schemas']['StaticQrCodeList']> {
  const after = positionAfter(options.cursor, STATIC_QRCODE_ID);
  const rows = await listStaticQrCodes(deps.db, accountId, { status: options.status, after, limit: rowsToRead(options.limit) });
  const { page, nextCursor } = pageOf(rows, options.limit, (row) => ({ createdAtUs: row.created_at_us, id: row.id }));
  const stats = await paymentStats(deps.db, page.map((row) => row.id));
  return {
    staticQrCodes: page.map(({ created_at_us: _position, ...row }) => toJson(row, stats.get(row.id) ?? NO_PAYMENTS)),
    count: page.length,
    ...(nextCursor !== undefined ? { nextCursor } : {}),
  };
}

/** POST /v1/static-qrcodes/{id}/deactivate: `inactive` for good; an inactive code is answered as it is (a retry). */
export async function deactivateStaticQrCodeOf(deps: Pick<Deps, 'db' | 'clock'>, accountId: string, id: string): Promise<StaticQrCodeJson> {
  const code = await codeOf(deps, accountId, id);
  if (code.status === 'inactive') return withStats(deps, code);
  const deactivated = (await deactivateStaticQrCode(deps.db, code.id, new Date(deps.clock.now()))) ?? (await codeOf(deps, accountId, id));
  return withStats(deps, deactivated);
}

/** GET /v1/static-qrcodes/{id}/qrcode: the code's BR Code (exactly) as a QR code image, as a charge's. */
export async function staticQrCodeImage(deps: Pick<Deps, 'db'>, accountId: string, id: string, options: { format: QrFormat; sizePx: number }): Promise<QrImage> {
  const code = await codeOf(deps, accountId, id);
  return qrImage(code.pix_payload, options);
}
