import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc16CcittFalse } from '../../src/primitives/crc16.ts';
import { referenceCrc16 } from './support.ts';

describe('crc16CcittFalse', () => {
  it('gives the CRC16/CCITT-FALSE check value 29B1 for "123456789"', () => {
    expect(crc16CcittFalse('123456789')).toBe('29B1');
  });

  it('returns the initial value FFFF for empty input', () => {
    expect(crc16CcittFalse('')).toBe('FFFF');
  });

  it('reproduces the CRC of the central bank static sample (computed over everything up to 6304)', () => {
    const payload =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304';
    expect(crc16CcittFalse(payload)).toBe('1D3D');
  });

  it('accepts bytes as well as strings', () => {
    expect(crc16CcittFalse(new TextEncoder().encode('123456789'))).toBe('29B1');
  });

  it('pads to 4 upper-case hex digits', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 64 }), (text) => {
        expect(crc16CcittFalse(text)).toMatch(/^[0-9A-F]{4}$/);
      }),
    );
  });

  it('agrees with a bit-by-bit reference implementation on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(crc16CcittFalse(text)).toBe(referenceCrc16(text));
      }),
      { numRuns: 500 },
    );
  });
});
