/**
 * `PIXGATE_TEST_PSP=efi` or `apipix`: the test gateway's provider is the API Pix adapter in that profile
 * (src/provider/efi/provider.profiles.ts), talking over real mutual TLS to the fake provider
 * (scripts/fakepsp) in the matching profile (`efi`, or `standard`: the Central Bank's API Pix alone),
 * started in the test process on the test's manual clock, with the callback listener registered at it.
 * `provider` answers both the port's calls and the sandbox's (what a test asks of `gateway.provider` on the
 * simulated provider), so the same suites run on either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { inject } from 'vitest';
import { RECEBEDOR_CONTA, startFakePsp, type FakePsp } from '../../scripts/fakepsp/index.ts';
import { openUnmatchedCents } from '../../src/charges/receivedPix.repository.ts';
import type { Database } from '../../src/db/schema.ts';
import { pspSettlementCents } from '../../src/ledger/ledger.repository.ts';
import { startProviderCallbacks } from '../../src/runtime.ts';
import type { Clock } from '../../src/platform/clock.ts';
import type { EfiConfig } from '../../src/platform/config.ts';
import type { Deps } from '../../src/platform/deps.ts';
import type { Logger } from '../../src/platform/logger.ts';
import type { Metrics } from '../../src/platform/metrics.ts';
import { EfiTransport, type EfiTransportOptions } from '../../src/provider/efi/efi.client.ts';
import type { CallbackListener } from '../../src/provider/efi/efi.callbacks.ts';
import { EfiProvider } from '../../src/provider/efi/efi.provider.ts';
import { EfiSandbox } from '../../src/provider/efi/efi.sandbox.ts';
import { transportTarget } from '../../src/provider/factory.ts';
import { providerProfile, type ProfileName } from '../../src/provider/efi/provider.profiles.ts';
import { expectedBeneficiary } from '../../src/withdrawals/withdrawal.review.ts';
import type { PixProvider } from '../../src/provider/port.ts';
import type { ProviderSandbox } from '../../src/provider/sandbox.ts';

export const TEST_PIX_KEY = 'pagamentos@pixgate.test';
const CLIENT_ID = 'Client_Id_pixgate_test';
const CLIENT_SECRET = 'Client_Secret_pixgate_test_0123456789';

export type SandboxedProvider = PixProvider & ProviderSandbox;

export function usesEfi(): boolean {
  return process.env.PIXGATE_TEST_PSP === 'efi' || process.env.PIXGATE_TEST_PSP === 'apipix';
}

/** The rails' profile a run names: `apipix` with PIXGATE_TEST_PSP=apipix, else `efi`. */
export function railsProfile(): ProfileName {
  return process.env.PIXGATE_TEST_PSP === 'apipix' ? 'apipix' : 'efi';
}

/** One object answering the port's and the sandbox's methods, each bound to its own implementation. */
export function sandboxed(port: PixProvider, sandbox: ProviderSandbox): SandboxedProvider {
  const bound = (target: object) => {
    const prototype = Object.getPrototypeOf(target) as object;
    return Object.fromEntries(
      Object.getOwnPropertyNames(prototype)
        .filter((name) => name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(prototype, name)?.value === 'function')
        .map((name) => [name, ((target as Record<string, unknown>)[name] as (...args: unknown[]) => unknown).bind(target)]),
    );
  };
  return { ...bound(sandbox), ...bound(port), name: port.name, ispb: port.ispb, receivingKey: port.receivingKey, capabilities: port.capabilities, kind: sandbox.kind } as SandboxedProvider;
}

export interface EfiTestProvider {
  fake: FakePsp;
  transport: EfiTransport;
  adapter: EfiProvider;
  sandbox: EfiSandbox;
  provider: SandboxedProvider;
  config: EfiConfig;
  /** Starts the callback listener (needs the gateway's deps) and registers it at the fake. */
  listen(deps: Deps): Promise<CallbackListener>;
  /** The callback listener's address (after listen). */
  readonly listenerUrl: string;
  /** Every callback the fake queued delivered, and every body received applied. */
  settled(): Promise<void>;
  /** Delivered callbacks applied, then: what the fake holds minus what the ledger says is there (0 when they agree). */
  moneyDifference(db: Kysely<Database>): Promise<{ ledgerCents: number; unmatchedCents: number; providerCents: number }>;
  close(): Promise<void>;
}

