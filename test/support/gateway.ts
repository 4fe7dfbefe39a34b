import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import createClient, { type Client } from 'openapi-fetch';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { createTempDatabase } from '../../scripts/lib/postgres.ts';
import type { paths as AdminPaths } from '../../generated/admin-types.ts';
import type { paths } from '../../generated/api-types.ts';
import { Authenticator } from '../../src/accounts/auth.ts';
import { createAdminApp, createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { loadConfig, type Config } from '../../src/platform/config.ts';
import { connectDatabase, type DatabaseHandle } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import type { Deps } from '../../src/platform/deps.ts';
import type { Lifecycle } from '../../src/platform/lifecycle.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { Metrics } from '../../src/platform/metrics.ts';
import { SimulatedProvider } from '../../src/provider/simulated.ts';
import type { EfiTestProvider, SandboxedProvider } from './efiProvider.ts';
import { createMailer } from '../../src/mail/mailer.ts';
import { startPrismProxy } from '../../scripts/lib/prism-proxy.ts';
import { RELAXED_LIMITS } from './limits.ts';
import { pgliteTemplate } from './templates.ts';

/**
 * A real gateway in the test process on an ephemeral port, on PGlite (default) or, when
 * PIXGATE_TEST_DATABASE_URL is set (CI), on a fresh Postgres database created for it.
 * Tests talk to it over HTTP with the typed clients generated from the specs.
 *
 * A test file uses one gateway for all its tests through `useGateway()`; `startGateway()` is for the tests
 * that need a gateway of their own (a changed configuration, several gateways) and close it themselves.
 */

export const ADMIN_TOKEN = 'adm_test_token_0123456789abcdef';
const TEST_SECRETS_KEY = Buffer.alloc(32, 7);
/** The HMAC key of recipientIds in test gateways (RECIPIENT_ID_SECRET). */
export const TEST_RECIPIENT_ID_SECRET = 'test-recipient-id-secret-0123456789abcdef';

export interface Gateway {
  baseUrl: string;
  /** The internal listener (back office, console, /metrics), as ADMIN_PORT serves it. */
  adminBaseUrl: string;
  api: Client<paths>;
  admin: Client<AdminPaths>;
  clock: ManualClock;
  /** The provider's port and its sandbox: the simulation, or (PIXGATE_TEST_PSP=efi) the Efí adapter and the fake provider. */
  provider: SandboxedProvider;
  /** PIXGATE_TEST_PSP=efi: the fake provider and the adapter, for tests of the rails themselves. */
  efi: EfiTestProvider | undefined;
  deps: Deps;
  /** Errors logged by the server: a test asserting "no 500" checks this stays empty. */
  loggedErrors: string[];
  /** A typed client authenticated with the given API key. */
  as(apiKey: string): Client<paths>;
  close(): Promise<void>;
}

/** An empty database of its own for one test (in memory on PGlite, or a temporary database on PIXGATE_TEST_DATABASE_URL): the migration tests. */
export async function openDatabase(onStatement?: (sql: string) => void): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  const serverUrl = process.env.PIXGATE_TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await connectDatabase({ dataDir: 'memory://', onStatement });
    return { handle, drop: async () => undefined };
  }
  const database = await createTempDatabase('pixgate_test', serverUrl);
  const handle = await connectDatabase({ databaseUrl: database.url, poolSize: 20, onStatement });
  return { handle, drop: database.drop };
}

/**
 * A migrated database of its own for one gateway: a copy of the run's template (test/support/templates.ts,
 * made by vitest's global setup), or, when the run has no Postgres template, created empty and migrated here.
 */
export async function openMigratedDatabase(onStatement?: (sql: string) => void): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  const serverUrl = process.env.PIXGATE_TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await connectDatabase({ dataDir: 'memory://', onStatement, loadDataDir: await pgliteTemplate(inject('pgliteTemplate')) });
    return { handle, drop: async () => undefined };
  }
  const template = inject('postgresTemplate');
  const database = await createTempDatabase('pixgate_test', serverUrl, template);
  const handle = await connectDatabase({ databaseUrl: database.url, poolSize: 20, onStatement });
  if (template === undefined) await migrateToLatest(handle.db);
  return { handle, drop: database.drop };
}

