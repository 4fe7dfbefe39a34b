/**
 * BR Code builders (EMV MPM "copia e cola" payloads of PIX), per pix-facts.md.
 *
 * Builders emit printable ASCII only: names and cities are reduced to `[A-Z0-9 .-]` (accents stripped,
 * upper-cased) and truncated to their EMV maximum, so character counts and UTF-8 bytes agree. Values that
 * cannot be made to fit (a location longer than 77 characters, a txid of 26+ characters, ...) throw a
 * `BrCodeError` with code `INVALID_INPUT` rather than producing a payload a bank app would refuse.
 */
import {
  AMOUNT_MAX_LENGTH,
  LOCATION_MAX_LENGTH,
  MERCHANT_CITY_MAX_LENGTH,
  MERCHANT_NAME_MAX_LENGTH,
  NO_TXID,
  PIX_GUI,
  PIX_KEY_MAX_LENGTH,
  TXID_MAX_LENGTH,
} from './brcodeLimits.ts';
import { centsToDecimalString } from './money.ts';
import { BrCodeError, encodeTlv, isPrintableAscii, withCrc } from './tlv.ts';

export { BrCodeError, decodeTlv, encodeTlv, withCrc } from './tlv.ts';
export type { BrCodeErrorCode, TlvField } from './tlv.ts';
export { parseBrCode } from './brcodeParser.ts';
export type { ParsedBrCode } from './brcodeParser.ts';
export * from './brcodeLimits.ts';

interface CommonBrCodeInput {
  merchantName: string;
  merchantCity: string;
  /** Field 54, written `10.00` style; omitted when not given. Positive integer cents. */
  amountCents?: number;
  /** Field 62 sub 05; defaults to `***`. */
  txid?: string;
  /**
   * `true` (default): name, city and description are made ASCII (see `toAsciiUpper`) and name and city
   * truncated to 25 / 15. `false`: they are written as given and must already be printable ASCII and fit;
   * used to reproduce the central bank's mixed-case sample payloads.
   */
  normalizeText?: boolean;
}

export interface DynamicBrCodeInput extends CommonBrCodeInput {
  /** Location of the charge payload, with or without `https://` (the scheme is never written). */
  locationUrl: string;
}

export interface StaticBrCodeInput extends CommonBrCodeInput {
  /** PIX key as registered at DICT (normalise it first with `normalizePixKey`). */
  pixKey: string;
  /** Field 26 sub 02, free text shown to the payer. */
  description?: string;
}

/**
 * Reduces text to the BR Code name alphabet: accents stripped, upper-case, whitespace runs collapsed to one
 * space, characters outside `[A-Z0-9 .-]` removed, trimmed. `toAsciiUpper('São Miguel do Ó')` ->
 * `SAO MIGUEL DO O`. Does not truncate.
 */
