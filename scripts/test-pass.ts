/**
 * `npm run test:psp` and `npm run test:proxy`: the merchant suites again, in another setting (issue 33 put the
 * two passes and their suite lists here).
 *
 * - `psp` (CI): the merchant and back-office suites with the gateway on PSP=efi against the fake provider over
 *   mutual TLS (PIXGATE_TEST_PSP=efi), every merchant response also validated by Prism
 *   (PIXGATE_TEST_VIA_PRISM=1). This one pass replaces the two CI ran before (the same suites on PSP=efi,
 *   and the HTTP suites through Prism on the simulated provider): the HTTP suites are a subset of its suites
 *   and none of them skips a test on PSP=efi, so every response Prism checked before is checked still, now on
 *   the real rails; the simulated provider's responses are validated in every other pass by the gateway's
 *   own response validation (express-openapi-validator).
 * - `proxy` (by hand): the HTTP suites through Prism on the simulated provider, as CI ran them before.
 *
 * With PIXGATE_TEST_VIA_PRISM=1, vitest's global setup starts one Prism for the run and startGateway()
 * (test/support/gateway.ts) puts a front before each gateway that sends merchant requests through it
 * (scripts/lib/prism-proxy.ts); a response that breaks the spec fails the file (`proxy.violations()`).
 *
 * Usage: node scripts/test-pass.ts psp|proxy [-- <extra vitest arguments>]   e.g. `npm run test:psp -- test/auth`
 * (arguments that look like paths replace the default suite list).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fromRoot, relativeToRoot } from './lib/paths.ts';

/** The suites that exercise the merchant API over HTTP (the Prism pass on the simulated provider). */
export const HTTP_SUITES = ['test/charges', 'test/transactions', 'test/balance', 'test/auth', 'test/withdrawals', 'test/recipients', 'test/refunds', 'test/http'];

/** The merchant and back-office suites on PSP=efi: the HTTP suites plus the rails, holds and MED, the back office, the reconciliation. */
export const PSP_SUITES = ['test/provider', ...HTTP_SUITES, 'test/holds', 'test/backoffice', 'test/reconciliation'];

const PASSES = {
  psp: { suites: PSP_SUITES, env: { PIXGATE_TEST_PSP: 'efi', PIXGATE_TEST_VIA_PRISM: '1' } },
  proxy: { suites: HTTP_SUITES, env: { PIXGATE_TEST_VIA_PRISM: '1' } },
} as const;

const passName = process.argv[2];
if (passName !== 'psp' && passName !== 'proxy') {
  console.error('usage: node scripts/test-pass.ts psp|proxy [-- <vitest arguments>]');
  process.exit(2);
}
const pass = PASSES[passName];

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
const otherArgs = extra.filter((arg) => !arg.startsWith('test/'));
const suites = pathArgs.length > 0 ? pathArgs : pass.suites.filter((suite) => existsSync(fromRoot(suite)));
const missing = pass.suites.filter((suite) => !existsSync(fromRoot(suite)));
if (pathArgs.length === 0 && missing.length > 0) console.warn(`test:${passName}: not present, skipped: ${missing.join(', ')}`);

const envText = Object.entries(pass.env).map(([name, value]) => `${name}=${value}`).join(' ');
console.log(`test:${passName}: vitest run ${suites.join(' ')} (${envText})`);
const child = spawn(process.execPath, [fromRoot('node_modules', 'vitest', 'vitest.mjs'), 'run', ...suites, ...otherArgs], {
  cwd: fromRoot(),
  stdio: 'inherit',
  env: { ...process.env, ...pass.env },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
