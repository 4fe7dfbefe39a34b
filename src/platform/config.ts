import { resolve } from 'node:path';
import { cleanEnv, EnvMissingError, makeValidator, type Spec } from 'envalid';
import type { OperatorRole } from '../db/schema.ts';

/**
 * Configuration comes from environment variables only; each one is documented in the README's table.
 * Every variable is validated at start-up with envalid: a malformed value (`WEBHOOK_TIMEOUT_MS=10s`,
 * `RUN_JOBS=ture`, an unknown `NODE_ENV`) stops the process with a message naming the variable and the
 * form it expects, instead of silently becoming NaN, turning a job off or the SSRF guard off. An empty
 * value counts as unset (so `DATABASE_URL=` picks the embedded database, as before).
 */
export interface Config {
  /** Postgres connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  /** PGlite data directory (used when databaseUrl is absent). */
  dataDir: string;
  /** Connections in the Postgres pool of one process. */
  databasePoolSize: number;
  /** How long opening one Postgres connection may take before the query waiting for it fails. */
  databaseConnectTimeoutMs: number;
  /** At start-up, how long to keep trying to reach the database (and migrate) before giving up with a clear message. */
  databaseStartTimeoutMs: number;
  /** A streaming replica for the reads the contract lets be eventually consistent (absent: all reads on the primary). */
  databaseReadUrl: string | undefined;
  /** Connections in the replica's pool of one process. */
  databaseReadPoolSize: number;
  /** Above this replica lag the eventually consistent reads go to the primary. */
  databaseReadMaxLagMs: number;
  /** Named prepared statements (off behind a transaction-mode pooler that does not track them). */
  databasePreparedStatements: boolean;
  /** The merchant listener. */
  port: number;
  host: string;
  /** The service team's internal listener: back office, its docs, /metrics (never the merchant host). */
  adminPort: number;
  adminHost: string;
  /** 'production' turns response validation off, requires RECIPIENT_ID_SECRET and enforces webhook URL safety. */
  nodeEnv: NodeEnv;
  /** Validate responses against the spec (default: on except in production). */
  validateResponses: boolean;
  /** Express `trust proxy` setting: which proxies' X-Forwarded-For to believe for the IP allowlist. */
  trustProxy: boolean | number | string;
  /** Bearer token of the back-office API; generated into the data directory when absent. */
  adminToken: string | undefined;
  /** The roles the automation token acts with (ADMIN_TOKEN_ROLES, comma-separated; default every role outside production, `support` in production). */
  adminTokenRoles: OperatorRole[];
  /**
   * Key of the HMAC that derives recipientIds from documents. Required in production; elsewhere, when
   * unset, one is generated once into the data directory (see src/main.ts).
   */
  recipientIdSecret: string | undefined;
  /** Create the demo account and print its API key at start-up on an empty database (default: not in production). */
  seedDemo: boolean;
  /** scrypt's N for new password hashes, as log2 N (PASSWORD_HASH_LOG2N: 15 by default, at least 15 in production). */
  passwordHashLog2N: number;
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
  /**
   * 64 hex characters: seals TOTP seeds and webhook secrets, signs CSRF tokens. Required in production;
   * elsewhere generated into the data directory when absent.
   */
  secretsKey: string | undefined;
  /** SMTP server of the e-mails (`smtp://user:pass@host:587`). Required in production; elsewhere, without it, e-mails go to the outbox page. */
  smtpUrl: string | undefined;
  /** Sender of the e-mails. */
  mailFrom: string;
  /** Public address of the dashboard, for the links in e-mails (default: this server's own address). */
  dashboardUrl: string | undefined;
  /** pino level of the JSON logs. */
  logLevel: LogLevel;
  /** After SIGTERM, how long requests and jobs in flight may take before they are abandoned. */
  shutdownTimeoutMs: number;
  /** The payment provider: the simulation (sandbox, default outside production) or Efí (API Pix + send API). */
  psp: PspConfig;
}