export async function startEfiTestProvider(
  db: Kysely<Database>,
  deps: { clock: Clock; logger: Logger; metrics: Metrics },
  transportOptions: Partial<EfiTransportOptions> = {},
  profileName: ProfileName = railsProfile(),
): Promise<EfiTestProvider> {
  const profile = providerProfile(profileName);
  // The run's certificates, made once by vitest's global setup (test/support/globalSetup.ts); made here when absent.
  const certificates = inject('fakePspCertificates');
  const fake = await startFakePsp({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    pixKey: TEST_PIX_KEY,
    clock: deps.clock,
    callbackRetryMs: [20, 50, 100, 200],
    profile: profile.name === 'apipix' ? 'standard' : 'efi',
    ...(certificates ? { certificates } : {}),
  });
  const dir = mkdtempSync(join(tmpdir(), 'pixgate-efi-'));
  const files = await fake.writeCertificates(dir);
  const config: EfiConfig = {
    kind: profile.name,
    baseUrl: fake.apiBaseUrl,
    tokenUrl: `${fake.url}/oauth/token`,
    tokenFormat: profile.tokenFormat,
    scopes: undefined,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    certFile: files.gatewayClientCert,
    keyFile: files.gatewayClientKey,
    caFile: files.ca,
    pixKey: TEST_PIX_KEY,
    // The fake's own account: the only `cobr.recebedor` it takes (PSP_RECEIVER_ACCOUNT).
    receiverAccount: { branch: RECEBEDOR_CONTA.agencia, account: RECEBEDOR_CONTA.conta, type: RECEBEDOR_CONTA.tipoConta },
    webhook: { host: '127.0.0.1', port: 0, certFile: files.webhookServerCert, keyFile: files.webhookServerKey, clientCaFile: files.webhookClientCa, url: undefined },
    timeoutMs: 2_000,
    attempts: 3,
  };
  const transport = new EfiTransport(
    {
      ...transportTarget(config),
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      cert: fake.certificates.gatewayClientCert,
      key: fake.certificates.gatewayClientKey,
      ca: fake.certificates.ca,
      timeoutMs: config.timeoutMs,
      attempts: config.attempts,
      retryBaseMs: 10,
      // The suites script many failures on purpose: the breaker is tested on its own (test/provider).
      breakerThreshold: 1_000_000,
      ...transportOptions,
    },
    deps,
  );
  const adapter = new EfiProvider(transport, { pixKey: TEST_PIX_KEY, profile: profile.name, receiverAccount: config.receiverAccount }, deps);
  const sandbox = new EfiSandbox(transport, db, (transactionId) => expectedBeneficiary({ db }, transactionId));
  let listener: CallbackListener | undefined;
  return {
    fake,
    transport,
    adapter,
    sandbox,
    provider: {
      ...sandboxed(adapter, sandbox),
      // In the test process the fake is at hand: a scripted outcome takes effect at once, as the simulation's.
      queueOutcome: (operation, outcome, count) => {
        for (const rule of sandbox.faultsFor(operation, outcome, count)) fake.fault(rule);
      },
      clearOutcomes: () => fake.clearFaults(),
    },
    config,
    listen: async (gatewayDeps) => {
      listener = await startProviderCallbacks(gatewayDeps, { provider: adapter, transport, config });
      return listener;
    },
    get listenerUrl() {
      if (!listener) throw new Error('the callback listener is not started');
      return listener.url;
    },
    settled: async () => {
      await fake.flushCallbacks();
      await listener?.idle();
    },
    moneyDifference: async (database) => {
      await fake.flushCallbacks();
      await listener?.idle();
      return { ledgerCents: -(await pspSettlementCents(database)), unmatchedCents: await openUnmatchedCents(database), providerCents: fake.balanceCents() };
    },
    close: async () => {
      await listener?.close();
      await transport.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
