/**
 * Identifiers (docs/decisions.md, Identifiers): `<prefix>_` + 24 lower-case hex (96 random bits), and the
 * deterministic recipientId.
 */
import { createHmac } from 'node:crypto';
import type { DocumentType } from './documents.ts';
import { stripDocument } from './documents.ts';
import type { RandomBytes } from './random.ts';
import { cryptoRandomBytes, randomHex } from './random.ts';

export const ID_PREFIXES = ['tx', 'acc', 'key', 'hold', 'evt', 'wh', 'dlv', 'usr', 'op', 'mail', 'rf', 'brk', 'dcb', 'sqr', 'pl', 'rec'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** 12 random bytes = 96 bits = 24 hex characters. */
const ID_RANDOM_BYTES = 12;
const TRANSACTION_ID = /^tx_[0-9a-f]{24}$/;
const RECIPIENT_ID = /^[0-9a-f]{24}$/;

/** `newId('tx')` -> `tx_3f9c0a5e1b2d4c6e8f0a1b2c`. */
export function newId(prefix: IdPrefix, random: RandomBytes = cryptoRandomBytes): string {
  if (!(ID_PREFIXES as readonly string[]).includes(prefix)) throw new RangeError(`unknown id prefix '${prefix}'`);
  return `${prefix}_${randomHex(ID_RANDOM_BYTES, random)}`;
}

/** `<prefix>_` + exactly 24 lower-case hex. */
export function isPrefixedId(prefix: IdPrefix, value: unknown): value is string {
  return typeof value === 'string' && new RegExp(`^${prefix}_[0-9a-f]{24}$`).test(value);
}

/** `^tx_[0-9a-f]{24}$`: anything else is a 400 `transactionId inválido.`, never a lookup. */
export function isTransactionId(value: unknown): value is string {
  return typeof value === 'string' && TRANSACTION_ID.test(value);
}

/** 24 lower-case hex, the form `recipientIdFor` produces. */
export function isRecipientId(value: unknown): value is string {
  return typeof value === 'string' && RECIPIENT_ID.test(value);
}

/**
 * A recipientId as received (`recipientId` of POST /v1/withdraw): 24 hex in any case, returned lower-case;
 * `undefined` when it is not 24 hex (the contract's 400 `recipientId inválido.`).
 */
export function normalizeRecipientId(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^[0-9a-fA-F]{24}$/.test(value)) return undefined;
  return value.toLowerCase();
}

/**
 * The recipientId of a document in an account: the first 24 hex digits of
 * HMAC-SHA-256(secret, `<accountId>:<documentType>:<document>`), the secret being the server's
 * RECIPIENT_ID_SECRET. Deterministic per document, as the contract asks, but not reversible: an unkeyed
 * hash of about 10^9 possible CPFs is searched in seconds by anyone who knows the accountId, while without
 * the secret nothing can be computed. The document is stripped first, so `529.982.247-25` and
 * `52998224725` give the same id. (Recipients registered before the HMAC keep their stored ids:
 * registration finds a recipient by account and document, never by recomputing its id.)
 */
export function recipientIdFor(secret: string, accountId: string, documentType: DocumentType, document: string): string {
  if (secret.length === 0) throw new RangeError('recipientIdFor needs a secret');
  const input = `${accountId}:${documentType}:${stripDocument(document)}`;
  return createHmac('sha256', secret).update(input, 'utf8').digest('hex').slice(0, 24);
}
