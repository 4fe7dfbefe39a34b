import type { Kysely } from 'kysely';
import type { Authenticator } from '../accounts/auth.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database } from '../db/schema.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Metrics } from './metrics.ts';
import type { PixProvider } from '../provider/port.ts';
import type { ReplicaReads } from '../db/replica.ts';
import type { ProviderSandbox } from '../provider/sandbox.ts';

/** Everything a request handler may use, built once at start-up and passed down explicitly. */
export interface Deps {
  db: Kysely<Database>;
  dbKind: 'postgres' | 'pglite';
  clock: Clock;
  provider: PixProvider;
  /** Present when the provider can be told what to do (the simulation, or the fake provider): sandbox actions need it. */
  sandbox: ProviderSandbox | undefined;
  authenticator: Authenticator;
  config: Config;
  logger: Logger;
  mailer: Mailer;
  /** Seals secrets at rest (TOTP seeds, webhook secrets) and signs CSRF tokens (src/platform/serverSecrets.ts). */
  secretsKey: Buffer;
  /** This instance's Prometheus registry and instruments (one per gateway: tests run many in a process). */
  metrics: Metrics;
  /** The read replica (DATABASE_READ_URL), for the eventually consistent reads: see src/db/readRouting.ts. */
  replica?: ReplicaReads | undefined;
}
