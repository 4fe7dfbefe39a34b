import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateEndToEndId, isEndToEndId, utcMinuteStamp } from '../../src/primitives/endToEndId.ts';
import { replayBytes } from './support.ts';

const EXAMPLE = 'E9040088820210128000800123873170';
const EXAMPLE_AT_MS = Date.UTC(2021, 0, 28, 0, 8, 59, 999);

describe('isEndToEndId', () => {
  it('accepts the central bank example and its refund (D) form', () => {
    expect(isEndToEndId(EXAMPLE)).toBe(true);
    expect(isEndToEndId(`D${EXAMPLE.slice(1)}`)).toBe(true);
  });

  it.each([
    ['another first letter', `X${EXAMPLE.slice(1)}`],
    ['a lower-case ISPB letter', 'E9040088a20210128000800123873170'],
    ['a letter in the timestamp', 'E90400888202101280A0800123873170'],
    ['31 characters', EXAMPLE.slice(0, -1)],
    ['33 characters', `${EXAMPLE}0`],
    ['a symbol in the suffix', `${EXAMPLE.slice(0, -1)}-`],
  ])('rejects %s', (_why, value) => expect(isEndToEndId(value)).toBe(false));

  it('rejects non-strings', () => {
    expect(isEndToEndId(undefined)).toBe(false);
    expect(isEndToEndId(12)).toBe(false);
  });
});

describe('generateEndToEndId', () => {
  it('writes kind + ISPB + yyyyMMddHHmm (UTC) + 11 characters', () => {
    const id = generateEndToEndId({ ispb: '90400888', atMs: EXAMPLE_AT_MS, kind: 'E', random: replayBytes([0, 1, 61]) });
    expect(id).toBe('E90400888202101280008AB9AB9AB9AB');
    expect(id).toHaveLength(32);
    expect(isEndToEndId(id)).toBe(true);
  });

  it('writes D for a refund and accepts an alphanumeric ISPB', () => {
    const id = generateEndToEndId({ ispb: '0A1B2C3D', atMs: EXAMPLE_AT_MS, kind: 'D' });
    expect(id.slice(0, 21)).toBe('D0A1B2C3D202101280008');
    expect(isEndToEndId(id)).toBe(true);
  });

  it('discards bytes 248..255 so the 62 characters are equally likely', () => {
    const id = generateEndToEndId({ ispb: '90400888', atMs: EXAMPLE_AT_MS, kind: 'E', random: replayBytes([255, 248, 247]) });
    expect(id.slice(21)).toBe('9'.repeat(11)); // 247 % 62 = 61 -> '9'; 248 and 255 skipped
  });

  it('fails instead of looping when the random source never yields a usable byte', () => {
    expect(() =>
      generateEndToEndId({ ispb: '90400888', atMs: EXAMPLE_AT_MS, kind: 'E', random: replayBytes([250]) }),
    ).toThrow(/usable bytes/);
  });

  it.each(['9040088', '904008881', '9040088a', '9040-888'])('rejects the ISPB %j', (ispb) => {
    expect(() => generateEndToEndId({ ispb, atMs: EXAMPLE_AT_MS, kind: 'E' })).toThrow(RangeError);
  });

  it('rejects an unknown kind and times without a four-digit year', () => {
    // @ts-expect-error: runtime check of a value the type forbids
    expect(() => generateEndToEndId({ ispb: '90400888', atMs: EXAMPLE_AT_MS, kind: 'X' })).toThrow(RangeError);
    for (const atMs of [Number.NaN, Infinity, Date.UTC(10000, 0, 1), Date.UTC(999, 0, 1)]) {
      expect(() => generateEndToEndId({ ispb: '90400888', atMs, kind: 'E' })).toThrow(RangeError);
    }
  });

  it('always yields a valid id whose timestamp is the UTC minute of atMs', () => {
    const inputs = fc.record({
      ispb: fc.stringMatching(/^[0-9A-Z]{8}$/),
      atMs: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31, 23, 59, 59, 999) }),
      kind: fc.constantFrom<'E' | 'D'>('E', 'D'),
    });
    fc.assert(
      fc.property(inputs, (input) => {
        const id = generateEndToEndId(input);
        expect(isEndToEndId(id)).toBe(true);
        expect(id.slice(9, 21)).toBe(new Date(input.atMs).toISOString().slice(0, 16).replace(/[-T:]/g, ''));
      }),
      { numRuns: 500 },
    );
  });

  it('draws a different suffix each time from crypto randomness', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => generateEndToEndId({ ispb: '90400888', atMs: 0, kind: 'E' })));
    expect(ids.size).toBe(1000);
  });
});

describe('utcMinuteStamp', () => {
  it('formats to the minute in UTC', () => {
    expect(utcMinuteStamp(Date.UTC(2026, 11, 31, 23, 59, 59))).toBe('202612312359');
    expect(utcMinuteStamp(0)).toBe('197001010000');
  });
});
