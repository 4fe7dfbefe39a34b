import { isValidCnpj as libraryIsValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  documentKind,
  isValidCnpj,
  isValidCpf,
  maskDocument,
  normalizeDocumentType,
  stripDocument,
  validateDocument,
} from '../../src/primitives/documents.ts';
import {
  CNPJ_CHARS,
  DIGITS,
  completeCnpj,
  referenceIsValidCnpj,
  referenceIsValidCpf,
  validAlphanumericCnpj,
  validCpf,
  validNumericCnpj,
} from './support.ts';

const VALID_CPFS = ['52998224725', '11144477735', '12345678909'];
const VALID_CNPJS = ['11222333000181', '13723705000189', '60391947000100', '12ABC34501DE35'];

/** Replaces the character at `index` with the `shift`-th other character of `alphabet`. */
function substitute(document: string, index: number, alphabet: string, shift: number): string {
  const others = [...alphabet].filter((c) => c !== document[index]);
  return document.slice(0, index) + others[shift % others.length] + document.slice(index + 1);
}

const charValue = (ch: string | undefined) => (ch ?? '0').charCodeAt(0) - 48;

describe('normalizeDocumentType', () => {
  it.each([
    ['cpf', 'cpf'],
    [' CPF ', 'cpf'],
    ['\tCnPj\n', 'cnpj'],
  ])('%j -> %j', (input, expected) => expect(normalizeDocumentType(input)).toBe(expected));

  it.each(['rg', '', 'c p f', 'cpfs', null, 11, undefined])('%j -> undefined', (input) => {
    expect(normalizeDocumentType(input)).toBeUndefined();
  });
});

