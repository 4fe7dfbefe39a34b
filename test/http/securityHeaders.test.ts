import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startGateway, useGateway, type Gateway } from '../support/gateway.ts';

/**
 * Issue 22, "Production and speed": `X-Content-Type-Options: nosniff` on every API answer (merchant API,
 * dashboard API, back office), `Strict-Transport-Security` in production, and a Content-Security-Policy
 * that forbids framing on the generated docs at /docs/ (which share the merchant host's origin with the
 * dashboard), naming the pages' own inline scripts by hash.
 */
const gateway = useGateway();

interface Probe {
  name: string;
  url: (gw: Gateway) => string;
  init?: RequestInit;
  status: number;
}

/** One answer of each kind, on each listener: success, refusal, validation error, unknown route, docs. */
const PROBES: Probe[] = [
  { name: 'merchant API, 401', url: (gw) => `${gw.baseUrl}/v1/balance`, status: 401 },
  { name: 'merchant API, malformed body', url: (gw) => `${gw.baseUrl}/v1/pix`, init: { method: 'POST', headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, body: '{' }, status: 401 },
  { name: 'merchant host, unknown route', url: (gw) => `${gw.baseUrl}/nada`, status: 404 },
  { name: 'health', url: (gw) => `${gw.baseUrl}/health`, status: 200 },
  { name: 'dashboard API, 401', url: (gw) => `${gw.baseUrl}/dashboard/api/v1/session`, status: 401 },
  { name: 'dashboard API, 400', url: (gw) => `${gw.baseUrl}/dashboard/api/v1/session`, init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, status: 400 },
  { name: 'back office, 200', url: (gw) => `${gw.adminBaseUrl}/admin/v1/accounts`, init: { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }, status: 200 },
  { name: 'back office, 401', url: (gw) => `${gw.adminBaseUrl}/admin/v1/accounts`, status: 401 },
  { name: 'back office, unknown route', url: (gw) => `${gw.adminBaseUrl}/admin/v1/nada`, init: { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }, status: 404 },
  { name: 'merchant docs', url: (gw) => `${gw.baseUrl}/docs/`, status: 200 },
  { name: 'back-office docs', url: (gw) => `${gw.adminBaseUrl}/docs/`, status: 200 },
];

/**
 * The inline scripts of a generated docs page, read independently of the server's tokenizer: the generator
 * writes each one as `<script>` and `</script>` on lines of their own.
 */
function lineDelimitedScriptHashes(html: string): string[] {
  return [...html.matchAll(/^<script>(\n[\s\S]*?\n)<\/script>$/gm)].map((match) => `'sha256-${createHash('sha256').update(match[1] ?? '').digest('base64')}'`);
}

function directives(policy: string | null): Map<string, string[]> {
  return new Map(
    (policy ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

describe('X-Content-Type-Options: nosniff', () => {
  for (const probe of PROBES) {
    it(`is on every answer: ${probe.name}`, async () => {
      const answer = await fetch(probe.url(gateway), probe.init);
      expect(answer.status).toBe(probe.status);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    });
  }
});

describe('Strict-Transport-Security', () => {
  let production: Gateway;
  beforeAll(async () => {
    production = await startGateway({ config: { nodeEnv: 'production', webhookAllowPrivate: false } });
  });
  afterAll(async () => {
    await production.close();
  });

  it('is on every answer in production, for a year and the subdomains', async () => {
    for (const probe of PROBES) {
      const answer = await fetch(probe.url(production), probe.init);
      expect(answer.headers.get('strict-transport-security'), probe.name).toBe('max-age=31536000; includeSubDomains');
      expect(answer.headers.get('x-content-type-options'), probe.name).toBe('nosniff');
    }
  });

  it('is not sent outside production (plain HTTP on a developer machine)', async () => {
    for (const probe of PROBES) {
      expect((await fetch(probe.url(gateway), probe.init)).headers.get('strict-transport-security'), probe.name).toBeNull();
    }
  });
});

describe('the docs pages (/docs/) Content-Security-Policy', () => {
  const pages = [
    { listener: 'merchant', path: '/docs/', scripts: 0 },
    { listener: 'merchant', path: '/docs/api.html', scripts: 2 },
    { listener: 'merchant', path: '/docs/dashboard.html', scripts: 2 },
    { listener: 'merchant', path: '/docs/webhooks.html', scripts: 2 },
    { listener: 'internal', path: '/docs/', scripts: 2 },
  ] as const;

  for (const page of pages) {
    it(`forbids framing and anything from elsewhere, and runs only the page's own scripts: ${page.listener} ${page.path}`, async () => {
      const base = page.listener === 'merchant' ? gateway.baseUrl : gateway.adminBaseUrl;
      const answer = await fetch(`${base}${page.path}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      const policy = directives(answer.headers.get('content-security-policy'));
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy.get('default-src')).toEqual(["'none'"]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'none'"]);
      const scriptSources = policy.get('script-src') ?? [];
      expect(scriptSources).not.toContain("'unsafe-inline'");
      expect(scriptSources.some((source) => /^https?:|^\*$/.test(source))).toBe(false);
      const html = await answer.text();
      const expected = lineDelimitedScriptHashes(html);
      expect(expected).toHaveLength(page.scripts);
      expect(scriptSources.filter((source) => source.startsWith("'sha256-")).sort()).toEqual([...expected].sort());
    });
  }
});
