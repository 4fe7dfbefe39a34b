/**
 * Independent reference implementations for the PIX tests, written from pix-facts.md and deliberately
 * simple (bit by bit, digit by digit), so the production code is checked against something other than
 * itself.
 */
import fc from 'fast-check';

/** CRC16/CCITT-FALSE bit by bit over UTF-8 bytes. */
export function referenceCrc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Value of a document character: ASCII code − 48 (`0` = 0, `A` = 17). */
const charValue = (ch: string) => ch.charCodeAt(0) - 48;

/** mod 11 check digit: r = Σ value × weight mod 11; digit = 0 if r < 2, else 11 − r. */
export function mod11Digit(chars: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += charValue(chars[i] ?? '0') * (weights[i] ?? 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

const CPF_W1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_W2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

export function completeCpf(base9: string): string {
  const d1 = mod11Digit(base9, CPF_W1);
  return `${base9}${d1}${mod11Digit(`${base9}${d1}`, CPF_W2)}`;
}

export function completeCnpj(base12: string): string {
  const d1 = mod11Digit(base12, CNPJ_W1);
  return `${base12}${d1}${mod11Digit(`${base12}${d1}`, CNPJ_W2)}`;
}

const repeated = (base: string) => base === (base[0] ?? '').repeat(base.length);

/** The whole rule of pix-facts.md + docs/decisions.md, for stripped input. */
export function referenceIsValidCpf(s: string): boolean {
  return /^\d{11}$/.test(s) && !repeated(s.slice(0, 9)) && completeCpf(s.slice(0, 9)) === s;
}

export function referenceIsValidCnpj(s: string): boolean {
  return /^[0-9A-Z]{12}\d{2}$/.test(s) && !repeated(s.slice(0, 12)) && completeCnpj(s.slice(0, 12)) === s;
}

const DIGITS = '0123456789';
const CNPJ_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const charsOf = (alphabet: string, length: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: length, maxLength: length }).map((cs) => cs.join(''));

export const validCpf = charsOf(DIGITS, 9)
  .filter((base) => !repeated(base))
  .map(completeCpf);
export const validNumericCnpj = charsOf(DIGITS, 12)
  .filter((base) => !repeated(base))
  .map(completeCnpj);
export const validAlphanumericCnpj = charsOf(CNPJ_CHARS, 12)
  .filter((base) => !repeated(base) && /[A-Z]/.test(base))
  .map(completeCnpj);

export { CNPJ_CHARS, DIGITS };

/** A random source that replays `bytes` cyclically: deterministic ids in tests. */
export function replayBytes(bytes: readonly number[]): (size: number) => Uint8Array {
  let position = 0;
  return (size) =>
    Uint8Array.from({ length: size }, () => {
      const byte = bytes[position % bytes.length] ?? 0;
      position++;
      return byte;
    });
}
