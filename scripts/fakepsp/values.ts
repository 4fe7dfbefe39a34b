/**
 * Value formats of API Pix (psp-protocols.md section 1) as the fake checks them: amounts `\d{1,10}\.\d{2}`
 * (anchored), our txids `[a-zA-Z0-9]{26,35}`, client ids `[a-zA-Z0-9]{1,35}`, keys of at most 77 characters,
 * RFC 3339 timestamps. Amounts are handled in integer cents.
 */
import { createHash } from 'node:crypto';
import { centsToDecimalString, decimalStringToCents } from '../../src/primitives/money.ts';

export const VALOR_PATTERN = /^\d{1,10}\.\d{2}$/;
export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;
export const ID_PATTERN = /^[a-zA-Z0-9]{1,35}$/;
export const CPF_PATTERN = /^\d{11}$/;
export const CNPJ_PATTERN = /^[0-9A-Z]{14}$/;
/** RFC 3339 date-time with a zone (`Z` or an offset), optional fraction. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

export const DAY_MS = 86_400_000;

/** Cents of a well-formed positive amount, or undefined (a `0.00` amount is refused too). */
export function valorCents(value: unknown): number | undefined {
  if (typeof value !== 'string' || !VALOR_PATTERN.test(value)) return undefined;
  const cents = decimalStringToCents(value);
  return cents !== undefined && cents > 0 ? cents : undefined;
}

export function valorText(cents: number): string {
  return centsToDecimalString(cents);
}

/** Milliseconds of an RFC 3339 timestamp, or undefined. */
export function parseHorario(value: unknown): number | undefined {
  if (typeof value !== 'string' || !RFC3339.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isChave(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 77;
}

/** A valid CPF derived from `seed` (the same seed, the same CPF): the fake DICT's invented people. */
export function cpfFromSeed(seed: string): string {
  const hash = createHash('sha256').update(seed).digest();
  const digits = Array.from({ length: 9 }, (_, i) => (hash[i] ?? 0) % 10);
  // A base of one repeated digit is not a valid CPF.
  if (digits.every((digit) => digit === digits[0])) digits[8] = ((digits[8] ?? 0) + 1) % 10;
  const check = (base: number[]): number => {
    const sum = base.reduce((total, digit, index) => total + digit * (base.length + 1 - index), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  digits.push(check(digits));
  digits.push(check(digits));
  return digits.join('');
}

/** `length` decimal digits derived from `seed`. */
export function digitsFromSeed(seed: string, length: number): string {
  const hash = createHash('sha256').update(seed).digest();
  return Array.from({ length }, (_, i) => String((hash[i % hash.length] ?? 0) % 10)).join('');
}
