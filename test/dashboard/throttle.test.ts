import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { DASHBOARD_PASSWORD, freshEmail, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { makeCpf, useGateway } from '../support/gateway.ts';

/**
 * Issue 22, defect 7: sign-up and password reset had no throttle (12 of each in a row accepted, 14 reset
 * e-mails to one address). Each sends an e-mail, so each is limited per e-mail (3 an hour) and per client
 * address (10 an hour; an IPv6 client by its /64), in fixed UTC hours; past a limit the answer is 429 with
 * the dashboard's Portuguese message, and it is the same whether or not the e-mail is registered.
 *
 * The gateway trusts the loopback proxy, so each request names its client address in X-Forwarded-For.
 */
const gateway = useGateway({ trustProxy: 'loopback' });
const HOUR_MS = 3_600_000;
let addressCounter = 0;

/** A client address of its own for each use (documentation range 198.51.100.0/24 and beyond). */
function freshAddress(): string {
  addressCounter += 1;
  return `198.51.${100 + Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

async function post(path: string, body: unknown, ip: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${gateway.baseUrl}/dashboard/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const signUpBody = (email: string) => ({
  legalName: 'Loja Limite Ltda',
  responsibleCpf: makeCpf(),
  companyCnpj: '11.222.333/0001-81',
  city: 'São Paulo',
  state: 'SP',
  name: 'Pessoa Limite',
  email,
  password: DASHBOARD_PASSWORD,
});

const signUp = (email: string, ip = freshAddress()) => post('/signup', signUpBody(email), ip);
const requestReset = (email: string, ip = freshAddress()) => post('/password-reset', { email }, ip);
const mailsTo = async (email: string) => (await gateway.deps.mailer.recent({ to: email, limit: 100 })).length;

const SIGN_UP_TAKEN = { status: 202, body: { message: 'Enviamos um link de confirmação para o e-mail informado.' } };
const SIGN_UP_THROTTLED = { status: 429, body: { error: messages.signUpThrottled } };
const RESET_TAKEN = { status: 202, body: { message: 'Se o e-mail estiver cadastrado, enviamos um link para redefinir a senha.' } };
const RESET_THROTTLED = { status: 429, body: { error: messages.passwordResetThrottled } };

beforeEach(() => {
  // A minute into a fresh UTC hour: the windows are fixed hours, and no test straddles two.
  gateway.clock.set((Math.floor(gateway.clock.now() / HOUR_MS) + 1) * HOUR_MS + 60_000);
});

describe('POST /dashboard/api/v1/signup is throttled', () => {
  it('per e-mail: 3 an hour, from any address, registered or not; then 429 and no more e-mail', async () => {
    const email = freshEmail('limite');
    for (let attempt = 1; attempt <= 3; attempt += 1) expect(await signUp(email), `attempt ${attempt}`).toEqual(SIGN_UP_TAKEN);
    // One verification e-mail and two "you already have an account".
    expect(await mailsTo(email)).toBe(3);
    for (let attempt = 4; attempt <= 12; attempt += 1) expect(await signUp(email), `attempt ${attempt}`).toEqual(SIGN_UP_THROTTLED);
    expect(await mailsTo(email)).toBe(3);
    gateway.clock.advance(HOUR_MS);
    expect(await signUp(email)).toEqual(SIGN_UP_TAKEN);
  });

  it('per client address: 10 an hour, whatever the e-mails; another address is not affected', async () => {
    const ip = freshAddress();
    for (let attempt = 1; attempt <= 10; attempt += 1) expect(await signUp(freshEmail('endereco'), ip), `attempt ${attempt}`).toEqual(SIGN_UP_TAKEN);
    const refused = freshEmail('endereco');
    expect(await signUp(refused, ip)).toEqual(SIGN_UP_THROTTLED);
    expect(await signUp(freshEmail('endereco'), ip)).toEqual(SIGN_UP_THROTTLED);
    expect(await mailsTo(refused)).toBe(0);
    expect(await signUp(freshEmail('endereco'))).toEqual(SIGN_UP_TAKEN);
  });

  it('counts an IPv6 client by its /64', async () => {
    for (let host = 1; host <= 10; host += 1) expect(await signUp(freshEmail('v6'), `2001:db8:22:7::${host.toString(16)}`)).toEqual(SIGN_UP_TAKEN);
    expect(await signUp(freshEmail('v6'), '2001:db8:22:7:ffff::1')).toEqual(SIGN_UP_THROTTLED);
    expect(await signUp(freshEmail('v6'), '2001:db8:22:8::1')).toEqual(SIGN_UP_TAKEN);
  });

  it('does not count a form refused for a field (400)', async () => {
    const ip = freshAddress();
    const email = freshEmail('erro');
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      const refused = await post('/signup', { ...signUpBody(email), responsibleCpf: '529.982.247-24' }, ip);
      expect(refused).toEqual({ status: 400, body: { error: messages.invalidResponsibleCpf, field: 'responsibleCpf' } });
    }
    expect(await signUp(email, ip)).toEqual(SIGN_UP_TAKEN);
  });
});

describe('POST /dashboard/api/v1/password-reset is throttled', () => {
  let person: DashboardPerson;
  beforeEach(async () => {
    person = await signUpOwner(gateway, { approved: false });
  });

  it('per e-mail: 3 reset e-mails an hour at most, however many requests, from any address', async () => {
    const before = await mailsTo(person.email);
    for (let attempt = 1; attempt <= 3; attempt += 1) expect(await requestReset(person.email), `attempt ${attempt}`).toEqual(RESET_TAKEN);
    for (let attempt = 4; attempt <= 14; attempt += 1) expect(await requestReset(person.email), `attempt ${attempt}`).toEqual(RESET_THROTTLED);
    expect((await mailsTo(person.email)) - before).toBe(3);
    gateway.clock.advance(HOUR_MS);
    expect(await requestReset(person.email)).toEqual(RESET_TAKEN);
    expect((await mailsTo(person.email)) - before).toBe(4);
  });

  it('answers an unknown e-mail exactly as a registered one, throttle included', async () => {
    const unknown = freshEmail('ninguem');
    const answers = async (email: string) => {
      const seen = [];
      for (let attempt = 1; attempt <= 5; attempt += 1) seen.push(await requestReset(email));
      return seen;
    };
    expect(await answers(unknown)).toEqual(await answers(person.email));
    expect(await mailsTo(unknown)).toBe(0);
  });

  it('per client address: 10 an hour, whatever the e-mails', async () => {
    const ip = freshAddress();
    for (let attempt = 1; attempt <= 10; attempt += 1) expect(await requestReset(freshEmail('reset'), ip), `attempt ${attempt}`).toEqual(RESET_TAKEN);
    const before = await mailsTo(person.email);
    expect(await requestReset(person.email, ip)).toEqual(RESET_THROTTLED);
    expect(await mailsTo(person.email)).toBe(before);
    expect(await requestReset(person.email)).toEqual(RESET_TAKEN);
  });

  it('keeps sign-up, reset and sign-in counters apart', async () => {
    const ip = freshAddress();
    for (let attempt = 1; attempt <= 10; attempt += 1) await requestReset(freshEmail('separado'), ip);
    expect(await requestReset(freshEmail('separado'), ip)).toEqual(RESET_THROTTLED);
    expect(await signUp(freshEmail('separado'), ip)).toEqual(SIGN_UP_TAKEN);
    const signedIn = await post('/session', { email: person.email, password: DASHBOARD_PASSWORD }, ip);
    expect(signedIn.status).toBe(200);
  });
});
