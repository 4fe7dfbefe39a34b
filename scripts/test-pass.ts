/**
 * `npm run test:psp` and `npm run test:proxy`: the merchant suites again, in another setting (issue 33 put the
 * two passes and their suite lists here; issue 35 gave `psp` its second profile).
 *
 * - `psp` (CI): the merchant and back-office suites with the gateway on PSP=efi against the fake provider over
 *   mutual TLS (PIXGATE_TEST_PSP=efi), every merchant response also validated by Prism
 *   (PIXGATE_TEST_VIA_PRISM=1). This one pass replaces the two CI ran before (the same suites on PSP=efi,
 *   and the HTTP suites through Prism on the simulated provider): the HTTP suites are a subset of its suites
 *   and none of them skips a test on PSP=efi, so every response Prism checked before is checked still, now on
 *   the real rails; the simulated provider's responses are validated in every other pass by the gateway's
 *   own response validation (express-openapi-validator).
 *   Then the money-in suites (charges, refunds, the reconciliation, the adapter's own tests)
 *   again on PSP=apipix against the fake in its `standard` profile (the Central Bank's API Pix alone, no Efí
 *   extension: PIXGATE_TEST_PSP=apipix), also through Prism. Both must pass.
 * - `proxy` (by hand): the HTTP suites through Prism on the simulated provider, as CI ran them before.
 *
 * With PIXGATE_TEST_VIA_PRISM=1, vitest's global setup starts one Prism for the run and startGateway()
 * (test/support/gateway.ts) puts a front before each gateway that sends merchant requests through it
 * (scripts/lib/prism-proxy.ts); a response that breaks the spec fails the file (`proxy.violations()`).
 *
 * Usage: node scripts/test-pass.ts psp|proxy [-- [--apipix] <extra vitest arguments>]
 *   e.g. `npm run test:psp -- test/auth`, `npm run test:psp -- --apipix test/charges`
 * (arguments that look like paths replace the default suite list).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fromRoot, relativeToRoot } from './lib/paths.ts';

/** The suites that exercise the merchant API over HTTP (the Prism pass on the simulated provider). */
export const HTTP_SUITES = ['test/charges', 'test/dueCharges', 'test/staticQrCodes', 'test/paymentLinks', 'test/transactions', 'test/balance', 'test/auth', 'test/withdrawals', 'test/recipients', 'test/refunds', 'test/http', 'test/recurrences'];

/** The merchant and back-office suites on PSP=efi: the HTTP suites plus the rails, holds and MED, the back office, the reconciliation. */
export const PSP_SUITES = ['test/provider', ...HTTP_SUITES, 'test/holds', 'test/backoffice', 'test/reconciliation'];

/**
 * The money-in suites on PSP=apipix. The standard has no send API and no infraction listing: the withdrawal,
 * holds and MED-infraction suites are Efí's (a MED devolução on the standard: apiPixAdapter, reconciliation).
 */
export const APIPIX_SUITES = ['test/provider/apiPixAdapter.test.ts', 'test/charges', 'test/dueCharges', 'test/staticQrCodes', 'test/paymentLinks', 'test/refunds', 'test/reconciliation', 'test/recurrences'];

interface Run {
  label: string;
  suites: readonly string[];
  env: Record<string, string>;
}

const PASSES: Record<'psp' | 'proxy', Run[]> = {
  psp: [
    { label: 'PSP=efi', suites: PSP_SUITES, env: { PIXGATE_TEST_PSP: 'efi', PIXGATE_TEST_VIA_PRISM: '1' } },
    { label: 'PSP=apipix', suites: APIPIX_SUITES, env: { PIXGATE_TEST_PSP: 'apipix', PIXGATE_TEST_VIA_PRISM: '1' } },
  ],
  proxy: [{ label: 'simulated', suites: HTTP_SUITES, env: { PIXGATE_TEST_VIA_PRISM: '1' } }],
};

const passName = process.argv[2];
if (passName !== 'psp' && passName !== 'proxy') {
  console.error('usage: node scripts/test-pass.ts psp|proxy [-- <vitest arguments>]');
  process.exit(2);
}
const runs = PASSES[passName];

const spec = fromRoot('generated', 'openapi.json');
if (!existsSync(spec)) {
  console.error(`${relativeToRoot(spec)} not found: run \`npm run generate\` first.`);
  process.exit(1);
}

// Without the hook in startGateway the variable changes nothing and this would be a plain run that
// validates nothing: refuse to pass in that case.
const harness = fromRoot('test', 'support', 'gateway.ts');
if (!readFileSync(harness, 'utf8').includes('PIXGATE_TEST_VIA_PRISM')) {
  console.error(`test:${passName}: ${relativeToRoot(harness)} does not read PIXGATE_TEST_VIA_PRISM, so the suites would not go through Prism.`);
  process.exit(1);
}

const extra = process.argv.slice(3).filter((arg) => arg !== '--');
const pathArgs = extra.filter((arg) => arg.startsWith('test/'));
const otherArgs = extra.filter((arg) => !arg.startsWith('test/') && arg !== '--apipix');
// `--apipix`: the PSP=apipix setting alone. Paths given on the command line replace the suite lists, and
// run in one setting (the first, or the one chosen).
const settings = extra.includes('--apipix') ? runs.filter((run) => run.env.PIXGATE_TEST_PSP === 'apipix') : runs;
const chosen = pathArgs.length > 0 ? settings.slice(0, 1).map((run) => ({ ...run, suites: pathArgs })) : settings;

function runOnce(run: Run): Promise<number> {
  const suites = run.suites.filter((suite) => existsSync(fromRoot(suite)));
  const missing = run.suites.filter((suite) => !existsSync(fromRoot(suite)));
  if (missing.length > 0) console.warn(`test:${passName} (${run.label}): not present, skipped: ${missing.join(', ')}`);
  const envText = Object.entries(run.env).map(([name, value]) => `${name}=${value}`).join(' ');
  console.log(`test:${passName} (${run.label}): vitest run ${suites.join(' ')} (${envText})`);
  // Each setting its own JUnit report (CI adds them up).
  const junit = process.env.PIXGATE_JUNIT && run !== chosen[0] ? { PIXGATE_JUNIT: `${process.env.PIXGATE_JUNIT}-${run.env.PIXGATE_TEST_PSP ?? 'simulated'}` } : {};
  const child = spawn(process.execPath, [fromRoot('node_modules', 'vitest', 'vitest.mjs'), 'run', ...suites, ...otherArgs], {
    cwd: fromRoot(),
    stdio: 'inherit',
    env: { ...process.env, ...run.env, ...junit },
  });
  const forward = (signal: NodeJS.Signals) => {
    if (child.exitCode === null) child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((done) =>
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      done(code ?? (signal ? 1 : 0));
    }),
  );
}

let failed = 0;
for (const run of chosen) {
  const code = await runOnce(run);
  if (code !== 0) {
    console.error(`test:${passName} (${run.label}) failed (exit ${code})`);
    failed = code;
  }
}
process.exit(failed);
