/**
 * EMV MPM TLV primitives of the BR Code: two-digit ID, two-digit length, value.
 *
 * Lengths count characters. BR Codes handled here are printable ASCII only, so characters and UTF-8 bytes
 * agree and the CRC (computed over bytes) cannot disagree with the lengths (pix-facts.md).
 */
import { crc16CcittFalse } from './crc16.ts';

export type BrCodeErrorCode =
  /** A builder input cannot be encoded (too long, empty, characters outside printable ASCII). */
  | 'INVALID_INPUT'
  /** The text is not a TLV sequence (non-numeric ID or length, zero length, non-ASCII character). */
  | 'MALFORMED'
  /** A declared length does not match the characters available. */
  | 'LENGTH_MISMATCH'
  /** Field 63 is not the CRC16/CCITT-FALSE of the rest of the payload. */
  | 'CRC_MISMATCH'
  | 'MISSING_FIELD'
  | 'DUPLICATE_FIELD'
  /** A field is present with a value the BR Code does not allow. */
  | 'INVALID_FIELD';

/** The one error type of the BR Code modules; `code` says what went wrong, `tag` where (`26.25`). */
export class BrCodeError extends Error {
  readonly code: BrCodeErrorCode;
  readonly tag: string | undefined;

  constructor(code: BrCodeErrorCode, message: string, tag?: string) {
    super(message);
    this.name = 'BrCodeError';
    this.code = code;
    this.tag = tag;
  }
}

export interface TlvField {
  tag: string;
  value: string;
}

/** EMV lengths are two decimal digits; a present field holds at least one character. */
export const MAX_TLV_VALUE_LENGTH = 99;
const TAG_PATTERN = /^\d{2}$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function isPrintableAscii(text: string): boolean {
  return PRINTABLE_ASCII.test(text);
}

/** Encodes one field: `encodeTlv('53', '986')` -> `5303986`. Throws `INVALID_INPUT` when it cannot fit. */
export function encodeTlv(tag: string, value: string): string {
  if (!TAG_PATTERN.test(tag)) throw new BrCodeError('INVALID_INPUT', `TLV tag must be two digits: '${tag}'`, tag);
  if (value.length < 1 || value.length > MAX_TLV_VALUE_LENGTH) {
    throw new BrCodeError('INVALID_INPUT', `field ${tag} must hold 1..99 characters, got ${value.length}`, tag);
  }
  if (!isPrintableAscii(value)) {
    throw new BrCodeError('INVALID_INPUT', `field ${tag} must be printable ASCII`, tag);
  }
  return `${tag}${String(value.length).padStart(2, '0')}${value}`;
}

/** The `6304` that introduces the CRC field; the CRC covers it (pix-facts.md). */
export const CRC_FIELD_PREFIX = '6304';

/** Appends field 63 (`6304` + CRC16/CCITT-FALSE of everything before it, including `6304`). */
export function withCrc(payloadWithoutCrc: string): string {
  const covered = `${payloadWithoutCrc}${CRC_FIELD_PREFIX}`;
  return `${covered}${crc16CcittFalse(covered)}`;
}

/**
 * Splits a TLV sequence into fields, in order. `parentTag` only labels errors (`26.25`).
 * Throws `MALFORMED` or `LENGTH_MISMATCH`; the sequence must end exactly at the last value.
 */
export function decodeTlv(text: string, parentTag?: string): TlvField[] {
  const fields: TlvField[] = [];
  const label = (tag: string) => (parentTag ? `${parentTag}.${tag}` : tag);
  let index = 0;
  while (index < text.length) {
    if (index + 4 > text.length) {
      throw new BrCodeError('LENGTH_MISMATCH', `truncated field header at position ${index}`, parentTag);
    }
    const tag = text.slice(index, index + 2);
    const lengthText = text.slice(index + 2, index + 4);
    if (!TAG_PATTERN.test(tag) || !/^\d{2}$/.test(lengthText)) {
      throw new BrCodeError('MALFORMED', `invalid field header '${tag}${lengthText}' at position ${index}`, parentTag);
    }
    const length = Number(lengthText);
    if (length === 0) throw new BrCodeError('MALFORMED', `field ${label(tag)} has length 00`, label(tag));
    const end = index + 4 + length;
    if (end > text.length) {
      throw new BrCodeError(
        'LENGTH_MISMATCH',
        `field ${label(tag)} declares ${length} characters but only ${text.length - index - 4} remain`,
        label(tag),
      );
    }
    fields.push({ tag, value: text.slice(index + 4, end) });
    index = end;
  }
  return fields;
}
