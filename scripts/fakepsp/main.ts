/**
 * The fake provider as a process of its own, for a gateway started separately (`PSP=efi`):
 *   node scripts/fakepsp/main.ts
 * Settings (environment): FAKEPSP_HOST (127.0.0.1), FAKEPSP_PORT (8443), FAKEPSP_PLAIN_PORT (unset: no plain
 * HTTP), FAKEPSP_CLIENT_ID / FAKEPSP_CLIENT_SECRET (development values by default), FAKEPSP_PIX_KEY,
 * FAKEPSP_AUTO_SETTLE_MS (unset: sends and refunds wait for the control API), FAKEPSP_PIX_SEM_TXID (true:
 * call back for Pix without txid), FAKEPSP_DIR (.data/fakepsp).
 *
 * The certificates live in FAKEPSP_DIR and are reused across restarts (the gateway's PEM paths stay valid);
 * the gateway's PSP_* settings are written next to them as `pixgate.env` (mode 0600: it holds the client
 * secret). State is in memory: a restart starts with no charges and a zero balance.
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generateCertificates, readCertificates, startFakePsp, writeCertificates } from './index.ts';

function integer(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return value;
}

async function main(): Promise<void> {
  const dir = resolve(process.env.FAKEPSP_DIR ?? '.data/fakepsp');
  const clientId = process.env.FAKEPSP_CLIENT_ID ?? 'Client_Id_fakepsp_dev';
  const clientSecret = process.env.FAKEPSP_CLIENT_SECRET ?? 'Client_Secret_fakepsp_dev';
  const pixKey = process.env.FAKEPSP_PIX_KEY ?? 'pagamentos@pixgate.dev';
  const certificates = (await readCertificates(dir)) ?? (await generateCertificates());
  const files = await writeCertificates(certificates, dir);
  const plainPort = integer('FAKEPSP_PLAIN_PORT', undefined);
  const fake = await startFakePsp({
    host: process.env.FAKEPSP_HOST ?? '127.0.0.1',
    port: integer('FAKEPSP_PORT', 8443),
    clientId,
    clientSecret,
    pixKey,
    certificates,
    autoSettleMs: integer('FAKEPSP_AUTO_SETTLE_MS', undefined) ?? null,
    pixSemTxid: process.env.FAKEPSP_PIX_SEM_TXID === 'true',
    ...(plainPort === undefined ? {} : { plainPort }),
  });
  const env = [
    'PSP=efi',
    `PSP_BASE_URL=${fake.url}`,
    `PSP_CLIENT_ID=${clientId}`,
    `PSP_CLIENT_SECRET=${clientSecret}`,
    `PSP_CERT=${files.gatewayClientCert}`,
    `PSP_KEY=${files.gatewayClientKey}`,
    `PSP_CA=${files.ca}`,
    `PSP_PIX_KEY=${pixKey}`,
    `PSP_WEBHOOK_CERT=${files.webhookServerCert}`,
    `PSP_WEBHOOK_KEY=${files.webhookServerKey}`,
    `PSP_WEBHOOK_CLIENT_CA=${files.webhookClientCa}`,
  ];
  const envFile = join(dir, 'pixgate.env');
  await writeFile(envFile, `${env.join('\n')}\n`, { mode: 0o600 });
  console.log(`fake PSP listening on ${fake.url}${fake.plainUrl ? ` (plain HTTP, API only: ${fake.plainUrl})` : ''}`);
  console.log(`certificates in ${dir}; the gateway's PSP_* settings in ${envFile}`);
  const stop = (): void => {
    void fake.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
