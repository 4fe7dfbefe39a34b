import { resolve } from 'node:path';
import type { OperatorRole } from '../db/schema.ts';

/**
 * Configuration comes from environment variables only; each one is documented in the README.
 */
export interface Config {
  /** Postgres connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  /** PGlite data directory (used when databaseUrl is absent). */
  dataDir: string;
  /** Connections in the Postgres pool of one process. */
  databasePoolSize: number;
  port: number;
  host: string;
  /** The service team's own listener (back office, console, admin docs): never the merchant host. */
  adminPort: number;
  adminHost: string;
  /** 'production' turns response validation off (see the benchmark) and enforces webhook URL safety. */
  nodeEnv: string;
  /** Validate responses against the spec (default: on except in production). */
  validateResponses: boolean;
  /** Express `trust proxy` setting: which proxies' X-Forwarded-For to believe for the IP allowlist. */
  trustProxy: boolean | number | string;
  /** Bearer token of the back-office API; generated into the data directory when absent. */
  adminToken: string | undefined;
  /** The roles the automation token acts with (ADMIN_TOKEN_ROLES, comma-separated; default every role outside production, `support` in production). */
  adminTokenRoles: OperatorRole[];
  /** Create the demo account and print its API key at start-up when the database has no account. */
  seedDemo: boolean;
  /** How long an API key lookup (key + account status) may be served from cache. */
  authCacheTtlMs: number;
  /** The simulated PSP settles accepted withdrawals this long after acceptance (null: only on command). */
  simSettleAfterMs: number | null;
  /** Webhooks may go to http:// and private/loopback addresses (development and tests only). */
  webhookAllowPrivate: boolean;
  /** How long one webhook attempt may take before it counts as a timeout. */
  webhookTimeoutMs: number;
  /** Run the background jobs (expiry, reconciliation, webhook delivery, purge) in the server process. */
  runJobs: boolean;
  /** 64 hex characters: seals TOTP seeds and webhook secrets, signs CSRF tokens; generated into the data directory when absent. */
  secretsKey: string | undefined;
  /** SMTP server of the e-mails (`smtp://user:pass@host:587`); without it, outside production, e-mails go to the outbox page only. */
  smtpUrl: string | undefined;
  /** Sender of the e-mails. */
  mailFrom: string;
  /** Public address of the dashboard, for the links in e-mails (default: this server's own address). */
  dashboardUrl: string | undefined;
}

function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  const hops = Number(raw);
  return Number.isInteger(hops) && hops >= 0 ? hops : raw;
}

function parseBool(raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

function parsePort(raw: string | undefined, fallback: number, name = 'PORT'): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be 0..65535, got '${raw}'`);
  return port;
}

const ROLES: readonly OperatorRole[] = ['support', 'compliance', 'finance', 'admin'];

function parseRoles(raw: string | undefined, fallback: OperatorRole[]): OperatorRole[] {
  if (raw === undefined || raw.trim() === '') return fallback;
  const roles = raw.split(',').map((role) => role.trim()).filter((role) => role !== '');
  const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role));
  if (unknown.length > 0 || roles.length === 0) throw new Error(`ADMIN_TOKEN_ROLES must be a comma-separated list of ${ROLES.join(', ')}; got '${raw}'`);
  return roles as OperatorRole[];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const authCacheTtlMs = Number(env.AUTH_CACHE_TTL_MS ?? 5000);
  if (!Number.isFinite(authCacheTtlMs) || authCacheTtlMs < 0 || authCacheTtlMs > 30_000) {
    // The contract allows account checks to be cached up to 30 s; revocation must act within seconds.
    throw new Error('AUTH_CACHE_TTL_MS must be between 0 and 30000');
  }
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.PIXGATE_DATA_DIR ?? '.data/pglite'),
    databasePoolSize: Number(env.DATABASE_POOL_SIZE ?? 20),
    port: parsePort(env.PORT, 3000),
    host: env.HOST ?? '127.0.0.1',
    adminPort: parsePort(env.ADMIN_PORT, 3001, 'ADMIN_PORT'),
    adminHost: env.ADMIN_HOST ?? '127.0.0.1',
    nodeEnv,
    validateResponses: parseBool(env.VALIDATE_RESPONSES, nodeEnv !== 'production'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    adminToken: env.ADMIN_TOKEN || undefined,
    adminTokenRoles: parseRoles(env.ADMIN_TOKEN_ROLES, nodeEnv === 'production' ? ['support'] : ['support', 'compliance', 'finance', 'admin']),
    seedDemo: parseBool(env.SEED_DEMO, true),
    authCacheTtlMs,
    simSettleAfterMs: env.SIM_SETTLE_AFTER_MS === 'never' ? null : Number(env.SIM_SETTLE_AFTER_MS ?? 3000),
    webhookAllowPrivate: parseBool(env.WEBHOOK_ALLOW_PRIVATE, nodeEnv !== 'production'),
    webhookTimeoutMs: Number(env.WEBHOOK_TIMEOUT_MS ?? 10_000),
    runJobs: parseBool(env.RUN_JOBS, true),
    secretsKey: env.SECRETS_KEY || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'PixGate <nao-responda@pixgate.com.br>',
    dashboardUrl: env.DASHBOARD_URL || undefined,
  };
}
