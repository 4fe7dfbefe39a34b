import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { dashboardBrowser, lastMailLink, totpNow } from '../support/dashboardClient.ts';
import {
  authOf,
  DASHBOARD_PASSWORD,
  databaseState,
  enrolTotp,
  nextTotp,
  rawCall,
  signUpOwner,
  type DashboardPerson,
} from '../support/dashboardAccounts.ts';
import { startGateway, useGateway, validCustomer, type Gateway } from '../support/gateway.ts';

/**
 * The dashboard's security points over HTTP: sessions that expire and end, sign-in lockout, secrets shown
 * once and never again (not in later answers, not in the log, not in the database in clear), withdrawals
 * that need a current TOTP code and then go through POST /v1/withdraw's service, and production's rules.
 */

const logLines: string[] = [];
const gateway = useGateway({ onLog: (line) => logLines.push(line) });
const api = (path: string) => `/dashboard/api/v1${path}`;

/** Every secret the tests saw, checked against the log at the end. */
const secretsSeen = new Set<string>();

afterAll(() => {
  const log = logLines.join('\n');
  expect(logLines.length).toBeGreaterThan(0);
  for (const secret of secretsSeen) expect(log, 'a secret is in the log').not.toContain(secret);
});

async function answersOf(person: DashboardPerson): Promise<string> {
  const reads = ['/session', '/overview', '/users', '/api-keys', '/webhooks', '/webhook-deliveries', '/transactions', '/recipients'];
  const bodies: string[] = [];
  for (const path of reads) {
    const answer = await rawCall(gateway, { method: 'GET', path: api(path) }, authOf(person));
    expect(answer.status, path).toBe(200);
    bodies.push(JSON.stringify(answer.body));
  }
  return bodies.join('\n');
}

async function allRows(): Promise<string> {
  return JSON.stringify(await databaseState(gateway));
}

