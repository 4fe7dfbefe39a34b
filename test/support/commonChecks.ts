import { expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import type { Gateway, MerchantFixture } from './gateway.ts';

export interface RouteCase {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** Every merchant route, with a request that would otherwise succeed or fail validation only later. */
export const merchantRoutes: RouteCase[] = [
  { method: 'POST', path: '/v1/pix', body: { amountCents: 1000 } },
  { method: 'POST', path: '/v1/withdraw', body: { amountCents: 1000 } },
  { method: 'POST', path: '/v1/recipients', body: {} },
  { method: 'GET', path: '/v1/recipients' },
  { method: 'GET', path: '/v1/transactions' },
  { method: 'GET', path: '/v1/transactions/tx_000000000000000000000000' },
  { method: 'GET', path: '/v1/transactions/tx_000000000000000000000000/qrcode' },
  { method: 'POST', path: '/v1/static-qrcodes', body: {} },
  { method: 'GET', path: '/v1/static-qrcodes' },
  { method: 'GET', path: '/v1/static-qrcodes/sqr_000000000000000000000000' },
  { method: 'POST', path: '/v1/static-qrcodes/sqr_000000000000000000000000/deactivate' },
  { method: 'GET', path: '/v1/static-qrcodes/sqr_000000000000000000000000/qrcode' },
  { method: 'GET', path: '/v1/balance' },
];

export async function call(gateway: Gateway, route: RouteCase, headers: Record<string, string>) {
  const response = await fetch(`${gateway.baseUrl}${route.path}`, {
    method: route.method,
    headers: { ...(route.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: route.body === undefined ? undefined : JSON.stringify(route.body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/**
 * The checks every merchant route shares: 401 without a key, with a malformed key and with a revoked key;
 * 403 for an account without approved KYC and for a blocked account. Registers one `it` per route.
 */
export function itRejectsUnauthorizedCallers(
  context: () => { gateway: Gateway; revoked: MerchantFixture; unapproved: MerchantFixture; blocked: MerchantFixture },
): void {
  for (const route of merchantRoutes) {
    it(`${route.method} ${route.path} answers 401/403 with the contract messages`, async () => {
      const { gateway, revoked, unapproved, blocked } = context();
      expect(await call(gateway, route, {})).toEqual({ status: 401, body: { error: messages.apiKeyMissing } });
      expect(await call(gateway, route, { Authorization: 'Basic abc' })).toEqual({
        status: 401,
        body: { error: messages.apiKeyMissing },
      });
      expect(await call(gateway, route, { Authorization: 'Bearer pixg_123' })).toEqual({
        status: 401,
        body: { error: messages.apiKeyInvalid },
      });
      expect(await call(gateway, route, { Authorization: `Bearer pixg_${'a'.repeat(64)}` })).toEqual({
        status: 401,
        body: { error: messages.apiKeyInvalid },
      });
      expect(await call(gateway, route, { Authorization: `Bearer ${revoked.apiKey}` })).toEqual({
        status: 401,
        body: { error: messages.apiKeyInvalid },
      });
      expect(await call(gateway, route, { Authorization: `Bearer ${unapproved.apiKey}` })).toEqual({
        status: 403,
        body: { error: messages.accountNotApproved },
      });
      expect(await call(gateway, route, { Authorization: `Bearer ${blocked.apiKey}` })).toEqual({
        status: 403,
        body: { error: messages.accountBlocked },
      });
    });
  }
}
