/**
 * Strict BR Code parser: checks TLV lengths, the CRC and the PIX fields, and returns them or throws a
 * `BrCodeError`. Only printable ASCII payloads are accepted, the alphabet our builders emit, so lengths
 * (characters) and the CRC (bytes) cannot disagree. Unknown top-level fields are kept in `fields`.
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
import { crc16CcittFalse } from './crc16.ts';
import { decimalStringToCents } from './money.ts';
import type { TlvField } from './tlv.ts';
import { BrCodeError, CRC_FIELD_PREFIX, decodeTlv, isPrintableAscii } from './tlv.ts';

export interface ParsedBrCode {
  /** `dynamic` when field 26 carries a location (sub 25), `static` when it carries a key (sub 01). */
  kind: 'static' | 'dynamic';
  /** Field 01: `12` single use, `11` reusable; `undefined` when absent. */
  pointOfInitiationMethod: '11' | '12' | undefined;
  /** Field 26 sub 01 (static). */
  pixKey?: string;
  /** Field 26 sub 02 (static). */
  description?: string;
  /** Field 26 sub 25 (dynamic), without scheme. */
  locationUrl?: string;
  merchantCategoryCode: string;
  currency: string;
  /** Field 54 as written (`10.00`) and in cents; both absent when the payload carries no amount. */
  amount?: string;
  amountCents?: number;
  countryCode: string;
  merchantName: string;
  merchantCity: string;
  /** Field 62 sub 05 (`***` when none). */
  txid: string;
  /** Field 63. */
  crc: string;
  /** Every top-level field in payload order, raw. */
  fields: TlvField[];
}

/** `6304` + 4 hex digits. */
const CRC_FIELD_LENGTH = 8;

export function parseBrCode(payload: string): ParsedBrCode {
  if (typeof payload !== 'string' || !isPrintableAscii(payload)) {
    throw new BrCodeError('MALFORMED', 'a BR Code must be a printable ASCII string');
  }
  const crc = checkCrc(payload);
  // The fields before `6304` must end exactly where it starts: a field whose declared length runs into
  // the CRC field is reported against that field (e.g. `62` declaring 08 characters but holding 7).
  const fields = [...decodeTlv(payload.slice(0, payload.length - CRC_FIELD_LENGTH)), { tag: '63', value: crc }];
  const byTag = indexUnique(fields);

  if (fields[0]?.tag !== '00' || fields[0].value !== '01') {
    throw new BrCodeError('INVALID_FIELD', 'a BR Code starts with field 00 = 01', '00');
  }
  const pointOfInitiationMethod = byTag.get('01');
  if (pointOfInitiationMethod !== undefined && pointOfInitiationMethod !== '11' && pointOfInitiationMethod !== '12') {
    throw new BrCodeError('INVALID_FIELD', 'field 01 must be 11 or 12', '01');
  }

  const account = parseAccountInfo(required(byTag, '26'));
  const merchantCategoryCode = checked(byTag, '52', /^\d{4}$/, 'four digits');
  const currency = checked(byTag, '53', /^986$/, '986 (BRL)');
  const countryCode = checked(byTag, '58', /^BR$/, 'BR');
  const merchantName = checked(byTag, '59', lengthPattern(MERCHANT_NAME_MAX_LENGTH), '1..25 characters');
  const merchantCity = checked(byTag, '60', lengthPattern(MERCHANT_CITY_MAX_LENGTH), '1..15 characters');
  const txid = parseAdditionalData(required(byTag, '62'));

  const parsed: ParsedBrCode = {
    ...account,
    pointOfInitiationMethod,
    merchantCategoryCode,
    currency,
    countryCode,
    merchantName,
    merchantCity,
    txid,
    crc,
    fields,
  };
  const amount = byTag.get('54');
  if (amount !== undefined) {
    const amountCents = decimalStringToCents(amount);
    if (amountCents === undefined || amount.length > AMOUNT_MAX_LENGTH) {
      throw new BrCodeError('INVALID_FIELD', `field 54 must be an amount such as 10.00, got '${amount}'`, '54');
    }
    parsed.amount = amount;
    parsed.amountCents = amountCents;
  }
  return parsed;
}

