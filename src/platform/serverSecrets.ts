import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A server secret from its environment variable or, when unset, generated once into a file beside the
 * data directory (`.data/<name>`, mode 0600) and reused: `npm start` needs no configuration, and a
 * restart keeps sessions, sealed TOTP seeds and the CLI's operator token working. In production the
 * variables are required (checked with the rest of the configuration).
 */
export function serverSecret(options: { value: string | undefined; dataDir: string; fileName: string; generate: () => string }): {
  value: string;
  file?: string;
} {
  if (options.value) return { value: options.value };
  const file = join(dirname(options.dataDir), options.fileName);
  if (existsSync(file)) return { value: readFileSync(file, 'utf8').trim(), file };
  mkdirSync(dirname(file), { recursive: true });
  const value = options.generate();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { value, file };
}

/** The operator token of the back office's automation access (ADMIN_TOKEN, or `.data/admin-token`). */
export function operatorToken(config: { adminToken: string | undefined; dataDir: string }): { value: string; file?: string } {
  return serverSecret({ value: config.adminToken, dataDir: config.dataDir, fileName: 'admin-token', generate: () => `adm_${randomBytes(24).toString('hex')}` });
}

/**
 * The key that seals secrets at rest (TOTP seeds, webhook secrets) and signs CSRF tokens: 32 bytes as 64
 * hex characters (SECRETS_KEY, or `.data/secrets-key`).
 */
export function secretsKey(config: { secretsKey: string | undefined; dataDir: string }): Buffer {
  const { value } = serverSecret({ value: config.secretsKey, dataDir: config.dataDir, fileName: 'secrets-key', generate: () => randomBytes(32).toString('hex') });
  if (!/^[0-9a-f]{64}$/i.test(value)) throw new Error('SECRETS_KEY must be 64 hexadecimal characters (32 bytes)');
  return Buffer.from(value, 'hex');
}

/**
 * The HMAC key that derives recipientIds from documents: RECIPIENT_ID_SECRET (required in production,
 * checked by loadConfig), or outside production `.data/recipient-id-secret`, generated once.
 */
export function recipientIdSecret(config: { recipientIdSecret: string | undefined; dataDir: string }): string {
  return serverSecret({ value: config.recipientIdSecret, dataDir: config.dataDir, fileName: 'recipient-id-secret', generate: () => randomBytes(32).toString('hex') }).value;
}
