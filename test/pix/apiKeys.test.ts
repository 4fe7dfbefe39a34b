import { describe, expect, it } from 'vitest';
import {
  API_KEY_PREFIX,
  apiKeyMatchesHash,
  generateApiKey,
  hashApiKey,
  looksLikeApiKey,
  safeEqualHex,
} from '../../src/primitives/apiKeys.ts';
import { replayBytes } from './support.ts';

const FIXED_KEY = `pixg_${'ab'.repeat(32)}`;
// printf '%s' "$FIXED_KEY" | sha256sum
const FIXED_KEY_SHA256 = 'b20b830abc3fd7cde1d527133395472246ae527d67922a7589a88367fbef7692';

describe('generateApiKey', () => {
  it('makes pixg_ + 64 lower-case hex (69 characters), its 16-character prefix and its SHA-256', () => {
    const key = generateApiKey();
    expect(API_KEY_PREFIX).toBe('pixg');
    expect(key.secret).toMatch(/^pixg_[0-9a-f]{64}$/);
    expect(key.secret).toHaveLength(69);
    expect(key.publicPrefix).toBe(key.secret.slice(0, 16));
    expect(key.hash).toBe(hashApiKey(key.secret));
  });

  it('encodes 32 bytes of the random source', () => {
    const key = generateApiKey(replayBytes([0xab]));
    expect(key).toEqual({ secret: FIXED_KEY, publicPrefix: 'pixg_abababababa', hash: FIXED_KEY_SHA256 });
  });

  it('does not repeat', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateApiKey().secret));
    expect(secrets.size).toBe(1000);
  });
});

describe('hashApiKey', () => {
  it('is SHA-256 as lower-case hex', () => {
    expect(hashApiKey(FIXED_KEY)).toBe(FIXED_KEY_SHA256);
  });
});

describe('looksLikeApiKey', () => {
  it('accepts the key format only', () => {
    expect(looksLikeApiKey(FIXED_KEY)).toBe(true);
    expect(looksLikeApiKey(FIXED_KEY.toUpperCase())).toBe(false);
    expect(looksLikeApiKey(`PIXG_${'ab'.repeat(32)}`)).toBe(false);
    expect(looksLikeApiKey(FIXED_KEY.slice(0, -1))).toBe(false);
    expect(looksLikeApiKey(`${FIXED_KEY}0`)).toBe(false);
    expect(looksLikeApiKey(`sk_${'ab'.repeat(32)}`)).toBe(false);
    expect(looksLikeApiKey(undefined)).toBe(false);
  });
});

describe('safeEqualHex', () => {
  it('compares hex strings as bytes', () => {
    expect(safeEqualHex(FIXED_KEY_SHA256, FIXED_KEY_SHA256)).toBe(true);
    expect(safeEqualHex(FIXED_KEY_SHA256, FIXED_KEY_SHA256.toUpperCase())).toBe(true);
    expect(safeEqualHex(FIXED_KEY_SHA256, `${FIXED_KEY_SHA256.slice(0, -1)}3`)).toBe(false);
  });

  it('returns false for different lengths or non-hex input instead of throwing', () => {
    expect(safeEqualHex('abcd', 'abcdef')).toBe(false);
    expect(safeEqualHex('abc', 'abc')).toBe(false);
    expect(safeEqualHex('zz', 'zz')).toBe(false);
    expect(safeEqualHex('', '')).toBe(true);
  });
});

describe('apiKeyMatchesHash', () => {
  it('matches a key against its stored hash', () => {
    expect(apiKeyMatchesHash(FIXED_KEY, FIXED_KEY_SHA256)).toBe(true);
    expect(apiKeyMatchesHash(`pixg_${'ac'.repeat(32)}`, FIXED_KEY_SHA256)).toBe(false);
  });
});
