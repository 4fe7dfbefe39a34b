/**
 * `npm run build:kit`, and the prepack of kit/ (so `npm run pack:kit`, i.e. `npm pack ./kit`, always packs a
 * fresh build): compiles the integration kit (src/sdk/client.ts, src/sdk/webhooks.ts) and the generated
 * types they import (generated/api-types.ts, generated/event-types.ts) with tsc (tsconfig.kit.json) into
 * kit/dist/: ESM JavaScript and `.d.ts` declarations, the layout of the sources kept
 * (kit/dist/src/sdk/client.js imports nothing of kit/dist/generated/ at run time; its declarations do).
 *
 * kit/ is the package merchants install (`pixgate`, exports `pixgate/client` and `pixgate/webhooks`), apart
 * from the repository's own package.json on purpose: that one is the gateway, whose 16 runtime dependencies
 * (Express, PGlite, pg, …) a merchant's project must not install. The kit depends on openapi-fetch and
 * standardwebhooks only.
 *
 * After compiling, and before anything is written to kit/dist/, it checks what a merchant's install relies on:
 * - the declarations import the generated types as `./x.js` (tsc keeps the sources' `.ts` specifiers in
 *   declarations; older TypeScript versions refuse those), and the types-only modules' empty JavaScript is
 *   dropped (nothing imports it at run time: checked);
 * - every package the output imports is a dependency of kit/package.json, at the version the gateway
 *   tests with (package.json), and nothing else is;
 * - kit/package.json has the version of package.json, the same export names, and every export target exists.
 *
 * The new files replace kit/dist/ one by one (each written aside, then renamed), so a `npm pack` running at
 * the same time (two test runs in one checkout) never reads half a file.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { fromRoot, relativeToRoot } from './lib/paths.ts';
import { runToolOrThrow } from './lib/run.ts';

const KIT = fromRoot('kit');
const DIST = path.join(KIT, 'dist');
const STAGING_PREFIX = '.staging-';

interface Manifest {
  version: string;
  exports: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
}

function readManifest(file: string): Manifest {
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** Every file under dir, relative to it, with forward slashes. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]))
    .sort();
}

/** The module specifiers a file imports or re-exports (TypeScript's own scan: comments and strings skipped). */
function specifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

async function compile(staging: string): Promise<Map<string, string>> {
  await runToolOrThrow('tsc', ['-p', fromRoot('tsconfig.kit.json'), '--outDir', staging, '--pretty', 'false']);
  const output = new Map<string, string>();
  for (const file of filesUnder(staging)) output.set(file, readFileSync(path.join(staging, file), 'utf8'));

  // Declarations: relative `.ts` specifiers (kept by tsc) become `.js`, as in the JavaScript.
  for (const [file, source] of output) {
    if (!file.endsWith('.d.ts')) continue;
    output.set(file, source.replace(/(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]+)\.ts\2/g, '$1$2$3.js$2'));
  }
  // The generated types are types only: their JavaScript is `export {};`, imported by nothing at run time.
  const runtimeImports = [...output].filter(([file]) => file.endsWith('.js')).flatMap(([file, source]) => specifiers(source).map((s) => ({ file, s })));
  for (const file of [...output.keys()]) {
    if (!file.startsWith('generated/') || !file.endsWith('.js')) continue;
    const importer = runtimeImports.find(({ file: from, s }) => path.posix.join(path.posix.dirname(from), s) === file);
    if (importer) throw new Error(`${importer.file} imports ${file} at run time: the kit would need it`);
    output.delete(file);
  }
  return output;
}

function check(output: Map<string, string>): void {
  const root = readManifest(fromRoot('package.json'));
  const kit = readManifest(path.join(KIT, 'package.json'));
  const problems: string[] = [];

  if (kit.version !== root.version) problems.push(`kit/package.json has version ${kit.version}, package.json ${root.version}: keep them equal`);

  const imported = new Set<string>();
  for (const [file, source] of output) {
    for (const specifier of specifiers(source)) {
      if (specifier.startsWith('.')) {
        const target = path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, file.endsWith('.d.ts') ? '.d.ts' : '.js');
        if (!output.has(target)) problems.push(`${file} imports ${specifier}, which the kit does not contain`);
      } else if (!specifier.startsWith('node:')) imported.add(packageOf(specifier));
    }
  }
  const declared = kit.dependencies ?? {};
  for (const name of imported) {
    if (!(name in declared)) problems.push(`the kit imports ${name}: add it to kit/package.json's dependencies`);
    else if (declared[name] !== root.dependencies?.[name]) problems.push(`kit/package.json has ${name} ${declared[name]}, package.json ${root.dependencies?.[name] ?? '(none)'}: use the version the gateway tests with`);
  }
  for (const name of Object.keys(declared)) if (!imported.has(name)) problems.push(`kit/package.json depends on ${name}, which the kit does not import`);

  const rootNames = Object.keys(root.exports).sort().join(', ');
  const kitNames = Object.keys(kit.exports).sort().join(', ');
  if (rootNames !== kitNames) problems.push(`export names differ: package.json has ${rootNames}, kit/package.json ${kitNames}`);
  for (const [name, target] of Object.entries(kit.exports)) {
    for (const file of typeof target === 'string' ? [target] : Object.values(target)) {
      const inDist = path.posix.relative('./dist', file);
      if (file.startsWith('./dist/') && !output.has(inDist)) problems.push(`kit/package.json exports ${name} → ${file}, which the build does not produce`);
    }
  }
  if (problems.length > 0) throw new Error(`the kit is not consistent:\n- ${problems.join('\n- ')}`);
}

/** Writes each file aside and renames it into place; removes what the build no longer produces. */
function install(output: Map<string, string>): void {
  for (const [file, source] of output) {
    const target = path.join(DIST, file);
    mkdirSync(path.dirname(target), { recursive: true });
    const aside = `${target}.${process.pid}.tmp`;
    writeFileSync(aside, source);
    renameSync(aside, target);
  }
  // Not the files being written aside, nor the staging folders of builds running at the same time.
  for (const file of filesUnder(DIST)) {
    if (!output.has(file) && !file.endsWith('.tmp') && !file.startsWith(STAGING_PREFIX)) rmSync(path.join(DIST, file), { force: true });
  }
}

const started = performance.now();
// Inside kit/dist/ (ignored by git and ESLint) but outside the package's `files`, so never packed.
const staging = path.join(DIST, `${STAGING_PREFIX}${process.pid}`);
try {
  const output = await compile(staging);
  check(output);
  install(output);
  const bytes = [...output.values()].reduce((sum, source) => sum + Buffer.byteLength(source), 0);
  console.log(
    `build:kit: ${output.size} files, ${(bytes / 1024).toFixed(0)} KB in ${relativeToRoot(DIST)}/ (${Math.round(performance.now() - started)} ms):\n` +
      [...output.keys()].map((file) => `  ${file}`).join('\n'),
  );
} catch (error) {
  console.error(`build:kit failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  rmSync(staging, { recursive: true, force: true });
}
