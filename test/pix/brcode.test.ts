import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BrCodeErrorCode } from '../../src/primitives/brcode.ts';
import {
  BrCodeError,
  buildDynamicBrCode,
  buildStaticBrCode,
  encodeTlv,
  parseBrCode,
  toAsciiUpper,
  withCrc,
} from '../../src/primitives/brcode.ts';

// Known-good payloads of pix-facts.md (checked).
const BCB_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
const BCB_DYNAMIC =
  '00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4';
const STATIC_WITH_AMOUNT =
  '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63040DC6';

function brCodeErrorOf(run: () => unknown): BrCodeError {
  try {
    run();
  } catch (error) {
    if (error instanceof BrCodeError) return error;
    throw error;
  }
  throw new Error('expected a BrCodeError, nothing was thrown');
}

const expectCode = (run: () => unknown, code: BrCodeErrorCode) => expect(brCodeErrorOf(run).code).toBe(code);

describe('BR Code builders reproduce the known-good payloads', () => {
  it('static, central bank sample (mixed-case name, normalizeText: false)', () => {
    const payload = buildStaticBrCode({
      pixKey: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      normalizeText: false,
    });
    expect(payload).toBe(BCB_STATIC);
  });

  it('static, central bank sample, assembled from encodeTlv and withCrc', () => {
    const payload = withCrc(
      encodeTlv('00', '01') +
        encodeTlv('26', encodeTlv('00', 'br.gov.bcb.pix') + encodeTlv('01', '123e4567-e12b-12d1-a456-426655440000')) +
        encodeTlv('52', '0000') +
        encodeTlv('53', '986') +
        encodeTlv('58', 'BR') +
        encodeTlv('59', 'Fulano de Tal') +
        encodeTlv('60', 'BRASILIA') +
        encodeTlv('62', encodeTlv('05', '***')),
    );
    expect(payload).toBe(BCB_STATIC);
  });

  it('dynamic, central bank sample (the https:// scheme is dropped from the location)', () => {
    const payload = buildDynamicBrCode({
      locationUrl: 'https://pix.example.com/8b3da2f39a4140d1a91abd93113bd441',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      normalizeText: false,
    });
    expect(payload).toBe(BCB_DYNAMIC);
  });

  it('static with amount and description, with default normalisation of name and city', () => {
    const payload = buildStaticBrCode({
      pixKey: 'thalesog@me.com',
      description: 'Pedido 123',
      amountCents: 1000,
      merchantName: 'Thales Ogliari',
      merchantCity: 'São Miguel do Ó',
    });
    expect(payload).toBe(STATIC_WITH_AMOUNT);
  });
});

describe('buildDynamicBrCode', () => {
  const charge = {
    locationUrl: 'pix.pixgate.com.br/qr/v2/3f9c0a5e1b2d4c6e8f0a1b2c',
    merchantName: 'Padaria São João & Filhos Comércio de Pães Ltda',
    merchantCity: 'São Paulo',
    amountCents: 12345,
  };

  it('writes the charge layout of docs/decisions.md: 01=12, location, amount, *** txid', () => {
    const parsed = parseBrCode(buildDynamicBrCode(charge));
    expect(parsed).toMatchObject({
      kind: 'dynamic',
      pointOfInitiationMethod: '12',
      locationUrl: 'pix.pixgate.com.br/qr/v2/3f9c0a5e1b2d4c6e8f0a1b2c',
      amount: '123.45',
      amountCents: 12345,
      merchantName: 'PADARIA SAO JOAO FILHOS C',
      merchantCity: 'SAO PAULO',
      txid: '***',
      currency: '986',
      countryCode: 'BR',
      merchantCategoryCode: '0000',
    });
  });

  it('omits field 54 when no amount is given', () => {
    const parsed = parseBrCode(buildDynamicBrCode({ ...charge, amountCents: undefined }));
    expect(parsed.fields.map((f) => f.tag)).not.toContain('54');
    expect(parsed.amountCents).toBeUndefined();
  });

  it('accepts a location of exactly 77 characters and rejects 78', () => {
    const at77 = `pix.example.com/${'a'.repeat(77 - 16)}`;
    expect(parseBrCode(buildDynamicBrCode({ ...charge, locationUrl: at77 })).locationUrl).toBe(at77);
    expectCode(() => buildDynamicBrCode({ ...charge, locationUrl: `${at77}a` }), 'INVALID_INPUT');
    expectCode(() => buildDynamicBrCode({ ...charge, locationUrl: `https://${at77}a` }), 'INVALID_INPUT');
  });

  it('rejects a location with another scheme, whitespace or nothing in it', () => {
    expectCode(() => buildDynamicBrCode({ ...charge, locationUrl: 'http://pix.example.com/x' }), 'INVALID_INPUT');
    expectCode(() => buildDynamicBrCode({ ...charge, locationUrl: 'pix.example.com/a b' }), 'INVALID_INPUT');
    expectCode(() => buildDynamicBrCode({ ...charge, locationUrl: 'https://' }), 'INVALID_INPUT');
  });

  it('rejects amounts that are not positive integer cents', () => {
    for (const amountCents of [0, -100, 10.5, Number.NaN, 10_000_000_000_000]) {
      expectCode(() => buildDynamicBrCode({ ...charge, amountCents }), 'INVALID_INPUT');
    }
  });

  it('accepts a txid of up to 25 alphanumerics and rejects longer or other characters', () => {
    expect(parseBrCode(buildDynamicBrCode({ ...charge, txid: 'A'.repeat(25) })).txid).toBe('A'.repeat(25));
    expectCode(() => buildDynamicBrCode({ ...charge, txid: 'A'.repeat(26) }), 'INVALID_INPUT');
    expectCode(() => buildDynamicBrCode({ ...charge, txid: 'abc-123' }), 'INVALID_INPUT');
  });

  it('rejects a name or city that is empty once made ASCII', () => {
    expectCode(() => buildDynamicBrCode({ ...charge, merchantName: '&&& ***' }), 'INVALID_INPUT');
    expectCode(() => buildDynamicBrCode({ ...charge, merchantCity: '北京' }), 'INVALID_INPUT');
  });

  it('with normalizeText: false, rejects non-ASCII or over-long text instead of altering it', () => {
    expectCode(() => buildDynamicBrCode({ ...charge, normalizeText: false, merchantCity: 'São Paulo' }), 'INVALID_INPUT');
    expectCode(() => buildDynamicBrCode({ ...charge, normalizeText: false, merchantName: 'A'.repeat(26) }), 'INVALID_INPUT');
  });
});

