import { describe, expect, it } from 'vitest';
import { subjectKey } from '../../src/identity/throttle.ts';
import { messages } from '../../src/messages/merchant.ts';
import { DASHBOARD_PASSWORD, freshEmail, nextTotp, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { totpNow } from '../support/dashboardClient.ts';
import { useGateway } from '../support/gateway.ts';

/**
 * Issue 38, defect 3: anyone could lock the owner out. Five wrong passwords sent by anyone for her e-mail
 * and she could not sign in, nor, signed in, change her password, for 15 minutes of a fixed window that 5
 * requests per window kept closed forever; and she was not told. Now (src/identity/signInBackoff.ts) the
 * e-mail's failures slow down only browsers that never signed in as her, with a wait that doubles up to
 * 15 minutes; the browsers she signed in from keep their own counter; the address has its own; a signed-in
 * password change counts on its session; and she is told by e-mail.
 *
 * The gateway trusts the loopback proxy, so each request names its client address in X-Forwarded-For.
 */
const gateway = useGateway({ trustProxy: 'loopback' });
const MINUTE_MS = 60_000;
let addressCounter = 0;
const freshAddress = () => `203.0.113.${++addressCounter % 250}`;

/** A browser: its cookies (session and trusted device) and CSRF token, at one client address. */
class Browser {
  readonly cookies = new Map<string, { value: string; attributes: string }>();
  csrf: string | undefined;
  readonly ip: string;
  constructor(ip = freshAddress()) {
    this.ip = ip;
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
    const headers: Record<string, string> = { 'x-forwarded-for': this.ip };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, cookie]) => `${name}=${cookie.value}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    const response = await fetch(`${gateway.baseUrl}/dashboard/api/v1${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    for (const set of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = set.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), { value: pair.slice(at + 1), attributes: attributes.join(';') });
    }
    const parsed = (await response.json()) as Record<string, unknown>;
    if (typeof parsed.csrfToken === 'string') this.csrf = parsed.csrfToken;
    return { status: response.status, body: parsed, headers: response.headers };
  }

  signIn(email: string, password: string) {
    return this.call('POST', '/session', { email, password });
  }
}

const WRONG = 'não é esta senha de jeito nenhum';
const wrongCredentials = { status: 401, body: { error: messages.invalidCredentials, field: 'password' } };

async function owner(options: { totp?: boolean } = {}): Promise<DashboardPerson & { usual: Browser }> {
  const person = await signUpOwner(gateway, { approved: false, ...options });
  // Her usual browser: she signed in there before (its trusted-device cookie).
  const usual = new Browser();
  const signedIn = await usual.signIn(person.email, DASHBOARD_PASSWORD);
  if (options.totp) {
    expect(signedIn.body.stage).toBe('password');
    expect((await usual.call('POST', '/session/second-factor', { totpCode: nextTotp(gateway, person) })).status).toBe(200);
  } else {
    expect(signedIn.status).toBe(200);
  }
  expect(usual.cookies.has('pixgate_device')).toBe(true);
  return { ...person, usual };
}

/** When the owner of `email` was last told of failed sign-ins (undefined: the e-mail has no failures counted). */
async function noticeOf(email: string): Promise<Date | null | undefined> {
  const row = await gateway.deps.db.selectFrom('sign_in_failures').select('notified_at').where('subject', '=', subjectKey('signin-dashboard-email', email)).executeTakeFirst();
  return row?.notified_at;
}

/** The newest e-mail to `to` with `subject` (several e-mails of a test can share the frozen clock's time). */
async function mailWithSubject(to: string, subject: string): Promise<{ text: string }> {
  const mail = (await gateway.deps.mailer.recent({ to, limit: 50 })).find((candidate) => candidate.subject === subject);
  if (!mail) throw new Error(`no e-mail "${subject}" to ${to}`);
  return { text: mail.body_text };
}

/** An attacker sends `count` wrong passwords for `email` from one address; answers the statuses. */
async function attack(email: string, count: number, from = new Browser()): Promise<number[]> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < count; attempt += 1) statuses.push((await from.signIn(email, WRONG)).status);
  return statuses;
}

