import { describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { parseBrCode } from '../../src/primitives/brcodeParser.ts';
import { dashboardBrowser } from '../support/dashboardClient.ts';
import { freshEmail, invitePerson, signUpOwner, DASHBOARD_PASSWORD } from '../support/dashboardAccounts.ts';
import { makeCnpj, makeCpf, useGateway, validCustomer } from '../support/gateway.ts';

/**
 * Issue 38, defect 12: the BR Code's merchant city (field 60) was always "SAO PAULO"; sign-up never asked
 * the merchant's city. Sign-up now asks the city and its UF (a municipality of the IBGE's list, matched
 * without accents or case), the account settings change it, and every charge made afterwards carries it.
 */
const gateway = useGateway();

const signUpBody = (email: string, place: Record<string, unknown>) => ({
  legalName: 'Loja Cidade Ltda',
  responsibleCpf: makeCpf(),
  companyCnpj: makeCnpj(),
  name: 'Pessoa da Cidade',
  email,
  password: DASHBOARD_PASSWORD,
  ...place,
});

async function rawSignUp(body: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${gateway.baseUrl}/dashboard/api/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

async function accountRowOf(email: string) {
  const user = await gateway.deps.db.selectFrom('dashboard_users').select('account_id').where('email', '=', email).executeTakeFirst();
  return user && gateway.deps.db.selectFrom('accounts').selectAll().where('id', '=', user.account_id).executeTakeFirstOrThrow();
}

describe('the merchant city at sign-up (issue 38, defect 12)', () => {
  it('is asked: a sign-up without it is refused beside the city field, and opens no account', async () => {
    const email = freshEmail('semcidade');
    const answer = await rawSignUp(signUpBody(email, {}));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field: 'city' });
    expect((answer.body as { error: string }).error).toMatch(/^Cidade: /);
    expect(await accountRowOf(email)).toBeUndefined();
  });

  it('must be a municipality of the chosen UF: otherwise 400 beside the field, with the closest names, and nothing made', async () => {
    const email = freshEmail('cidadeerrada');
    const typo = await rawSignUp(signUpBody(email, { city: 'Sao Jose dos Campo', state: 'SP' }));
    expect(typo).toEqual({ status: 400, body: { error: messages.merchantCityUnknown('Sao Jose dos Campo', 'SP', ['São José dos Campos']), field: 'city' } });
    expect((typo.body as { error: string }).error).toContain('Você quis dizer São José dos Campos?');
    // Campinas is in SP, not in RJ.
    expect(await rawSignUp(signUpBody(email, { city: 'Campinas', state: 'RJ' }))).toMatchObject({ status: 400, body: { field: 'city' } });
    expect(await rawSignUp(signUpBody(email, { city: 'Campinas', state: 'XX' }))).toMatchObject({ status: 400, body: { field: 'state' } });
    expect(await rawSignUp(signUpBody(email, { city: '   ', state: 'SP' }))).toMatchObject({ status: 400, body: { field: 'city' } });
    expect(await accountRowOf(email)).toBeUndefined();
    expect((await gateway.deps.mailer.recent({ to: email, limit: 5 })).length).toBe(0);
  });

  it('is stored as the IBGE writes it, whatever the accents and case typed, and shown in the session', async () => {
    const email = freshEmail('cidadecerta');
    expect((await rawSignUp(signUpBody(email, { city: '  sao  jose dos campos ', state: 'SP' }))).status).toBe(202);
    expect(await accountRowOf(email)).toMatchObject({ city: 'São José dos Campos', state: 'SP', city_ibge_code: '3549904' });
    const browser = dashboardBrowser(gateway);
    const session = await browser.api.POST('/dashboard/api/v1/session', { body: { email, password: DASHBOARD_PASSWORD } });
    expect(session.data?.account).toMatchObject({ city: 'São José dos Campos', state: 'SP' });
  });
});

describe("the BR Code carries the merchant's city (issue 38, defect 12)", () => {
  it("puts the account's city in field 60 (ASCII capitals, cut to 15), and the one set in the settings from then on", async () => {
    const owner = await signUpOwner(gateway, { city: { city: 'São José dos Campos', state: 'SP' } });
    const first = await owner.browser.api.POST('/dashboard/api/v1/charges', { body: { amountCents: 1_000, customer: validCustomer } });
    expect(first.response.status).toBe(201);
    expect(parseBrCode(first.data?.pixPayload ?? '').merchantCity).toBe('SAO JOSE DOS CA');

    const changed = await owner.browser.api.PATCH('/dashboard/api/v1/account', { body: { city: 'itajai', state: 'SC' } });
    expect(changed.response.status).toBe(200);
    expect(changed.data).toMatchObject({ city: 'Itajaí', state: 'SC' });
    const second = await owner.browser.api.POST('/dashboard/api/v1/charges', { body: { amountCents: 1_000, customer: validCustomer } });
    expect(parseBrCode(second.data?.pixPayload ?? '').merchantCity).toBe('ITAJAI');
    // The first charge keeps the code it was given.
    const read = await owner.browser.api.GET('/dashboard/api/v1/transactions/{transactionId}', { params: { path: { transactionId: first.data?.transactionId ?? '' } } });
    expect(parseBrCode(read.data?.transaction.pixPayload ?? '').merchantCity).toBe('SAO JOSE DOS CA');

    const audit = await gateway.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'account.city_changed').where('account_id', '=', owner.accountId).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_type: 'user', actor_id: owner.userId, before: { city: 'São José dos Campos', state: 'SP' }, after: { city: 'Itajaí', state: 'SC', cityIbgeCode: '4208203' } });
  });

  it('refuses a city the UF does not have beside the field and changes nothing; a developer may not change it', async () => {
    const owner = await signUpOwner(gateway, { city: { city: 'Recife', state: 'PE' } });
    const refused = await owner.browser.api.PATCH('/dashboard/api/v1/account', { body: { city: 'Recife', state: 'PB' } });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ field: 'city' });
    const developer = await invitePerson(gateway, owner, 'developer');
    const forbidden = await developer.browser.api.PATCH('/dashboard/api/v1/account', { body: { city: 'Olinda', state: 'PE' } });
    expect(forbidden.response.status).toBe(403);
    const overview = await owner.browser.api.GET('/dashboard/api/v1/overview');
    expect(overview.data?.account).toMatchObject({ city: 'Recife', state: 'PE' });
  });

  it('keeps SAO PAULO for an account that never told its city (opened by the back office), until it is set', async () => {
    const owner = await signUpOwner(gateway, { city: { city: 'Manaus', state: 'AM' } });
    await gateway.deps.db.updateTable('accounts').set({ city: null, state: null, city_ibge_code: null }).where('id', '=', owner.accountId).execute();
    const charge = await owner.browser.api.POST('/dashboard/api/v1/charges', { body: { amountCents: 1_000, customer: validCustomer } });
    expect(parseBrCode(charge.data?.pixPayload ?? '').merchantCity).toBe('SAO PAULO');
    const overview = await owner.browser.api.GET('/dashboard/api/v1/overview');
    expect(overview.data?.account.city).toBeUndefined();
  });
});
