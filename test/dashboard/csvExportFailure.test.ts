import { expect, it, vi } from 'vitest';
import type * as transactionService from '../../src/transactions/transaction.service.ts';
import { signUpOwner } from '../support/dashboardAccounts.ts';
import { useGateway, validCustomer } from '../support/gateway.ts';

/**
 * An export that fails after its first bytes (the list's second page cannot be read) cuts the connection:
 * the browser's download fails rather than ending as a file that looks complete with rows missing, and the
 * connection does not hang. Before the first byte a failure is still a JSON answer with its status.
 */
const failing = vi.hoisted(() => ({ on: false }));

vi.mock('../../src/transactions/transaction.service.ts', async (importOriginal) => {
  const original = await importOriginal<typeof transactionService>();
  return {
    ...original,
    listAccountTransactions: async (...args: Parameters<typeof original.listAccountTransactions>) => {
      if (!failing.on) return original.listAccountTransactions(...args);
      if (args[2].cursor !== undefined) throw new Error('the database went away on the second page');
      return { ...(await original.listAccountTransactions(...args)), nextCursor: 'next' };
    },
  };
});

const gateway = useGateway();

it('cuts the connection when a page fails after the first bytes were sent', async () => {
  const shop = await signUpOwner(gateway);
  const key = await shop.browser.api.POST('/dashboard/api/v1/api-keys', { body: { label: 'loja' } });
  await gateway.as(key.data?.apiKey ?? '').POST('/v1/pix', { body: { amountCents: 1_000, customer: validCustomer } });
  const url = `${gateway.baseUrl}/dashboard/api/v1/transactions.csv?from=2026-01-01&to=2026-12-31`;
  const headers = { cookie: `pixgate_session=${shop.browser.cookie()}` };

  failing.on = true;
  try {
    // Not a timeout: the server closes the connection (undici says "other side closed" or "terminated",
    // depending on whether the status line had been read).
    const download = async () => (await fetch(url, { headers, signal: AbortSignal.timeout(10_000) })).text();
    await expect(download()).rejects.toThrow(/fetch failed|terminated/);
  } finally {
    failing.on = false;
  }
  expect(gateway.loggedErrors).toEqual([expect.stringContaining('the database went away on the second page')]);
  gateway.loggedErrors.length = 0;

  const whole = await fetch(url, { headers });
  expect(whole.status).toBe(200);
  expect((await whole.text()).split('\r\n').filter(Boolean)).toHaveLength(2);
});
