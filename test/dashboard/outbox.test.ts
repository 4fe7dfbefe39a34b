import { beforeAll, describe, expect, it } from 'vitest';
import { outboxKey, outboxLink } from '../../src/dashboard/outbox.service.ts';
import { dashboardBrowser, lastMailLink } from '../support/dashboardClient.ts';
import { DASHBOARD_PASSWORD, rawCall, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { startGateway, useGateway } from '../support/gateway.ts';

/**
 * Issue 22, defect 5: in development (`npm start`) the mail outbox was readable without signing in, so
 * anyone could ask for a password reset for any e-mail, read the link and take the account. Now only the
 * person running the server reads every e-mail (the outbox key `npm start` prints); a signed-in user reads
 * the e-mails sent to their own address; anyone else, from loopback too, reads nothing.
 */
const logLines: string[] = [];
const gateway = useGateway({ onLog: (line) => logLines.push(line) });
const OUTBOX = '/dashboard/api/v1/dev/outbox';
let victim: DashboardPerson;
let other: DashboardPerson;

interface OutboxAnswer {
  access: string;
  mails: { to: string; subject: string; text: string }[];
  count: number;
}

async function readOutbox(headers: Record<string, string> = {}): Promise<{ status: number; body: OutboxAnswer; cacheControl: string | null }> {
  const response = await fetch(`${gateway.baseUrl}${OUTBOX}?limit=100`, { headers });
  return { status: response.status, body: (await response.json()) as OutboxAnswer, cacheControl: response.headers.get('cache-control') };
}

const sessionCookie = (person: DashboardPerson) => `pixgate_session=${person.browser.cookie() ?? ''}`;
const keyCookie = (key: string) => `pixgate_outbox=${key}`;
const cookies = (...values: string[]) => ({ cookie: values.join('; ') });

beforeAll(async () => {
  victim = await signUpOwner(gateway);
  other = await signUpOwner(gateway, { approved: false });
}, 60_000);

describe('GET /dashboard/api/v1/dev/outbox', () => {
  it('gives an anonymous caller on loopback nothing: a password-reset link cannot be read to take an account', async () => {
    // (The clock moves so that the reset e-mail is the newest one to the victim.)
    gateway.clock.advance(1_000);
    expect((await rawCall(gateway, { method: 'POST', path: '/dashboard/api/v1/password-reset', body: { email: victim.email } })).status).toBe(202);
    // The link exists (the person running the server could read it)...
    expect((await lastMailLink(gateway, victim.email)).subject).toBe('Redefinição de senha do PixGate');
    // ...but the anonymous request reads no e-mail at all.
    const anonymous = await readOutbox();
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ access: 'none', mails: [], count: 0 });
    expect(anonymous.cacheControl).toBe('no-store');
    // A wrong key, another installation's key (another secrets key), a made-up session.
    const wrong = [cookies(keyCookie('A'.repeat(43))), cookies(keyCookie(outboxKey({ secretsKey: Buffer.alloc(32, 9) }))), cookies('pixgate_session=nao-e-sessao')];
    for (const headers of wrong) expect((await readOutbox(headers)).body, JSON.stringify(headers)).toEqual({ access: 'none', mails: [], count: 0 });
  });

  it('gives a signed-in user the e-mails to their own address only', async () => {
    const own = await readOutbox(cookies(sessionCookie(other)));
    expect(own.status).toBe(200);
    expect(own.body.access).toBe('own');
    expect(own.body.count).toBeGreaterThan(0);
    expect(new Set(own.body.mails.map((mail) => mail.to))).toEqual(new Set([other.email]));
    expect(JSON.stringify(own.body)).not.toContain(victim.email);
    // A wrong key does not widen it.
    expect((await readOutbox(cookies(sessionCookie(other), keyCookie('B'.repeat(43))))).body.access).toBe('own');
  });

  it('gives nothing to a session still waiting for its second factor', async () => {
    const person = await signUpOwner(gateway, { approved: false, totp: true });
    const pending = dashboardBrowser(gateway);
    const signIn = await pending.api.POST('/dashboard/api/v1/session', { body: { email: person.email, password: DASHBOARD_PASSWORD } });
    expect(signIn.data?.stage).toBe('password');
    expect((await readOutbox(cookies(`pixgate_session=${pending.cookie() ?? ''}`))).body).toEqual({ access: 'none', mails: [], count: 0 });
  });

  it('gives every e-mail to the person running the server, with the outbox key printed by npm start', async () => {
    const key = outboxKey(gateway.deps);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const all = await readOutbox(cookies(keyCookie(key)));
    expect(all.body.access).toBe('all');
    const recipients = new Set(all.body.mails.map((mail) => mail.to));
    expect(recipients.has(victim.email) && recipients.has(other.email)).toBe(true);
    expect(outboxLink(gateway.deps)).toBe(`http://${gateway.deps.config.host}:${gateway.deps.config.port}/dashboard/#/caixa-de-saida?chave=${key}`);
    // With a session too, the key reads everything.
    expect((await readOutbox(cookies(sessionCookie(other), keyCookie(key)))).body.access).toBe('all');
    // The key travels in a cookie, never in the URL or another header: the access log does not have it.
    expect(logLines.join('\n')).not.toContain(key);
  });

  it('stays absent (404) with SMTP configured, key or not', async () => {
    const withSmtp = await startGateway({ config: { smtpUrl: 'smtp://127.0.0.1:9' } });
    try {
      expect((await fetch(`${withSmtp.baseUrl}${OUTBOX}`, { headers: cookies(keyCookie(outboxKey(withSmtp.deps))) })).status).toBe(404);
    } finally {
      await withSmtp.close();
    }
  });

  it('tells the page whether the outbox exists before anyone signs in (the session says it too)', async () => {
    const session = await victim.browser.api.GET('/dashboard/api/v1/session');
    expect(session.data?.devOutbox).toBe(true);
    expect((await fetch(`${gateway.baseUrl}${OUTBOX}?limit=1`)).ok).toBe(true);
  });
});
