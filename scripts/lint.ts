/**
 * `npm run lint`: every static check, in order, always all of them, then a summary. Fails when any step
 * reports an error or a warning.
 *
 *   openapi   redocly lint (redocly.yaml) of openapi/openapi.yaml, and of openapi/admin/admin.yaml when it exists,
 *             of openapi/dashboard/dashboard.yaml, of the provider's API as PixGate calls it
 *             (openapi/upstream/psp.yaml, its own rules), and of the Arazzo workflows (workflows/pixgate.arazzo.yaml)
 *   asyncapi  node scripts/validate-asyncapi.ts (@asyncapi/parser)
 *   types     tsc -p tsconfig.json (server, tests, scripts) and tsc -p web/tsconfig.json (the web applications)
 *   eslint    eslint . --max-warnings 0
 *
 * `node scripts/lint.ts openapi asyncapi` runs only the named steps (`npm run lint:api` does that).
 */
import { existsSync } from 'node:fs';
import { ADMIN_OPENAPI, ADMIN_REDOCLY_CONFIG, DASHBOARD_OPENAPI, DASHBOARD_REDOCLY_CONFIG, MERCHANT_OPENAPI, UPSTREAM_OPENAPI, UPSTREAM_REDOCLY_CONFIG, adminPresent, fromRoot, relativeToRoot } from './lib/paths.ts';
import { lintOpenApi } from './lib/redocly.ts';
import { runNodeScript, runTool } from './lib/run.ts';

const WORKFLOWS = fromRoot('workflows', 'pixgate.arazzo.yaml');
const WORKFLOWS_REDOCLY_CONFIG = fromRoot('workflows', 'redocly.yaml');

interface StepResult {
  ok: boolean;
  detail: string;
}

async function openapiStep(): Promise<StepResult> {
  const files = [MERCHANT_OPENAPI];
  if (adminPresent()) files.push(ADMIN_OPENAPI);
  else console.log(`notice: ${relativeToRoot(ADMIN_OPENAPI)} does not exist yet: not linted`);
  files.push(DASHBOARD_OPENAPI, UPSTREAM_OPENAPI, WORKFLOWS);
  if (!existsSync(MERCHANT_OPENAPI)) return { ok: false, detail: `${relativeToRoot(MERCHANT_OPENAPI)} not found` };
  const results = await Promise.all(
    files.map((file) =>
      file === WORKFLOWS
        ? lintOpenApi(file, WORKFLOWS_REDOCLY_CONFIG)
        : file === DASHBOARD_OPENAPI
        ? lintOpenApi(file, DASHBOARD_REDOCLY_CONFIG)
        : file === UPSTREAM_OPENAPI
        ? lintOpenApi(file, UPSTREAM_REDOCLY_CONFIG)
        : file === ADMIN_OPENAPI
          ? lintOpenApi(file, ADMIN_REDOCLY_CONFIG)
          : lintOpenApi(file),
    ),
  );
  let ok = true;
  const details: string[] = [];
  results.forEach((result, i) => {
    const name = relativeToRoot(files[i] ?? '');
    for (const line of result.lines) console.log(`  ${line}`);
    details.push(`${name}: ${result.errors} error(s), ${result.warnings} warning(s)`);
    if (result.errors > 0 || result.warnings > 0) ok = false;
  });
  return { ok, detail: details.join('; ') };
}

async function asyncapiStep(): Promise<StepResult> {
  const script = fromRoot('scripts', 'validate-asyncapi.ts');
  if (!existsSync(script)) return { ok: false, detail: 'scripts/validate-asyncapi.ts not found' };
  const result = await runNodeScript(script, [], { inherit: true });
  return { ok: result.code === 0, detail: `validate-asyncapi exit ${result.code}` };
}

async function typesStep(): Promise<StepResult> {
  const [server, web] = await Promise.all([
    runTool('tsc', ['-p', 'tsconfig.json', '--pretty', 'false'], { inherit: true }),
    runTool('tsc', ['-p', fromRoot('web', 'tsconfig.json'), '--pretty', 'false'], { inherit: true }),
  ]);
  return { ok: server.code === 0 && web.code === 0, detail: `tsc exit ${server.code} (server), ${web.code} (web)` };
}

async function eslintStep(): Promise<StepResult> {
  const result = await runTool('eslint', ['.', '--max-warnings', '0'], { inherit: true });
  return { ok: result.code === 0, detail: `eslint exit ${result.code}` };
}

const STEPS: Record<string, () => Promise<StepResult>> = {
  openapi: openapiStep,
  asyncapi: asyncapiStep,
  types: typesStep,
  eslint: eslintStep,
};

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in STEPS));
if (unknown.length > 0) {
  console.error(`Unknown lint step(s): ${unknown.join(', ')}. Steps: ${Object.keys(STEPS).join(', ')}`);
  process.exit(2);
}
const names = requested.length > 0 ? requested : Object.keys(STEPS);

const summary: string[] = [];
let failed = false;
for (const name of names) {
  const step = STEPS[name];
  if (!step) continue;
  console.log(`\n== lint: ${name}`);
  const started = performance.now();
  let result: StepResult;
  try {
    result = await step();
  } catch (error) {
    result = { ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
  const ms = Math.round(performance.now() - started);
  summary.push(`  ${result.ok ? 'ok  ' : 'FAIL'}  ${name.padEnd(8)} ${result.detail} (${ms} ms)`);
  if (!result.ok) failed = true;
}
console.log(`\nlint summary:\n${summary.join('\n')}`);
process.exitCode = failed ? 1 : 0;
