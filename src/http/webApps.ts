import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, type Router } from 'express';
import { inlineScriptHashes } from './inlineScripts.ts';
import { precompressedAssets, sendPrecompressed } from './precompressed.ts';
import { setOperation } from './routeGuard.ts';

/**
 * The two web applications (web/dashboard, web/console), built by `npm run build:web` into dist/web/<app>
 * (`npm start` builds them when their sources changed). Each is one HTML page with hashed assets: the page
 * is never cached (a new build takes effect at once), the assets are immutable. Hash routing: the server
 * only ever serves index.html and the assets.
 */
const distDir = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/**
 * What the pages may load: their own scripts and styles, images from the page (the QR code of the TOTP
 * enrolment is a data: URL), requests to their own origin. No framing, no inline script.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

const securityHeaders: RequestHandler = (_req, res, next) => {
  setOperation(res, 'web');
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/** A router serving the built application `app` at `basePath` (e.g. `/dashboard`), from `dist` (dist/web/ by default). */
export function webApp(app: 'dashboard' | 'console', basePath: string, dist: string = distDir): Router {
  const root = `${dist.endsWith('/') ? dist : `${dist}/`}${app}`;
  const router = express.Router();
  router.get(basePath, (req, res, next) => (req.path === basePath ? res.redirect(301, `${basePath}/`) : next()));
  router.use(basePath, securityHeaders);
  // Hashed assets, brotli or gzip as the browser accepts (written by build-web beside each file).
  router.use(`${basePath}/assets`, precompressedAssets(`${root}/assets`));
  router.get(`${basePath}/`, (req, res, next) => {
    if (!existsSync(`${root}/index.html`)) {
      res
        .status(503)
        .type('text/plain; charset=utf-8')
        .send(`The ${app} is not built: run \`npm run build:web\` (npm start does it when the sources change).\n`);
      return;
    }
    sendPrecompressed(req, res, root, 'index.html', 'no-cache', next);
  });
  return router;
}

/**
 * The generated reference pages (`npm run generate`: Redoc and the AsyncAPI component, each one HTML file
 * with its scripts and styles inline, made to open from disk) served at /docs/. Their policy: nothing from
 * elsewhere, no framing (clickjacking), and only the page's own inline scripts, named by their SHA-256, so
 * an injected script would not run (the docs share the merchant host's origin with the dashboard). The
 * libraries need what they use at run time: `eval`/`new Function` (the AsyncAPI page compiles its schemas),
 * a search worker from a blob: URL, inline styles (styled-components) and data: fonts and images.
 */
const DOCS_POLICY = [
  "default-src 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self' data: blob:",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
];

const docsPolicies = new Map<string, { stamp: string; policy: string }>();

function docsPolicyFor(file: string): string {
  const stats = statSync(file);
  const stamp = `${stats.mtimeMs}:${stats.size}`;
  const known = docsPolicies.get(file);
  if (known?.stamp === stamp) return known.policy;
  const hashes = file.endsWith('.html') ? inlineScriptHashes(readFileSync(file, 'utf8')) : [];
  const policy = [...DOCS_POLICY, ['script-src', ...hashes, "'unsafe-eval'"].join(' ')].join('; ');
  docsPolicies.set(file, { stamp, policy });
  return policy;
}

/** Serves a folder of generated docs pages (`index.html` at its root) with their Content-Security-Policy. */
export function docsPages(dir: string): RequestHandler {
  return express.static(dir, {
    index: 'index.html',
    fallthrough: true,
    setHeaders: (res: ServerResponse, file: string) => {
      res.setHeader('Content-Security-Policy', docsPolicyFor(file));
      res.setHeader('X-Frame-Options', 'DENY');
      res.setHeader('Referrer-Policy', 'no-referrer');
    },
  });
}
