import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { authOf, databaseState, DASHBOARD_PASSWORD, freshEmail, rawCall, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { makeCpf, useGateway } from '../support/gateway.ts';

/**
 * Issue 22, defect 4: `"legalName": "   "` was accepted at sign-up (202) and stored empty, after which the
 * back office's list of accounts failed for everyone. Every free text the dashboard takes (legal name and
 * name at sign-up, an invited person's name, a recipient's legal name and label, an API key's label, a
 * webhook URL's description) is normalised first (ends trimmed, each run of white space one space) and
 * checked as it would be stored, with the dashboard's form messages beside the field.
 */
const gateway = useGateway();
let owner: DashboardPerson;

const signUpBody = (overrides: Record<string, unknown> = {}) => ({
  legalName: 'Loja Nome Ltda',
  responsibleCpf: makeCpf(),
  companyCnpj: '11.222.333/0001-81',
  city: 'São Paulo',
  state: 'SP' as const,
  name: 'Dona Nome',
  email: freshEmail('nome'),
  password: DASHBOARD_PASSWORD,
  ...overrides,
});

const call = (method: string, path: string, body?: unknown, as?: DashboardPerson) =>
  rawCall(gateway, { method, path: `/dashboard/api/v1${path}`, ...(body === undefined ? {} : { body }) }, as ? authOf(as) : {});

async function storedAccount(email: string): Promise<{ legal_name: string; name: string } | undefined> {
  const { rows } = await sql<{ legal_name: string; name: string }>`
    SELECT a.legal_name, u.name FROM dashboard_users u JOIN accounts a ON a.id = u.account_id WHERE u.email = ${email}`.execute(gateway.deps.db);
  return rows[0];
}

beforeAll(async () => {
  owner = await signUpOwner(gateway);
}, 60_000);

describe('sign-up: names checked once normalised', () => {
  it('refuses a legal name of spaces (the issue), of other white space or invisible characters, beside the field, creating nothing', async () => {
    const before = await databaseState(gateway);
    const required = { status: 400, body: { error: 'Razão social: campo obrigatório.', field: 'legalName' } };
    expect(await call('POST', '/signup', signUpBody({ legalName: '   ' }))).toEqual(required);
    expect(await call('POST', '/signup', signUpBody({ legalName: ' \t\n\u00a0 ' }))).toEqual(required);
    expect(await call('POST', '/signup', signUpBody({ legalName: '\u200b\u200b\u200b' }))).toEqual(required);
    expect(await call('POST', '/signup', signUpBody({ legalName: ' A  ' }))).toEqual({ status: 400, body: { error: 'Razão social: mínimo de 2 caracteres.', field: 'legalName' } });
    expect(await call('POST', '/signup', signUpBody({ legalName: 'Loja\u0007Sino Ltda' }))).toEqual({ status: 400, body: { error: 'Razão social: valor inválido.', field: 'legalName' } });
    expect(await call('POST', '/signup', signUpBody({ name: '    ' }))).toEqual({ status: 400, body: { error: 'Nome: campo obrigatório.', field: 'name' } });
    expect(await call('POST', '/signup', signUpBody({ name: '\u2003\u2003' }))).toEqual({ status: 400, body: { error: 'Nome: campo obrigatório.', field: 'name' } });
    expect(await databaseState(gateway)).toEqual(before);
  });

  it('stores names normalised: ends trimmed, each run of white space one space', async () => {
    const body = signUpBody({ legalName: '  Loja   Nova \t Comércio\nLtda  ', name: ' Maria   da  Silva ' });
    expect((await call('POST', '/signup', body)).status).toBe(202);
    expect(await storedAccount(String(body.email))).toEqual({ legal_name: 'Loja Nova Comércio Ltda', name: 'Maria da Silva' });
  });

  it('leaves the back office able to list every account', async () => {
    const listed = await gateway.admin.GET('/admin/v1/accounts');
    expect(listed.response.status).toBe(200);
    expect(listed.data?.accounts.every((account) => account.legalName.trim().length >= 2)).toBe(true);
    expect(gateway.loggedErrors).toEqual([]);
  });
});

describe('the other dashboard forms with free text', () => {
  it('invitations: a blank name is refused beside the field, a spaced one stored normalised', async () => {
    const before = await databaseState(gateway);
    for (const name of ['   ', '\t\n']) {
      expect(await call('POST', '/users', { email: freshEmail('convite'), name, role: 'viewer' }, owner)).toEqual({ status: 400, body: { error: 'Nome: campo obrigatório.', field: 'name' } });
    }
    expect(await databaseState(gateway)).toEqual(before);
    const invited = await call('POST', '/users', { email: freshEmail('convite'), name: '  Ana   Lima ', role: 'viewer' }, owner);
    expect(invited).toMatchObject({ status: 201, body: { name: 'Ana Lima' } });
  });

  it('recipients: a blank legal name gets a message with the label beside the field; names are stored normalised', async () => {
    const recipient = { document: '11444777000161', documentType: 'cnpj', pixKey: 'pagar@fornecedor.com.br', pixKeyType: 'email' };
    const before = await databaseState(gateway);
    expect(await call('POST', '/recipients', { ...recipient, legalName: '    ' }, owner)).toEqual({ status: 400, body: { error: 'Razão social: informe pelo menos 2 letras ou números, não só espaços.', field: 'legalName' } });
    expect(await databaseState(gateway)).toEqual(before);
    const registered = await call('POST', '/recipients', { ...recipient, legalName: ' Fornecedor   Alfa\tLtda ', label: '  embalagens   e caixas ' }, owner);
    expect(registered.status).toBe(201);
    const listed = await call('GET', '/recipients', undefined, owner);
    expect(listed.body).toMatchObject({ recipients: [{ legalName: 'Fornecedor Alfa Ltda', label: 'embalagens e caixas' }] });
  });

  it('API keys and webhook URLs: a blank label or description is no text, a spaced one is normalised', async () => {
    const blank = await call('POST', '/api-keys', { label: '   ' }, owner);
    expect(blank).toMatchObject({ status: 201, body: { label: null } });
    const spaced = await call('POST', '/api-keys', { label: ' Servidor   da loja ' }, owner);
    expect(spaced).toMatchObject({ status: 201, body: { label: 'Servidor da loja' } });
    const webhook = await call('POST', '/webhooks', { url: 'http://127.0.0.1:9/ganchos', description: '  \t ' }, owner);
    expect(webhook).toMatchObject({ status: 201, body: { description: null } });
    const endpointId = (webhook.body as { endpointId: string }).endpointId;
    expect(await call('PATCH', `/webhooks/${endpointId}`, { description: ' ERP   financeiro ' }, owner)).toMatchObject({ status: 200, body: { description: 'ERP financeiro' } });
    expect(await call('PATCH', `/webhooks/${endpointId}`, { description: '   ' }, owner)).toMatchObject({ status: 200, body: { description: null } });
  });
});