describe('buildStaticBrCode', () => {
  it('rejects a key longer than 77 characters', () => {
    expectCode(
      () => buildStaticBrCode({ pixKey: 'k'.repeat(78), merchantName: 'A', merchantCity: 'B' }),
      'INVALID_INPUT',
    );
  });

  it('rejects a description that does not fit in field 26 next to the key', () => {
    expectCode(
      () =>
        buildStaticBrCode({
          pixKey: '123e4567-e12b-12d1-a456-426655440000',
          description: 'x'.repeat(50),
          merchantName: 'A',
          merchantCity: 'B',
        }),
      'INVALID_INPUT',
    );
  });

  it('makes the description ASCII but keeps its case', () => {
    const parsed = parseBrCode(
      buildStaticBrCode({ pixKey: 'a@b.co', description: '  Pedido nº 12 — café ', merchantName: 'A', merchantCity: 'B' }),
    );
    expect(parsed.description).toBe('Pedido n 12 cafe');
  });
});

describe('toAsciiUpper', () => {
  it.each([
    ['São Miguel do Ó', 'SAO MIGUEL DO O'],
    ['  Açaí   & Cia.  ', 'ACAI CIA.'],
    ['Müller-Lüdenscheidt\tLtda', 'MULLER-LUDENSCHEIDT LTDA'],
    ['Straße', 'STRASSE'],
    ['😀 Loja 1', 'LOJA 1'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(toAsciiUpper(input)).toBe(expected);
  });

  it('only ever yields [A-Z0-9 .-] without leading, trailing or double spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
        const ascii = toAsciiUpper(text);
        expect(ascii).toMatch(/^[A-Z0-9.-]*(?: [A-Z0-9.-]+)*$/);
      }),
    );
  });
});

