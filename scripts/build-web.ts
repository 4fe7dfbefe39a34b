/**
 * `npm run build:web`: builds the two web applications (web/dashboard → dist/web/dashboard, web/console →
 * dist/web/console) with Vite, then measures each one's initial JavaScript (the entry chunk and every
 * chunk it imports statically, gzip level 9) against the budget of 250 KB and fails above it.
 *
 * `--if-stale` (what `npm start` runs first) builds only when the sources changed since the last build:
 * a hash of web/, the generated types the pages use, the Vite configs and package-lock.json is kept in
 * dist/web/build-stamp.json.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
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

/** Gzip bytes of the entry's JavaScript and everything it imports statically (what the first visit loads). */
function initialJavaScript(app: string): { files: string[]; rawBytes: number; gzipBytes: number } {
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
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = readFileSync(path.join(outDir, file));
    rawBytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
  }
  return { files, rawBytes, gzipBytes };
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
  const sizes: Record<string, { gzipBytes: number; rawBytes: number }> = {};
  for (const app of apps) {
    await build({ configFile: fromRoot('web', app, 'vite.config.ts'), logLevel: 'warn' });
    const size = initialJavaScript(app);
    sizes[app] = { gzipBytes: size.gzipBytes, rawBytes: size.rawBytes };
    const within = size.gzipBytes <= BUDGET_BYTES;
    overBudget ||= !within;
    console.log(
      `build:web: ${app}: initial JavaScript ${(size.gzipBytes / 1024).toFixed(1)} KB gzip (${(size.rawBytes / 1024).toFixed(1)} KB raw, ` +
        `${size.files.length} file(s)), budget 250 KB: ${within ? 'ok' : 'OVER BUDGET'}`,
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


