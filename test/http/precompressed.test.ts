import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedCodings } from '../../src/http/precompressed.ts';
import { webApp } from '../../src/http/webApps.ts';
import { useGateway } from '../support/gateway.ts';

/**
 * Issue 22, "Production and speed": the pages' JavaScript and CSS were sent uncompressed although the
 * browser asks for gzip/brotli. build-web writes `.br` and `.gz` beside each file; the server sends the one
 * the request accepts (brotli first) with Content-Encoding and `Vary: Accept-Encoding`, hashed assets
 * cached for a year (immutable), the page `no-cache`; HEAD and 304 keep working.
 */

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose body is read as sent (fetch would decompress it). */
function raw(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

const decoded = (answer: Raw): string => {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  if (coding === 'gzip') return gunzipSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
};

const SCRIPT = `export const greeting = ${JSON.stringify('olá '.repeat(4000))};\n`;
const STYLE = `${'.cartao { padding: 1rem; margin: 0 auto; }\n'.repeat(300)}`;
const PAGE = `<!doctype html><html lang="pt-BR"><head><script type="module" src="/dashboard/assets/index-abc123.js"></script></head><body>${'<p>Painel</p>'.repeat(100)}</body></html>`;

let dist: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  // A built dashboard as build-web leaves it: each file with its .br and .gz.
  dist = mkdtempSync(path.join(tmpdir(), 'pixgate-web-'));
  const assets = path.join(dist, 'dashboard', 'assets');
  mkdirSync(assets, { recursive: true });
  const write = (file: string, content: string, compressed = true) => {
    writeFileSync(file, content);
    if (!compressed) return;
    writeFileSync(`${file}.br`, brotliCompressSync(Buffer.from(content)));
    writeFileSync(`${file}.gz`, gzipSync(Buffer.from(content), { level: 9 }));
  };
  write(path.join(dist, 'dashboard', 'index.html'), PAGE);
  write(path.join(assets, 'index-abc123.js'), SCRIPT);
  write(path.join(assets, 'index-abc123.css'), STYLE);
  write(path.join(assets, 'logo-abc123.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>', false);
  const app = express();
  app.use(webApp('dashboard', '/dashboard', dist));
  server = await new Promise<http.Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dist, { recursive: true, force: true });
});

describe('the pages are served precompressed', () => {
  it('prefers brotli, then gzip, by the request\'s Accept-Encoding and its q-values', () => {
    expect(acceptedCodings('gzip, deflate, br, zstd')).toEqual(['br', 'gzip']);
    expect(acceptedCodings('gzip')).toEqual(['gzip']);
    expect(acceptedCodings('br;q=0, gzip')).toEqual(['gzip']);
    expect(acceptedCodings('gzip;q=1, br;q=0.5')).toEqual(['gzip', 'br']);
    expect(acceptedCodings('*')).toEqual(['br', 'gzip']);
    expect(acceptedCodings('identity')).toEqual([]);
    expect(acceptedCodings(undefined)).toEqual([]);
  });

  it('sends a hashed script as brotli to a browser (Chromium asks for gzip, deflate, br, zstd), cached for a year', async () => {
    const answer = await raw(`${base}/dashboard/assets/index-abc123.js`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(answer.headers['content-type']).toMatch(/^(application|text)\/javascript; charset=utf-8$/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 10);
    expect(decoded(answer)).toBe(SCRIPT);
    // The pages' headers stay.
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends gzip to a client without brotli, and the file itself to one that accepts neither', async () => {
    const gzip = await raw(`${base}/dashboard/assets/index-abc123.css`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(decoded(gzip)).toBe(STYLE);
    const plain = await raw(`${base}/dashboard/assets/index-abc123.css`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    expect(plain.body.toString('utf8')).toBe(STYLE);
    const none = await raw(`${base}/dashboard/assets/index-abc123.css`);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.toString('utf8')).toBe(STYLE);
    // A file left uncompressed (nothing to gain) is sent as it is, whatever the request accepts.
    const svg = await raw(`${base}/dashboard/assets/logo-abc123.svg`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(svg.status).toBe(200);
    expect(svg.headers['content-encoding']).toBeUndefined();
    expect(svg.headers['content-type']).toBe('image/svg+xml');
  });

  it('sends the page compressed too, never cached without revalidation', async () => {
    const page = await raw(`${base}/dashboard/`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toMatch(/Accept-Encoding/i);
    expect(decoded(page)).toBe(PAGE);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const head = await raw(`${base}/dashboard/assets/index-abc123.js`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(head.headers['content-length'])).toBe(readFileSync(path.join(dist, 'dashboard', 'assets', 'index-abc123.js.br')).length);
    expect(head.body.length).toBe(0);
    const page = await raw(`${base}/dashboard/`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.body.length).toBe(0);
  });

  it('answers 304 to a revalidation with the ETag of the same encoding', async () => {
    const first = await raw(`${base}/dashboard/assets/index-abc123.js`, { headers: { 'accept-encoding': 'br' } });
    const etag = first.headers.etag ?? '';
    expect(etag).not.toBe('');
    const again = await raw(`${base}/dashboard/assets/index-abc123.js`, { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const page = await raw(`${base}/dashboard/`, { headers: { 'accept-encoding': 'br' } });
    const pageAgain = await raw(`${base}/dashboard/`, { headers: { 'accept-encoding': 'br', 'if-none-match': page.headers.etag ?? '' } });
    expect(pageAgain.status).toBe(304);
    // The gzip copy is another representation: its own ETag.
    const gzip = await raw(`${base}/dashboard/assets/index-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.etag).not.toBe(etag);
  });

  it('serves no compressed copy by its own name, no unknown asset and nothing outside the assets', async () => {
    expect((await raw(`${base}/dashboard/assets/index-abc123.js.br`)).status).toBe(404);
    expect((await raw(`${base}/dashboard/assets/nada.js`, { headers: { 'accept-encoding': 'br' } })).status).toBe(404);
    expect((await raw(`${base}/dashboard/assets/..%2Findex.html`)).status).toBe(404);
    expect((await raw(`${base}/dashboard/assets/%2e%2e%2F%2e%2e%2Fdashboard%2Findex.html`)).status).toBe(404);
  });
});

const gateway = useGateway();
const built = existsSync(new URL('../../dist/web/dashboard/index.html', import.meta.url));

describe.skipIf(!built)('the built applications (npm run build:web) as the gateway serves them', () => {
  for (const [app, basePath] of [
    ['dashboard', '/dashboard/'],
    ['console', '/console/'],
  ] as const) {
    it(`${app}: the page and its scripts come as brotli, the scripts immutable`, async () => {
      const origin = app === 'console' ? gateway.adminBaseUrl : gateway.baseUrl;
      const page = await raw(`${origin}${basePath}`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
      expect(page.status).toBe(200);
      expect(page.headers['content-encoding']).toBe('br');
      const html = decoded(page);
      const assets = [...html.matchAll(/(?:src|href)="([^"]+\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1] ?? '');
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) {
        const answer = await raw(`${origin}${asset}`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
        expect(answer.status, asset).toBe(200);
        expect(answer.headers['content-encoding'], asset).toBe('br');
        expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      }
    });
  }
});
