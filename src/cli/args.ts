/**
 * Converters from command-line strings to the typed values of the request bodies. Each throws a usage
 * error naming the option, so nothing malformed is ever sent.
 */
import { usageError } from './errors.ts';
import type { Party } from './types.ts';

export function integer(option: string, raw: string): number {
  if (!/^-?\d+$/.test(raw.trim())) throw usageError(`--${option} must be an integer, got '${raw}'.`);
  return Number(raw);
}

/** An integer, or `default` for null (the service-wide default applies). */
export function integerOrDefault(option: string, raw: string): number | null {
  return raw.trim().toLowerCase() === 'default' ? null : integer(option, raw);
}

/** An integer, or `none` for null (the setting is switched off). */
export function integerOrNone(option: string, raw: string): number | null {
  return raw.trim().toLowerCase() === 'none' ? null : integer(option, raw);
}

export function boolean(option: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw usageError(`--${option} must be 'true' or 'false', got '${raw}'.`);
}

/**
 * One of the values of a contract enumeration. `allowed` is a Record over the generated union type, so the
 * compiler flags this list when the contract adds a value.
 */
export function oneOf<T extends string>(option: string, raw: string, allowed: Readonly<Record<T, true>>): T {
  const names = Object.keys(allowed) as T[];
  const match = names.find((name) => name === raw.trim());
  if (match === undefined) throw usageError(`--${option} must be one of ${names.join(', ')}; got '${raw}'.`);
  return match;
}

/** `a,b, c` -> ['a', 'b', 'c'] (blank items dropped). */
function items(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** `a,b, c` -> ['a', 'b', 'c']; an empty value or `none` -> [] (clears the list). */
export function list(raw: string): string[] {
  return raw.trim().toLowerCase() === 'none' ? [] : items(raw);
}

/**
 * A webhook URL's event filter: `transaction.paid,cashout` -> the entries as typed (the server checks each
 * one); `all` -> [] (every event). Unlike `list`, an empty value is refused: an empty filter means every
 * event, which must be asked for by name, not reached by a stray `--events ''`.
 */
export function eventFilter(option: string, raw: string): string[] {
  if (raw.trim().toLowerCase() === 'all') return [];
  const entries = items(raw);
  if (entries.length === 0) {
    throw usageError(`--${option} needs event names or categories separated by commas, or 'all' for every event.`);
  }
  return entries;
}

/** `cpf,email` -> each checked against the allowed values; `none` -> [] (see `list`). */
export function listOf<T extends string>(option: string, raw: string, allowed: Readonly<Record<T, true>>): T[] {
  return list(raw).map((item) => oneOf(option, item, allowed));
}

/** The fictitious bank account given to parties set from the command line (the contract requires one). */
const SANDBOX_BANK_ACCOUNT = { ispb: '99999004', branch: '0001', account: '000001' } as const;

/**
 * A payer or beneficiary from `--<role>-name` and `--<role>-document`: formatting is stripped, the type
 * follows from the length (11 digits: CPF; 14 characters: CNPJ, numeric or alphanumeric).
 */
export function party(role: 'payer' | 'beneficiary', name: string, document: string): Party {
  const stripped = document.replace(/[.\-/\s]/g, '').toUpperCase();
  const documentType = /^\d{11}$/.test(stripped) ? 'cpf' : /^[0-9A-Z]{12}\d{2}$/.test(stripped) ? 'cnpj' : undefined;
  if (documentType === undefined) {
    throw usageError(`--${role}-document must be a CPF (11 digits) or a CNPJ (14 characters), got '${document}'.`);
  }
  return { name, document: stripped, documentType, bankAccount: { ...SANDBOX_BANK_ACCOUNT } };
}

/**
 * The optional party of a sandbox body: both `--<role>-name` and `--<role>-document`, or neither.
 */
export function optionalParty(
  role: 'payer' | 'beneficiary',
  options: Readonly<Record<string, string | undefined>>,
): Party | undefined {
  const name = options[`${role}-name`];
  const document = options[`${role}-document`];
  if ((name === undefined) !== (document === undefined)) throw usageError(`--${role}-name and --${role}-document go together.`);
  return name !== undefined && document !== undefined ? party(role, name, document) : undefined;
}
