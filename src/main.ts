import type { Server } from 'node:http';
import type { Express } from 'express';
import { createAccount, isEmptyInstallation, issueApiKey } from './accounts/account.service.ts';
import { createAdminApp, createApp } from './app.ts';
import { outboxLink } from './dashboard/outbox.service.ts';
import { outboxAvailable } from './dashboard/sandbox.service.ts';
import { startJobs } from './jobs/jobs.ts';
import { createOperator, hasOperators, renewExpiredTemporaryPassword } from './operators/operator.service.ts';
import { ConfigError, loadConfig, type Config } from './platform/config.ts';
import type { Deps } from './platform/deps.ts';
import { Lifecycle } from './platform/lifecycle.ts';
import { createLogger } from './platform/logger.ts';
import { buildRuntime, startProviderCallbacks } from './runtime.ts';
import { operatorToken, recipientIdSecret } from './platform/serverSecrets.ts';

/** On a fresh database: a demo account with approved KYC and one API key, printed once. */
async function seedDemoAccount(deps: Deps): Promise<string | undefined> {
  if (!(await isEmptyInstallation(deps))) return undefined;
  const now = new Date(deps.clock.now());
  const account = await createAccount(
    deps,
    {
      legalName: 'Loja Demo PixGate Ltda',
      responsibleCpf: '529.982.247-25',
      companyCnpj: '11.222.333/0001-81',
      email: 'financeiro@lojademo.com.br',
      kycStatus: 'approved',
    },
    now,
  );
  const key = await issueApiKey(deps, account, 'demo', now);
  return `Demo account ${account.id} created (KYC approved).\nIts API key, shown only this once:\n\n  ${key.secret}\n`;
}

/**
 * On an installation without operators, outside production: a first console operator (role admin) with a
 * temporary password, printed once (TOTP is enrolled at the first sign-in). In production the first
 * operator is created with the automation token (`npm run admin -- operators:create`).
 */
async function seedFirstOperator(deps: Deps): Promise<string | undefined> {
  if (deps.config.nodeEnv === 'production') return undefined;
  const after = 'Sign in to the console, enrol an authenticator app (TOTP is mandatory) and choose your own password; the temporary one stops working in 24 hours if unused.';
  if (await hasOperators(deps)) {
    // The first operator's temporary password expired unused: a new one, printed as the first was.
    const renewed = await renewExpiredTemporaryPassword(deps, FIRST_OPERATOR_EMAIL);
    if (!renewed) return undefined;
    return `First console operator ${renewed.operator.email}: its temporary password expired unused; the new one, shown only this once:\n\n  ${renewed.temporaryPassword}\n\n${after}`;
  }
  const { operator, temporaryPassword } = await createOperator(deps, { email: FIRST_OPERATOR_EMAIL, name: 'Operador PixGate', roles: ['admin'] });
  return `First console operator ${operator.email} (role admin), temporary password shown only this once:\n\n  ${temporaryPassword}\n\n${after}`;
}

const FIRST_OPERATOR_EMAIL = 'operador@pixgate.local';