/**
 * `PSP=efi` or `PSP=apipix` (the provider profiles, src/provider/efi/provider.profiles.ts): where the provider
 * is, the account's credentials and certificates, and the callback listener.
 */
export interface EfiConfig {
  kind: 'efi' | 'apipix';
  /**
   * `efi`: the host, API Pix paths under /v2, send paths under /v3/gn and /v2/gn. `apipix`: the provider's
   * API Pix base URL with its version (the standard's `https://pix.example.com/api/v2`).
   */
  baseUrl: string;
  tokenUrl: string;
  /** How the OAuth2 token request is sent: Efí's JSON body, or RFC 6749's form (most API Pix providers). */
  tokenFormat: 'json' | 'form';
  /** Scopes asked for in the token request (space-separated); undefined: none named, the provider's default. */
  scopes: string | undefined;
  clientId: string;
  clientSecret: string;
  /** PEM files of the client certificate and its key (mutual TLS), and of the provider server's CA. */
  certFile: string;
  keyFile: string;
  caFile: string | undefined;
  /** PixGate's own Pix key at the provider: receives charges, pays withdrawals. */
  pixKey: string;
  /**
   * PSP_RECEIVER_ACCOUNT: PixGate's account at the provider, the receiver of Pix Automático's charges (API Pix
   * `cobr.recebedor`, `DadosBancariosRecebedor`); undefined: recurrences are refused before anything is sent.
   */
  receiverAccount: ReceiverAccount | undefined;
  webhook: {
    host: string;
    port: number;
    certFile: string;
    keyFile: string;
    /** CA of the provider's client certificate: any other is refused at the handshake. */
    clientCaFile: string;
    /** Public address registered at start (`PUT /v2/webhook/{pixKey}`); the provider appends `/pix`. */
    url: string | undefined;
  };
  timeoutMs: number;
  attempts: number;
}

/** The receiver's account at the provider (`agencia/conta/tipoConta`; the branch may be empty). */
export interface ReceiverAccount {
  branch?: string | undefined;
  account: string;
  type: 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO';
}

/** `0001/1234567/CORRENTE` (the standard: `agencia` at most 4 characters and optional, `conta` 1-20). */
export function parseReceiverAccount(value: string): ReceiverAccount | undefined {
  const match = /^([^/]{0,4})\/([^/]{1,20})\/(CORRENTE|POUPANCA|PAGAMENTO)$/.exec(value.trim());
  if (!match) return undefined;
  const [, branch, account, type] = match as unknown as [string, string, string, ReceiverAccount['type']];
  return { ...(branch !== '' ? { branch } : {}), account, type };
}

export type PspConfig = { kind: 'simulated' } | EfiConfig;

export const PSP_KINDS = ['simulated', 'efi', 'apipix'] as const;
export const TOKEN_FORMATS = ['json', 'form'] as const;

export const NODE_ENVS = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A configuration that cannot start the gateway: every problem, one line per variable. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * scrypt's cost for new password hashes, as log2 N (src/identity/passwords.ts): 2^15 by default, and never
 * less in production. Tests set less (2^10) to keep hundreds of sign-ups cheap.
 */
export const PASSWORD_HASH_LOG2N_PRODUCTION = 15;

/** The minimum length of RECIPIENT_ID_SECRET: 32 characters (e.g. 64 hex digits = 256 bits). */
const SECRET_MIN_CHARS = 32;

const integer = (min: number, max: number) =>
  makeValidator<number>((input) => {
    if (!/^\d+$/.test(input.trim())) throw new Error('not an integer');
    const value = Number(input.trim());
    if (value < min || value > max) throw new Error('out of range');
    return value;
  });

/** Strict booleans: a typo such as `ture` is an error, never a silent false. */
const boolean = makeValidator<boolean>((input) => {
  const value = input.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new Error('not a boolean');
});

const text = makeValidator<string>((input) => input);

const choice = <T extends string>(choices: readonly T[]) =>
  makeValidator<T>((input) => {
    if (!(choices as readonly string[]).includes(input)) throw new Error('not one of the choices');
    return input as T;
  });