describe('parseBrCode', () => {
  it('reads the three known-good payloads', () => {
    expect(parseBrCode(BCB_STATIC)).toMatchObject({
      kind: 'static',
      pixKey: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      txid: '***',
      crc: '1D3D',
    });
    expect(parseBrCode(BCB_DYNAMIC)).toMatchObject({
      kind: 'dynamic',
      pointOfInitiationMethod: '12',
      locationUrl: 'pix.example.com/8b3da2f39a4140d1a91abd93113bd441',
      crc: '64E4',
    });
    expect(parseBrCode(STATIC_WITH_AMOUNT)).toMatchObject({
      kind: 'static',
      pixKey: 'thalesog@me.com',
      description: 'Pedido 123',
      amount: '10.00',
      amountCents: 1000,
    });
  });

  it('rejects a field 62 declared with length 08 but holding 7 characters (CRC recomputed)', () => {
    const truncated = BCB_STATIC.replace('62070503***', '62080503***');
    const error = brCodeErrorOf(() => parseBrCode(withCrc(truncated.slice(0, -8))));
    expect(error.code).toBe('LENGTH_MISMATCH');
    expect(error.tag).toBe('62');
  });

  it('rejects the same payload with its original CRC', () => {
    expectCode(() => parseBrCode(BCB_STATIC.replace('62070503***', '62080503***')), 'CRC_MISMATCH');
  });

  it('rejects a payload whose last four characters are not the CRC of the rest', () => {
    expectCode(() => parseBrCode(`${BCB_STATIC.slice(0, -4)}1D3E`), 'CRC_MISMATCH');
    expectCode(() => parseBrCode(`${BCB_STATIC.slice(0, -4)}1d3d`), 'INVALID_FIELD');
    expectCode(() => parseBrCode(BCB_STATIC.slice(0, -8)), 'MISSING_FIELD');
  });

  const rebuilt = (fields: string) => withCrc(fields);
  const base = {
    head: encodeTlv('00', '01'),
    account: encodeTlv('26', encodeTlv('00', 'br.gov.bcb.pix') + encodeTlv('01', 'a@b.co')),
    tail:
      encodeTlv('52', '0000') +
      encodeTlv('53', '986') +
      encodeTlv('58', 'BR') +
      encodeTlv('59', 'LOJA') +
      encodeTlv('60', 'CIDADE') +
      encodeTlv('62', encodeTlv('05', '***')),
  };

  it('accepts a well-formed payload assembled field by field, keeping unknown fields', () => {
    const parsed = parseBrCode(rebuilt(base.head + base.account + base.tail + encodeTlv('80', '0003abc')));
    expect(parsed.fields.map((f) => f.tag)).toEqual(['00', '26', '52', '53', '58', '59', '60', '62', '80', '63']);
  });

  it.each<[string, string, BrCodeErrorCode]>([
    ['field 00 not first', base.account + base.head + base.tail, 'INVALID_FIELD'],
    ['a duplicated field', base.head + base.account + base.tail + encodeTlv('59', 'X'), 'DUPLICATE_FIELD'],
    ['no merchant name', base.head + base.account + base.tail.replace(encodeTlv('59', 'LOJA'), ''), 'MISSING_FIELD'],
    ['no field 26', base.head + base.tail, 'MISSING_FIELD'],
    ['another GUI', base.head + encodeTlv('26', encodeTlv('00', 'br.gov.xxx.pix') + encodeTlv('01', 'k')) + base.tail, 'INVALID_FIELD'],
    [
      'both key and location',
      base.head + encodeTlv('26', encodeTlv('00', 'br.gov.bcb.pix') + encodeTlv('01', 'k') + encodeTlv('25', 'x.y/z')) + base.tail,
      'INVALID_FIELD',
    ],
    ['currency other than 986', base.head + base.account + base.tail.replace('5303986', '5303840'), 'INVALID_FIELD'],
    ['an amount such as 10,00', base.head + base.account + encodeTlv('54', '10,00') + base.tail, 'INVALID_FIELD'],
    ['field 01 = 13', base.head + encodeTlv('01', '13') + base.account + base.tail, 'INVALID_FIELD'],
    ['a merchant name of 26 characters', base.head + base.account + base.tail.replace(encodeTlv('59', 'LOJA'), encodeTlv('59', 'L'.repeat(26))), 'INVALID_FIELD'],
    ['a txid with a dash', base.head + base.account + base.tail.replace(encodeTlv('62', encodeTlv('05', '***')), encodeTlv('62', encodeTlv('05', 'ab-1'))), 'INVALID_FIELD'],
    ['a field of length 00', base.head + base.account + base.tail + '8000', 'MALFORMED'],
  ])('rejects %s', (_name, fields, code) => {
    expectCode(() => parseBrCode(rebuilt(fields)), code);
  });

  it('rejects non-ASCII payloads', () => {
    expectCode(() => parseBrCode(BCB_STATIC.replace('Fulano', 'Fulanó')), 'MALFORMED');
  });
});

const dynamicInput = fc.record({
  locationUrl: fc.stringMatching(/^[a-z0-9.]{3,20}\/[A-Za-z0-9/_-]{1,50}$/),
  merchantName: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((s) => toAsciiUpper(s) !== ''),
  merchantCity: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((s) => toAsciiUpper(s) !== ''),
  amountCents: fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined }),
});

describe('BR Code properties', () => {
  it('parse(build(input)) returns the input, normalised', () => {
    fc.assert(
      fc.property(dynamicInput, (input) => {
        const parsed = parseBrCode(buildDynamicBrCode(input));
        expect(parsed.locationUrl).toBe(input.locationUrl);
        expect(parsed.merchantName).toBe(toAsciiUpper(input.merchantName).slice(0, 25).trimEnd());
        expect(parsed.merchantCity).toBe(toAsciiUpper(input.merchantCity).slice(0, 15).trimEnd());
        expect(parsed.amountCents).toBe(input.amountCents);
      }),
      { numRuns: 300 },
    );
  });

  it('any single-character change of a built payload is rejected by parseBrCode', () => {
    const mutation = fc.record({ input: dynamicInput, position: fc.nat(), replacement: fc.integer({ min: 0x20, max: 0x7e }) });
    fc.assert(
      fc.property(mutation, ({ input, position, replacement }) => {
        const payload = buildDynamicBrCode(input);
        const index = position % payload.length;
        const char = String.fromCharCode(replacement);
        fc.pre(payload[index] !== char);
        const changed = payload.slice(0, index) + char + payload.slice(index + 1);
        expect(() => parseBrCode(changed)).toThrow(BrCodeError);
      }),
      { numRuns: 2000 },
    );
  });
});
