import { describe, expect, it } from 'vitest';
import {
  ID_PREFIXES,
  isPrefixedId,
  isRecipientId,
  isTransactionId,
  newId,
  normalizeRecipientId,
  recipientIdFor,
} from '../../src/primitives/ids.ts';
import { replayBytes } from './support.ts';

describe('newId', () => {
  it.each(ID_PREFIXES)('makes %s_ + 24 lower-case hex', (prefix) => {
    const id = newId(prefix);
    expect(id).toMatch(new RegExp(`^${prefix}_[0-9a-f]{24}$`));
    expect(isPrefixedId(prefix, id)).toBe(true);
  });

  it('encodes 12 bytes of the random source as hex', () => {
    expect(newId('tx', replayBytes([0x00, 0x0f, 0xab]))).toBe('tx_000fab000fab000fab000fab');
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('evt')));
    expect(ids.size).toBe(10_000);
  });

  it('rejects an unknown prefix at run time', () => {
    // @ts-expect-error: runtime check of a value the type forbids
    expect(() => newId('xyz')).toThrow(RangeError);
  });

  it('rejects a random source that returns too few bytes', () => {
    expect(() => newId('tx', () => new Uint8Array(4))).toThrow(RangeError);
  });
});

describe('isTransactionId', () => {
  it('accepts tx_ + 24 lower-case hex only', () => {
    expect(isTransactionId('tx_0123456789abcdef01234567')).toBe(true);
    expect(isTransactionId(newId('tx'))).toBe(true);
  });

  it.each([
    'tx_0123456789ABCDEF01234567',
    'tx_0123456789abcdef0123456',
    'tx_0123456789abcdef012345678',
    'acc_0123456789abcdef01234567',
    '0123456789abcdef01234567',
    ' tx_0123456789abcdef01234567',
    'tx_0123456789abcdef0123456g',
  ])('rejects %j', (value) => expect(isTransactionId(value)).toBe(false));

  it('rejects non-strings', () => expect(isTransactionId(42)).toBe(false));
});

describe('recipientIdFor', () => {
  const SECRET = 'test-recipient-id-secret-0123456789abcdef';

  it('is the first 24 hex of HMAC-SHA-256(secret, "<accountId>:<documentType>:<document>")', () => {
    // openssl dgst -sha256 -hmac "$SECRET" of 'acc_0123456789abcdef01234567:cpf:52998224725' = 7ca1b824a946ba53…
    expect(recipientIdFor(SECRET, 'acc_0123456789abcdef01234567', 'cpf', '52998224725')).toBe('7ca1b824a946ba5316104578');
    expect(recipientIdFor(SECRET, 'acc_0123456789abcdef01234567', 'cnpj', '12ABC34501DE35')).toBe('f901580048e291db48fb73dd');
  });

  it('is not the unkeyed SHA-256 (which anyone knowing the accountId can reverse to the CPF)', () => {
    // The derivation before RECIPIENT_ID_SECRET: sha256('acc_0123456789abcdef01234567:cpf:52998224725').
    expect(recipientIdFor(SECRET, 'acc_0123456789abcdef01234567', 'cpf', '52998224725')).not.toBe('85b4f7dc7ea76fd75e3aa49d');
    expect(recipientIdFor('another-secret-of-thirty-two-chars!!', 'acc_x', 'cpf', '52998224725')).not.toBe(
      recipientIdFor(SECRET, 'acc_x', 'cpf', '52998224725'),
    );
  });

  it('is the same for a formatted and a stripped document', () => {
    expect(recipientIdFor(SECRET, 'acc_x', 'cnpj', '12.abc.345/01de-35')).toBe(recipientIdFor(SECRET, 'acc_x', 'cnpj', '12ABC34501DE35'));
  });

  it('differs between accounts for the same document', () => {
    expect(recipientIdFor(SECRET, 'acc_a', 'cpf', '52998224725')).not.toBe(recipientIdFor(SECRET, 'acc_b', 'cpf', '52998224725'));
  });

  it('has the recipientId shape, and refuses to derive without a secret', () => {
    expect(isRecipientId(recipientIdFor(SECRET, 'acc_a', 'cpf', '52998224725'))).toBe(true);
    expect(() => recipientIdFor('', 'acc_a', 'cpf', '52998224725')).toThrow(RangeError);
  });
});

describe('normalizeRecipientId', () => {
  it('lower-cases 24 hex in any case', () => {
    expect(normalizeRecipientId('85B4F7DC7EA76FD75E3AA49D')).toBe('85b4f7dc7ea76fd75e3aa49d');
    expect(normalizeRecipientId('85b4f7dc7ea76fd75e3aa49d')).toBe('85b4f7dc7ea76fd75e3aa49d');
  });

  it.each(['85b4f7dc7ea76fd75e3aa49', '85b4f7dc7ea76fd75e3aa49dz', 'rcp_85b4f7dc7ea76fd75e3a', '', 7, null])(
    'returns undefined for %j',
    (value) => expect(normalizeRecipientId(value)).toBeUndefined(),
  );
});