const postgresUrl = makeValidator<string>((input) => {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new Error('not a URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('not a postgres URL');
  return input;
});

const OPERATOR_ROLES: readonly OperatorRole[] = ['support', 'compliance', 'finance', 'admin'];

const roles = makeValidator<OperatorRole[]>((input) => {
  const listed = input.split(',').map((role) => role.trim()).filter((role) => role !== '');
  if (listed.length === 0 || listed.some((role) => !(OPERATOR_ROLES as readonly string[]).includes(role))) throw new Error('not a list of roles');
  return listed as OperatorRole[];
});

const hexKey = makeValidator<string>((input) => {
  if (!/^[0-9a-fA-F]{64}$/.test(input.trim())) throw new Error('not 64 hex digits');
  return input.trim().toLowerCase();
});

const smtpUrl = makeValidator<string>((input) => {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new Error('not a URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('not an smtp URL');
  return input;
});

const httpUrl = makeValidator<string>((input) => {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new Error('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not an http(s) URL');
  return input;
});

const secret = makeValidator<string>((input) => {
  if (input.trim().length < SECRET_MIN_CHARS) throw new Error('too short');
  return input.trim();
});

const trustProxy = makeValidator<boolean | number | string>((input) => {
  if (input === 'false') return false;
  if (input === 'true') return true;
  if (/^\d+$/.test(input)) return Number(input);
  // A comma-separated list of addresses, CIDR ranges or Express's names (loopback, linklocal, uniquelocal).
  if (/^[\w.:/,\s-]+$/.test(input)) return input;
  throw new Error('not a trust proxy setting');
});

// envalid refuses a null result, so `never` stays a word here and becomes null in loadConfig.
const simSettle = makeValidator<number | 'never'>((input) => {
  if (input === 'never') return 'never';
  if (/^\d+$/.test(input)) return Number(input);
  throw new Error('neither a number of milliseconds nor never');
});

/** Either adapter profile (efi, apipix): both need the provider's address, credentials and certificates. */
const efi = (env: { PSP?: string }) => env.PSP === 'efi' || env.PSP === 'apipix';
const apipix = (env: { PSP?: string }) => env.PSP === 'apipix';

/** What each variable expects, as the error message says it (`desc`) with an example. */
function specs() {
  return {
    NODE_ENV: choice(NODE_ENVS)({ default: 'development', desc: 'one of development, test, production', example: 'production' }),
    PORT: integer(0, 65535)({ default: 3000, desc: 'a TCP port 0..65535 (0: any free port)', example: '3000' }),
    HOST: text({ default: '127.0.0.1', desc: 'an address to listen on', example: '0.0.0.0' }),
    ADMIN_PORT: integer(0, 65535)({ default: 3001, desc: 'a TCP port 0..65535 (0: any free port)', example: '3001' }),
    ADMIN_HOST: text({ default: '127.0.0.1', desc: 'an address to listen on (keep it internal)', example: '127.0.0.1' }),
    DATABASE_URL: postgresUrl({ default: undefined, desc: 'a postgres:// connection string', example: 'postgres://user@db:5432/pixgate' }),
    PIXGATE_DATA_DIR: text({ default: '.data/pglite', desc: 'a directory path', example: '.data/pglite' }),
    DATABASE_POOL_SIZE: integer(1, 1000)({ default: 20, desc: 'an integer number of connections 1..1000', example: '20' }),
    DATABASE_CONNECT_TIMEOUT_MS: integer(100, 120_000)({ default: 5000, desc: 'an integer number of milliseconds 100..120000', example: '5000' }),
    DATABASE_START_TIMEOUT_MS: integer(0, 600_000)({ default: 30_000, desc: 'an integer number of milliseconds 0..600000', example: '30000' }),
    DATABASE_READ_URL: postgresUrl({ default: undefined, desc: 'a postgres:// connection string', example: 'postgres://user@db-replica:5432/pixgate' }),
    DATABASE_READ_POOL_SIZE: integer(1, 1000)({ default: 10, desc: 'an integer number of connections 1..1000', example: '10' }),
    DATABASE_READ_MAX_LAG_MS: integer(0, 600_000)({ default: 2000, desc: 'an integer number of milliseconds 0..600000', example: '2000' }),
    DATABASE_PREPARED_STATEMENTS: boolean({ default: true, desc: 'true or false', example: 'false' }),
    VALIDATE_RESPONSES: boolean({ default: undefined, desc: 'true or false', example: 'false' }),
    TRUST_PROXY: trustProxy({ default: false, desc: 'false, true, a number of hops, or a list of addresses/CIDR ranges', example: '1' }),
    ADMIN_TOKEN: text({ default: undefined, desc: 'the back-office operator token', example: 'adm_…' }),
    ADMIN_TOKEN_ROLES: roles({ default: undefined, desc: `a comma-separated list of ${OPERATOR_ROLES.join(', ')}`, example: 'support,finance' }),
    SECRETS_KEY: hexKey({
      default: undefined,
      desc: '64 hex digits (required in production)',
      example: 'the output of `openssl rand -hex 32`',
      requiredWhen: (env: { NODE_ENV?: string }) => env.NODE_ENV === 'production',
    }),
    SMTP_URL: smtpUrl({
      default: undefined,
      desc: 'an smtp:// or smtps:// URL (required in production)',
      example: 'smtps://user:pass@smtp.example.com:465',
      requiredWhen: (env: { NODE_ENV?: string }) => env.NODE_ENV === 'production',
    }),
    MAIL_FROM: text({ default: 'PixGate <nao-responda@pixgate.com.br>', desc: 'a sender address', example: 'PixGate <nao-responda@pixgate.com.br>' }),
    DASHBOARD_URL: httpUrl({ default: undefined, desc: 'the public http(s) address of the dashboard', example: 'https://painel.pixgate.com.br/dashboard/' }),
    RECIPIENT_ID_SECRET: secret({
      default: undefined,
      desc: `a random secret of at least ${SECRET_MIN_CHARS} characters (required in production)`,
      example: '64 hex digits from `openssl rand -hex 32`',
      requiredWhen: (env: { NODE_ENV?: string }) => env.NODE_ENV === 'production',
    }),
    SEED_DEMO: boolean({ default: undefined, desc: 'true or false', example: 'false' }),
    PASSWORD_HASH_LOG2N: integer(10, 20)({
      default: PASSWORD_HASH_LOG2N_PRODUCTION,
      desc: `an integer 10..20, scrypt's N as a power of two for new password hashes (at least ${PASSWORD_HASH_LOG2N_PRODUCTION} in production)`,
      example: String(PASSWORD_HASH_LOG2N_PRODUCTION),
    }),
    AUTH_CACHE_TTL_MS: integer(0, 30_000)({
      default: 5000,
      desc: 'an integer number of milliseconds 0..30000 (the contract caches account checks at most 30 s)',
      example: '5000',
    }),
    SIM_SETTLE_AFTER_MS: simSettle({ default: 3000, desc: 'an integer number of milliseconds, or never', example: '3000' }),
    RUN_JOBS: boolean({ default: true, desc: 'true or false', example: 'false' }),
    WEBHOOK_ALLOW_PRIVATE: boolean({ default: undefined, desc: 'true or false', example: 'false' }),
    WEBHOOK_TIMEOUT_MS: integer(1, 120_000)({ default: 10_000, desc: 'an integer number of milliseconds 1..120000', example: '10000' }),
    LOG_LEVEL: choice(LOG_LEVELS)({ default: 'info', desc: `one of ${LOG_LEVELS.join(', ')}`, example: 'info' }),
    SHUTDOWN_TIMEOUT_MS: integer(0, 600_000)({ default: 25_000, desc: 'an integer number of milliseconds 0..600000', example: '25000' }),
    PSP: choice(PSP_KINDS)({
      default: undefined,
      desc: 'simulated, efi or apipix (required in production: the simulation is never chosen by default there)',
      example: 'efi',
      requiredWhen: (env: { NODE_ENV?: string }) => env.NODE_ENV === 'production',
    }),
    PSP_BASE_URL: httpUrl({
      default: undefined,
      desc: 'the provider\'s https base URL (required with PSP=efi or apipix; with apipix it ends with the API\'s version, as https://pix.example.com/api/v2)',
      example: 'https://pix-h.api.efipay.com.br',
      requiredWhen: efi,
    }),
    PSP_TOKEN_URL: httpUrl({
      default: undefined,
      desc: 'the OAuth2 token URL (required with PSP=apipix; with efi the default is PSP_BASE_URL + /oauth/token)',
      example: 'https://pix-h.api.efipay.com.br/oauth/token',
      requiredWhen: apipix,
    }),
    PSP_TOKEN_FORMAT: choice(TOKEN_FORMATS)({ default: undefined, desc: 'json or form: how the token request is sent (default: json with efi, form with apipix)', example: 'form' }),
    PSP_SCOPES: text({ default: undefined, desc: 'the OAuth2 scopes to ask for, space-separated (default: none named)', example: 'cob.write cob.read pix.read pix.write webhook.write webhook.read' }),
    PSP_CLIENT_ID: text({ default: undefined, desc: 'the OAuth2 client id (required with PSP=efi)', example: 'Client_Id_…', requiredWhen: efi }),
    PSP_CLIENT_SECRET: text({ default: undefined, desc: 'the OAuth2 client secret (required with PSP=efi)', example: 'Client_Secret_…', requiredWhen: efi }),
    PSP_CERT: text({ default: undefined, desc: 'a PEM file of the client certificate (required with PSP=efi)', example: '/etc/pixgate/efi-cert.pem', requiredWhen: efi }),
    PSP_KEY: text({ default: undefined, desc: 'a PEM file of the client certificate\'s key (required with PSP=efi)', example: '/etc/pixgate/efi-key.pem', requiredWhen: efi }),
    PSP_CA: text({ default: undefined, desc: 'a PEM file of the CA of the provider\'s server certificate (default: the system CAs)', example: '/etc/pixgate/efi-ca.pem' }),
    PSP_PIX_KEY: text({ default: undefined, desc: 'PixGate\'s own Pix key at the provider (required with PSP=efi)', example: 'pagamentos@pixgate.com.br', requiredWhen: efi }),
    PSP_RECEIVER_ACCOUNT: text({
      default: undefined,
      desc: 'agencia/conta/tipoConta (tipoConta CORRENTE, POUPANCA or PAGAMENTO; agencia may be empty): PixGate\'s account at the provider, the receiver of Pix Automático\'s charges (without it recurrences are refused)',
      example: '0001/1234567/CORRENTE',
    }),
    PSP_WEBHOOK_HOST: text({ default: '0.0.0.0', desc: 'an address for the provider callback listener', example: '0.0.0.0' }),
    PSP_WEBHOOK_PORT: integer(0, 65535)({ default: 3443, desc: 'a TCP port 0..65535 of the provider callback listener', example: '3443' }),
    PSP_WEBHOOK_CERT: text({ default: undefined, desc: 'a PEM file of the callback listener\'s certificate (required with PSP=efi)', example: '/etc/pixgate/webhook-cert.pem', requiredWhen: efi }),
    PSP_WEBHOOK_KEY: text({ default: undefined, desc: 'a PEM file of the callback listener\'s key (required with PSP=efi)', example: '/etc/pixgate/webhook-key.pem', requiredWhen: efi }),
    PSP_WEBHOOK_CLIENT_CA: text({ default: undefined, desc: 'a PEM file of the CA of the provider\'s client certificate (required with PSP=efi)', example: '/etc/pixgate/efi-webhook-chain.crt', requiredWhen: efi }),
    PSP_WEBHOOK_URL: httpUrl({ default: undefined, desc: 'the public https address of the callback listener (default: its own address)', example: 'https://pix-callbacks.pixgate.com.br/efi' }),
    PSP_TIMEOUT_MS: integer(100, 120_000)({ default: 10_000, desc: 'an integer number of milliseconds 100..120000', example: '10000' }),
    PSP_ATTEMPTS: integer(1, 10)({ default: 3, desc: 'an integer 1..10 (attempts of a repeatable provider call)', example: '3' }),
  } satisfies Record<string, Spec<unknown>>;
}

/** The variables this module reads (the README's table). */
export const CONFIG_VARIABLES = Object.keys(specs());

function problemOf(name: string, raw: string | undefined, error: Error, spec: Spec<unknown>): string {
  const expected = `expected ${spec.desc ?? 'a valid value'}${spec.example ? ` (e.g. ${spec.example})` : ''}`;
  if (error instanceof EnvMissingError || raw === undefined) return `${name} is required: ${expected}`;
  // Secrets are never echoed back, not even in an error.
  const hidden = name.endsWith('_SECRET') || name === 'PSP_CLIENT_ID' || name.endsWith('_TOKEN') || name.endsWith('_KEY') || name === 'DATABASE_URL' || name === 'DATABASE_READ_URL' || name === 'SMTP_URL';
  const shown = hidden ? '(value hidden)' : JSON.stringify(raw);
  return `${name}=${shown} is invalid: ${expected}`;
}

/** Validates the environment; throws ConfigError naming every malformed or missing variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const all = specs();
  const present: Record<string, string> = {};
  for (const name of Object.keys(all)) {
    const value = env[name];
    if (value !== undefined && value !== '') present[name] = value;
  }
  const clean = cleanEnv(present, all, {
    reporter: ({ errors }) => {
      const problems = Object.entries(errors).map(([name, error]) =>
        problemOf(name, present[name], error as Error, all[name as keyof typeof all] as Spec<unknown>),
      );
      if (problems.length > 0) throw new ConfigError(problems);
    },
  });
  const production = clean.NODE_ENV === 'production';
  if (production && clean.PASSWORD_HASH_LOG2N < PASSWORD_HASH_LOG2N_PRODUCTION) {
    throw new ConfigError([`PASSWORD_HASH_LOG2N=${JSON.stringify(String(clean.PASSWORD_HASH_LOG2N))} is invalid: expected at least ${PASSWORD_HASH_LOG2N_PRODUCTION} in production (a cheaper hash is for tests only)`]);
  }
  if (clean.DATABASE_READ_URL !== undefined && clean.DATABASE_URL === undefined) {
    throw new ConfigError(['DATABASE_READ_URL=(value hidden) is invalid: a replica of the DATABASE_URL database, which is not set (the embedded database has no replica)']);
  }
  return {
    databaseUrl: clean.DATABASE_URL,
    dataDir: resolve(clean.PIXGATE_DATA_DIR),
    databasePoolSize: clean.DATABASE_POOL_SIZE,
    databaseConnectTimeoutMs: clean.DATABASE_CONNECT_TIMEOUT_MS,
    databaseStartTimeoutMs: clean.DATABASE_START_TIMEOUT_MS,
    databaseReadUrl: clean.DATABASE_READ_URL,
    databaseReadPoolSize: clean.DATABASE_READ_POOL_SIZE,
    databaseReadMaxLagMs: clean.DATABASE_READ_MAX_LAG_MS,
    databasePreparedStatements: clean.DATABASE_PREPARED_STATEMENTS,
    port: clean.PORT,
    host: clean.HOST,
    adminPort: clean.ADMIN_PORT,
    adminHost: clean.ADMIN_HOST,
    nodeEnv: clean.NODE_ENV,
    validateResponses: clean.VALIDATE_RESPONSES ?? !production,
    trustProxy: clean.TRUST_PROXY,
    adminToken: clean.ADMIN_TOKEN,
    adminTokenRoles: clean.ADMIN_TOKEN_ROLES ?? (production ? ['support'] : [...OPERATOR_ROLES]),
    recipientIdSecret: clean.RECIPIENT_ID_SECRET,
    // No demo account with a live API key in production unless explicitly asked (SEED_DEMO=true).
    seedDemo: clean.SEED_DEMO ?? !production,
    passwordHashLog2N: clean.PASSWORD_HASH_LOG2N,
    authCacheTtlMs: clean.AUTH_CACHE_TTL_MS,
    simSettleAfterMs: clean.SIM_SETTLE_AFTER_MS === 'never' ? null : clean.SIM_SETTLE_AFTER_MS,
    webhookAllowPrivate: clean.WEBHOOK_ALLOW_PRIVATE ?? !production,
    webhookTimeoutMs: clean.WEBHOOK_TIMEOUT_MS,
    runJobs: clean.RUN_JOBS,
    secretsKey: clean.SECRETS_KEY,
    smtpUrl: clean.SMTP_URL,
    mailFrom: clean.MAIL_FROM,
    dashboardUrl: clean.DASHBOARD_URL,
    logLevel: clean.LOG_LEVEL,
    shutdownTimeoutMs: clean.SHUTDOWN_TIMEOUT_MS,
    psp: pspConfig(clean),
  };
}

function receiverAccountOf(value: string | undefined): ReceiverAccount | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const account = parseReceiverAccount(value);
  if (!account) {
    throw new ConfigError([`PSP_RECEIVER_ACCOUNT=${JSON.stringify(value)} is invalid: expected agencia/conta/tipoConta, agencia at most 4 characters (may be empty), conta 1-20, tipoConta CORRENTE, POUPANCA or PAGAMENTO (e.g. 0001/1234567/CORRENTE)`]);
  }
  return account;
}

function pspConfig(clean: ReturnType<typeof cleanEnv<ReturnType<typeof specs>>>): PspConfig {
  const kind = clean.PSP;
  if (kind !== 'efi' && kind !== 'apipix') return { kind: 'simulated' };
  // envalid's requiredWhen guarantees these with PSP=efi or apipix; the checks only narrow the types.
  const required = (name: string, value: string | undefined): string => {
    if (value === undefined) throw new ConfigError([`${name} is required with PSP=${kind}`]);
    return value;
  };
  const baseUrl = required('PSP_BASE_URL', clean.PSP_BASE_URL).replace(/\/$/, '');
  return {
    kind,
    baseUrl,
    tokenUrl: kind === 'apipix' ? required('PSP_TOKEN_URL', clean.PSP_TOKEN_URL) : (clean.PSP_TOKEN_URL ?? `${baseUrl}/oauth/token`),
    tokenFormat: clean.PSP_TOKEN_FORMAT ?? (kind === 'apipix' ? 'form' : 'json'),
    scopes: clean.PSP_SCOPES?.trim() || undefined,
    clientId: required('PSP_CLIENT_ID', clean.PSP_CLIENT_ID),
    clientSecret: required('PSP_CLIENT_SECRET', clean.PSP_CLIENT_SECRET),
    certFile: resolve(required('PSP_CERT', clean.PSP_CERT)),
    keyFile: resolve(required('PSP_KEY', clean.PSP_KEY)),
    caFile: clean.PSP_CA === undefined ? undefined : resolve(clean.PSP_CA),
    pixKey: required('PSP_PIX_KEY', clean.PSP_PIX_KEY),
    receiverAccount: receiverAccountOf(clean.PSP_RECEIVER_ACCOUNT),
    webhook: {
      host: clean.PSP_WEBHOOK_HOST,
      port: clean.PSP_WEBHOOK_PORT,
      certFile: resolve(required('PSP_WEBHOOK_CERT', clean.PSP_WEBHOOK_CERT)),
      keyFile: resolve(required('PSP_WEBHOOK_KEY', clean.PSP_WEBHOOK_KEY)),
      clientCaFile: resolve(required('PSP_WEBHOOK_CLIENT_CA', clean.PSP_WEBHOOK_CLIENT_CA)),
      url: clean.PSP_WEBHOOK_URL,
    },
    timeoutMs: clean.PSP_TIMEOUT_MS,
    attempts: clean.PSP_ATTEMPTS,
  };
}
