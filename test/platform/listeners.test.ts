import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lifecycle } from '../../src/platform/lifecycle.ts';
import { ADMIN_TOKEN, createMerchant, startGateway, validCustomer, type Gateway, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 12, points 12, 14 and 15: the merchant host serves the merchant API, its docs, /health and /ready,
 * and nothing of the service team's (back office, its reference, /metrics); the internal listener serves
 * those. /ready answers 503 while draining. /metrics is Prometheus text with bounded labels.
 */
let gateway: Gateway;
let merchant: MerchantFixture;
const lifecycle = new Lifecycle();

beforeAll(async () => {
  gateway = await startGateway({ lifecycle });
  merchant = await createMerchant(gateway);
});
afterAll(async () => {
  expect(gateway.loggedErrors).toEqual([]);
  await gateway.close();
});

const operator = { Authorization: `Bearer ${ADMIN_TOKEN}` };

describe('the merchant host', () => {
  it('does not serve the back office, its reference or /metrics', async () => {
    for (const path of ['/admin/v1/accounts', '/metrics', '/docs/admin.html', '/docs/admin/']) {
      const response = await fetch(`${gateway.baseUrl}${path}`, { headers: operator });
      expect(response.status, path).toBe(404);
    }
    const admin = await fetch(`${gateway.baseUrl}/admin/v1/accounts`, { headers: operator });
    expect(await admin.json()).toEqual({ error: 'Rota não encontrada.' });
  });

  it('serves the merchant docs, whose index no longer links the back office', async () => {
    const index = await fetch(`${gateway.baseUrl}/docs/`);
    expect(index.status).toBe(200);
    const html = await index.text();
    expect(html).toContain('api.html');
    expect(html).toContain('webhooks.html');
    expect(html).not.toMatch(/admin/i);
    expect((await fetch(`${gateway.baseUrl}/docs/api.html`)).status).toBe(200);
  });

  it('answers /health and /ready', async () => {
    expect(await (await fetch(`${gateway.baseUrl}/health`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${gateway.baseUrl}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });
});

describe('the internal listener', () => {
  it('serves the back office (operator token), its reference at /docs/, /health and /ready', async () => {
    const accounts = await fetch(`${gateway.adminBaseUrl}/admin/v1/accounts`, { headers: operator });
    expect(accounts.status).toBe(200);
    expect((await fetch(`${gateway.adminBaseUrl}/admin/v1/accounts`)).status).toBe(401);
    const docs = await fetch(`${gateway.adminBaseUrl}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('PixGate back-office API');
    expect((await fetch(`${gateway.adminBaseUrl}/health`)).status).toBe(200);
    expect((await fetch(`${gateway.adminBaseUrl}/ready`)).status).toBe(200);
    // The merchant API is not served here.
    expect((await fetch(`${gateway.adminBaseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${merchant.apiKey}` } })).status).toBe(404);
  });

  it('/metrics: request counts and latency per operation and status, never per raw path', async () => {
    const created = await merchant.client.POST('/v1/pix', { body: { amountCents: 1000, customer: validCustomer } });
    const id = created.data?.transactionId ?? '';
    await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id } } });
    await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: 'tx_000000000000000000000000' } } });
    await fetch(`${gateway.baseUrl}/v1/nowhere/${id}`);
    const response = await fetch(`${gateway.adminBaseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(/^pixgate_http_requests_total\{listener="merchant",operation="createCharge",method="POST",status="201"\} 1$/m);
    expect(text).toMatch(/^pixgate_http_requests_total\{listener="merchant",operation="getTransaction",method="GET",status="200"\} 1$/m);
    expect(text).toMatch(/^pixgate_http_requests_total\{listener="merchant",operation="getTransaction",method="GET",status="404"\} 1$/m);
    expect(text).toMatch(/^pixgate_http_requests_total\{listener="merchant",operation="unmatched",method="GET",status="404"\} \d+$/m);
    expect(text).toMatch(/^pixgate_http_request_duration_seconds_bucket\{le="0\.1",listener="merchant",operation="createCharge",method="POST",status="201"\} \d+$/m);
    expect(text).toMatch(/^pixgate_http_requests_total\{listener="internal",operation="createAccount",method="POST",status="201"\} \d+$/m);
    expect(text).not.toContain(id);
    // No label value is a path (bounded cardinality).
    expect(text).not.toMatch(/="[^"]*\/[^"]*"/);
    for (const gauge of [
      'pixgate_webhook_deliveries_due',
      'pixgate_webhook_oldest_due_age_seconds',
      'pixgate_withdrawals_failed_unknown',
      'pixgate_withdrawals_failed_unknown_oldest_age_seconds',
      'pixgate_withdrawals_failed_unknown_overdue',
      'pixgate_reconciliation_lag_seconds',
      'pixgate_withdrawals_processing',
    ]) {
      expect(text, gauge).toMatch(new RegExp(`^${gauge} \\d+(\\.\\d+)?$`, 'm'));
    }
    expect(text).toContain('# TYPE pixgate_webhook_attempts_total counter');
    if (gateway.deps.dbKind === 'postgres') expect(text).toMatch(/^pixgate_db_pool_max 20$/m);
  });

  it('the webhook backlog gauges read the due deliveries', async () => {
    const other = await createMerchant(gateway);
    const endpoint = await gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks', {
      params: { path: { accountId: other.accountId } },
      body: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(endpoint.response.status).toBe(201);
    const charge = await other.client.POST('/v1/pix', { body: { amountCents: 1000, customer: validCustomer } });
    await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId: charge.data?.transactionId ?? '' } } });
    gateway.clock.advance(90_000);
    const text = await (await fetch(`${gateway.adminBaseUrl}/metrics`)).text();
    expect(Number(/^pixgate_webhook_deliveries_due (\d+)/m.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/^pixgate_webhook_oldest_due_age_seconds (\S+)/m.exec(text)?.[1])).toBeGreaterThanOrEqual(90);
  });
});

describe('draining (SIGTERM)', () => {
  it('/ready answers 503 on both listeners while /health stays 200', async () => {
    lifecycle.startDraining();
    for (const base of [gateway.baseUrl, gateway.adminBaseUrl]) {
      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'not ready', reason: 'draining' });
      expect((await fetch(`${base}/health`)).status).toBe(200);
    }
  });
});
