import { describe, expect, it } from 'vitest';
import { DASHBOARD_PASSWORD, freshEmail, rawCall } from '../support/dashboardAccounts.ts';
import { ADMIN_TOKEN, useGateway } from '../support/gateway.ts';

/**
 * Issue 22, defect 12 (smaller): `carla@pixgate` was accepted as an e-mail; a domain needs a dot and a
 * top-level domain of letters, wherever the dashboard and the back office take an e-mail. And the back
 * office's `POST /admin/v1/accounts` takes the legal name as it would be stored (normalised, visible
 * characters), like the dashboard's sign-up (defect 4): a blank name never reaches the accounts list.
 */

const gateway = useGateway();

const NOT_AN_EMAIL = ['carla@pixgate', 'carla@pixgate.', 'carla@pixgate.c0m', 'carla@192.168.0.1', 'carla@.com.br'];
const emailRefused = { status: 400, body: { error: 'E-mail: informe um endereço válido.', field: 'email' } };

const admin = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
  const response = await fetch(`${gateway.adminBaseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};

const accountBody = (overrides: Record<string, unknown> = {}) => ({
  legalName: 'Loja Exemplo Ltda',
  responsibleCpf: '52998224725',
  companyCnpj: '11222333000181',
  email: 'financeiro@lojaexemplo.com.br',
  ...overrides,
});

const accountCount = async (): Promise<number> => ((await admin('GET', '/admin/v1/accounts')).body as { count: number }).count;

describe('an e-mail needs a domain with a dot and a top-level domain', () => {
  it('the dashboard refuses carla@pixgate at sign-up, sign-in and password reset, beside the field', async () => {
    for (const email of NOT_AN_EMAIL) {
      const signUp = { legalName: 'Loja Nova Ltda', responsibleCpf: '52998224725', companyCnpj: '11222333000181', city: 'São Paulo', state: 'SP', name: 'Carla', email, password: DASHBOARD_PASSWORD };
      expect(await rawCall(gateway, { method: 'POST', path: '/dashboard/api/v1/signup', body: signUp }), email).toEqual(emailRefused);
      expect(await rawCall(gateway, { method: 'POST', path: '/dashboard/api/v1/session', body: { email, password: DASHBOARD_PASSWORD } }), email).toEqual(emailRefused);
      expect(await rawCall(gateway, { method: 'POST', path: '/dashboard/api/v1/password-reset', body: { email } }), email).toEqual(emailRefused);
    }
    // Addresses people have: subdomains, hyphens, long and internationalised top-level domains.
    for (const email of [freshEmail('carla'), 'carla.souza+loja@mail.pixgate.com.br', 'carla@loja-exemplo.com', 'carla@exemplo.museum', 'carla@exemplo.xn--p1ai']) {
      const answer = await rawCall(gateway, { method: 'POST', path: '/dashboard/api/v1/password-reset', body: { email } });
      expect(answer.status, `${email}: ${JSON.stringify(answer.body)}`).toBe(202);
    }
  });

  it('the back office refuses carla@pixgate for an account, an operator and an operator\'s sign-in, beside the field', async () => {
    const before = await accountCount();
    for (const email of NOT_AN_EMAIL) {
      expect(await admin('POST', '/admin/v1/accounts', accountBody({ email })), email).toEqual(emailRefused);
      expect(await admin('POST', '/admin/v1/operators', { email, name: 'Carla', roles: ['compliance'] }), email).toEqual(emailRefused);
      const signIn = await fetch(`${gateway.adminBaseUrl}/admin/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'qualquer senha' }) });
      expect({ status: signIn.status, body: (await signIn.json()) as unknown }, email).toEqual(emailRefused);
    }
    expect(await accountCount()).toBe(before);
    expect((await admin('POST', '/admin/v1/accounts', accountBody({ email: 'carla@pixgate.com.br' }))).status).toBe(201);
  });
});

describe('the back office takes a legal name as it would be stored', () => {
  it('refuses a name of spaces or of invisible characters, and one visible character, beside the field', async () => {
    const before = await accountCount();
    const required = { status: 400, body: { error: 'Razão social: campo obrigatório.', field: 'legalName' } };
    expect(await admin('POST', '/admin/v1/accounts', accountBody({ legalName: '      ' }))).toEqual(required);
    expect(await admin('POST', '/admin/v1/accounts', accountBody({ legalName: '\u00a0\u00a0\u2003' }))).toEqual(required);
    expect(await admin('POST', '/admin/v1/accounts', accountBody({ legalName: '\u200b\u200b\u200b' }))).toEqual(required);
    expect(await admin('POST', '/admin/v1/accounts', accountBody({ legalName: '  A   ' }))).toEqual({ status: 400, body: { error: 'Razão social: mínimo de 2 caracteres.', field: 'legalName' } });
    expect(await admin('POST', '/admin/v1/accounts', accountBody({ legalName: 'Loja\u0007Sino' }))).toEqual({ status: 400, body: { error: 'Razão social: valor inválido.', field: 'legalName' } });
    expect(await accountCount()).toBe(before);
    // Stored normalised: runs of white space become one space, the ends trimmed.
    const created = await admin('POST', '/admin/v1/accounts', accountBody({ legalName: '  Loja \t Exemplo\u00a0 Ltda ' }));
    expect(created.status).toBe(201);
    expect((created.body as { legalName: string }).legalName).toBe('Loja Exemplo Ltda');
    expect((await admin('GET', '/admin/v1/accounts')).status).toBe(200);
  });
});