describe('dashboard sessions', () => {
  it('expire after 30 idle minutes (401) and keep nothing a late request asked for', async () => {
    const owner = await signUpOwner(gateway);
    gateway.clock.advance(29 * 60_000);
    expect((await rawCall(gateway, { method: 'GET', path: api('/session') }, authOf(owner))).status).toBe(200);
    gateway.clock.advance(30 * 60_000 + 1);
    const before = await databaseState(gateway);
    const expired = { status: 401, body: { error: messages.sessionRequired } };
    expect(await rawCall(gateway, { method: 'GET', path: api('/overview') }, authOf(owner))).toEqual(expired);
    expect(await rawCall(gateway, { method: 'POST', path: api('/api-keys'), body: { label: 'tarde demais' } }, authOf(owner))).toEqual(expired);
    expect(await rawCall(gateway, { method: 'POST', path: api('/webhooks'), body: { url: 'https://exemplo.com.br/x' } }, authOf(owner))).toEqual(expired);
    expect(await databaseState(gateway)).toEqual(before);
  });

  it('last 12 hours at most, however active', async () => {
    const owner = await signUpOwner(gateway);
    for (let elapsed = 0; elapsed < 12 * 60; elapsed += 20) {
      expect((await rawCall(gateway, { method: 'GET', path: api('/session') }, authOf(owner))).status).toBe(200);
      gateway.clock.advance(20 * 60_000);
    }
    expect(await rawCall(gateway, { method: 'GET', path: api('/session') }, authOf(owner))).toEqual({ status: 401, body: { error: messages.sessionRequired } });
  });

  it('cannot be used again after sign-out, with its cookie or its CSRF token', async () => {
    const owner = await signUpOwner(gateway);
    const { cookie, csrf } = authOf(owner);
    const signedOut = await owner.browser.api.DELETE('/dashboard/api/v1/session');
    expect(signedOut.data).toEqual({ signedOut: true });
    expect(signedOut.response.headers.get('set-cookie')).toMatch(/pixgate_session=;.*Expires=Thu, 01 Jan 1970/);
    const gone = { status: 401, body: { error: messages.sessionRequired } };
    expect(await rawCall(gateway, { method: 'GET', path: api('/session') }, { cookie, csrf })).toEqual(gone);
    expect(await rawCall(gateway, { method: 'POST', path: api('/api-keys'), body: {} }, { cookie, csrf })).toEqual(gone);
    expect(await rawCall(gateway, { method: 'DELETE', path: api('/session') }, { cookie, csrf })).toEqual(gone);
  });

  it('set the cookie HttpOnly, SameSite=Strict, on /dashboard, not Secure outside production', async () => {
    const owner = await signUpOwner(gateway, { approved: false });
    const signIn = await dashboardBrowser(gateway).api.POST('/dashboard/api/v1/session', { body: { email: owner.email, password: DASHBOARD_PASSWORD } });
    const cookie = signIn.response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/dashboard/);
    expect(cookie).not.toMatch(/Secure/);
    expect(signIn.response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('sign-in back-off (issue 38: src/identity/signInBackoff.ts, test/identity/signInBackoff.test.ts)', () => {
  /** Moves the clock a day on: every counter of an earlier test is forgotten. */
  const startOfNextWindow = () => gateway.clock.advance(24 * 3_600_000);

  it('makes an e-mail wait after 5 wrong passwords from browsers that never signed in as its user, even for the right one, then lets it try again', async () => {
    const owner = await signUpOwner(gateway, { approved: false });
    const signIn = (password: string) => rawCall(gateway, { method: 'POST', path: api('/session'), body: { email: owner.email, password } });
    startOfNextWindow();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(await signIn('senha errada demais')).toEqual({ status: 401, body: { error: messages.invalidCredentials, field: 'password' } });
    }
    const waiting = { status: 429, body: { error: messages.signInThrottled('account', 60_000) } };
    expect(await signIn(DASHBOARD_PASSWORD)).toEqual(waiting);
    expect(await signIn('senha errada demais')).toEqual(waiting);
    gateway.clock.advance(60_000);
    expect((await signIn(DASHBOARD_PASSWORD)).status).toBe(200);
  });

  it('counts wrong second-factor codes on the user’s own counter', async () => {
    const owner = await signUpOwner(gateway, { approved: false, totp: true });
    startOfNextWindow();
    const browser = dashboardBrowser(gateway);
    expect((await browser.api.POST('/dashboard/api/v1/session', { body: { email: owner.email, password: DASHBOARD_PASSWORD } })).data?.stage).toBe('password');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await browser.api.POST('/dashboard/api/v1/session/second-factor', { body: { totpCode: '000000' } });
      expect(wrong.error).toEqual({ error: messages.invalidTotpCode, field: 'totpCode' });
    }
    // The right code (of a step never used) must wait its minute.
    const locked = await browser.api.POST('/dashboard/api/v1/session/second-factor', { body: { totpCode: totpNow(gateway, owner.totpSecret ?? '') } });
    expect(locked.response.status).toBe(429);
    expect(locked.error).toEqual({ error: messages.signInThrottled('secondFactor', 60_000) });
  });

  it('does not lock out a user with two-factor who signs in correctly again and again', async () => {
    const owner = await signUpOwner(gateway, { approved: false, totp: true });
    startOfNextWindow();
    for (let signIns = 0; signIns < 8; signIns += 1) {
      const browser = dashboardBrowser(gateway);
      const signIn = await browser.api.POST('/dashboard/api/v1/session', { body: { email: owner.email, password: DASHBOARD_PASSWORD } });
      expect(signIn.response.status, `sign-in ${signIns + 1}`).toBe(200);
      const done = await browser.api.POST('/dashboard/api/v1/session/second-factor', { body: { totpCode: nextTotp(gateway, owner) } });
      expect(done.data?.stage).toBe('complete');
    }
  });
});

describe('secrets are shown once', () => {
  let owner: DashboardPerson;
  beforeAll(async () => {
    owner = await signUpOwner(gateway);
  });

  it('an API key: its secret in the creation answer only (no-store), the list by prefix, only a hash stored', async () => {
    const created = await owner.browser.api.POST('/dashboard/api/v1/api-keys', { body: { label: 'loja' } });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('cache-control')).toBe('no-store');
    const secret = created.data?.apiKey ?? '';
    secretsSeen.add(secret);
    expect(secret).toMatch(/^pixg_/);
    expect(secret.startsWith(created.data?.publicPrefix ?? '-')).toBe(true);
    expect((await gateway.as(secret).GET('/v1/balance')).response.status).toBe(200);
    // The key's last use is written after the answer, not awaited by the request (src/accounts/auth.ts): read until it is there.
    let listed = await owner.browser.api.GET('/dashboard/api/v1/api-keys');
    for (let tries = 0; (listed.data?.apiKeys[0]?.lastUsedAt ?? null) === null && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      listed = await owner.browser.api.GET('/dashboard/api/v1/api-keys');
    }
    expect(listed.data?.apiKeys).toEqual([expect.objectContaining({ keyId: created.data?.keyId, publicPrefix: created.data?.publicPrefix, lastUsedAt: expect.any(Number) })]);
    expect(Object.keys(listed.data?.apiKeys[0] ?? {})).not.toContain('apiKey');
    expect(await answersOf(owner)).not.toContain(secret);
    expect(await allRows()).not.toContain(secret);
    // Revoked: the API answers 401 at once.
    await owner.browser.api.POST('/dashboard/api/v1/api-keys/{keyId}/revoke', { params: { path: { keyId: created.data?.keyId ?? '' } } });
    expect((await gateway.as(secret).GET('/v1/balance')).response.status).toBe(401);
  });

  it('a webhook secret: at creation and at rotation only, the list by prefix, sealed at rest', async () => {
    const created = await owner.browser.api.POST('/dashboard/api/v1/webhooks', { body: { url: 'http://127.0.0.1:9/segredo' } });
    expect(created.response.headers.get('cache-control')).toBe('no-store');
    const secret = created.data?.secret ?? '';
    expect(secret).toMatch(/^whsec_/);
    const rotated = await owner.browser.api.POST('/dashboard/api/v1/webhooks/{endpointId}/rotate-secret', { params: { path: { endpointId: created.data?.endpointId ?? '' } } });
    expect(rotated.response.headers.get('cache-control')).toBe('no-store');
    const newSecret = (rotated.data as { secret?: string } | undefined)?.secret ?? '';
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    for (const value of [secret, newSecret]) secretsSeen.add(value);
    const listed = await owner.browser.api.GET('/dashboard/api/v1/webhooks');
    expect(listed.data?.webhooks[0]?.secretPrefix).toBe(newSecret.slice(0, 12));
    const answers = await answersOf(owner);
    const rows = await allRows();
    for (const value of [secret, newSecret]) {
      expect(answers).not.toContain(value);
      expect(rows).not.toContain(value);
      expect(rows).not.toContain(value.replace(/^whsec_/, ''));
    }
  });

  it('the TOTP seed and the recovery codes: at enrolment only, sealed or hashed at rest', async () => {
    const person = await signUpOwner(gateway, { approved: false });
    await enrolTotp(gateway, person);
    const seed = person.totpSecret ?? '';
    expect(seed).toMatch(/^[A-Z2-7]{32}$/);
    expect(person.recoveryCodes).toHaveLength(10);
    const regenerated = await person.browser.api.POST('/dashboard/api/v1/two-factor/recovery-codes', { body: { totpCode: nextTotp(gateway, person) } });
    expect(regenerated.response.headers.get('cache-control')).toBe('no-store');
    const codes = [...person.recoveryCodes, ...(regenerated.data?.recoveryCodes ?? [])];
    expect(codes).toHaveLength(20);
    for (const value of [seed, ...codes]) secretsSeen.add(value);
    const session = await rawCall(gateway, { method: 'GET', path: api('/session') }, authOf(person));
    expect((session.body as { recoveryCodesLeft: number }).recoveryCodesLeft).toBe(10);
    const answers = JSON.stringify(session.body) + (await rawCall(gateway, { method: 'GET', path: api('/users') }, authOf(person))).body;
    const rows = await allRows();
    for (const value of [seed, ...codes]) {
      expect(answers).not.toContain(value);
      expect(rows).not.toContain(value);
    }
    // The old codes stopped working; a new one signs in once.
    const browser = dashboardBrowser(gateway);
    await browser.api.POST('/dashboard/api/v1/session', { body: { email: person.email, password: DASHBOARD_PASSWORD } });
    expect((await browser.api.POST('/dashboard/api/v1/session/second-factor', { body: { recoveryCode: person.recoveryCodes[0] ?? '' } })).error).toEqual({
      error: messages.invalidRecoveryCode,
      field: 'recoveryCode',
    });
    expect((await browser.api.POST('/dashboard/api/v1/session/second-factor', { body: { recoveryCode: regenerated.data?.recoveryCodes[0] ?? '' } })).data?.stage).toBe('complete');
  });

  it('session tokens, CSRF tokens, passwords and e-mail links never reach the log', async () => {
    const person = await signUpOwner(gateway, { approved: false });
    const { cookie, csrf } = authOf(person);
    for (const value of [cookie ?? '', csrf ?? '', DASHBOARD_PASSWORD]) secretsSeen.add(value);
    await rawCall(gateway, { method: 'POST', path: api('/password-reset'), body: { email: person.email } });
    secretsSeen.add((await lastMailLink(gateway, person.email)).token);
    // A failing request (wrong password) is logged too, without the password.
    await rawCall(gateway, { method: 'POST', path: api('/session'), body: { email: person.email, password: 'outra senha secreta' } });
    secretsSeen.add('outra senha secreta');
    expect(logLines.join('\n')).toContain('/dashboard/api/v1/session');
  });
});

describe('dashboard withdrawals need a current TOTP code and go through POST /v1/withdraw', () => {
  let owner: DashboardPerson;
  let apiKey: string;
  beforeAll(async () => {
    owner = await signUpOwner(gateway);
    const key = await owner.browser.api.POST('/dashboard/api/v1/api-keys', { body: {} });
    apiKey = key.data?.apiKey ?? '';
    secretsSeen.add(apiKey);
    const charge = await gateway.as(apiKey).POST('/v1/pix', { body: { amountCents: 10_000, customer: validCustomer } });
    await owner.browser.api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', { params: { path: { transactionId: charge.data?.transactionId ?? '', action: 'pay' } } });
  });

  const withdrawal = (extra: Record<string, unknown> = {}) => ({ amountCents: 1_000, pixKey: owner.responsibleCpf, pixKeyType: 'cpf', ...extra });
  const viaApi = async (body: Record<string, unknown>) => {
    const response = await fetch(`${gateway.baseUrl}/v1/withdraw`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const viaDashboard = (body: Record<string, unknown>) => rawCall(gateway, { method: 'POST', path: api('/withdrawals'), body }, authOf(owner));

  it('is refused without two-factor, without a code, with a wrong or a replayed code; nothing moves', async () => {
    const before = await databaseState(gateway);
    expect(await viaDashboard({ ...withdrawal(), totpCode: '123456' })).toEqual({ status: 409, body: { error: messages.totpNotEnabled } });
    expect(await databaseState(gateway)).toEqual(before);
    await enrolTotp(gateway, owner);
    secretsSeen.add(owner.totpSecret ?? '');
    const { dashboard_users: _users, ...moneyBefore } = await databaseState(gateway);
    expect(await viaDashboard(withdrawal())).toEqual({ status: 400, body: { error: messages.invalidTotpCode, field: 'totpCode' } });
    expect(await viaDashboard({ ...withdrawal(), totpCode: '' })).toEqual({ status: 400, body: { error: messages.invalidTotpCode, field: 'totpCode' } });
    gateway.clock.advance(30_000);
    const current = totpNow(gateway, owner.totpSecret ?? '');
    const wrong = current === '000000' ? '111111' : '000000';
    expect(await viaDashboard({ ...withdrawal(), totpCode: wrong })).toEqual({ status: 400, body: { error: messages.invalidTotpCode, field: 'totpCode' } });
    // A code from 5 minutes ago.
    expect(await viaDashboard({ ...withdrawal(), totpCode: totpNow(gateway, owner.totpSecret ?? '', -10) })).toEqual({ status: 400, body: { error: messages.invalidTotpCode, field: 'totpCode' } });
    // The code used to confirm the enrolment, replayed.
    const { dashboard_users: _after, ...moneyAfter } = await databaseState(gateway);
    expect(moneyAfter).toEqual(moneyBefore);
    const accepted = await viaDashboard({ ...withdrawal({ externalRef: 'painel-1' }), totpCode: current });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ status: 'processing', amountCents: 1_000, feeCents: 100, totalDeducted: 1_100 });
    // The same code again: replay.
    expect(await viaDashboard({ ...withdrawal({ externalRef: 'painel-2' }), totpCode: current })).toEqual({ status: 400, body: { error: messages.invalidTotpCode, field: 'totpCode' } });
    // The same externalRef with a new code: the original withdrawal (200), as the API answers.
    const replay = await viaDashboard({ ...withdrawal({ externalRef: 'painel-1' }), totpCode: nextTotp(gateway, owner) });
    expect(replay.status).toBe(200);
    expect((replay.body as { transactionId: string }).transactionId).toBe((accepted.body as { transactionId: string }).transactionId);
    expect(await viaApi(withdrawal({ externalRef: 'painel-1' }))).toMatchObject({ status: 200, body: { transactionId: (accepted.body as { transactionId: string }).transactionId } });
  });

  it('answers insufficient balance and the daily cap exactly as POST /v1/withdraw does', async () => {
    const available = (await gateway.as(apiKey).GET('/v1/balance')).data?.available ?? 0;
    expect(available).toBeGreaterThan(1_000);
    const tooMuch = withdrawal({ amountCents: available });
    const api = await viaApi(tooMuch);
    expect(api).toEqual({ status: 422, body: { error: messages.insufficientBalance } });
    expect(await viaDashboard({ ...tooMuch, totpCode: nextTotp(gateway, owner) })).toEqual(api);

    const capped = await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId: owner.accountId } }, body: { withdrawalDailyCapCents: 1_500 } });
    expect(capped.response.status).toBe(200);
    const overCap = await viaApi(withdrawal({ externalRef: 'api-teto' }));
    const dashboardOverCap = await viaDashboard({ ...withdrawal({ externalRef: 'painel-teto' }), totpCode: nextTotp(gateway, owner) });
    // A cap refuses the withdrawal it creates (status failed, the reason; the externalRef stays free).
    expect(overCap.body).toMatchObject({ status: 'failed' });
    const strip = (body: Record<string, unknown>) => ({ ...body, transactionId: undefined, externalRef: undefined, createdAt: undefined });
    expect({ status: dashboardOverCap.status, body: strip(dashboardOverCap.body as Record<string, unknown>) }).toEqual({ status: overCap.status, body: strip(overCap.body) });
    expect(JSON.stringify(overCap.body)).toContain(messages.dailyCapReason(1_500).slice(0, 40));
  });
});

