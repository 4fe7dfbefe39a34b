import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'pixgate/client';
import { fromRoot } from '../../scripts/lib/paths.ts';
import { startServer, type ServerProcess } from '../support/processes.ts';

const run = promisify(execFile);

/**
 * The integration kit as a merchant gets it (kit/, `npm run pack:kit`): `npm pack ./kit` (its prepack
 * compiles src/sdk/ with tsc), the tarball installed into a fresh plain-JavaScript project (no TypeScript,
 * `"type": "module"`), then examples/merchant.mjs run there against a real gateway process: a charge, a
 * refused refund, the payment, a partial refund and its idempotent replay, the refund confirmed, both
 * webhooks verified with `pixgate/webhooks`, a changed body refused, the statement, a charge with a due
 * date, a static QR code paid and deactivated, a payment link opened, paid and deactivated. Also: the
 * tarball holds the kit only, the install brings two dependencies (and theirs), `require()` works, and a
 * TypeScript consumer type-checks against the installed declarations (skipLibCheck off, so they are checked
 * too).
 *
 * The install is offline and pinned: the project gets a package-lock.json made from this repository's (the
 * versions the gateway tests with), and `npm ci --offline` takes them from npm's cache, where `npm ci` of
 * this repository put them; only when they are missing from the cache does it fall back to the registry.
 *
 * Nothing here depends on the database: the file runs in `npm test` (PGlite) and is skipped by
 * `npm run test:pg`, which runs the suites again on Postgres.
 */
const ADMIN_TOKEN = 'adm_kit_test_token_0123456789abcdef';
const work = mkdtempSync(path.join(tmpdir(), 'pixgate-kit-'));
const project = path.join(work, 'merchant');
let server: ServerProcess | undefined;
let apiKey = '';
let packed: { filename: string; size: number; files: { path: string }[] };
let installMode = '';

