/**
 * Builds the provider a configuration names: the simulation (`PSP=simulated`, its own sandbox), or the API
 * Pix adapter in a provider profile (`PSP=efi`: API Pix + Efí's send API, balance and infractions;
 * `PSP=apipix`: the standard alone) through the mutual-TLS transport, with the fake's sandbox when the
 * provider is the fake and this is not production. Certificate files are read here, at start, so a
 * missing or unreadable one stops the start naming the variable.
 */
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { ConfigError, type Config, type EfiConfig } from '../platform/config.ts';
import type { Logger } from '../platform/logger.ts';
import type { Metrics } from '../platform/metrics.ts';
import { EfiTransport, type EfiTransportOptions } from './efi/efi.client.ts';
import { EfiProvider } from './efi/efi.provider.ts';
import { EfiSandbox } from './efi/efi.sandbox.ts';
import { providerProfile } from './efi/provider.profiles.ts';
import type { PixProvider } from './port.ts';
import type { ProviderSandbox } from './sandbox.ts';
import { SimulatedProvider } from './simulated.ts';
import { expectedBeneficiary } from '../withdrawals/withdrawal.review.ts';

export interface ProviderRuntime {
  provider: PixProvider;
  sandbox: ProviderSandbox | undefined;
  /** With PSP=efi: what the server process needs to start the callback listener and register it. */
  efi: { provider: EfiProvider; transport: EfiTransport; config: EfiConfig } | undefined;
  close(): Promise<void>;
}

function pem(variable: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([`${variable}=${JSON.stringify(file)} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`]);
  }
}

/** The PEM contents of the callback listener's files (read at start, as the client's). */
export function callbackListenerPems(config: EfiConfig): { cert: string; key: string; clientCa: string } {
  return {
    cert: pem('PSP_WEBHOOK_CERT', config.webhook.certFile),
    key: pem('PSP_WEBHOOK_KEY', config.webhook.keyFile),
    clientCa: pem('PSP_WEBHOOK_CLIENT_CA', config.webhook.clientCaFile),
  };
}

/** Where and how the transport reaches the provider, as the configuration's profile says (provider.profiles.ts). */
export function transportTarget(config: EfiConfig): Pick<EfiTransportOptions, 'baseUrl' | 'apiPixUrl' | 'tokenUrl' | 'tokenFormat' | 'scopes'> {
  const profile = providerProfile(config.kind);
  return { baseUrl: profile.hostUrl(config.baseUrl), apiPixUrl: profile.apiPixUrl(config.baseUrl), tokenUrl: config.tokenUrl, tokenFormat: config.tokenFormat, scopes: config.scopes };
}

export async function buildProvider(
  config: Config,
  deps: { db: Kysely<Database>; clock: Clock; logger: Logger; metrics: Metrics },
): Promise<ProviderRuntime> {
  if (config.psp.kind === 'simulated') {
    const simulated = new SimulatedProvider(deps.db, deps.clock, { settleAfterMs: config.simSettleAfterMs });
    return { provider: simulated, sandbox: simulated, efi: undefined, close: async () => undefined };
  }
  const efiConfig = config.psp;
  const profile = providerProfile(efiConfig.kind);
  callbackListenerPems(efiConfig);
  const transport = new EfiTransport(
    {
      ...transportTarget(efiConfig),
      clientId: efiConfig.clientId,
      clientSecret: efiConfig.clientSecret,
      cert: pem('PSP_CERT', efiConfig.certFile),
      key: pem('PSP_KEY', efiConfig.keyFile),
      ca: efiConfig.caFile === undefined ? undefined : pem('PSP_CA', efiConfig.caFile),
      timeoutMs: efiConfig.timeoutMs,
      attempts: efiConfig.attempts,
    },
    deps,
  );
  const provider = new EfiProvider(transport, { pixKey: efiConfig.pixKey, profile: profile.name, receiverAccount: efiConfig.receiverAccount }, deps);
  if (profile.capabilities.recurrences && !provider.capabilities.recurrences) {
    deps.logger.warn('PSP_RECEIVER_ACCOUNT is not set: Pix Automático is off (POST /v1/recurrences answers 503, nothing is sent)', { baseUrl: efiConfig.baseUrl });
  }
  if (!profile.capabilities.payouts) deps.logger.warn('the provider has no send API (PSP=apipix): POST /v1/withdraw answers 503, nothing is debited', { baseUrl: efiConfig.baseUrl });
  const fake = config.nodeEnv !== 'production' && (await EfiSandbox.detect(transport));
  if (fake) deps.logger.info('the provider is the fake (scripts/fakepsp): sandbox actions drive it', { baseUrl: efiConfig.baseUrl });
  return {
    provider,
    sandbox: fake ? new EfiSandbox(transport, deps.db, (transactionId) => expectedBeneficiary(deps, transactionId)) : undefined,
    efi: { provider, transport, config: efiConfig },
    close: () => transport.close(),
  };
}