describe('in production', () => {
  let production: Gateway;
  let owner: DashboardPerson;
  beforeAll(async () => {
    production = await startGateway({ config: { nodeEnv: 'production', webhookAllowPrivate: false } });
    owner = await signUpOwner(production);
  });
  afterAll(async () => {
    await production.close();
  });

  it('webhook URLs must be HTTPS and public', async () => {
    const create = (url: string) => rawCall(production, { method: 'POST', path: api('/webhooks'), body: { url } }, authOf(owner));
    const before = await databaseState(production);
    expect(await create('http://8.8.8.8/ganchos')).toEqual({ status: 400, body: { error: messages.unsafeWebhookUrl.notHttps, field: 'url' } });
    for (const url of ['https://127.0.0.1/x', 'https://10.1.2.3/x', 'https://192.168.0.10/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://[fd00::1]/x', 'https://localhost/x', 'https://100.64.0.1/x']) {
      expect(await create(url), url).toEqual({ status: 400, body: { error: messages.unsafeWebhookUrl.privateAddress, field: 'url' } });
    }
    expect(await create('https://nao-existe.invalid/x')).toEqual({ status: 400, body: { error: messages.unsafeWebhookUrl.unresolvable, field: 'url' } });
    expect(await databaseState(production)).toEqual(before);
    expect((await create('https://8.8.8.8/ganchos')).status).toBe(201);
    expect(production.loggedErrors).toEqual([]);
  });

  it('has no sandbox actions and no mail outbox, and sets the cookie Secure', async () => {
    const signIn = await dashboardBrowser(production).api.POST('/dashboard/api/v1/session', { body: { email: owner.email, password: DASHBOARD_PASSWORD } });
    expect(signIn.response.headers.get('set-cookie')).toMatch(/; Secure/);
    expect(signIn.data).toMatchObject({ sandbox: false, devOutbox: false });
    expect(await rawCall(production, { method: 'GET', path: api('/dev/outbox') })).toEqual({ status: 404, body: { error: messages.sandboxUnavailable } });
    expect(
      await rawCall(production, { method: 'POST', path: api('/sandbox/charges/tx_000000000000000000000000/pay') }, authOf(owner)),
    ).toEqual({ status: 404, body: { error: messages.sandboxUnavailable } });
  });
});
