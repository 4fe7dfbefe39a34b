import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/identity/passwords.ts';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';

/**
 * scrypt's cost for new password hashes comes from PASSWORD_HASH_LOG2N (issue 33: the test gateways hash at
 * 2^10): 2^15 by default and never less in production; a hash verifies with the cost stored in it.
 */
describe('the cost of password hashes', () => {
  const PRODUCTION = { NODE_ENV: 'production', RECIPIENT_ID_SECRET: 'a'.repeat(64), SECRETS_KEY: 'b'.repeat(64), SMTP_URL: 'smtps://u:p@smtp.example.com:465', PSP: 'simulated' };

  it('is written in the hash, and each hash verifies with its own cost', async () => {
    const strong = await hashPassword('cavalo correto bateria grampo', 15);
    const cheap = await hashPassword('cavalo correto bateria grampo', 10);
    expect(strong).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(cheap).toMatch(/^scrypt\$10\$8\$1\$/);
    for (const hash of [strong, cheap]) {
      expect(await verifyPassword('cavalo correto bateria grampo', hash)).toBe(true);
      expect(await verifyPassword('cavalo correto bateria grampa', hash)).toBe(false);
    }
  });

  it('is 2^15 by default, in production too, and production refuses less', () => {
    expect(loadConfig({}).passwordHashLog2N).toBe(15);
    expect(loadConfig(PRODUCTION).passwordHashLog2N).toBe(15);
    expect(loadConfig({ ...PRODUCTION, PASSWORD_HASH_LOG2N: '16' }).passwordHashLog2N).toBe(16);
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_LOG2N: '10' }).passwordHashLog2N).toBe(10);
    expect(() => loadConfig({ ...PRODUCTION, PASSWORD_HASH_LOG2N: '14' })).toThrow(
      new ConfigError(['PASSWORD_HASH_LOG2N="14" is invalid: expected at least 15 in production (a cheaper hash is for tests only)']),
    );
    for (const outOfRange of ['9', '21', 'quinze']) expect(() => loadConfig({ PASSWORD_HASH_LOG2N: outOfRange })).toThrow(/^invalid configuration:\n {2}- PASSWORD_HASH_LOG2N=/);
  });
});
