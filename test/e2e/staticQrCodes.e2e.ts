import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCnpj, makeCpf } from '../support/gateway.ts';
import { Authenticator, fieldError, HttpSession, outboxVerificationToken, screen, signInOperator, startAll, type Json, type RunningGateway, type WebhookReceiver } from './support.ts';

/**
 * Issue 36, item 5 (static QR codes), in Chromium on a 375×812 touch screen: "Novo QR code estático"
 * through the form (a refusal beside its field in Portuguese first), the created code with its QR image,
 * its copy-and-paste code and the PNG and SVG downloads, "Simular pagamento" (sandbox) and the payment in
 * "Pagamentos", the code in the list, and its deactivation asked first. No page scrolls sideways.
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

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(375);
}

beforeAll(async () => {
  const started = await startAll();
  ({ gateway, receiver, browser } = started as Required<typeof started>);
  if ('failure' in started) throw started.failure;
  const email = 'bia.padaria@padariaexemplo.com.br';
  owner = new HttpSession(gateway.baseUrl);
  const signUp = { legalName: 'Padaria Exemplo Ltda', companyCnpj: makeCnpj(3637), responsibleCpf: makeCpf(3637), city: 'São Paulo', state: 'SP', name: 'Bia', email, password: PASSWORD };
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

describe('static QR codes on a phone (issue 36)', () => {
  it('creates one through the form, shows and downloads its QR code, simulates a payment that appears, lists it and deactivates it after asking', async () => {
    const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', acceptDownloads: true, ...PHONE });
    await context.addCookies([{ name: 'pixgate_session', value: owner.cookies.get('pixgate_session') ?? '', domain: '127.0.0.1', path: '/dashboard', httpOnly: true, sameSite: 'Strict' }]);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.baseUrl });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));

    // From Transações; the header keeps Transações as the section.
    await page.goto(dashboard('/visao-geral'));
    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Transações' }).click();
    await page.getByRole('link', { name: 'QR codes estáticos' }).click();
    await page.getByRole('heading', { level: 1, name: 'QR codes estáticos' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Transações' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('Nenhum QR code estático.').waitFor();
    await page.getByRole('link', { name: 'Novo QR code estático' }).click();
    await page.getByRole('heading', { level: 1, name: 'Novo QR code estático' }).waitFor();

    // R$ 0,50: the server's refusal, beside the field, by its label.
    await page.getByLabel('Valor (R$)').fill('0,50');
    await page.getByLabel('Descrição (opcional)').fill('Caixa 1');
    await page.getByRole('button', { name: 'Criar QR code' }).click();
    expect(await fieldError(page, 'Valor (R$)')).toBe('Valor: o mínimo é R$ 1,00.');
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-phone-novo-qr-code-estatico');

    await page.getByLabel('Valor (R$)').fill('15,00');
    await page.getByRole('button', { name: 'Criar QR code' }).click();
    await page.getByText('QR code estático criado.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Caixa 1' }).waitFor();
    const id = /qr-codes-estaticos\/(sqr_[0-9a-f]{24})/.exec(page.url())?.[1] ?? '';
    expect(id).toMatch(/^sqr_/);
    const image = page.getByRole('img', { name: 'QR code Pix: Caixa 1' });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    const payload = (await page.getByTestId('static-qr-payload').textContent()) ?? '';
    expect(payload).toMatch(/^000201/);
    await page.getByRole('button', { name: 'Copiar código' }).click();
    await page.getByRole('button', { name: 'Código copiado' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(payload);

    // The downloads: files named after the code, a PNG and an SVG.
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Baixar PNG' }).click()]);
    expect(png.suggestedFilename()).toBe(`pixgate-qr-${id}.png`);
    const pngBytes = await readFile((await png.path()) ?? '');
    expect([...pngBytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Baixar SVG' }).click()]);
    expect(svg.suggestedFilename()).toBe(`pixgate-qr-${id}.svg`);
    expect((await readFile((await svg.path()) ?? '')).toString('utf8')).toMatch(/^<svg /);
    await page.getByText('Nenhum pagamento recebido ainda.').waitFor();
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-phone-qr-code-estatico');

    // Sandbox: a payer pays it; the payment appears, once.
    await page.getByRole('button', { name: 'Simular pagamento' }).click();
    await page.getByText('Pagamento simulado creditado: R$ 15,00.').waitFor();
    const payments = page.getByTestId('static-qr-payments');
    const row = payments.getByRole('row', { name: /PAGADOR SANDBOX/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('R$ 15,00');
    expect(await row.textContent()).toMatch(/E[0-9A-Z]{8}\d{12}/);
    expect(await payments.getByRole('row').count()).toBe(2);
    await page.getByText('Total recebido').waitFor();
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-phone-qr-code-estatico-pago');

    await page.getByRole('link', { name: '← QR codes estáticos' }).click();
    const listed = page.getByTestId('static-qrcodes').getByRole('row', { name: /Caixa 1/ });
    await listed.waitFor();
    await expect.poll(() => listed.textContent()).toContain('Ativo');
    expect(await listed.textContent()).toContain('R$ 15,00');
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-phone-qr-codes-estaticos');

    await listed.getByRole('link', { name: 'Caixa 1' }).click();
    await page.getByRole('button', { name: 'Desativar QR code' }).click();
    await page.getByRole('group', { name: /^Desativar "Caixa 1"\?/ }).getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('QR code desativado: um Pix feito com ele daqui em diante não é creditado.').waitFor();
    await page.getByText('Desativado', { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Desativar QR code' }).count()).toBe(0);
    await context.close();
  });
});
