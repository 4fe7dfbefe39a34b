/**
 * `npm run mock`: mock of the merchant API (generated/openapi.json) on http://127.0.0.1:$MOCK_PORT (default
 * 4010), answering with the documented examples: Prism in static mode behind a front that answers like the
 * gateway (scripts/lib/mock.ts).
 *
 * - Every request needs `Authorization: Bearer <anything>` (the spec's bearer scheme): without it the
 *   documented 401 example comes back.
 * - A plain request gets what the gateway answers a valid one: 201 for POST /v1/pix, /v1/withdraw and
 *   /v1/recipients, 200 for the reads.
 * - `Prefer: code=404` picks the response status, `Prefer: example=<name>` the named example (its status is
 *   found from the name), both together: `Prefer: code=400, example=customerEmail`.
 * - An invalid request body is answered with the operation's 400/422 example (and an `sl-violations` header).
 *
 * Run `npm run generate` first: the mock serves the bundled file, not the sources.
 */
import { existsSync } from 'node:fs';
import { startMock, type MockOperation } from './lib/mock.ts';
import { fromRoot, relativeToRoot } from './lib/paths.ts';

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

/** One line per operation: the plain answer, then every other status with its example names. */
function guide(op: MockOperation): string[] {
  const plain = op.defaultStatus ?? op.examples.map((e) => e.status).filter((s) => s.startsWith('2')).sort()[0] ?? '?';
  const lines = [`  ${op.method} ${op.path}  (plain request: ${plain})`];
  for (const { status, names } of op.examples) {
    const shown = names.length > 6 ? [...names.slice(0, 6), `… ${names.length - 6} more`] : names;
    lines.push(`      ${status}: ${shown.join(', ')}`);
  }
  return lines;
}

const server = await startMock({ spec, port, host: '127.0.0.1', inherit: true, readyTimeoutMs: 60_000 });
const key = `pixg_${'0'.repeat(64)}`;
console.log(
  [
    '',
    `PixGate mock ready on ${server.baseUrl} (Ctrl+C to stop). It answers the documented examples:`,
    `  curl -H 'Authorization: Bearer ${key}' ${server.baseUrl}/v1/balance`,
    '',
    'A plain request gets the answer the gateway gives a valid one (201 for a POST that creates). Choose another',
    "documented answer with the Prefer header: 'Prefer: code=200' (a status), 'Prefer: example=chargeIdempotent'",
    "(an example, by name), or both: 'Prefer: code=400, example=customerEmail'. For instance:",
    `  curl -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' -H 'Prefer: code=429' \\`,
    `    -d '{"amountCents":1000,"customer":{"name":"Maria da Silva","email":"maria@example.com","phone":"11987654321","document":{"number":"52998224725","type":"cpf"}}}' \\`,
    `    ${server.baseUrl}/v1/pix`,
    '',
    'Statuses and example names per operation (the reference at generated/docs/ shows each one):',
    ...server.operations.flatMap(guide),
    '',
  ].join('\n'),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.stop().then(() => process.exit(0));
  });
}
server.prism.child.once('exit', (code) => process.exit(code ?? 0));
