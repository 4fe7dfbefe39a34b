/**
 * The fake provider as a process of its own, for a gateway started separately:
 *   node scripts/fakepsp/main.ts [--profile efi|standard]
 * `--profile efi` (default) plays Efí (the gateway's `PSP=efi`); `--profile standard` plays the Central Bank's
 * API Pix alone, under `/api/v2`, with an RFC 6749 form token request (the gateway's `PSP=apipix`).
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
import { parseArgs } from 'node:util';
import { FAKE_PSP_PROFILES, RECEBEDOR_CONTA, generateCertificates, readCertificates, startFakePsp, writeCertificates, type FakePsp, type FakePspProfile } from './index.ts';

function integer(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return value;
}

function profileArgument(): FakePspProfile {
  const { values } = parseArgs({ options: { profile: { type: 'string', default: 'efi' } } });
  const profile = values.profile as FakePspProfile;
  if (!FAKE_PSP_PROFILES.includes(profile)) throw new Error(`--profile is one of ${FAKE_PSP_PROFILES.join(', ')}, got ${JSON.stringify(values.profile)}`);
  return profile;
}

/** How the gateway reaches this provider: Efí's host, or the standard's base URL with its token URL apart. */
function providerSettings(fake: FakePsp): string[] {
  if (fake.profile === 'efi') return ['PSP=efi', `PSP_BASE_URL=${fake.apiBaseUrl}`];
  return ['PSP=apipix', `PSP_BASE_URL=${fake.apiBaseUrl}`, `PSP_TOKEN_URL=${fake.url}/oauth/token`, 'PSP_TOKEN_FORMAT=form'];
}

async function main(): Promise<void> {
  const profile = profileArgument();
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
    profile,
    ...(plainPort === undefined ? {} : { plainPort }),
  });
  const env = [
    ...providerSettings(fake),
    `PSP_CLIENT_ID=${clientId}`,
    `PSP_CLIENT_SECRET=${clientSecret}`,
    `PSP_CERT=${files.gatewayClientCert}`,
    `PSP_KEY=${files.gatewayClientKey}`,
    `PSP_CA=${files.ca}`,
    `PSP_PIX_KEY=${pixKey}`,
    // The fake's own account: the only `cobr.recebedor` it takes (Pix Automático).
    `PSP_RECEIVER_ACCOUNT=${RECEBEDOR_CONTA.agencia}/${RECEBEDOR_CONTA.conta}/${RECEBEDOR_CONTA.tipoConta}`,
    `PSP_WEBHOOK_CERT=${files.webhookServerCert}`,
    `PSP_WEBHOOK_KEY=${files.webhookServerKey}`,
    `PSP_WEBHOOK_CLIENT_CA=${files.webhookClientCa}`,
  ];
  const envFile = join(dir, 'pixgate.env');
  await writeFile(envFile, `${env.join('\n')}\n`, { mode: 0o600 });
  console.log(`fake PSP (${fake.profile} profile) listening on ${fake.url}, API Pix at ${fake.apiBaseUrl}${fake.plainUrl ? ` (plain HTTP, API only: ${fake.plainApiBaseUrl})` : ''}`);
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
