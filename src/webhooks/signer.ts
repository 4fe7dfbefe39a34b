import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret: `whsec_` + base64 of 24 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Signs one delivery attempt the Standard Webhooks way (the well-kept `standardwebhooks` package):
 * HMAC-SHA256 over `${eventId}.${timestampSeconds}.${body}`, base64, as `v1,<sig>`. During a secret
 * rotation both signatures are sent, space-separated, so receivers on either secret verify.
 */
export function signDelivery(secrets: string[], eventId: string, timestampSeconds: number, body: string): string {
  const at = new Date(timestampSeconds * 1000);
  return secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' ');
}
