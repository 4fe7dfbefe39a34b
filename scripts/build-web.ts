/**
 * `npm run build:web`: builds the two web applications (web/dashboard → dist/web/dashboard, web/console →
 * dist/web/console) with Vite, then measures each one's initial JavaScript (the entry chunk and every
 * chunk it imports statically, gzip level 9) against the budget of 250 KB and fails above it.
 *
 * Beside each page and asset that compresses it writes a brotli copy (`.br`, quality 11) and a gzip copy
 * (`.gz`, level 9); the server sends the one the browser accepts (src/http/precompressed.ts). The summary
 * line gives the initial JavaScript as transferred (brotli, what a current browser receives) and gzip.
 *
 * `--if-stale` (what `npm start` runs first) builds only when the sources changed since the last build:
 * a hash of web/, the generated types the pages use, the Vite configs and package-lock.json is kept in
 * dist/web/build-stamp.json.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { build as viteBuild } from 'vite';
import { fromRoot, relativeToRoot } from './lib/paths.ts';

const APPS = ['dashboard', 'console'] as const;
const BUDGET_BYTES = 250 * 1024;
const DIST = fromRoot('dist', 'web');
const STAMP = path.join(DIST, 'build-stamp.json');

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(full);
      return [full];
    })
    .sort();
}

function sourceHash(): string {
  const hash = createHash('sha256');
  const inputs = [
    ...filesUnder(fromRoot('web')),
    fromRoot('generated', 'dashboard-types.ts'),
    fromRoot('generated', 'admin-types.ts'),
    fromRoot('package-lock.json'),
    fromRoot('scripts', 'build-web.ts'),
  ];
  for (const file of inputs) {
    if (!existsSync(file)) continue;
    hash.update(relativeToRoot(file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/** Files worth compressing (text); images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible file of
 * the built application, each only when smaller than the file itself (else the server sends the file).
 */
function precompress(app: string): { files: number } {
  let files = 0;
  for (const file of filesUnder(path.join(DIST, app))) {
    if (!COMPRESSIBLE.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
    const content = readFileSync(file);
    const brotli = brotliCompressSync(content, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    });
    const gzip = gzipSync(content, { level: 9 });
    if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
    if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
    files += 1;
  }
  return { files };
}

/** Bytes of `file` as transferred with `coding` (its precompressed copy; the file itself when there is none). */
function transferred(file: string, coding: '.br' | '.gz'): number {
  return existsSync(`${file}${coding}`) ? statSync(`${file}${coding}`).size : statSync(file).size;
}

/** Gzip bytes of the entry's JavaScript and everything it imports statically (what the first visit loads). */
function initialJavaScript(app: string): { files: string[]; rawBytes: number; gzipBytes: number; brotliBytes: number; cssBrotliBytes: number } {
  const outDir = path.join(DIST, app);
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const files = [...seen].map((key) => manifest[key]?.file ?? '').filter((file) => file.endsWith('.js'));
  const styles = [...new Set([...seen].flatMap((key) => (manifest[key] as ManifestChunk & { css?: string[] } | undefined)?.css ?? []))];
  let rawBytes = 0;
  let gzipBytes = 0;
  let brotliBytes = 0;
  for (const file of files) {
    const content = readFileSync(path.join(outDir, file));
    rawBytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
    brotliBytes += transferred(path.join(outDir, file), '.br');
  }
  const cssBrotliBytes = styles.reduce((sum, file) => sum + transferred(path.join(outDir, file), '.br'), 0);
  return { files, rawBytes, gzipBytes, brotliBytes, cssBrotliBytes };
}

/**
 * One build at a time (npm start and a test run may both start one): a lock directory, created atomically;
 * one older than two minutes is left from a build that died and is taken over.
 */
const LOCK = path.join(DIST, '.build-lock');
async function acquireLock(): Promise<() => void> {
  mkdirSync(DIST, { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      return () => rmSync(LOCK, { recursive: true, force: true });
    } catch {
      const age = (() => {
        try {
          return Date.now() - statSync(LOCK).mtimeMs;
        } catch {
          return 0;
        }
      })();
      if (age > 120_000) rmSync(LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`build:web: ${relativeToRoot(LOCK)} is held by another build`);
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const ifStale = process.argv.includes('--if-stale');
const apps = APPS.filter((app) => existsSync(fromRoot('web', app, 'vite.config.ts')));
const hash = sourceHash();
const release = await acquireLock();
process.on('exit', release);
const built = apps.every((app) => existsSync(path.join(DIST, app, 'index.html')));
if (ifStale && built && existsSync(STAMP) && (JSON.parse(readFileSync(STAMP, 'utf8')) as { hash?: string }).hash === hash) {
  console.log('build:web: the web applications are up to date.');
} else {
  let build: typeof viteBuild;
  // The pages are always built for production (React's production build): Vite follows NODE_ENV, and a
  // shell or a parent process with NODE_ENV=development would otherwise ship React's development build.
  process.env.NODE_ENV = 'production';
  try {
    ({ build } = await import('vite'));
  } catch {
    // An install without the development tools (npm ci --omit=dev): the API starts; the pages answer 503
    // until they are built where Vite is installed.
    console.warn('build:web: Vite is not installed (npm ci --omit=dev?): the web applications are not built; the API runs without them.');
    process.exit(ifStale ? 0 : 1);
  }
  const started = Date.now();
  let overBudget = false;
  const sizes: Record<string, { gzipBytes: number; rawBytes: number; brotliBytes: number; cssBrotliBytes: number }> = {};
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const app of apps) {
    await build({ configFile: fromRoot('web', app, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
    const compressed = precompress(app);
    const size = initialJavaScript(app);
    sizes[app] = { gzipBytes: size.gzipBytes, rawBytes: size.rawBytes, brotliBytes: size.brotliBytes, cssBrotliBytes: size.cssBrotliBytes };
    const within = size.gzipBytes <= BUDGET_BYTES;
    overBudget ||= !within;
    console.log(
      `build:web: ${app}: initial JavaScript ${kb(size.brotliBytes)} brotli as transferred, ${kb(size.gzipBytes)} gzip ` +
        `(${kb(size.rawBytes)} raw, ${size.files.length} file(s); CSS ${kb(size.cssBrotliBytes)} brotli), budget 250 KB gzip: ${within ? 'ok' : 'OVER BUDGET'}; ` +
        `${compressed.files} file(s) precompressed (.br, .gz)`,
    );
  }
  mkdirSync(DIST, { recursive: true });
  writeFileSync(STAMP, `${JSON.stringify({ hash, builtAt: new Date().toISOString(), sizes }, null, 2)}\n`);
  console.log(`build:web: built ${apps.join(' and ')} in ${Date.now() - started} ms into ${relativeToRoot(DIST)}/`);
  if (overBudget) {
    console.error('build:web: an application is over its 250 KB (gzip) budget of initial JavaScript.');
    process.exitCode = 1;
  }
}


