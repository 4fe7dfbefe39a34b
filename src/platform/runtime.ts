import { Authenticator } from '../accounts/auth.ts';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { connectDatabase, type DatabaseHandle } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Deps } from './deps.ts';
import { createLogger, type Logger } from './logger.ts';
import { Metrics } from './metrics.ts';
import { SimulatedProvider } from '../provider/simulated.ts';
import { createMailer } from '../mail/mailer.ts';
import { secretsKey } from './serverSecrets.ts';
import { sealPlainWebhookSecrets } from '../webhooks/endpoint.service.ts';

/** Connects, migrates and builds the dependencies shared by the server and the worker processes. */
export async function buildRuntime(
  config: Config,
  logger: Logger = createLogger({ level: config.logLevel }),
): Promise<{ deps: Deps; database: DatabaseHandle }> {
  const database = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    onIdleError: (error) => logger.error('idle database connection lost; the pool reconnects', { error: error.message }),
  });
  await migrateToLatest(database.db);
  const provider = new SimulatedProvider(database.db, systemClock, { settleAfterMs: config.simSettleAfterMs });
  const mailer = createMailer({
    db: database.db,
    clock: systemClock,
    logger,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxUrl: `${(config.dashboardUrl ?? `http://${config.host}:${config.port}/dashboard/`).replace(/\/?$/, '/')}#/caixa-de-saida`,
  });
  const metrics = new Metrics();
  metrics.observePool(() => database.poolStats());
  const deps: Deps = {
    db: database.db,
    dbKind: database.kind,
    clock: systemClock,
    provider,
    simulatedProvider: provider,
    authenticator: new Authenticator(database.db, systemClock, config.authCacheTtlMs, logger),
    config,
    logger,
    metrics,
    mailer,
    secretsKey: secretsKey(config),
  };
  await sealPlainWebhookSecrets(deps);
  return { deps, database };
}
