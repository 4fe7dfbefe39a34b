import { describe, expect, it } from 'vitest';
import { brlInWords, maskBrl, parseBrl } from '../../web/shared/money.ts';

/** The one money parser of both applications: `.` groups thousands, `,` separates centavos (issue 22, defect 1). */
describe('parseBrl', () => {
  it.each([
    ['1.234', 123_400],
    ['1.234,56', 123_456],
    ['1234,56', 123_456],
    ['50.000', 5_000_000],
    ['1.234.567', 123_456_700],
    ['R$ 10', 1_000],
    ['0,5', 50],
    ['0,05', 5],
    ['10', 1_000],
  ])('reads %s as %i cents', (typed, cents) => {
    expect(parseBrl(typed)).toBe(cents);
  });

  it.each(['1234.56', '12.34', '1,234', '1.23,45', '', ',', '1,234,5', '-10', 'abc', '1.2345'])('refuses %j', (typed) => {
    expect(parseBrl(typed)).toBeUndefined();
  });
});

describe('maskBrl', () => {
  it.each([
    ['1234', '1.234'],
    ['1234,5', '1.234,5'],
    ['1234,567', '1.234,56'],
    ['1.234', '1.234'],
    ['12.50', '1.250'],
    ['0001', '1'],
    [',5', '0,5'],
    ['R$ 40000', '40.000'],
    ['abc', ''],
  ])('masks %j as %j', (typed, masked) => {
    expect(maskBrl(typed)).toBe(masked);
  });
});

describe('brlInWords', () => {
  it.each([
    [123_456, 'mil duzentos e trinta e quatro reais e cinquenta e seis centavos'],
    [100, 'um real'],
    [5, 'cinco centavos'],
    [4_000_000, 'quarenta mil reais'],
    [100_000_000, 'um milhão de reais'],
  ])('%i cents', (cents, words) => {
    expect(brlInWords(cents)).toBe(words);
  });
});
