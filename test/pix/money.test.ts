import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDecimalString, decimalStringToCents, feeCents } from '../../src/primitives/money.ts';

describe('feeCents', () => {
  it.each([
    // amountCents, fixedCents, bps, capAtAmount, expected
    [1000, 0, 99, true, 10], // 9.9 -> 10
    [5051, 0, 99, true, 50], // 50.0049 -> 50
    [50, 0, 100, true, 1], // exactly 0.5 -> 1 (half up)
    [150, 0, 100, true, 2], // exactly 1.5 -> 2
    [49, 0, 100, true, 0], // 0.49 -> 0
    [10_000_000, 0, 99, true, 99_000],
    [10_000, 100, 0, false, 100], // withdrawal default: 100 fixed + 0 bps
    [100, 100, 99, true, 100], // 101 capped at the amount
    [100, 100, 99, false, 101], // not capped
    [0, 0, 99, true, 0],
  ])('amount %i, fixed %i, %i bps, cap %s -> %i', (amountCents, fixedCents, bps, capAtAmount, expected) => {
    expect(feeCents({ amountCents, fixedCents, bps, capAtAmount })).toBe(expected);
  });

  it('stays exact beyond 2^53 intermediate products', () => {
    expect(feeCents({ amountCents: Number.MAX_SAFE_INTEGER, fixedCents: 0, bps: 10_000, capAtAmount: false })).toBe(
      Number.MAX_SAFE_INTEGER,
    );
  });

  it.each([
    { amountCents: -1, fixedCents: 0, bps: 0, capAtAmount: true },
    { amountCents: 1.5, fixedCents: 0, bps: 0, capAtAmount: true },
    { amountCents: 100, fixedCents: -1, bps: 0, capAtAmount: true },
    { amountCents: 100, fixedCents: 0, bps: Number.NaN, capAtAmount: true },
  ])('rejects %j', (input) => expect(() => feeCents(input)).toThrow(RangeError));

  it('is the proportional part rounded half up: |2·10000·(fee − fixed) − 2·amount·bps| ≤ 10000, ties up', () => {
    const input = fc.record({
      amountCents: fc.integer({ min: 0, max: 10_000_000 }),
      fixedCents: fc.integer({ min: 0, max: 1000 }),
      bps: fc.integer({ min: 0, max: 10_000 }),
    });
    fc.assert(
      fc.property(input, ({ amountCents, fixedCents, bps }) => {
        const proportional = feeCents({ amountCents, fixedCents, bps, capAtAmount: false }) - fixedCents;
        const twiceError = 2 * 10_000 * proportional - 2 * amountCents * bps; // exact: below 2^53
        expect(twiceError).toBeGreaterThanOrEqual(-10_000 + 1);
        expect(twiceError).toBeLessThanOrEqual(10_000);
      }),
      { numRuns: 1000 },
    );
  });

  it('never exceeds the amount when capped, so netCents ≥ 0', () => {
    const input = fc.record({
      amountCents: fc.integer({ min: 0, max: 10_000_000 }),
      fixedCents: fc.integer({ min: 0, max: 100_000 }),
      bps: fc.integer({ min: 0, max: 20_000 }),
    });
    fc.assert(
      fc.property(input, (i) => {
        const fee = feeCents({ ...i, capAtAmount: true });
        expect(fee).toBeLessThanOrEqual(i.amountCents);
        expect(fee).toBe(Math.min(i.amountCents, feeCents({ ...i, capAtAmount: false })));
      }),
    );
  });
});

describe('centsToDecimalString', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [100, '1.00'],
    [1000, '10.00'],
    [12345, '123.45'],
    [10_000_000, '100000.00'],
    [-150, '-1.50'],
  ])('%i -> %s', (cents, text) => expect(centsToDecimalString(cents)).toBe(text));

  it('rejects non-integers', () => {
    expect(() => centsToDecimalString(1.5)).toThrow(RangeError);
  });

  it('round-trips through decimalStringToCents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        expect(decimalStringToCents(centsToDecimalString(cents))).toBe(cents);
      }),
    );
  });
});

describe('decimalStringToCents', () => {
  it.each([
    ['10.00', 1000],
    ['10', 1000],
    ['10.5', 1050],
    ['0.01', 1],
  ])('%s -> %i', (text, cents) => expect(decimalStringToCents(text)).toBe(cents));

  it.each(['', '10,00', '10.001', '.50', '-1.00', '1e3', '10.'])('rejects %j', (text) => {
    expect(decimalStringToCents(text)).toBeUndefined();
  });
});
