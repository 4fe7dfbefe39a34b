import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/platform/config.ts';

/**
 * Issue 12, point 10: configuration is validated at start (envalid). A malformed value stops the start
 * with a message naming the variable and the form it expects, instead of becoming NaN, turning the jobs
 * off or the SSRF guard off.
 */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it.each([
    ['WEBHOOK_TIMEOUT_MS', '10s', /^WEBHOOK_TIMEOUT_MS="10s" is invalid: expected an integer number of milliseconds/],
    ['DATABASE_POOL_SIZE', 'twenty', /^DATABASE_POOL_SIZE="twenty" is invalid: expected an integer number of connections/],
    ['RUN_JOBS', 'ture', /^RUN_JOBS="ture" is invalid: expected true or false/],
    ['NODE_ENV', 'prod', /^NODE_ENV="prod" is invalid: expected one of development, test, production/],
    ['PORT', '70000', /^PORT="70000" is invalid: expected a TCP port 0\.\.65535/],
    ['ADMIN_PORT', 'http', /^ADMIN_PORT="http" is invalid: expected a TCP port/],
    ['AUTH_CACHE_TTL_MS', '60000', /^AUTH_CACHE_TTL_MS="60000" is invalid: expected an integer number of milliseconds 0\.\.30000/],
    ['SIM_SETTLE_AFTER_MS', 'soon', /^SIM_SETTLE_AFTER_MS="soon" is invalid: expected an integer number of milliseconds, or never/],
    ['WEBHOOK_ALLOW_PRIVATE', 'maybe', /^WEBHOOK_ALLOW_PRIVATE="maybe" is invalid: expected true or false/],
    ['SEED_DEMO', 'yes please', /^SEED_DEMO="yes please" is invalid/],
    ['VALIDATE_RESPONSES', '2', /^VALIDATE_RESPONSES="2" is invalid/],
    ['LOG_LEVEL', 'verbose', /^LOG_LEVEL="verbose" is invalid: expected one of fatal, error, warn, info, debug, trace, silent/],
    ['SHUTDOWN_TIMEOUT_MS', '-1', /^SHUTDOWN_TIMEOUT_MS="-1" is invalid/],
    ['TRUST_PROXY', 'yes; rm -rf', /^TRUST_PROXY="yes; rm -rf" is invalid/],
  ])('%s=%s stops the start naming the variable and the expected form', (name, value, message) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('reports every malformed variable at once', () => {
    expect(problemsOf({ WEBHOOK_TIMEOUT_MS: '10s', RUN_JOBS: 'ture' }).map((p) => p.split('=')[0])).toEqual(['RUN_JOBS', 'WEBHOOK_TIMEOUT_MS']);
  });

  it('never echoes a secret or a connection string', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db/x', RECIPIENT_ID_SECRET: 'short-hunter2' });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(problems.join('\n')).toMatch(/DATABASE_URL=\(value hidden\) is invalid: expected a postgres:\/\/ connection string/);
  });

  it('takes a read replica only beside a Postgres primary, and never echoes its URL', () => {
    const replica = 'postgres://reader:hunter2@replica:5432/pixgate';
    expect(problemsOf({ DATABASE_READ_URL: replica })).toEqual([
      'DATABASE_READ_URL=(value hidden) is invalid: a replica of the DATABASE_URL database, which is not set (the embedded database has no replica)',
    ]);
    expect(problemsOf({ DATABASE_URL: 'postgres://db/pixgate', DATABASE_READ_URL: 'mysql://reader:hunter2@replica/x' }).join('\n')).not.toContain('hunter2');
    const config = loadConfig({ DATABASE_URL: 'postgres://db/pixgate', DATABASE_READ_URL: replica, DATABASE_PREPARED_STATEMENTS: 'false' });
    expect(config).toMatchObject({ databaseReadUrl: replica, databaseReadPoolSize: 10, databaseReadMaxLagMs: 2000, databasePreparedStatements: false });
  });

  /** What production needs set: the recipientId key, the key of sealed secrets, an SMTP server. */
  const PRODUCTION = { NODE_ENV: 'production', RECIPIENT_ID_SECRET: 'a'.repeat(64), SECRETS_KEY: 'b'.repeat(64), SMTP_URL: 'smtps://u:p@smtp.example.com:465', PSP: 'simulated' };

  it('production requires RECIPIENT_ID_SECRET, SECRETS_KEY, SMTP_URL and a provider chosen on purpose', () => {
    expect(problemsOf({ NODE_ENV: 'production' }).sort()).toEqual([
      expect.stringMatching(/^PSP is required: expected simulated, efi or apipix/),
      expect.stringMatching(/^RECIPIENT_ID_SECRET is required: expected a random secret of at least 32 characters/),
      expect.stringMatching(/^SECRETS_KEY is required: expected 64 hex digits/),
      expect.stringMatching(/^SMTP_URL is required: expected an smtp:\/\/ or smtps:\/\/ URL/),
    ]);
    expect(problemsOf(PRODUCTION)).toEqual([]);
  });

  it('checks the dashboard and console variables, hiding keys and SMTP credentials', () => {
    const problems = problemsOf({ SECRETS_KEY: 'hunter2', SMTP_URL: 'http://user:hunter2@mail', ADMIN_TOKEN_ROLES: 'support,root', DASHBOARD_URL: 'ftp://x' }).sort();
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(problems).toEqual([
      expect.stringMatching(/^ADMIN_TOKEN_ROLES="support,root" is invalid: expected a comma-separated list of support, compliance, finance, admin/),
      expect.stringMatching(/^DASHBOARD_URL="ftp:\/\/x" is invalid/),
      expect.stringMatching(/^SECRETS_KEY=\(value hidden\) is invalid: expected 64 hex digits/),
      expect.stringMatching(/^SMTP_URL=\(value hidden\) is invalid/),
    ]);
    expect(loadConfig({ ADMIN_TOKEN_ROLES: 'finance, support' }).adminTokenRoles).toEqual(['finance', 'support']);
    expect(loadConfig({}).adminTokenRoles).toEqual(['support', 'compliance', 'finance', 'admin']);
    expect(loadConfig(PRODUCTION).adminTokenRoles).toEqual(['support']);
  });

  it('production defaults: no demo seed, no response validation, webhooks to public HTTPS only', () => {
    const config = loadConfig(PRODUCTION);
    expect(config).toMatchObject({ seedDemo: false, validateResponses: false, webhookAllowPrivate: false, nodeEnv: 'production' });
    expect(loadConfig({ ...PRODUCTION, SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  it('defaults outside production, and empty values count as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '', RUN_JOBS: '' })).toMatchObject({
      databaseUrl: undefined,
      port: 3000,
      adminPort: 3001,
      adminHost: '127.0.0.1',
      host: '127.0.0.1',
      runJobs: true,
      seedDemo: true,
      webhookAllowPrivate: true,
      webhookTimeoutMs: 10_000,
      logLevel: 'info',
      shutdownTimeoutMs: 25_000,
      nodeEnv: 'development',
    });
    expect(loadConfig({ PORT: '0', ADMIN_PORT: '0', RUN_JOBS: 'FALSE', SIM_SETTLE_AFTER_MS: 'never', TRUST_PROXY: '1' })).toMatchObject({
      port: 0,
      adminPort: 0,
      runJobs: false,
      simSettleAfterMs: null,
      trustProxy: 1,
    });
  });

  it('PSP=efi needs its credentials, certificates, key and callback listener, named one by one; secrets never echoed', () => {
    const problems = problemsOf({ PSP: 'efi', PSP_CLIENT_SECRET: 'hunter2-secret', PSP_BASE_URL: 'ftp://efi' }).sort();
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(problems).toEqual([
      expect.stringMatching(/^PSP_BASE_URL="ftp:\/\/efi" is invalid/),
      expect.stringMatching(/^PSP_CERT is required/),
      expect.stringMatching(/^PSP_CLIENT_ID is required/),
      expect.stringMatching(/^PSP_KEY is required/),
      expect.stringMatching(/^PSP_PIX_KEY is required/),
      expect.stringMatching(/^PSP_WEBHOOK_CERT is required/),
      expect.stringMatching(/^PSP_WEBHOOK_CLIENT_CA is required/),
      expect.stringMatching(/^PSP_WEBHOOK_KEY is required/),
    ]);
    const account = {
      PSP_CLIENT_ID: 'id',
      PSP_CLIENT_SECRET: 'secret',
      PSP_CERT: 'c.pem',
      PSP_KEY: 'k.pem',
      PSP_PIX_KEY: 'pix@pixgate.com.br',
      PSP_WEBHOOK_CERT: 'w.pem',
      PSP_WEBHOOK_KEY: 'wk.pem',
      PSP_WEBHOOK_CLIENT_CA: 'ca.pem',
    };
    const efi = loadConfig({ PSP: 'efi', PSP_BASE_URL: 'https://pix-h.api.efipay.com.br/', ...account });
    expect(efi.psp).toMatchObject({ kind: 'efi', baseUrl: 'https://pix-h.api.efipay.com.br', tokenUrl: 'https://pix-h.api.efipay.com.br/oauth/token', tokenFormat: 'json', scopes: undefined, attempts: 3 });
    expect(loadConfig({}).psp).toEqual({ kind: 'simulated' });

    // PSP=apipix (issue 35): the same variables, the token URL required (no guess), the form token by default.
    const standard = { PSP: 'apipix', PSP_BASE_URL: 'https://pix.example.com/api/v2/', ...account };
    expect(() => loadConfig(standard)).toThrow(/PSP_TOKEN_URL is required/);
    expect(loadConfig({ ...standard, PSP_TOKEN_URL: 'https://oauth.example.com/token', PSP_SCOPES: ' cob.write cob.read ' }).psp).toMatchObject({
      kind: 'apipix',
      baseUrl: 'https://pix.example.com/api/v2',
      tokenUrl: 'https://oauth.example.com/token',
      tokenFormat: 'form',
      scopes: 'cob.write cob.read',
    });
    expect(loadConfig({ ...standard, PSP_TOKEN_URL: 'https://oauth.example.com/token', PSP_TOKEN_FORMAT: 'json' }).psp).toMatchObject({ tokenFormat: 'json' });
    expect(() => loadConfig({ ...standard, PSP_TOKEN_URL: 'https://oauth.example.com/token', PSP_TOKEN_FORMAT: 'xml' })).toThrow(/PSP_TOKEN_FORMAT/);
  });

  it('knows every variable of the README configuration table', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('##', readme.indexOf('## Configuration') + 5));
    const documented = [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!);
    const serverOnly = documented.filter((name) => name !== 'PIXGATE_ADMIN_URL');
    expect(serverOnly.sort()).toEqual([...CONFIG_VARIABLES].sort());
  });
});
