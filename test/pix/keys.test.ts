import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePixKey, normalizePixKeyType, pixKeyMatchesDocument, PIX_KEY_TYPES } from '../../src/primitives/keys.ts';
import { validCpf } from './support.ts';

describe('normalizePixKeyType', () => {
  it.each(PIX_KEY_TYPES)('accepts %s in any case with surrounding whitespace', (type) => {
    expect(normalizePixKeyType(` ${type.toUpperCase()}\t`)).toBe(type);
  });

  it.each(['aleatoria', 'random', 'telefone', '', 'e mail', null, 3])('returns undefined for %j', (input) => {
    expect(normalizePixKeyType(input)).toBeUndefined();
  });
});

describe('normalizePixKey', () => {
  it.each<[Parameters<typeof normalizePixKey>[0], string, string]>([
    ['cpf', '529.982.247-25', '52998224725'],
    ['cpf', ' 52998224725 ', '52998224725'],
    ['cnpj', '11.222.333/0001-81', '11222333000181'],
    ['cnpj', '12.abc.345/01de-35', '12ABC34501DE35'],
    ['email', '  Fulano.Tal+pix@Example.COM.br ', 'fulano.tal+pix@example.com.br'],
    ['phone', '+5511999998888', '+5511999998888'],
    ['phone', '5511999998888', '+5511999998888'],
    ['phone', '11999998888', '+5511999998888'],
    ['phone', '+55 (11) 99999-8888', '+5511999998888'],
    ['phone', '1133334444', '+551133334444'],
    ['phone', '551133334444', '+551133334444'],
    ['phone', '55999998888', '+5555999998888'], // area code 55 (Santa Maria, RS), no country code
    ['evp', '123E4567-E12B-12D1-A456-426655440000', '123e4567-e12b-12d1-a456-426655440000'],
  ])('%s %j -> %j', (type, key, expected) => {
    expect(normalizePixKey(type, key)).toEqual({ ok: true, key: expected });
  });

  it.each<[Parameters<typeof normalizePixKey>[0], string]>([
    ['cpf', '529.982.247-26'],
    ['cpf', '111.111.111-11'],
    ['cpf', '11222333000181'],
    ['cnpj', '52998224725'],
    ['cnpj', '11.222.333/0001-82'],
    ['email', 'fulano'],
    ['email', 'fulano@localhost'],
    ['email', `${'a'.repeat(66)}@example.com`], // 78 characters
    ['email', 'a b@example.com'],
    ['phone', '+15551234567'],
    ['phone', '+55 11 99999-888877'], // 12 national digits
    ['phone', '999998888'],
    ['phone', '01999998888'],
    ['phone', '11899998888'], // 11 digits must be a mobile number (9 after the area code)
    ['phone', '+55119999988889'],
    ['phone', 'phone'],
    ['evp', '123e4567e12b12d1a456426655440000'],
    ['evp', '123e4567-e12b-12d1-a456-42665544000g'],
    ['evp', ''],
  ])('%s %j is rejected', (type, key) => {
    expect(normalizePixKey(type, key)).toEqual({ ok: false });
  });

  it('accepts an e-mail of exactly 77 characters', () => {
    const email = `${'a'.repeat(65)}@example.com`;
    expect(email).toHaveLength(77);
    expect(normalizePixKey('email', email)).toEqual({ ok: true, key: email });
  });

  it('normalises any valid CPF, formatted or not, to its digits', () => {
    fc.assert(
      fc.property(validCpf, (cpf) => {
        const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
        expect(normalizePixKey('cpf', formatted)).toEqual({ ok: true, key: cpf });
      }),
    );
  });

  it('normalises any UUID to lower case and is idempotent', () => {
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        const first = normalizePixKey('evp', uuid.toUpperCase());
        expect(first).toEqual({ ok: true, key: uuid.toLowerCase() });
        if (first.ok) expect(normalizePixKey('evp', first.key)).toEqual(first);
      }),
    );
  });
});

describe('pixKeyMatchesDocument', () => {
  it('requires the same type and the same characters', () => {
    expect(pixKeyMatchesDocument('cpf', '52998224725', 'cpf', '52998224725')).toBe(true);
    expect(pixKeyMatchesDocument('cnpj', '52998224725', 'cpf', '52998224725')).toBe(false);
    expect(pixKeyMatchesDocument('cpf', '11144477735', 'cpf', '52998224725')).toBe(false);
    expect(pixKeyMatchesDocument('email', 'a@b.co', 'cpf', '52998224725')).toBe(false);
  });
});
