/**
 * CPF and CNPJ: normalisation, check digits, masking.
 *
 * Check digits are delegated to `@brazilian-utils/brazilian-utils` (v2.4.0), whose `isValidCnpj` handles the
 * alphanumeric CNPJ with `{ version: 2 }`. Two rules are ours, because the library does not apply them:
 * - input must already be stripped (`stripDocument`): the library also accepts masks and surrounding
 *   whitespace, and CNPJ letters in lower case;
 * - a document whose base (CPF: 9 digits, CNPJ: 12 characters) is one repeated character is invalid. The
 *   library rejects repeated numeric documents, but explicitly accepts an alphanumeric base such as
 *   `AAAAAAAAAAAA` when its check digits match (the Receita manual lists no reserved alphanumeric values).
 * Alphanumeric CNPJ (Receita Federal, July 2026) is accepted: docs/decisions.md, Validation.
 */
import { isValidCnpj as libraryIsValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj';
import { isValidCpf as libraryIsValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf';

export type DocumentType = 'cpf' | 'cnpj';
export const DOCUMENT_TYPES: readonly DocumentType[] = ['cpf', 'cnpj'];
/** Characters after stripping: 11 for CPF, 14 for CNPJ. */
export const DOCUMENT_LENGTH: Readonly<Record<DocumentType, number>> = { cpf: 11, cnpj: 14 };

const CPF_SHAPE = /^\d{11}$/;
/** 12 base characters `[0-9A-Z]` (value = ASCII code − 48) and 2 numeric check digits. */
const CNPJ_SHAPE = /^[0-9A-Z]{12}\d{2}$/;
/** What a document field may contain before stripping; letters only make sense for CNPJ. */
const CPF_INPUT = /^[\d.\-/\s]*$/;
const CNPJ_INPUT = /^[\dA-Za-z.\-/\s]*$/;

/** `' CPF '` -> `'cpf'`; anything but cpf/cnpj (after trim and lower-case) -> `undefined`. */
export function normalizeDocumentType(input: unknown): DocumentType | undefined {
  if (typeof input !== 'string') return undefined;
  const type = input.trim().toLowerCase();
  return type === 'cpf' || type === 'cnpj' ? type : undefined;
}

/** Removes dots, dashes, slashes and whitespace and upper-cases letters: `12.abc.345/01de-35` -> `12ABC34501DE35`. */
export function stripDocument(input: string): string {
  return input.replace(/[.\-/\s]/g, '').toUpperCase();
}

function hasRepeatedBase(document: string, baseLength: number): boolean {
  const base = document.slice(0, baseLength);
  return base === (base[0] ?? '').repeat(baseLength);
}

/** A stripped CPF (11 digits) with correct check digits and not a repeated-digit number. */
export function isValidCpf(digits: string): boolean {
  return CPF_SHAPE.test(digits) && !hasRepeatedBase(digits, 9) && libraryIsValidCpf(digits);
}

/** A stripped CNPJ, numeric or alphanumeric (upper-case), with correct check digits and no repeated base. */
export function isValidCnpj(chars: string): boolean {
  return CNPJ_SHAPE.test(chars) && !hasRepeatedBase(chars, 12) && libraryIsValidCnpj(chars, { version: 2 });
}

export function isValidDocument(type: DocumentType, stripped: string): boolean {
  return type === 'cpf' ? isValidCpf(stripped) : isValidCnpj(stripped);
}

/** The type a stripped document has by its shape alone (11 digits: cpf; 14 CNPJ characters: cnpj). */
export function documentKind(stripped: string): DocumentType | undefined {
  if (CPF_SHAPE.test(stripped)) return 'cpf';
  if (CNPJ_SHAPE.test(stripped)) return 'cnpj';
  return undefined;
}

export type DocumentValidation =
  | { ok: true; document: string }
  /**
   * `characters`: something other than digits, dots, dashes, slashes, whitespace (and letters for CNPJ);
   * `length`: not 11 / 14 characters after stripping; `checkDigits`: right length, wrong check digits
   * (or a repeated-digit number). `length` is the stripped length, for the "Recebido: N dígitos" messages.
   */
  | { ok: false; reason: 'characters' | 'length' | 'checkDigits'; length: number };

/** Strips and validates a document as received in a request, saying which rule failed. */
export function validateDocument(type: DocumentType, input: string): DocumentValidation {
  const document = stripDocument(input);
  const length = document.length;
  if (!(type === 'cpf' ? CPF_INPUT : CNPJ_INPUT).test(input)) return { ok: false, reason: 'characters', length };
  if (length !== DOCUMENT_LENGTH[type]) return { ok: false, reason: 'length', length };
  if (!isValidDocument(type, document)) return { ok: false, reason: 'checkDigits', length };
  return { ok: true, document };
}

/**
 * Masked document for listings. CPF shows the middle six digits, `***.982.247-**`, the pattern the federal
 * government uses when publishing CPFs (first three and check digits hidden). CNPJ shows the middle ten
 * characters, `**.222.333/0001-**`: a CNPJ identifies a company and is public in the Receita registry, but
 * hiding the same ends keeps one rule for both and stops a listing from echoing a full document.
 * A value of the wrong length is masked completely rather than shown.
 */
export function maskDocument(document: string, type: DocumentType): string {
  const stripped = stripDocument(document);
  if (type === 'cpf') {
    if (stripped.length !== DOCUMENT_LENGTH.cpf) return '***.***.***-**';
    return `***.${stripped.slice(3, 6)}.${stripped.slice(6, 9)}-**`;
  }
  if (stripped.length !== DOCUMENT_LENGTH.cnpj) return '**.***.***/****-**';
  return `**.${stripped.slice(2, 5)}.${stripped.slice(5, 8)}/${stripped.slice(8, 12)}-**`;
}

