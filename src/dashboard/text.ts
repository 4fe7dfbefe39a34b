import { InvalidText } from './dashboard.errors.ts';

/*
 * Free text typed into the dashboard's forms (names, legal names, labels, descriptions) is normalised
 * before it is checked or stored: Unicode NFC, every run of white space (tabs, line breaks, no-break
 * spaces included) becomes one space, and the ends are trimmed. The schema's length rules see what was
 * sent; these rules see what would be stored, so "   " is an empty name, never a stored one.
 */

const WHITE_SPACE = /[\s\p{Z}]+/gu;
/** Control characters (C0, DEL, C1): never part of a name. Line breaks and tabs are white space above. */
const CONTROL = /\p{Cc}/u;
/** Invisible format characters (zero-width space and joiners, bidi marks, soft hyphen): not a visible character. */
const FORMAT = /\p{Cf}/gu;

export function normalizeText(value: string): string {
  return value.normalize('NFC').replace(WHITE_SPACE, ' ').trim();
}

/** A required text of the form field `field`: normalised, at least `minLength` characters that show. */
export function requireText(value: string, field: string, minLength = 1): string {
  const text = normalizeText(value);
  if (CONTROL.test(text)) throw new InvalidText(field, 'invalid', minLength);
  const visible = text.replace(FORMAT, '').trim();
  if (visible.length === 0) throw new InvalidText(field, 'required', minLength);
  if (visible.length < minLength) throw new InvalidText(field, 'tooShort', minLength);
  return text;
}

/** An optional text: normalised; blank (or absent) is no text at all (null). */
export function optionalText(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null) return null;
  const text = normalizeText(value);
  if (CONTROL.test(text)) throw new InvalidText(field, 'invalid', 0);
  return text.replace(FORMAT, '').trim().length === 0 ? null : text;
}
