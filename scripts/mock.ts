/**
 * `npm run mock`: Prism mock server of generated/openapi.json on http://127.0.0.1:$MOCK_PORT (default 4010),
 * answering with the documented examples (static mode).
 *
 * - Every request needs `Authorization: Bearer <anything>` (the spec's bearer scheme): without it Prism
 *   answers 401 with the documented 401 example.
 * - `Prefer: code=404` picks the response status, `Prefer: example=<name>` the named example,
 *   both together: `Prefer: code=400, example=customerEmail`.
 * - An invalid request body is answered with the operation's 400/422 example (and an `sl-violations` header).
 *
 * Run `npm run generate` first: the mock serves the bundled file, not the sources.
 */
import { existsSync } from 'node:fs';
import { fromRoot, relativeToRoot } from './lib/paths.ts';
import { startPrism } from './lib/prism.ts';

const spec = fromRoot('generated', 'openapi.json');
if (!existsSync(spec)) {
  console.error(`${relativeToRoot(spec)} not found: run \`npm run generate\` first.`);
  process.exit(1);
}
const port = Number(process.env['MOCK_PORT'] ?? 4010);
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error(`MOCK_PORT must be a TCP port number, got '${process.env['MOCK_PORT']}'.`);
  process.exit(1);
}

const server = await startPrism({ spec, port, host: '127.0.0.1', inherit: true, readyTimeoutMs: 60_000 });
console.log(`\nPixGate mock ready on ${server.baseUrl} (Ctrl+C to stop). Try:`);
console.log(`  curl -H 'Authorization: Bearer pixg_${'0'.repeat(64)}' ${server.baseUrl}/v1/balance\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.stop().then(() => process.exit(0));
  });
}
server.child.once('exit', (code) => process.exit(code ?? 0));