export interface GatewayOptions {
  /** How long a key lookup is cached (default 5000 ms). */
  authCacheTtlMs?: number;
  /** Express `trust proxy` (default: unset, false). */
  trustProxy?: string;
  /** Time allowed for one webhook attempt (default 2000 ms). */
  webhookTimeoutMs?: number;
  /** Every log line the gateway writes (JSON), for tests of the logs; by default lines are kept quiet. */
  onLog?: (line: string) => void;
  lifecycle?: Lifecycle;
  /** Configuration values set over the test defaults (e.g. production's webhook URL rules, the token's roles). */
  config?: Partial<Config>;
  /** Every SQL statement the gateway's database handle sends (statement counts). */
  onStatement?: (sql: string) => void;
  /**
   * The provider: the simulation, or the API Pix adapter against the fake provider (default: PIXGATE_TEST_PSP,
   * else simulated). `efi`: the real rails in the profile the run names (PIXGATE_TEST_PSP=apipix, else Efí's);
   * `apipix`: the standard's profile whatever the run names.
   */
  psp?: 'simulated' | 'efi' | 'apipix';
}

export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const { handle, drop } = await openMigratedDatabase(options.onStatement);
  const clock = new ManualClock();
  // The real logger (pino, redaction), writing to memory: errors are collected, nothing is printed.
  const loggedErrors: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: {
      write: (line: string) => {
        options.onLog?.(line);
        if (/^\{"level":"(error|fatal)"/.test(line)) loggedErrors.push(line.trim());
      },
    },
  });
  const config = {
    // Passwords hashed at scrypt's N = 2^10, not 2^15: ~1 ms instead of ~95 ms of CPU, ~500 times a run (issue 33).
    ...loadConfig({ NODE_ENV: 'test', TRUST_PROXY: options.trustProxy, RECIPIENT_ID_SECRET: TEST_RECIPIENT_ID_SECRET, PASSWORD_HASH_LOG2N: '10' }),
    authCacheTtlMs: options.authCacheTtlMs ?? 5000,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 2000,
    ...options.config,
  };
  const metrics = new Metrics({ defaultMetrics: false });
  metrics.observePool(() => handle.poolStats());
  // PIXGATE_TEST_PSP=efi or apipix: the API Pix adapter against the fake provider (loaded only then).
  // `psp: 'efi'` asks for the real rails: in the profile the run names (PIXGATE_TEST_PSP=apipix), else Efí's.
  const rails = options.psp ?? (process.env.PIXGATE_TEST_PSP === 'efi' || process.env.PIXGATE_TEST_PSP === 'apipix' ? 'efi' : 'simulated');
  const efiProvider = rails === 'simulated' ? undefined : await import('./efiProvider.ts');
  const efi = await efiProvider?.startEfiTestProvider(handle.db, { clock, logger, metrics }, {}, rails === 'apipix' ? 'apipix' : efiProvider.railsProfile());
  const provider: SandboxedProvider = efi?.provider ?? new SimulatedProvider(handle.db, clock);
  const deps: Deps = {
    db: handle.db,
    dbKind: handle.kind,
    clock,
    provider,
    sandbox: provider,
    authenticator: new Authenticator(handle.db, clock, config.authCacheTtlMs),
    config,
    logger,
    metrics,
    mailer: createMailer({ db: handle.db, clock, logger, smtpUrl: undefined, from: 'PixGate <teste@pixgate.local>', outboxUrl: undefined }),
    secretsKey: TEST_SECRETS_KEY,
  };
  await efi?.listen(deps);
  // The merchant host and the service team's own listener, as `npm start` runs them.
  const listen = (app: ReturnType<typeof createApp>): Promise<Server> =>
    new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
  const server = await listen(createApp(deps, { lifecycle: options.lifecycle }));
  const adminServer = await listen(createAdminApp(deps, { operatorToken: ADMIN_TOKEN, lifecycle: options.lifecycle }));
  const directUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const adminBaseUrl = `http://127.0.0.1:${(adminServer.address() as AddressInfo).port}`;
  // `npm run test:proxy`: every merchant response goes through Prism's validating proxy
  // (scripts/lib/prism-proxy.ts), which bypasses what Prism cannot forward faithfully (admin paths, no
  // bearer, malformed bodies) so every test keeps its own expectations.
  const proxy = process.env.PIXGATE_TEST_VIA_PRISM === '1' ? await startPrismProxy(directUrl, { sharedPrismUrl: inject('sharedPrismUrl') }) : undefined;
  const baseUrl = proxy?.baseUrl ?? directUrl;
  const as = (apiKey: string) => createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
  return {
    baseUrl,
    adminBaseUrl,
    api: createClient<paths>({ baseUrl }),
    admin: createClient<AdminPaths>({ baseUrl: adminBaseUrl, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }),
    clock,
    provider,
    efi,
    deps,
    loggedErrors,
    as,
    close: async () => {
      const violations = proxy?.violations() ?? [];
      await proxy?.stop();
      for (const listening of [server, adminServer]) {
        listening.closeAllConnections();
        await new Promise<void>((resolve) => listening.close(() => resolve()));
      }
      await efi?.close();
      await handle.close();
      await drop();
      if (violations.length > 0) throw new Error(`responses that break the spec (Prism):\n${violations.join('\n')}`);
    },
  };
}