/** npm, with Node 24 first on PATH and none of the npm_* variables of the `npm test` running this file. */
function npm(args: string[], cwd: string) {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(name) || /^npm_config_(cache|registry)$/i.test(name)) env[name] = value;
  }
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
  return run('npm', args, { cwd, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
}

interface LockEntry {
  version: string;
  integrity?: string;
  resolved?: string;
  dependencies?: Record<string, string>;
  [field: string]: unknown;
}

/** The project's package-lock.json: the tarball, and the kit's dependency tree as this repository locks it. */
function lockfileFor(tarball: string, integrity: string, kit: { version: string; dependencies: Record<string, string>; engines?: object }) {
  const repo = JSON.parse(readFileSync(fromRoot('package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const spec = `file:${tarball}`;
  const packages: Record<string, object> = {
    '': { name: 'merchant', dependencies: { pixgate: spec } },
    'node_modules/pixgate': { version: kit.version, resolved: spec, integrity, dependencies: kit.dependencies, engines: kit.engines },
  };
  const queue = Object.keys(kit.dependencies);
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const key = `node_modules/${name}`;
    if (key in packages) continue;
    const entry = repo.packages[key];
    if (!entry) throw new Error(`${name} is not in package-lock.json at the top level: the kit's tree cannot be pinned from it`);
    // The repository's lockfile omits registry URLs (omit-lockfile-registry-resolved): npm ci needs them offline.
    const resolved = entry.resolved ?? `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
    packages[key] = { ...entry, resolved };
    queue.push(...Object.keys(entry.dependencies ?? {}));
  }
  return { name: 'merchant', lockfileVersion: 3, requires: true, packages };
}

async function packAndInstall(): Promise<void> {
  // `npm pack --json` prints the prepack's output first: the JSON is the last top-level array.
  const { stdout } = await npm(['pack', './kit', '--pack-destination', work, '--json'], fromRoot());
  const [result] = JSON.parse(stdout.slice(stdout.lastIndexOf('\n[') + 1)) as (typeof packed & { integrity: string })[];
  if (!result) throw new Error(`npm pack printed no result:\n${stdout}`);
  packed = result;
  const { integrity } = result;
  const kit = JSON.parse(readFileSync(fromRoot('kit', 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string>; engines?: object };

  rmSync(project, { recursive: true, force: true });
  const tarball = `../${packed.filename}`;
  mkdirSync(project, { recursive: true });
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'merchant', private: true, type: 'module', dependencies: { pixgate: `file:${tarball}` } }, null, 2));
  writeFileSync(path.join(project, 'package-lock.json'), JSON.stringify(lockfileFor(tarball, integrity, kit), null, 2));
  try {
    await npm(['ci', '--offline', '--no-audit', '--no-fund'], project);
    installMode = 'offline';
  } catch (error) {
    if (!/ENOTCACHED/.test(String((error as { stderr?: string }).stderr ?? error))) throw error;
    await npm(['ci', '--prefer-offline', '--no-audit', '--no-fund'], project);
    installMode = 'registry (not all in the npm cache)';
  }
}

async function startGateway(): Promise<void> {
  server = await startServer({ databaseUrl: '', adminToken: ADMIN_TOKEN, env: { PIXGATE_DATA_DIR: path.join(work, 'pglite'), NODE_ENV: 'development' } });
  const admin = async <T,>(method: string, urlPath: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server?.adminBaseUrl}${urlPath}`, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${urlPath} → ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const { accountId } = await admin<{ accountId: string }>('POST', '/admin/v1/accounts', {
    legalName: 'Loja JavaScript Ltda',
    responsibleCpf: '52998224725',
    companyCnpj: '11222333000181',
    email: 'dev@lojajs.com.br',
    kycStatus: 'approved',
  });
  ({ apiKey } = await admin<{ apiKey: string }>('POST', `/admin/v1/accounts/${accountId}/api-keys`, { label: 'kit test' }));
}

describe.skipIf(Boolean(process.env.PIXGATE_TEST_DATABASE_URL))('the integration kit packed, installed in a plain-JavaScript project and used (kit/)', () => {
  beforeAll(async () => {
    await Promise.all([packAndInstall(), startGateway()]);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('packs the kit only: its JavaScript, declarations and generated types, a README and the manifest', () => {
    expect(packed.files.map((file) => file.path).sort()).toEqual([
      'README.md',
      'dist/generated/api-types.d.ts',
      'dist/generated/event-types.d.ts',
      'dist/src/sdk/client.d.ts',
      'dist/src/sdk/client.js',
      'dist/src/sdk/webhooks.d.ts',
      'dist/src/sdk/webhooks.js',
      'package.json',
    ]);
    expect(packed.size).toBeLessThan(100 * 1024);
  });

  it('installs with two dependencies and theirs, nothing of the gateway', () => {
    const installed = readdirSync(path.join(project, 'node_modules'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .flatMap((entry) => (entry.name.startsWith('@') ? readdirSync(path.join(project, 'node_modules', entry.name)).map((name) => `${entry.name}/${name}`) : [entry.name]))
      .sort();
    expect(installed, `installed from ${installMode}`).toEqual(['@stablelib/base64', 'fast-sha256', 'openapi-fetch', 'openapi-typescript-helpers', 'pixgate', 'standardwebhooks']);
    const manifest = JSON.parse(readFileSync(path.join(project, 'node_modules', 'pixgate', 'package.json'), 'utf8')) as { dependencies: object; exports: object };
    expect(manifest.dependencies).toEqual({ 'openapi-fetch': expect.any(String), standardwebhooks: expect.any(String) });
    expect(Object.keys(manifest.exports)).toEqual(Object.keys((JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { exports: object }).exports));
  });

  it('runs examples/merchant.mjs there: charge, refused refund, payment, refund and replay, confirmation, verified webhooks, statement, a charge with a due date, a static QR code, a payment link', async () => {
    copyFileSync(fromRoot('examples', 'merchant.mjs'), path.join(project, 'merchant.mjs'));
    const { stdout } = await run(process.execPath, ['merchant.mjs'], {
      cwd: project,
      env: { ...process.env, PIXGATE_URL: server?.baseUrl, PIXGATE_API_KEY: apiKey, PIXGATE_ADMIN_URL: server?.adminBaseUrl, ADMIN_TOKEN },
      timeout: 90_000,
    });
    const transactionId = /→ 201 (tx_[0-9a-f]{24}) status=pending/.exec(stdout)?.[1] ?? '';
    const refundId = /→ 201 (rf_[0-9a-f]{24}) status=processing amountCents=400/.exec(stdout)?.[1] ?? '';
    expect(transactionId, stdout).not.toBe('');
    expect(refundId, stdout).not.toBe('');
    expect(stdout).toMatch(/PixGateError 422 POST \/v1\/transactions\/\{id\}\/refunds: \S/);
    expect(stdout).toContain(`← webhook transaction.paid ${transactionId} status=paid (signature verified)`);
    expect(stdout).toContain(`the same request again → 200 ${refundId} idempotent=true`);
    expect(stdout).toContain(`← webhook transaction.partially_refunded ${transactionId} status=partially_refunded (signature verified)`);
    expect(stdout).toMatch(new RegExp(`transaction.partially_refunded: refundId=${refundId} refundedCents=400 refundEndToEndId=D\\w+`));
    expect(stdout).toContain(`→ ${transactionId} status=partially_refunded refundedCents=400 refund ${refundId} status=refunded`);
    expect(stdout).toContain(`statement: refund -400 →`);
    expect(stdout).toContain('→ WebhookVerificationError: No matching signature found');
    expect(stdout).toContain(`Example finished: charge ${transactionId} paid, refund ${refundId} of 400 cents confirmed, webhooks verified.`);
    expect(stdout).not.toContain('REJECTED');
    // 8. The charge with a due date: created, postponed, paid before its due date (no fine, no interest).
    const dueId = /→ 201 (tx_[0-9a-f]{24}) status=pending dueDate=\d{4}-\d{2}-\d{2} amountDue=5000/.exec(stdout)?.[1] ?? '';
    expect(dueId, stdout).not.toBe('');
    expect(stdout).toMatch(/postponed → dueDate=\d{4}-\d{2}-\d{2} revision=1/);
    expect(stdout).toContain(`transaction.paid: ${dueId} status=paid paidAmountCents=5000`);
    // 9. The static QR code of a fixed amount: paid once (its payment a charge of its own), read back, deactivated.
    const codeId = /→ 201 (sqr_[0-9a-f]{24}) status=active amountCents=1500/.exec(stdout)?.[1] ?? '';
    expect(codeId, stdout).not.toBe('');
    expect(stdout).toContain('read back → paymentsCount=1 receivedCents=1500');
    const codePaymentId = new RegExp(`payment: (tx_[0-9a-f]{24}) status=paid amountCents=1500 staticQrCodeId=${codeId}`).exec(stdout)?.[1] ?? '';
    expect(codePaymentId, stdout).not.toBe('');
    expect(stdout).toContain(`← webhook transaction.paid ${codePaymentId} status=paid (signature verified)`);
    expect(stdout).toContain(`deactivated → ${codeId} status=inactive`);
    // 10. The reusable payment link: opened (a charge made), paid, read back with it, deactivated.
    const linkId = /→ 201 (pl_[0-9a-f]{24}) status=active url=http/.exec(stdout)?.[1] ?? '';
    expect(linkId, stdout).not.toBe('');
    const linkChargeId = /the page made the charge (tx_[0-9a-f]{24})/.exec(stdout)?.[1] ?? '';
    expect(linkChargeId, stdout).not.toBe('');
    expect(stdout).toContain(`read back → status=active paymentsCount=1 receivedCents=4990 payment ${linkChargeId} status=paid`);
    expect(stdout).toContain(`deactivated → ${linkId} status=inactive`);

    // What the script did is really there.
    const pixgate = createClient({ baseUrl: server?.baseUrl ?? '', apiKey });
    const { data } = await pixgate.GET('/v1/transactions/{id}', { params: { path: { id: transactionId } } });
    expect(data).toMatchObject({ status: 'partially_refunded', amountCents: 1000, refundedCents: 400, refunds: [{ refundId, amountCents: 400, status: 'refunded' }] });
    expect(server?.loggedErrors()).toEqual([]);
  }, 120_000);

  it('loads with require() too (Node 24 requires ES modules)', async () => {
    writeFileSync(
      path.join(project, 'required.cjs'),
      "const { createClient, PixGateError } = require('pixgate/client');\nconst { verifyWebhook, WebhookVerificationError } = require('pixgate/webhooks');\n" +
        'console.log([createClient, PixGateError, verifyWebhook, WebhookVerificationError].map((x) => typeof x).join(" "));\n',
    );
    const { stdout } = await run(process.execPath, ['required.cjs'], { cwd: project });
    expect(stdout.trim()).toBe('function function function function');
  });

  it('type-checks a TypeScript consumer against the installed declarations, refusing what the contract refuses', async () => {
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023'],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [fromRoot('node_modules', '@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(path.join(project, 'consumer.ts'), CONSUMER);
    const tsc = fromRoot('node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: project }).catch((error: { stdout: string }) => error);
    expect(result.stdout).toBe('');
  }, 60_000);
});

/** A merchant's TypeScript, against `pixgate` from node_modules: refunds, the statement, static QR codes and payment links typed from the contract. */
const CONSUMER = `import { createClient, PixGateError, type components, type paths } from 'pixgate/client';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventOf } from 'pixgate/webhooks';

const pixgate = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'pixg_x' });
const customer = { name: 'Maria da Silva', email: 'maria@example.com', phone: '11987654321', document: { number: '52998224725', type: 'cpf' as const } };

export async function flow(): Promise<number> {
  const { data: charge } = await pixgate.POST('/v1/pix', { body: { amountCents: 1000, customer } });
  const id: string = charge.transactionId;
  const { data: refund, response } = await pixgate.POST('/v1/transactions/{id}/refunds', {
    params: { path: { id } },
    body: { amountCents: 400, externalRef: 'devolucao-1', description: 'Item devolvido' },
  });
  const refundId: string = refund.refundId;
  // 201 (RefundCreated, processing) or the 200 replay of an externalRef (RefundIdempotent, its status now).
  const status: components['schemas']['RefundStatus'] = refund.status;
  await pixgate.POST('/v1/transactions/{id}/refunds', { params: { path: { id } }, body: {} });
  const { data: tx } = await pixgate.GET('/v1/transactions/{id}', { params: { path: { id } } });
  const refunded: number | undefined = tx.refundedCents;
  const { data: statement } = await pixgate.GET('/v1/balance/entries', { params: { query: { limit: 10 } } });
  const after: number | undefined = statement.entries[0]?.balanceAfterCents;
  const { data: png } = await pixgate.GET('/v1/transactions/{id}/qrcode', { params: { path: { id } }, parseAs: 'arrayBuffer' });
  const bytes: ArrayBuffer = png;
  void [refundId, status, refunded, after, bytes, response.status];

  // Static QR codes and payment links (issue 36): created, read with their payments, deactivated.
  const { data: code } = await pixgate.POST('/v1/static-qrcodes', { body: { amountCents: 1500, description: 'Caixa 1', externalRef: 'caixa-1' } });
  const codeStatus: 'active' | 'inactive' = code.status;
  const { data: codeRead } = await pixgate.GET('/v1/static-qrcodes/{id}', { params: { path: { id: code.staticQrCodeId } } });
  const received: number = codeRead.receivedCents;
  const { data: codePayments } = await pixgate.GET('/v1/transactions', { params: { query: { staticQrCodeId: code.staticQrCodeId } } });
  const ofCode: string | undefined = codePayments.transactions[0]?.staticQrCodeId;
  await pixgate.POST('/v1/static-qrcodes/{id}/deactivate', { params: { path: { id: code.staticQrCodeId } } });
  const { data: link } = await pixgate.POST('/v1/payment-links', { body: { amountCents: 4990, description: 'Camiseta azul', reusable: true } });
  const { data: linkRead } = await pixgate.GET('/v1/payment-links/{linkId}', { params: { path: { linkId: link.linkId } } });
  const linkPayment: string | undefined = linkRead.payments?.[0]?.transactionId;
  const { data: linkOff } = await pixgate.POST('/v1/payment-links/{linkId}/deactivate', { params: { path: { linkId: link.linkId } } });
  const linkStatus: 'active' | 'inactive' | 'expired' | 'used' = linkOff.status;
  void [codeStatus, received, ofCode, linkPayment, linkStatus];
  // @ts-expect-error a payment link's path parameter is linkId
  await pixgate.GET('/v1/payment-links/{linkId}', { params: { path: { id: link.linkId } } });

  // @ts-expect-error a field the contract does not have (the server answers 400)
  await pixgate.POST('/v1/transactions/{id}/refunds', { params: { path: { id } }, body: { reason: 'x' } });
  // @ts-expect-error amountCents is an integer, not a string
  await pixgate.POST('/v1/transactions/{id}/refunds', { params: { path: { id } }, body: { amountCents: '400' } });
  // @ts-expect-error the transaction id is required
  await pixgate.POST('/v1/transactions/{id}/refunds', { body: {} });
  // @ts-expect-error a path the API does not have
  await pixgate.GET('/v1/refunds');
  return refund.amountCents;
}

export function receive(rawBody: Buffer | Uint8Array, headers: Record<string, string | string[] | undefined>, secret: string): string {
  try {
    const event = verifyWebhook(rawBody, headers, secret);
    if (event.event === 'transaction.partially_refunded') {
      const typed: WebhookEventOf<'transaction.partially_refunded'> = event;
      return \`\${typed.transactionId} \${typed.refundId ?? ''} \${typed.refundedCents ?? 0}\`;
    }
    const any: WebhookEvent | { event: 'webhook.test' } = event;
    return any.event;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return 'refused';
    if (error instanceof PixGateError) return String(error.status);
    throw error;
  }
}

export type Paths = keyof paths;
`;
