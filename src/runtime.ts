/**
 * The wiring, at the top of the layers (issue 34): connects and migrates the database, builds the provider
 * and every dependency the server and the worker share, and on PSP=efi starts the provider's callback
 * listener. Only the entry points (src/main.ts, src/worker.ts) import it; nothing below knows which provider
 * runs (eslint.config.js).
 */
import { Authenticator } from './accounts/auth.ts';
import { systemClock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import { connectDatabase, type DatabaseHandle } from './db/connect.ts';
import { startReplicaReads, type ReplicaReads } from './db/replica.ts';
import { migrateToLatest } from './db/migrate.ts';
import { describeDatabase, whileDatabaseStarts } from './db/startup.ts';
import type { Deps } from './platform/deps.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { Metrics } from './platform/metrics.ts';
import { buildProvider, callbackListenerPems, type ProviderRuntime } from './provider/factory.ts';
import { startCallbackListener, type CallbackListener } from './provider/efi/efi.callbacks.ts';
import { applyCallback } from './jobs/providerFacts.ts';
import { createMailer } from './mail/mailer.ts';
import { secretsKey } from './platform/serverSecrets.ts';
import { sealPlainWebhookSecrets } from './webhooks/endpoint.service.ts';

/** The read replica of DATABASE_READ_URL, its lag measured every second into /metrics (none without it). */
function withReplica(
  config: Config,
  primary: DatabaseHandle,
  metrics: Metrics,
  onConnectionLost: (error: Error, state: 'idle' | 'in use') => void,
): ReplicaReads | undefined {
  if (config.databaseReadUrl === undefined || primary.kind !== 'postgres') return undefined;
  return startReplicaReads({
    replicaUrl: config.databaseReadUrl,
    primary: primary.db,
    poolSize: config.databaseReadPoolSize,
    maxLagMs: config.databaseReadMaxLagMs,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    preparedStatements: config.databasePreparedStatements,
    onConnectionLost,
    onMeasured: (state) => metrics.replicaLag.set(state.lagSeconds ?? -1),
  });
}

/** Connects, migrates and builds the dependencies shared by the server and the worker processes. */
export async function buildRuntime(
  config: Config,
  logger: Logger = createLogger({ level: config.logLevel }),
  options: { replica?: boolean } = {},
): Promise<{ deps: Deps; database: DatabaseHandle; providers: ProviderRuntime }> {
  const metrics = new Metrics();
  const onConnectionLost = (error: Error, state: 'idle' | 'in use') => {
    metrics.databaseConnectionsLost.inc({ state });
    logger.warn('database connection lost; discarded, the next query opens a new one', {
      state,
      code: (error as { code?: unknown }).code,
      error: error.message,
    });
  };
  const primary = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    preparedStatements: config.databasePreparedStatements,
    onConnectionLost,
  });
  // The jobs read and write the primary only: a worker has no use for the replica.
  const replica = options.replica === false ? undefined : withReplica(config, primary, metrics, onConnectionLost);
  // One handle to close: the replica's pool and monitor with the primary's.
  const database: DatabaseHandle = replica === undefined ? primary : { ...primary, close: () => replica.close().finally(() => primary.close()) };
  const target = describeDatabase(config.databaseUrl);
  const startup = {
    target,
    timeoutMs: config.databaseStartTimeoutMs,
    onRetry: (error: unknown, attempt: number, pauseMs: number) =>
      logger.warn('database not reachable at start-up; trying again', {
        database: target,
        attempt,
        pauseMs,
        error: error instanceof Error ? error.message : String(error),
      }),
  };
  try {
    await whileDatabaseStarts(() => migrateToLatest(database.db), startup);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  let providers: ProviderRuntime;
  try {
    providers = await buildProvider(config, { db: database.db, clock: systemClock, logger, metrics });
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  const mailer = createMailer({
    db: database.db,
    clock: systemClock,
    logger,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxUrl: `${(config.dashboardUrl ?? `http://${config.host}:${config.port}/dashboard/`).replace(/\/?$/, '/')}#/caixa-de-saida`,
  });
  metrics.observePool(() => database.poolStats());
  const deps: Deps = {
    db: database.db,
    dbKind: database.kind,
    clock: systemClock,
    provider: providers.provider,
    sandbox: providers.sandbox,
    authenticator: new Authenticator(database.db, systemClock, config.authCacheTtlMs, logger),
    config,
    logger,
    metrics,
    mailer,
    secretsKey: secretsKey(config),
    replica,
  };
  await whileDatabaseStarts(() => sealPlainWebhookSecrets(deps), startup);
  return { deps, database, providers };
}

/**
 * PSP=efi, in the server process: the mutual-TLS callback listener, then the registration of its public
 * address at the provider (which probes it and appends `/pix`). Callbacks are applied one body at a time.
 */
export async function startProviderCallbacks(deps: Deps, efi: NonNullable<ProviderRuntime['efi']>): Promise<CallbackListener> {
  const { config } = efi;
  const publicUrl = config.webhook.url;
  const listener = await startCallbackListener(
    { host: config.webhook.host, port: config.webhook.port, ...callbackListenerPems(config) },
    deps,
    (body) => applyCallback(deps, body),
  );
  try {
    await efi.provider.registerWebhook(publicUrl ?? listener.url);
  } catch (error) {
    await listener.close();
    throw error;
  }
  deps.logger.info('provider callbacks registered', { webhookUrl: publicUrl ?? listener.url, pixKey: config.pixKey });
  return listener;
}