export interface UseGatewayOptions extends GatewayOptions {
  /**
   * After the tests, also expect the full ledger check to find no violation (before the check of logged
   * errors). On by default: every suite ends with the ledger green; a file that breaks it on purpose repairs
   * it, or turns this off saying why.
   */
  checkLedgerAtEnd?: boolean;
}

/**
 * One gateway for the tests of the calling file (or `describe` block): registers a `beforeAll` that starts
 * it and an `afterAll` that expects the server to have logged no error and the ledger to be consistent
 * (the full check), then closes it, also when one of those checks, a test or a `beforeAll` failed.
 *
 * Returns the gateway at once; it can be used from the hooks and tests of the file, not while the file is
 * being collected. Hooks the file registers after this call run after the start and before the checks
 * (vitest runs `afterAll` hooks in reverse order), so the file's own teardown comes first:
 *
 *   const gateway = useGateway({ webhookTimeoutMs: 300 });
 *   let merchant: MerchantFixture;
 *   beforeAll(async () => {
 *     merchant = await createMerchant(gateway);
 *   });
 */
/** The fake provider and the adapter of a gateway on the real rails (`useGateway({ psp: 'efi' })` or `'apipix'`). */
export function railsOf(gateway: Gateway): EfiTestProvider {
  if (!gateway.efi) throw new Error('the gateway runs on the simulated provider');
  return gateway.efi;
}

export function useGateway(options: UseGatewayOptions = {}): Gateway {
  const { checkLedgerAtEnd = true, ...gatewayOptions } = options;
  let started: Gateway | undefined;
  beforeAll(async () => {
    started = await startGateway(gatewayOptions);
  });
  afterAll(async () => {
    const gateway = started;
    if (!gateway) return;
    started = undefined;
    try {
      if (checkLedgerAtEnd) expect(await ledgerIsConsistent(gateway)).toEqual([]);
      // And the books agree with the provider's own records and balance (the reconciliation).
      if (checkLedgerAtEnd) expect(await (await import('./books.ts')).booksDisagreeWithProvider(gateway.deps)).toEqual([]);
      if (checkLedgerAtEnd && gateway.efi) {
        // The money at the provider is what the ledger says is there, plus the Pix left to an operator.
        const money = await gateway.efi.moneyDifference(gateway.deps.db);
        expect(money.ledgerCents + money.unmatchedCents).toBe(money.providerCents);
      }
      expect(gateway.loggedErrors).toEqual([]);
    } finally {
      await gateway.close();
    }
  });
  const current = (): Gateway => {
    if (!started) throw new Error('useGateway(): the gateway runs only from its beforeAll to its afterAll');
    return started;
  };
  return {
    get baseUrl() {
      return current().baseUrl;
    },
    get adminBaseUrl() {
      return current().adminBaseUrl;
    },
    get api() {
      return current().api;
    },
    get admin() {
      return current().admin;
    },
    get clock() {
      return current().clock;
    },
    get provider() {
      return current().provider;
    },
    get efi() {
      return current().efi;
    },
    get deps() {
      return current().deps;
    },
    get loggedErrors() {
      return current().loggedErrors;
    },
    as: (apiKey) => current().as(apiKey),
    close: () => Promise.reject(new Error('useGateway() closes the gateway itself, after the tests')),
  };
}

let documentCounter = 0;

