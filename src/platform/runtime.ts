import { Authenticator } from '../accounts/auth.ts';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { connectDatabase, type DatabaseHandle } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Deps } from './deps.ts';
import { consoleLogger } from './logger.ts';
import { SimulatedProvider } from '../provider/simulated.ts';
import { createMailer } from '../mail/mailer.ts';
import { secretsKey } from './serverSecrets.ts';
import { sealPlainWebhookSecrets } from '../webhooks/endpoint.service.ts';

/** Connects, migrates and builds the dependencies shared by the server and the worker processes. */
export async function buildRuntime(config: Config): Promise<{ deps: Deps; database: DatabaseHandle }> {
  const database = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  await migrateToLatest(database.db);
  const provider = new SimulatedProvider(database.db, systemClock, { settleAfterMs: config.simSettleAfterMs });
  const mailer = createMailer({
    db: database.db,
    clock: systemClock,
    logger: consoleLogger,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxUrl: `http://${config.host}:${config.port}/dashboard/dev/outbox`,
  });
  const deps: Deps = {
    db: database.db,
    dbKind: database.kind,
    clock: systemClock,
    provider,
    simulatedProvider: provider,
    authenticator: new Authenticator(database.db, systemClock, config.authCacheTtlMs, consoleLogger),
    config,
    logger: consoleLogger,
    mailer,
    secretsKey: secretsKey(config),
  };
  await sealPlainWebhookSecrets(deps);
  return { deps, database };
}