function listen(app: Express, port: number, host: string): Promise<{ server: Server; url: string }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      resolve({ server, url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}` });
    });
  });
}

/**
 * Stops taking connections and resolves when the last one has ended. Keep-alive connections are closed as
 * soon as they are idle (checked every 250 ms), so a client that keeps its connection open does not hold
 * the process.
 */
function closed(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 250);
    server.close(() => {
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`PixGate cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  config = { ...config, recipientIdSecret: recipientIdSecret(config) };
  if (config.nodeEnv === 'production' && config.webhookAllowPrivate) {
    logger.warn('WEBHOOK_ALLOW_PRIVATE is on in production: webhooks may reach loopback addresses (private, link-local and metadata addresses stay refused)');
  }
  const { deps, database, providers } = await buildRuntime(config, logger);
  const seeded = config.seedDemo ? await seedDemoAccount(deps) : undefined;
  const seededOperator = config.seedDemo ? await seedFirstOperator(deps) : undefined;
  const admin = operatorToken(config);
  const lifecycle = new Lifecycle();
  const jobs = config.runJobs ? startJobs(deps) : undefined;

  const merchant = await listen(createApp(deps, { lifecycle }), config.port, config.host);
  const internal = await listen(createAdminApp(deps, { operatorToken: admin.value, lifecycle }), config.adminPort, config.adminHost);
  const callbacks = providers.efi ? await startProviderCallbacks(deps, providers.efi) : undefined;
  const where = database.kind === 'pglite' ? `embedded PGlite at ${config.dataDir}` : 'Postgres (DATABASE_URL)';
  console.log(`PixGate listening on ${merchant.url} (database: ${where})`);
  console.log(`Back office listening on ${internal.url} (back office, console, /metrics; never expose it to merchants)`);
  console.log(
    callbacks
      ? `Provider:    ${deps.provider.name} at ${providers.efi?.config.baseUrl}; its callbacks (mutual TLS) on ${callbacks.url}${deps.sandbox ? ' (the fake provider: sandbox actions drive it)' : ''}`
      : 'Provider:    simulated (the sandbox; PSP=efi for a real one, see docs/providers.md)',
  );
  if (seeded) console.log(`\n${seeded}`);
  if (seededOperator) console.log(`\n${seededOperator}`);
  console.log(`API docs:    ${merchant.url}/docs/`);
  console.log(`Dashboard:   ${merchant.url}/dashboard/`);
  if (outboxAvailable(deps)) console.log(`Mail outbox: ${outboxLink(deps)} (no SMTP_URL: e-mails stay here; the link opens every one of them, keep it to yourself)`);
  console.log(`Console:     ${internal.url}/console/ (operators)`);
  console.log(`Back office: ${internal.url}/admin/v1 (operator token ${admin.file ? `in ${admin.file}` : 'from ADMIN_TOKEN'}; reference ${internal.url}/docs/)`);
  console.log(`Health:      ${merchant.url}/health, ${merchant.url}/ready; metrics ${internal.url}/metrics`);
  if (seeded) {
    console.log(`\nTry it:\n  curl -s ${merchant.url}/v1/balance -H "Authorization: Bearer <the key above>"`);
  }
  logger.info('listening', { merchant: merchant.url, internal: internal.url, database: database.kind, jobs: config.runJobs });

  /**
   * SIGTERM/SIGINT: /ready answers 503 at once; the merchant listener stops taking connections and finishes
   * the requests in flight; jobs finish their current run. After SHUTDOWN_TIMEOUT_MS whatever is still in
   * flight is abandoned, which is safe by design: an open database transaction rolls back, a withdrawal
   * mid-send stays `initiating` and reconciliation asks the PSP about it after 30 s, a webhook attempt is
   * retried when its lease ends.
   */
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    lifecycle.startDraining();
    console.log(`${signal} received: finishing requests in flight, then stopping.`);
    logger.info('draining', { signal, shutdownTimeoutMs: config.shutdownTimeoutMs });
    const deadline = setTimeout(() => {
      logger.warn('shutdown deadline reached: abandoning requests and jobs in flight (reconciliation and webhook leases finish them)', {
        shutdownTimeoutMs: config.shutdownTimeoutMs,
      });
      merchant.server.closeAllConnections();
      internal.server.closeAllConnections();
      void Promise.race([database.close(), new Promise((resolve) => setTimeout(resolve, 1000))]).finally(() => process.exit(1));
    }, config.shutdownTimeoutMs);
    deadline.unref();
    await Promise.all([closed(merchant.server), jobs?.stop()]);
    // The internal listener stays up while draining, so probes and operators see /ready 503 and /metrics.
    await closed(internal.server);
    await callbacks?.close();
    await providers.close();
    clearTimeout(deadline);
    await database.close();
    logger.info('stopped', { signal });
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('PixGate failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
