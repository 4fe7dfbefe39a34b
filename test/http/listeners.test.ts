import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, useGateway } from '../support/gateway.ts';

/** The back office, its reference and the console live on the service team's listener, never the merchant host. */
const gateway = useGateway();

describe('the merchant host and the service team listener', () => {
  it('does not answer the back office on the merchant host', async () => {
    const answer = await fetch(`${gateway.baseUrl}/admin/v1/accounts`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(answer.status).toBe(404);
    expect((await fetch(`${gateway.baseUrl}/docs/admin.html`)).status).toBe(404);
    expect(await (await fetch(`${gateway.baseUrl}/docs/`)).text()).not.toContain('back office');
    const index = await (await fetch(`${gateway.baseUrl}/docs/`)).text();
    expect(index).not.toContain('admin.html');
  });

  it('answers the back office and its reference on the admin listener', async () => {
    const answer = await fetch(`${gateway.adminBaseUrl}/admin/v1/accounts`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(answer.status).toBe(200);
    const docs = await fetch(`${gateway.adminBaseUrl}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('PixGate back-office API');
  });

  it('does not answer the merchant API on the admin listener', async () => {
    expect((await fetch(`${gateway.adminBaseUrl}/v1/balance`)).status).toBe(404);
  });
});

describe('the web applications', () => {
  beforeAll(async () => {
    // What `npm start` does first: build the pages when their sources changed. Not execFileSync: a build (a
    // minute on a fresh clone) blocking the event loop held back the gateway's keep-alive timers, which then
    // closed the idle connections just as the next fetch reused one (ECONNRESET, seen in CI).
    await promisify(execFile)(process.execPath, ['scripts/build-web.ts', '--if-stale']);
  }, 120_000);

  it('serves the dashboard at /dashboard/ on the merchant host, with a strict CSP and immutable assets', async () => {
    const redirect = await fetch(`${gateway.baseUrl}/dashboard`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/dashboard/');
    const page = await fetch(`${gateway.baseUrl}/dashboard/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).toContain('<title>Painel PixGate</title>');
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${gateway.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    // An unknown path under /dashboard is the merchant API's JSON 404, not a page.
    const missing = await fetch(`${gateway.baseUrl}/dashboard/assets/nope.js`);
    expect(missing.status).toBe(404);
  });

  it('serves the console only on the admin listener, and / leads there', async () => {
    const root = await fetch(`${gateway.adminBaseUrl}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console/');
    const page = await fetch(`${gateway.adminBaseUrl}/console/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Console PixGate (equipe)</title>');
    expect((await fetch(`${gateway.baseUrl}/console/`)).status).toBe(404);
    expect((await fetch(`${gateway.adminBaseUrl}/dashboard/`)).status).toBe(404);
  });
});

