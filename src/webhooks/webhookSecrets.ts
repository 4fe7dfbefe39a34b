import { open, seal } from '../identity/secretBox.ts';

/**
 * Webhook signing secrets are stored sealed (AES-256-GCM under the secrets key): the server must read them
 * back to sign, so they cannot be hashed. A value still in the clear (`whsec_…`, written before sealing
 * existed) reads as itself until the start-up conversion seals it.
 */
const SECRET_PREFIX_CHARS = 12;

export function sealWebhookSecret(secret: string, key: Buffer): string {
  return seal(secret, key);
}

export function openWebhookSecret(stored: string, key: Buffer): string {
  return stored.startsWith('whsec_') ? stored : open(stored, key);
}

export function secretPrefixOf(secret: string): string {
  return secret.slice(0, SECRET_PREFIX_CHARS);
}
