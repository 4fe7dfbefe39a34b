/**
 * PIX keys (DICT formats) for withdrawals and recipients: type normalisation and key normalisation.
 * A normalised key is the form DICT stores: CPF/CNPJ stripped, e-mail lower-case, phone `+55…`, EVP
 * lower-case.
 */
import { isValidEmail } from '@brazilian-utils/brazilian-utils/is-valid-email';
import type { DocumentType } from './documents.ts';
import { isValidCnpj, isValidCpf, stripDocument } from './documents.ts';

export const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'evp'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export type PixKeyNormalization = { ok: true; key: string } | { ok: false };

/** DICT limits an e-mail key to 77 characters. */
export const EMAIL_KEY_MAX_LENGTH = 77;
/**
 * National number: two-digit area code (digits 1-9) then 9 + 8 digits (mobile) or 8 digits starting 2-9.
 * Accepted as `+55…`, `55…` (12 or 13 digits) or bare (10 or 11 digits); spaces, dashes, dots and
 * parentheses are ignored.
 */
const NATIONAL_PHONE = /^[1-9]{2}(?:9\d{8}|[2-9]\d{7})$/;
/** UUID layout, 8-4-4-4-12 hex. DICT does not require the version nibble of v4, so neither do we. */
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `' EMAIL '` -> `'email'`; anything but the five types (after trim and lower-case) -> `undefined`. */
export function normalizePixKeyType(input: unknown): PixKeyType | undefined {
  if (typeof input !== 'string') return undefined;
  const type = input.trim().toLowerCase();
  return (PIX_KEY_TYPES as readonly string[]).includes(type) ? (type as PixKeyType) : undefined;
}

export function normalizePixKey(type: PixKeyType, key: string): PixKeyNormalization {
  if (typeof key !== 'string') return { ok: false };
  const normalized = normalizeByType(type, key.trim());
  return normalized === undefined ? { ok: false } : { ok: true, key: normalized };
}

function normalizeByType(type: PixKeyType, key: string): string | undefined {
  switch (type) {
    case 'cpf': {
      const digits = stripDocument(key);
      return isValidCpf(digits) ? digits : undefined;
    }
    case 'cnpj': {
      const chars = stripDocument(key);
      return isValidCnpj(chars) ? chars : undefined;
    }
    case 'email': {
      const email = key.toLowerCase();
      return email.length <= EMAIL_KEY_MAX_LENGTH && isValidEmail(email) ? email : undefined;
    }
    case 'phone':
      return normalizePhone(key);
    case 'evp': {
      const evp = key.toLowerCase();
      return EVP.test(evp) ? evp : undefined;
    }
  }
}

function normalizePhone(key: string): string | undefined {
  const compact = key.replace(/[\s().-]/g, '');
  let national: string;
  if (compact.startsWith('+')) {
    if (!compact.startsWith('+55')) return undefined;
    national = compact.slice(3);
  } else if (/^55\d{10,11}$/.test(compact)) {
    // National numbers have at most 11 digits, so 12 or 13 digits starting with 55 carry the country code.
    national = compact.slice(2);
  } else {
    national = compact;
  }
  return NATIONAL_PHONE.test(national) ? `+55${national}` : undefined;
}

/**
 * Recipient and withdrawal rule: a CPF/CNPJ key must be the document itself (same type, same characters).
 * Both values must already be normalised (`normalizePixKey`, `stripDocument`).
 */
export function pixKeyMatchesDocument(
  keyType: PixKeyType,
  normalizedKey: string,
  documentType: DocumentType,
  strippedDocument: string,
): boolean {
  return keyType === documentType && normalizedKey === strippedDocument;
}