/** A valid CPF that differs per call (check digits computed), for accounts and customers. */
export function makeCpf(seed = ++documentCounter): string {
  const base = String(100_000_000 + ((seed * 7919) % 899_999_999)).slice(0, 9).split('').map(Number);
  const digit = (digits: number[], weight: number) => {
    const rest = digits.reduce((sum, d, i) => sum + d * (weight - i), 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const d1 = digit(base, 10);
  const d2 = digit([...base, d1], 11);
  return [...base, d1, d2].join('');
}

let cnpjCounter = 0;

/** A valid CNPJ (branch 0001) that differs per call: sign-up opens one account per CNPJ (issue 22). */
export function makeCnpj(seed = ++cnpjCounter): string {
  const base = [...String(10_000_000 + ((seed * 104_729) % 89_999_999)).slice(0, 8), '0', '0', '0', '1'].map(Number);
  const digit = (digits: number[]) => {
    const weights = digits.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const rest = digits.reduce((sum, d, i) => sum + d * (weights[i] ?? 0), 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const d1 = digit(base);
  const d2 = digit([...base, d1]);
  return [...base, d1, d2].join('');
}

export interface MerchantFixture {
  accountId: string;
  apiKey: string;
  keyId: string;
  client: Client<paths>;
}

/** Creates an approved account with one API key through the back office. */
export async function createMerchant(gateway: Gateway, overrides: { legalName?: string } = {}): Promise<MerchantFixture> {
  const created = await gateway.admin.POST('/admin/v1/accounts', {
    body: {
      legalName: overrides.legalName ?? 'Loja Teste Ltda',
      responsibleCpf: '529.982.247-25',
      companyCnpj: '11.222.333/0001-81',
      email: 'financeiro@lojateste.com.br',
      kycStatus: 'approved',
    },
  });
  if (!created.data) throw new Error(`account creation failed: ${JSON.stringify(created.error)}`);
  const key = await gateway.admin.POST('/admin/v1/accounts/{accountId}/api-keys', {
    params: { path: { accountId: created.data.accountId } },
    body: { label: 'test' },
  });
  if (!key.data) throw new Error(`key creation failed: ${JSON.stringify(key.error)}`);
  return {
    accountId: created.data.accountId,
    apiKey: key.data.apiKey,
    keyId: key.data.keyId,
    client: gateway.as(key.data.apiKey),
  };
}

export const validCustomer = {
  name: 'Maria da Silva',
  email: 'maria@example.com',
  phone: '11987654321',
  document: { number: '529.982.247-25', type: 'cpf' },
} as const;

/** Raises an account's limits (RELAXED_LIMITS, then `extra`) so a test is not throttled by what it does not test. */
export async function relaxLimits(gateway: Gateway, accountId: string, extra: Record<string, unknown> = {}): Promise<void> {
  const result = await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', {
    params: { path: { accountId } },
    body: { ...RELAXED_LIMITS, ...extra } as never,
  });
  if (result.response.status !== 200) throw new Error(`relaxLimits failed: ${JSON.stringify(result.error)}`);
}

/** Credits an account through a real paid charge (charge fee set to 0 by relaxLimits). */
export async function fund(gateway: Gateway, merchant: MerchantFixture, amountCents: number): Promise<void> {
  const created = await merchant.client.POST('/v1/pix', { body: { amountCents, customer: validCustomer } });
  if (!created.data) throw new Error(`funding charge failed: ${JSON.stringify(created.error)}`);
  const paid = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', {
    params: { path: { transactionId: created.data.transactionId } },
  });
  if (paid.response.status !== 200) throw new Error(`funding payment failed: ${JSON.stringify(paid.error)}`);
}

export async function availableOf(merchant: MerchantFixture): Promise<number> {
  const { data } = await merchant.client.GET('/v1/balance');
  return data?.available ?? -1;
}

export async function ledgerIsConsistent(gateway: Gateway): Promise<string[]> {
  const { checkLedger } = await import('../../src/ledger/ledger.check.ts');
  return (await checkLedger(gateway.deps.db, { full: true })).map((violation) => violation.problem);
}

/** A merchant's JSON POST as sent on the wire (raw body, for bodies the typed client would refuse), with its answer. */
export async function postAsMerchant(
  gateway: Gateway,
  merchant: MerchantFixture,
  path: string,
  body: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${merchant.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
