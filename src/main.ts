import type { Server } from 'node:http';
import { createAccount, isEmptyInstallation, issueApiKey } from './accounts/account.service.ts';
import { createApp } from './app.ts';
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

async function main(): Promise<void> {
  const config = loadConfig();
  const { deps, database } = await buildRuntime(config);
  const seeded = config.seedDemo ? await seedDemoAccount(deps) : undefined;
  const admin = operatorToken(config);
  const app = createApp(deps, { operatorToken: admin.value });
  const jobs = config.runJobs ? startJobs(deps) : undefined;

  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening));
    listening.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = `http://${config.host}:${port}`;
  const where = database.kind === 'pglite' ? `embedded PGlite at ${config.dataDir}` : 'Postgres (DATABASE_URL)';
  console.log(`PixGate listening on ${base} (database: ${where})`);
  if (seeded) console.log(`\n${seeded}`);
  console.log(`API docs:    ${base}/docs/`);
  console.log(`Back office: ${base}/admin/v1 (operator token ${admin.file ? `in ${admin.file}` : 'from ADMIN_TOKEN'})`);
  if (seeded) {
    console.log(`\nTry it:\n  curl -s ${base}/v1/balance -H "Authorization: Bearer <the key above>"`);
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing requests in flight, then stopping.`);
    server.closeIdleConnections();
    await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), jobs?.stop()]);
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