describe('stripDocument', () => {
  it('removes dots, dashes, slashes and whitespace and upper-cases letters', () => {
    expect(stripDocument(' 529.982.247-25 ')).toBe('52998224725');
    expect(stripDocument('11.222.333/0001-81')).toBe('11222333000181');
    expect(stripDocument('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(stripDocument('529 982 247\t25')).toBe('52998224725');
  });

  it('keeps other characters so that validation can reject them', () => {
    expect(stripDocument('529_982_247+25')).toBe('529_982_247+25');
  });
});

describe('isValidCpf', () => {
  it.each(VALID_CPFS)('accepts %s', (cpf) => expect(isValidCpf(cpf)).toBe(true));

  it.each([
    ['a wrong first check digit', '52998224715'],
    ['a wrong second check digit', '52998224726'],
    ['10 digits', '5299822472'],
    ['12 digits', '529982247250'],
    ['a mask (input must be stripped first)', '529.982.247-25'],
    ['a letter', '5299822472A'],
    ['an empty string', ''],
  ])('rejects %s: %s', (_why, cpf) => expect(isValidCpf(cpf)).toBe(false));

  it.each(DIGITS.split(''))('rejects the repeated-digit number %s×11, which passes the arithmetic', (digit) => {
    const repeatedCpf = digit.repeat(11);
    expect(repeatedCpf.slice(9)).toBe(digit.repeat(2)); // the check digits do match: only the rule rejects it
    expect(isValidCpf(repeatedCpf)).toBe(false);
  });
});

describe('isValidCnpj', () => {
  it.each(VALID_CNPJS)('accepts %s', (cnpj) => expect(isValidCnpj(cnpj)).toBe(true));

  it.each([
    ['a wrong check digit', '11222333000182'],
    ['an alphanumeric CNPJ with a wrong check digit', '12ABC34501DE36'],
    ['lower-case letters (input must be stripped first)', '12abc34501de35'],
    ['a letter among the check digits', '12ABC34501DE3A'],
    ['13 characters', '1122233300018'],
    ['a mask', '11.222.333/0001-81'],
    ['a character outside [0-9A-Z]', '12ABC34501D#35'],
  ])('rejects %s: %s', (_why, cnpj) => expect(isValidCnpj(cnpj)).toBe(false));

  it.each(DIGITS.split(''))('rejects the repeated-digit number %s×14', (digit) => {
    expect(isValidCnpj(digit.repeat(14))).toBe(false);
  });

  it('rejects an alphanumeric base of one repeated letter, which the library accepts', () => {
    const allA = completeCnpj('A'.repeat(12));
    expect(libraryIsValidCnpj(allA, { version: 2 })).toBe(true);
    expect(isValidCnpj(allA)).toBe(false);
  });
});

describe('documentKind', () => {
  it('tells CPF and CNPJ apart by shape', () => {
    expect(documentKind('52998224725')).toBe('cpf');
    expect(documentKind('11222333000181')).toBe('cnpj');
    expect(documentKind('12ABC34501DE35')).toBe('cnpj');
    expect(documentKind('1234')).toBeUndefined();
    expect(documentKind('5299822472A')).toBeUndefined();
  });
});

describe('validateDocument', () => {
  it('returns the stripped document when valid', () => {
    expect(validateDocument('cpf', '529.982.247-25')).toEqual({ ok: true, document: '52998224725' });
    expect(validateDocument('cnpj', '12.abc.345/01de-35')).toEqual({ ok: true, document: '12ABC34501DE35' });
  });

  it('names the rule that failed and the stripped length', () => {
    expect(validateDocument('cpf', '529.982.247')).toEqual({ ok: false, reason: 'length', length: 9 });
    expect(validateDocument('cnpj', '52998224725')).toEqual({ ok: false, reason: 'length', length: 11 });
    expect(validateDocument('cpf', '529.982.247-26')).toEqual({ ok: false, reason: 'checkDigits', length: 11 });
    expect(validateDocument('cpf', '111.111.111-11')).toEqual({ ok: false, reason: 'checkDigits', length: 11 });
    expect(validateDocument('cpf', '5299822472A')).toEqual({ ok: false, reason: 'characters', length: 11 });
    expect(validateDocument('cnpj', '11_222_333_0001_81')).toEqual({ ok: false, reason: 'characters', length: 18 });
  });
});

describe('maskDocument', () => {
  it('shows the middle six digits of a CPF', () => {
    expect(maskDocument('52998224725', 'cpf')).toBe('***.982.247-**');
    expect(maskDocument('529.982.247-25', 'cpf')).toBe('***.982.247-**');
  });

  it('shows the middle ten characters of a CNPJ', () => {
    expect(maskDocument('11222333000181', 'cnpj')).toBe('**.222.333/0001-**');
    expect(maskDocument('12ABC34501DE35', 'cnpj')).toBe('**.ABC.345/01DE-**');
  });

  it('masks everything when the length is wrong', () => {
    expect(maskDocument('123', 'cpf')).toBe('***.***.***-**');
    expect(maskDocument('52998224725', 'cnpj')).toBe('**.***.***/****-**');
  });
});

describe('document properties', () => {
  it('generated valid CPFs and CNPJs (numeric and alphanumeric) validate', () => {
    fc.assert(fc.property(validCpf, (cpf) => isValidCpf(cpf)));
    fc.assert(fc.property(validNumericCnpj, (cnpj) => isValidCnpj(cnpj)));
    fc.assert(fc.property(validAlphanumericCnpj, (cnpj) => isValidCnpj(cnpj)));
  });

  it('agree with the reference rule on any 11-digit or 14-character string', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{11}$/), (s) => isValidCpf(s) === referenceIsValidCpf(s)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Z]{12}\d{2}$/), (s) => isValidCnpj(s) === referenceIsValidCnpj(s)),
      { numRuns: 2000 },
    );
  });

  it('a changed check digit always fails', () => {
    const cases = fc.tuple(fc.oneof(validCpf, validNumericCnpj, validAlphanumericCnpj), fc.integer({ min: 1, max: 2 }), fc.nat());
    fc.assert(
      fc.property(cases, ([doc, fromEnd, shift]) => {
        const changed = substitute(doc, doc.length - fromEnd, DIGITS, shift);
        expect(doc.length === 11 ? isValidCpf(changed) : isValidCnpj(changed)).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  // mod 11 maps remainders 0 and 1 both to digit 0, so a change that moves the first remainder between 0
  // and 1 can go unnoticed (e.g. 00022937900 -> 00022037900, both valid CPFs). When the first check digit is
  // not 0, the remainder is one of 2..10, each giving a different digit, and a base change of value δ moves
  // it by weight × δ ≢ 0 (mod 11) (weights 2..10, |δ| < 11): the change is always caught.
  it('a changed base digit fails whenever the first check digit is not 0, and matches the reference otherwise', () => {
    const cases = fc.tuple(fc.oneof(validCpf, validNumericCnpj), fc.nat(), fc.nat());
    fc.assert(
      fc.property(cases, ([doc, position, shift]) => {
        const baseLength = doc.length - 2;
        const changed = substitute(doc, position % baseLength, DIGITS, shift);
        const valid = doc.length === 11 ? isValidCpf(changed) : isValidCnpj(changed);
        const reference = doc.length === 11 ? referenceIsValidCpf(changed) : referenceIsValidCnpj(changed);
        expect(valid).toBe(reference);
        if (doc[baseLength] !== '0') expect(valid).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('shows the mod-11 blind spot of single-digit changes with a known pair of valid CPFs', () => {
    expect(isValidCpf('00022937900')).toBe(true);
    expect(isValidCpf('00022037900')).toBe(true);
  });

  // Alphanumeric values span 0..42, so a change by 11, 22 or 33 (A <-> L, 0 <-> F) is invisible to mod 11:
  // inherent to the Receita Federal algorithm, not a bug of ours.
  it('an alphanumeric base change fails when its value change is not a multiple of 11 and the first check digit is not 0', () => {
    const cases = fc.tuple(validAlphanumericCnpj, fc.nat(), fc.nat());
    fc.assert(
      fc.property(cases, ([doc, position, shift]) => {
        const index = position % 12;
        const changed = substitute(doc, index, CNPJ_CHARS, shift);
        const delta = charValue(changed[index]) - charValue(doc[index]);
        expect(isValidCnpj(changed)).toBe(referenceIsValidCnpj(changed));
        if (delta % 11 !== 0 && doc[12] !== '0') expect(isValidCnpj(changed)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('shows the alphanumeric blind spot: A and L (values 17 and 28) are interchangeable', () => {
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12LBC34501DE35')).toBe(true);
  });
});