describe('dashboard sign-in under attack (issue 38, defect 3)', () => {
  it('keeps the owner able to sign in from her browser, however many wrong passwords others send for her e-mail', async () => {
    const victim = await owner();
    const attacker = new Browser();
    expect(await attack(victim.email, 5, attacker)).toEqual([401, 401, 401, 401, 401]);
    // The attacker now waits...
    const slowed = await attacker.signIn(victim.email, WRONG);
    expect(slowed.status).toBe(429);
    // ...and even with the right password, from a browser that never signed in as her.
    expect((await new Browser().signIn(victim.email, DASHBOARD_PASSWORD)).status).toBe(429);
    // Her own browser is not affected: another 20 attempts, then she signs in.
    gateway.clock.advance(20 * MINUTE_MS);
    await attack(victim.email, 20, new Browser());
    const hers = await victim.usual.signIn(victim.email, DASHBOARD_PASSWORD);
    expect(hers.status).toBe(200);
    expect(hers.body.stage).toBe('complete');
  });

  it('never refuses the signed-in owner her password change because of others’ failures', async () => {
    const victim = await owner();
    await attack(victim.email, 12);
    const changed = await victim.usual.call('POST', '/password', { currentPassword: DASHBOARD_PASSWORD, newPassword: 'cavalo correto bateria grampo' });
    expect(changed).toMatchObject({ status: 200, body: { passwordChanged: true } });
  });

  it('counts a signed-in session’s wrong current passwords on the session alone, with the same back-off', async () => {
    const victim = await owner();
    const change = (currentPassword: string) => victim.usual.call('POST', '/password', { currentPassword, newPassword: 'cavalo correto bateria grampo' });
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await change(WRONG)).status).toBe(400);
    const waiting = await change(DASHBOARD_PASSWORD);
    expect(waiting).toMatchObject({ status: 429, body: { error: messages.signInThrottled('passwordChange', MINUTE_MS) } });
    // Her sign-in elsewhere is not refused by it.
    expect((await new Browser().signIn(victim.email, DASHBOARD_PASSWORD)).status).toBe(200);
    gateway.clock.advance(MINUTE_MS);
    expect((await change(DASHBOARD_PASSWORD)).status).toBe(200);
  });

  it('slows an attacker with a wait that doubles up to 15 minutes, told in the answer and in Retry-After, instead of a window he can renew', async () => {
    const email = freshEmail('alvo');
    const attacker = new Browser();
    expect(await attack(email, 5, attacker)).toEqual([401, 401, 401, 401, 401]);
    const waits: number[] = [];
    for (let round = 0; round < 7; round += 1) {
      const refused = await attacker.signIn(email, WRONG);
      expect(refused.status).toBe(429);
      const seconds = Number(refused.headers.get('retry-after'));
      waits.push(seconds);
      expect(refused.body).toEqual({ error: messages.signInThrottled('account', seconds * 1000) });
      gateway.clock.advance(seconds * 1000);
      // One guess each time the wait is over, refused (the e-mail has no user: answered the same).
      expect(await attacker.signIn(email, WRONG)).toMatchObject(wrongCredentials);
    }
    expect(waits).toEqual([60, 120, 240, 480, 900, 900, 900]);
    expect(messages.signInThrottled('account', 900_000)).toContain('Tente de novo em 15 minutos');
    // A day without failures and the e-mail starts again from zero.
    gateway.clock.advance(24 * 60 * MINUTE_MS);
    expect(await attack(email, 5, attacker)).toEqual([401, 401, 401, 401, 401]);
  });

  it('tells the owner by e-mail at 5 failures, once a day, and only the owner', async () => {
    const victim = await owner();
    const before = (await gateway.deps.mailer.recent({ to: victim.email, limit: 50 })).length;
    const attacker = new Browser('198.51.100.77');
    await attack(victim.email, 4, attacker);
    expect((await gateway.deps.mailer.recent({ to: victim.email, limit: 50 })).length).toBe(before);
    await attack(victim.email, 1, attacker);
    await expect.poll(async () => (await gateway.deps.mailer.recent({ to: victim.email, limit: 50 })).length).toBe(before + 1);
    const mail = await mailWithSubject(victim.email, 'Tentativas de acesso à sua conta PixGate');
    expect(mail.text).toContain('Houve 5 tentativas');
    expect(mail.text).toContain('198.51.100.77');
    expect(mail.text).toContain('Sua conta não foi bloqueada');
    expect(mail.text).not.toContain(WRONG);
    // The notice is claimed before the answer (the mail itself is not awaited): more failures the same
    // day claim none, so no second mail is ever sent.
    const told = await noticeOf(victim.email);
    expect(told).toEqual(new Date(gateway.clock.now()));
    gateway.clock.advance(MINUTE_MS);
    await attack(victim.email, 1, attacker);
    gateway.clock.advance(2 * MINUTE_MS);
    await attack(victim.email, 1, attacker);
    expect(await noticeOf(victim.email)).toEqual(told);
    // Her own mistakes in her own browser are not an attack: they never count on her e-mail, so no notice.
    const mine = await owner();
    await attack(mine.email, 6, mine.usual);
    expect(await noticeOf(mine.email)).toBeUndefined();
  });

  it('slows one address trying many e-mails after 30 failures; another address is not affected', async () => {
    const sprayer = new Browser();
    for (let attempt = 0; attempt < 30; attempt += 1) expect((await sprayer.signIn(freshEmail('spray'), WRONG)).status).toBe(401);
    const refused = await sprayer.signIn(freshEmail('spray'), WRONG);
    expect(refused).toMatchObject({ status: 429, body: { error: messages.signInThrottled('address', 30_000) } });
    expect((await new Browser().signIn(freshEmail('spray'), WRONG)).status).toBe(401);
  });

  it('a password reset forgets the e-mail’s failures and trusts the browser that made it', async () => {
    const victim = await owner();
    await attack(victim.email, 6);
    const elsewhere = new Browser();
    expect((await elsewhere.signIn(victim.email, DASHBOARD_PASSWORD)).status).toBe(429);
    expect((await elsewhere.call('POST', '/password-reset', { email: victim.email })).status).toBe(202);
    const reset = await mailWithSubject(victim.email, 'Redefinição de senha do PixGate');
    const token = /token=([A-Za-z0-9_-]+)/.exec(reset.text)?.[1] ?? '';
    const newPassword = 'girafa azul dança no telhado';
    const confirmed = await elsewhere.call('POST', '/password-reset/confirm', { token, password: newPassword });
    expect(confirmed.status).toBe(200);
    expect(elsewhere.cookies.get('pixgate_device')?.attributes).toMatch(/HttpOnly/i);
    await attack(victim.email, 8);
    expect((await elsewhere.signIn(victim.email, newPassword)).status).toBe(200);
  });

  it('keeps the second factor on its own counter: others’ wrong passwords never refuse the owner’s code', async () => {
    const victim = await owner({ totp: true });
    await attack(victim.email, 9);
    const signIn = await victim.usual.signIn(victim.email, DASHBOARD_PASSWORD);
    expect(signIn.body.stage).toBe('password');
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await victim.usual.call('POST', '/session/second-factor', { totpCode: '000000' })).status).toBe(400);
    const waiting = await victim.usual.call('POST', '/session/second-factor', { totpCode: nextTotp(gateway, victim) });
    expect(waiting).toMatchObject({ status: 429, body: { error: messages.signInThrottled('secondFactor', MINUTE_MS) } });
    gateway.clock.advance(MINUTE_MS);
    expect((await victim.usual.call('POST', '/session/second-factor', { totpCode: totpNow(gateway, victim.totpSecret ?? '', 1) })).status).toBe(200);
  });

  it('gives the trusted-device cookie only to the sign-in operations, unreadable by scripts; a forged one is ignored', async () => {
    const victim = await owner();
    const cookie = victim.usual.cookies.get('pixgate_device');
    expect(cookie?.attributes).toMatch(/Path=\/dashboard\/api\/v1\/session/);
    expect(cookie?.attributes).toMatch(/HttpOnly/);
    expect(cookie?.attributes).toMatch(/SameSite=Strict/);
    await attack(victim.email, 5);
    const forger = new Browser();
    const [payload = ''] = (cookie?.value ?? '').split('.');
    forger.cookies.set('pixgate_device', { value: `${payload}.${'A'.repeat(43)}`, attributes: '' });
    expect((await forger.signIn(victim.email, DASHBOARD_PASSWORD)).status).toBe(429);
    // Another user's cookie does not help with this e-mail either.
    const other = await owner();
    const borrowed = new Browser();
    borrowed.cookies.set('pixgate_device', other.usual.cookies.get('pixgate_device') ?? { value: '', attributes: '' });
    expect((await borrowed.signIn(victim.email, DASHBOARD_PASSWORD)).status).toBe(429);
  });
});
