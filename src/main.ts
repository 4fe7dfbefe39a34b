import type { Server } from 'node:http';
import { createAccount, isEmptyInstallation, issueApiKey } from './accounts/account.service.ts';
import type { Express } from 'express';
import { createAdminApp, createApp } from './app.ts';
import { createOperator, hasOperators } from './operators/operator.service.ts';
import { startJobs } from './jobs/jobs.ts';
import { buildRuntime } from './platform/runtime.ts';
import { loadConfig } from './platform/config.ts';
import { operatorToken } from './platform/serverSecrets.ts';
import type { Deps } from './platform/deps.ts';

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
  if (deps.config.nodeEnv === 'production' || (await hasOperators(deps))) return undefined;
  const { operator, temporaryPassword } = await createOperator(deps, { email: 'operador@pixgate.local', name: 'Operador PixGate', roles: ['admin'] });
  return `First console operator ${operator.email} (role admin), temporary password shown only this once:\n\n  ${temporaryPassword}\n\nSign in to the console and enrol an authenticator app (TOTP is mandatory).`;
}

function listen(app: Express, port: number, host: string): Promise<{ server: Server; url: string }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, () => {
      const address = server.address();
      resolve({ server, url: `http://${host}:${typeof address === 'object' && address ? address.port : port}` });
    });
    server.once('error', reject);
  });
}

async function main(): Promise<void> {
  const config = loadConfig();
  const { deps, database } = await buildRuntime(config);
  const seeded = config.seedDemo ? await seedDemoAccount(deps) : undefined;
  const seededOperator = config.seedDemo ? await seedFirstOperator(deps) : undefined;
  const admin = operatorToken(config);
  const jobs = config.runJobs ? startJobs(deps) : undefined;

  const merchant = await listen(createApp(deps), config.port, config.host);
  const backoffice = await listen(createAdminApp(deps, { operatorToken: admin.value }), config.adminPort, config.adminHost);
  const servers = [merchant.server, backoffice.server];
  const where = database.kind === 'pglite' ? `embedded PGlite at ${config.dataDir}` : 'Postgres (DATABASE_URL)';
  console.log(`PixGate listening on ${merchant.url} (database: ${where})`);
  console.log(`Back office listening on ${backoffice.url}`);
  if (seeded) console.log(`\n${seeded}`);
  if (seededOperator) console.log(`\n${seededOperator}`);
  console.log(`API docs:    ${merchant.url}/docs/`);
  console.log(`Dashboard:   ${merchant.url}/dashboard/`);
  console.log(`Console:     ${backoffice.url}/console/ (operators)`);
  console.log(`Back office: ${backoffice.url}/admin/v1 (operator token ${admin.file ? `in ${admin.file}` : 'from ADMIN_TOKEN'})`);
  if (seeded) {
    console.log(`\nTry it:\n  curl -s ${merchant.url}/v1/balance -H "Authorization: Bearer <the key above>"`);
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing requests in flight, then stopping.`);
    for (const server of servers) server.closeIdleConnections();
    await Promise.all([...servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))), jobs?.stop()]);
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('PixGate failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
