import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCnpj, makeCpf } from '../support/gateway.ts';
import { Authenticator, PHONE, screen, signInOperator, startAll, stopAll, type HttpSession, type RunningGateway, type WebhookReceiver } from './support.ts';

/**
 * Issue 36, item 3, in Chromium on a 375×812 touch screen: a payer opens a payment link's page, sees the
 * amount and the copy-and-paste code, pays (the back office's sandbox), and the page turns to "Pago" without
 * a reload. Screens go to reports/screens/issue36-link-*.png.
 */
let gateway: RunningGateway;
let receiver: WebhookReceiver;
let browser: Browser;
let operator: HttpSession;
let apiKey: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  const started = await startAll();
  ({ gateway, receiver, browser } = started as Required<typeof started>);
  if ('failure' in started) throw started.failure;
  operator = await signInOperator(gateway, new Authenticator(), 'cavalo correto bateria grampo 2026');
  const account = await operator.ok('POST', '/admin/v1/accounts', {
    legalName: 'Loja do Bairro Ltda',
    responsibleCpf: makeCpf(3637),
    companyCnpj: makeCnpj(3637),
    email: 'financeiro@lojadobairro.com.br',
    kycStatus: 'approved',
  });
  const key = await operator.ok('POST', `/admin/v1/accounts/${String(account.accountId)}/api-keys`, { label: 'e2e' });
  apiKey = String(key.apiKey);
}, 180_000);

afterAll(() => stopAll({ gateway, receiver, browser }, pageErrors));

describe('a payment link on a phone (issue 36)', () => {
  it('shows the amount and the copy code, and turns to "Pago" by itself when paid', async () => {
    const created = await fetch(`${gateway.baseUrl}/v1/payment-links`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amountCents: 4_990, description: 'Camiseta azul, tamanho M' }),
    });
    expect(created.status).toBe(201);
    const link = (await created.json()) as { url: string };

    const context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', ...PHONE });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      // A Content-Security-Policy refusal shows only in the console.
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(link.url);
    await page.getByRole('heading', { level: 1, name: 'R$ 49,90' }).waitFor();
    await page.getByText('Loja do Bairro Ltda', { exact: true }).waitFor();
    await page.getByRole('img', { name: /QR code do Pix/ }).waitFor();
    const code = await page.getByLabel('Pix copia e cola').inputValue();
    expect(code).toMatch(/^000201/);
    await page.getByRole('button', { name: 'Copiar código' }).waitFor();
    expect(await page.getByRole('status').textContent()).toBe('Aguardando pagamento');
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(375);
    await screen(page, 'issue36-link-phone-aguardando');

    const transactionId = await page.locator('#pagamento').getAttribute('data-charge');
    await operator.ok('POST', `/admin/v1/sandbox/charges/${String(transactionId)}/pay`);
    // No reload: the page polls its status every 2.5 s.
    await page.getByRole('status').filter({ hasText: 'Pago!' }).waitFor({ timeout: 15_000 });
    expect(await page.getByLabel('Pix copia e cola').isVisible()).toBe(false);
    await screen(page, 'issue36-link-phone-pago');
    await context.close();
  });
});