/** The payload must end with `6304` + 4 upper-case hex digits equal to the CRC of everything before them. */
function checkCrc(payload: string): string {
  const crcStart = payload.length - 4;
  if (payload.length < CRC_FIELD_LENGTH || payload.slice(crcStart - 4, crcStart) !== CRC_FIELD_PREFIX) {
    throw new BrCodeError('MISSING_FIELD', 'a BR Code ends with field 63 (6304 + CRC)', '63');
  }
  const crc = payload.slice(crcStart);
  if (!/^[0-9A-F]{4}$/.test(crc)) {
    throw new BrCodeError('INVALID_FIELD', `field 63 must be 4 upper-case hex digits, got '${crc}'`, '63');
  }
  const expected = crc16CcittFalse(payload.slice(0, crcStart));
  if (crc !== expected) throw new BrCodeError('CRC_MISMATCH', `CRC is ${crc}, expected ${expected}`, '63');
  return crc;
}

type AccountInfo = Pick<ParsedBrCode, 'kind' | 'pixKey' | 'description' | 'locationUrl'>;

function parseAccountInfo(value: string): AccountInfo {
  const sub = indexUnique(decodeTlv(value, '26'), '26');
  const gui = required(sub, '00', '26');
  if (gui.toLowerCase() !== PIX_GUI) throw new BrCodeError('INVALID_FIELD', `field 26.00 must be ${PIX_GUI}`, '26.00');
  const pixKey = sub.get('01');
  const locationUrl = sub.get('25');
  if (pixKey !== undefined && locationUrl !== undefined) {
    throw new BrCodeError('INVALID_FIELD', 'field 26 carries both a key (01) and a location (25)', '26');
  }
  if (locationUrl !== undefined) {
    if (locationUrl.length > LOCATION_MAX_LENGTH) {
      throw new BrCodeError('INVALID_FIELD', 'field 26.25 holds at most 77 characters', '26.25');
    }
    return { kind: 'dynamic', locationUrl };
  }
  if (pixKey === undefined) throw new BrCodeError('MISSING_FIELD', 'field 26 needs a key (01) or a location (25)', '26');
  if (pixKey.length > PIX_KEY_MAX_LENGTH) {
    throw new BrCodeError('INVALID_FIELD', 'field 26.01 holds at most 77 characters', '26.01');
  }
  const description = sub.get('02');
  return description === undefined ? { kind: 'static', pixKey } : { kind: 'static', pixKey, description };
}

function parseAdditionalData(value: string): string {
  const txid = required(indexUnique(decodeTlv(value, '62'), '62'), '05', '62');
  if (txid !== NO_TXID && !new RegExp(`^[A-Za-z0-9]{1,${TXID_MAX_LENGTH}}$`).test(txid)) {
    throw new BrCodeError('INVALID_FIELD', `field 62.05 must be '***' or 1..25 alphanumerics`, '62.05');
  }
  return txid;
}

function indexUnique(fields: TlvField[], parentTag?: string): Map<string, string> {
  const byTag = new Map<string, string>();
  for (const { tag, value } of fields) {
    const label = parentTag ? `${parentTag}.${tag}` : tag;
    if (byTag.has(tag)) throw new BrCodeError('DUPLICATE_FIELD', `field ${label} appears twice`, label);
    byTag.set(tag, value);
  }
  return byTag;
}

function required(byTag: Map<string, string>, tag: string, parentTag?: string): string {
  const value = byTag.get(tag);
  const label = parentTag ? `${parentTag}.${tag}` : tag;
  if (value === undefined) throw new BrCodeError('MISSING_FIELD', `field ${label} is required`, label);
  return value;
}

function checked(byTag: Map<string, string>, tag: string, pattern: RegExp, expected: string): string {
  const value = required(byTag, tag);
  if (!pattern.test(value)) throw new BrCodeError('INVALID_FIELD', `field ${tag} must be ${expected}`, tag);
  return value;
}

function lengthPattern(maxLength: number): RegExp {
  return new RegExp(`^[\\x20-\\x7e]{1,${maxLength}}$`);
}
