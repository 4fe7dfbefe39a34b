import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCnpj, makeCpf } from '../support/gateway.ts';
import { Authenticator, fieldError, HttpSession, outboxVerificationToken, screen, signInOperator, startAll, type Json, type RunningGateway, type WebhookReceiver } from './support.ts';

/**
 * Issue 36, item 5, in Chromium on a 375×812 touch screen: "Nova cobrança com vencimento" through the form
 * (amount in reais, due date, the payer, fine, interest and a discount until a date), a refusal shown beside
 * its field in Portuguese, the created charge with its amount due today and its BR Code, the charge in
 * "Cobranças com vencimento", and its cancellation asked first. No page scrolls sideways.
 * Screens go to reports/screens/issue36-*.png.
 */
const PASSWORD = 'uma senha bem longa 2026';
const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

let gateway: RunningGateway;
let receiver: WebhookReceiver;
let browser: Browser;
let owner: HttpSession;
const pageErrors: string[] = [];

const dashboard = (route: string) => `${gateway.baseUrl}/dashboard/#${route}`;

/** A São Paulo calendar day `days` from today, `AAAA-MM-DD` (the gateway runs on the real clock). */
function saoPauloDay(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + days * 86_400_000));
}
const brazilian = (day: string) => day.split('-').reverse().join('/');

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(375);
}

beforeAll(async () => {
  const started = await startAll();
  ({ gateway, receiver, browser } = started as Required<typeof started>);
  if ('failure' in started) throw started.failure;
  const email = 'caio.vencimento@escolaexemplo.com.br';
  owner = new HttpSession(gateway.baseUrl);
  const signUp = { legalName: 'Escola Exemplo Ltda', companyCnpj: makeCnpj(3636), responsibleCpf: makeCpf(3636), city: 'São Paulo', state: 'SP', name: 'Caio', email, password: PASSWORD };
  expect((await owner.call('POST', '/dashboard/api/v1/signup', signUp)).status).toBe(202);
  await owner.ok('POST', '/dashboard/api/v1/session', { email, password: PASSWORD });
  await owner.ok('POST', '/dashboard/api/v1/email-verification', { token: await outboxVerificationToken(gateway, email) });
  const accountId = String(((await owner.ok('GET', '/dashboard/api/v1/session')).account as Json).accountId);
  const operator = await signInOperator(gateway, new Authenticator(), 'cavalo correto bateria grampo 2026');
  await operator.ok('PATCH', `/admin/v1/accounts/${accountId}`, { kycStatus: 'approved' });
}, 180_000);

afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await browser?.close();
  await receiver?.close();
  const output = gateway?.output() ?? '';
  await gateway?.stop();
  expect(output).not.toMatch(/"level":"error"|Internal server error|Erro interno/);
});

describe('charges with a due date on a phone (issue 36)', () => {
  it('creates one through the form, shows what is due today and its code, lists it, and cancels it after asking', async () => {
    const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', ...PHONE });
    await context.addCookies([{ name: 'pixgate_session', value: owner.cookies.get('pixgate_session') ?? '', domain: '127.0.0.1', path: '/dashboard', httpOnly: true, sameSite: 'Strict' }]);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));

    // From Transações, next to "Nova cobrança"; the header keeps Transações as the section.
    await page.goto(dashboard('/visao-geral'));
    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Transações' }).click();
    await page.getByRole('link', { name: 'Cobranças com vencimento' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cobranças com vencimento' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Transações' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('link', { name: 'Nova cobrança com vencimento' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nova cobrança com vencimento' }).waitFor();

    const dueDate = saoPauloDay(20);
    const discountUntil = saoPauloDay(10);
    await page.getByLabel('Valor (R$)').fill('250,00');
    // A day before today: the server's refusal, beside the field, by its label.
    await page.getByLabel('Vencimento', { exact: true }).fill(saoPauloDay(-1));
    await page.getByLabel('Nome do pagador').fill('Maria da Silva');
    await page.getByLabel('CPF ou CNPJ do pagador').fill('529.982.247-25');
    await page.getByLabel('Multa (%)').fill('2');
    await page.getByLabel('Juros ao mês (%)').fill('1');
    await page.getByLabel('Desconto (R$)').fill('10,00');
    await page.getByLabel('Desconto até').fill(discountUntil);
    await page.getByRole('button', { name: 'Criar cobrança com vencimento' }).click();
    expect(await fieldError(page, 'Vencimento')).toBe(`Vencimento: não pode ser anterior a hoje (${brazilian(saoPauloDay(0))}).`);
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-phone-nova-cobranca-com-vencimento');

    await page.getByLabel('Vencimento', { exact: true }).fill(dueDate);
    await page.getByRole('button', { name: 'Criar cobrança com vencimento' }).click();
    await page.getByText('Cobrança com vencimento criada.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Cobrança com vencimento' }).waitFor();
    // Before the discount's date: R$ 250,00 − R$ 10,00.
    expect(await page.getByTestId('amount-due-today').textContent()).toBe('R$ 240,00');
    await page.getByText(`R$ 10,00 até ${brazilian(discountUntil)}`).waitFor();
    await page.getByText('1% ao mês (dias corridos)').waitFor();
    await page.getByRole('img', { name: 'QR code Pix da cobrança' }).waitFor();
    await page.getByRole('button', { name: 'Copiar código' }).waitFor();
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-phone-cobranca-com-vencimento');

    await page.getByRole('link', { name: '← Cobranças com vencimento' }).click();
    const row = page.getByTestId('due-charges').getByRole('row', { name: /Maria da Silva/ });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('R$ 250,00');
    expect(await row.textContent()).toContain('R$ 240,00');
    expect(await row.textContent()).toContain(brazilian(dueDate));
    expect(await row.textContent()).toContain('Pendente');
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-phone-cobrancas-com-vencimento');

    await row.getByRole('link', { name: 'Maria da Silva' }).click();
    await page.getByRole('button', { name: 'Cancelar cobrança' }).click();
    await page.getByRole('group', { name: /^Cancelar a cobrança de Maria da Silva \(R\$ 250,00\)\?/ }).getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('Cobrança cancelada: o pagador não consegue mais pagá-la.').waitFor();
    await page.getByText('Cancelado').first().waitFor();
    await context.close();
  });
});