export function toAsciiUpper(text: string): string {
  return stripMarks(text)
    .toUpperCase()
    .replace(/\s+/g, ' ')
    .replace(/[^A-Z0-9 .-]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** Accents stripped, whitespace collapsed, anything outside printable ASCII removed; case kept. */
export function toAsciiPrintable(text: string): string {
  return stripMarks(text)
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}

function stripMarks(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

/** Builds a dynamic (single-use, `01`=`12`) BR Code pointing at `locationUrl`. */
export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  const accountInfo = encodeTlv('00', PIX_GUI) + encodeTlv('25', locationWithoutScheme(input.locationUrl));
  return assemble(accountInfo, input, true);
}

/**
 * A QR code of Pix Automático: the recurrence's location in field 80 (GUI and sub-field 25), after the
 * charge's field 26 when the code also pays an immediate charge (journey 3, a composite QR code), else
 * alone (journey 2). The simulated provider's shape: a real provider gives its own (API Pix
 * `dadosQR.pixCopiaECola`), which PixGate shows as it comes.
 */
export function buildRecurrenceBrCode(input: CommonBrCodeInput & { recurrenceLocationUrl: string; chargeLocationUrl?: string | undefined }): string {
  const recurrenceInfo = encodeTlv('00', PIX_GUI) + encodeTlv('25', locationWithoutScheme(input.recurrenceLocationUrl));
  const chargeInfo = input.chargeLocationUrl === undefined ? undefined : encodeTlv('00', PIX_GUI) + encodeTlv('25', locationWithoutScheme(input.chargeLocationUrl));
  return assemble(chargeInfo, input, true, encodeTlv('80', recurrenceInfo));
}

/** Builds a static BR Code for `pixKey` (field 01 omitted, as in the central bank's static sample). */
export function buildStaticBrCode(input: StaticBrCodeInput): string {
  const normalize = input.normalizeText ?? true;
  const pixKey = input.pixKey.trim();
  requireText('pixKey', pixKey, PIX_KEY_MAX_LENGTH);
  let accountInfo = encodeTlv('00', PIX_GUI) + encodeTlv('01', pixKey);
  if (input.description !== undefined) {
    const description = normalize ? toAsciiPrintable(input.description) : input.description;
    if (description.length > 0) accountInfo += encodeTlv('02', description);
  }
  if (accountInfo.length > 99) {
    throw new BrCodeError('INVALID_INPUT', 'pixKey and description together exceed the 99 characters of field 26', '26');
  }
  return assemble(accountInfo, input, false);
}

function assemble(accountInfo: string | undefined, input: CommonBrCodeInput, dynamic: boolean, trailing = ''): string {
  const normalize = input.normalizeText ?? true;
  const name = merchantText('merchantName', input.merchantName, MERCHANT_NAME_MAX_LENGTH, normalize);
  const city = merchantText('merchantCity', input.merchantCity, MERCHANT_CITY_MAX_LENGTH, normalize);
  const parts = [
    encodeTlv('00', '01'),
    dynamic ? encodeTlv('01', '12') : '',
    accountInfo === undefined ? '' : encodeTlv('26', accountInfo),
    encodeTlv('52', '0000'),
    encodeTlv('53', '986'),
    input.amountCents === undefined ? '' : encodeTlv('54', amountText(input.amountCents)),
    encodeTlv('58', 'BR'),
    encodeTlv('59', name),
    encodeTlv('60', city),
    encodeTlv('62', encodeTlv('05', txidText(input.txid))),
    trailing,
  ];
  return withCrc(parts.join(''));
}

function merchantText(field: string, text: string, maxLength: number, normalize: boolean): string {
  const value = normalize ? toAsciiUpper(text).slice(0, maxLength).trimEnd() : text;
  requireText(field, value, maxLength);
  return value;
}

function requireText(field: string, value: string, maxLength: number): void {
  if (value.length < 1 || value.length > maxLength || !isPrintableAscii(value)) {
    throw new BrCodeError(
      'INVALID_INPUT',
      `${field} must be 1..${maxLength} printable ASCII characters, got ${value.length} characters`,
    );
  }
}

function locationWithoutScheme(locationUrl: string): string {
  const location = locationUrl.trim().replace(/^https:\/\//i, '');
  if (location.includes('://')) {
    throw new BrCodeError('INVALID_INPUT', 'locationUrl must be an https URL or have no scheme', '26.25');
  }
  if (/\s/.test(location)) throw new BrCodeError('INVALID_INPUT', 'locationUrl must not contain whitespace', '26.25');
  if (location.length > LOCATION_MAX_LENGTH) {
    throw new BrCodeError(
      'INVALID_INPUT',
      `locationUrl without scheme must hold at most ${LOCATION_MAX_LENGTH} characters, got ${location.length}`,
      '26.25',
    );
  }
  requireText('locationUrl', location, LOCATION_MAX_LENGTH);
  return location;
}

function amountText(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new BrCodeError('INVALID_INPUT', `amountCents must be a positive integer, got ${String(amountCents)}`, '54');
  }
  const text = centsToDecimalString(amountCents);
  if (text.length > AMOUNT_MAX_LENGTH) throw new BrCodeError('INVALID_INPUT', 'amount exceeds 13 characters', '54');
  return text;
}

function txidText(txid: string | undefined): string {
  if (txid === undefined || txid === NO_TXID) return NO_TXID;
  if (!/^[A-Za-z0-9]+$/.test(txid) || txid.length > TXID_MAX_LENGTH) {
    throw new BrCodeError('INVALID_INPUT', `txid must be '***' or 1..${TXID_MAX_LENGTH} alphanumerics`, '62.05');
  }
  return txid;
}
