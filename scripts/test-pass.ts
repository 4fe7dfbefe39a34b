/**
 * `npm run test:proxy`: the HTTP test suites again, with every merchant response validated by Prism.
 *
 * Runs `vitest run` over the suites that talk to the gateway over HTTP, with PIXGATE_TEST_VIA_PRISM=1.
 * With that variable set, startGateway() (test/support/gateway.ts) puts a Prism validating proxy
 * (scripts/lib/prism-proxy.ts → startPrismProxy) in front of the in-process server and points the
 * merchant clients and `gateway.baseUrl` at it; /admin traffic stays direct. A response that breaks the
 * spec then reaches the test as Prism's 500 problem+json, and the harness fails the file when
 * `proxy.violations()` is not empty (which also catches warnings such as an undocumented status).
 *
 * Usage: npm run test:proxy [-- <extra vitest arguments>]   e.g. `npm run test:proxy -- test/auth`
 * (arguments that look like paths replace the default suite list).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fromRoot, relativeToRoot } from './lib/paths.ts';

/** The suites that exercise the merchant API over HTTP. */
export const HTTP_SUITES = [
  'test/charges',
  'test/transactions',
  'test/balance',
  'test/auth',
  'test/withdrawals',
  'test/recipients',
  'test/refunds',
  'test/http',
];

const spec = fromRoot('generated', 'openapi.json');
if (!existsSync(spec)) {
  console.error(`${relativeToRoot(spec)} not found: run \`npm run generate\` first.`);
  process.exit(1);
}

// Without the hook in startGateway the variable changes nothing and this would be a second plain run that
// validates nothing: refuse to pass in that case.
const harness = fromRoot('test', 'support', 'gateway.ts');
if (!readFileSync(harness, 'utf8').includes('PIXGATE_TEST_VIA_PRISM')) {
  console.error(
    `test:proxy: ${relativeToRoot(harness)} does not read PIXGATE_TEST_VIA_PRISM yet, so the suites would not go ` +
      'through Prism. startGateway() must start the proxy when it is set (scripts/lib/prism-proxy.ts).',
  );
  process.exit(1);
}

const extra = process.argv.slice(2).filter((arg) => arg !== '--');
const pathArgs = extra.filter((arg) => arg.startsWith('test/'));
const otherArgs = extra.filter((arg) => !arg.startsWith('test/'));
const suites = pathArgs.length > 0 ? pathArgs : HTTP_SUITES.filter((suite) => existsSync(fromRoot(suite)));
const missing = HTTP_SUITES.filter((suite) => !existsSync(fromRoot(suite)));
if (pathArgs.length === 0 && missing.length > 0) console.warn(`test:proxy: not present, skipped: ${missing.join(', ')}`);

console.log(`test:proxy: vitest run ${suites.join(' ')} (PIXGATE_TEST_VIA_PRISM=1)`);
const child = spawn(process.execPath, [fromRoot('node_modules', 'vitest', 'vitest.mjs'), 'run', ...suites, ...otherArgs], {
  cwd: fromRoot(),
  stdio: 'inherit',
  env: { ...process.env, PIXGATE_TEST_VIA_PRISM: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
