import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrismProxy, startSharedPrism, type PrismProxy, type SharedPrism } from '../../scripts/lib/prism-proxy.ts';

/**
 * The Prism pass (`npm run test:psp`) validates every gateway of the run through one shared Prism (issue 33):
 * each gateway's front names its upstream in a header, the router behind Prism forwards there. A response
 * that breaks the spec must still reach the test as a violation, from the right upstream.
 */
describe('one shared Prism in front of several upstreams (scripts/lib/prism-proxy.ts)', () => {
  let shared: SharedPrism;
  const upstreams: http.Server[] = [];
  let good: PrismProxy;
  let bad: PrismProxy;

  const upstream = async (available: unknown): Promise<string> => {
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ available, pending: 0, currency: 'BRL', updatedAt: 1_700_000_000_000 }));
    });
    upstreams.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    shared = await startSharedPrism();
    good = await startPrismProxy(await upstream(1000), { sharedPrismUrl: shared.baseUrl });
    bad = await startPrismProxy(await upstream('mil reais'), { sharedPrismUrl: shared.baseUrl });
  });

  afterAll(async () => {
    await good?.stop();
    await bad?.stop();
    await shared?.stop();
    for (const server of upstreams) server.close();
  });

  it('passes a valid answer through and records nothing; records the invalid one of the other upstream', async () => {
    const headers = { authorization: 'Bearer pixg_test' };
    const fine = await fetch(`${good.baseUrl}/v1/balance`, { headers });
    expect(fine.status).toBe(200);
    expect(await fine.json()).toMatchObject({ available: 1000 });
    const broken = await fetch(`${bad.baseUrl}/v1/balance`, { headers });
    expect(broken.status).toBe(500);
    expect(good.violations()).toEqual([]);
    expect(bad.violations().join('\n')).toMatch(/GET \/v1\/balance -> 500: response\.body.*available/);
  });
});
