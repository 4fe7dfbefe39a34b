import { describe, expect, it } from 'vitest';
import { expectNoSidewaysScroll, fieldError, screen, usePhoneDashboard } from './support.ts';

/**
 * Issue 36, item 5, in Chromium on a 375×812 touch screen: "Novo link de pagamento" through the form (a
 * refusal shown beside its field in Portuguese), the created link with "Copiar link" (the clipboard holds its
 * address) and "Abrir página" (the hosted page opens in a new tab), a payment on that page paid by the
 * sandbox's charge-pay, and the payment among the link's payments with its transaction's page a tap away;
 * then the link in "Links de pagamento" and its deactivation asked first. No page scrolls sideways.
 * Screens go to reports/screens/issue36-link-dashboard-*.png.
 */
const PASSWORD = 'uma senha bem longa 2026';

const phone = usePhoneDashboard({ legalName: 'Loja Exemplo de Links Ltda', documentSeed: 3638, name: 'Bia', email: 'bia.links@lojaexemplo.com.br', password: PASSWORD });

describe('payment links in the dashboard on a phone (issue 36)', () => {
  it('creates one through the form, copies and opens it, sees a payment made on its page, lists it and deactivates it after asking', async () => {
    const { context, page } = await phone.open({ clipboard: true });

    // From Transações, next to "Nova cobrança"; the header keeps Transações as the section.
    await page.goto(phone.dashboard('/visao-geral'));
    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Transações' }).click();
    await page.getByRole('link', { name: 'Links de pagamento' }).click();
    await page.getByRole('heading', { level: 1, name: 'Links de pagamento' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Transações' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('Nenhum link de pagamento.').waitFor();
    await page.getByRole('link', { name: 'Novo link de pagamento' }).click();
    await page.getByRole('heading', { level: 1, name: 'Novo link de pagamento' }).waitFor();

    await page.getByLabel('Valor (R$)').fill('49,90');
    await page.getByLabel('Descrição').fill('Camiseta azul, tamanho M');
    // More than a year: the server's refusal, beside the field, by its label.
    await page.getByLabel('Validade (dias)').fill('400');
    await page.getByRole('button', { name: 'Criar link de pagamento' }).click();
    expect(await fieldError(page, 'Validade (dias)')).toBe('Validade (dias): o máximo é 365.');
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-link-dashboard-phone-novo');

    await page.getByLabel('Validade (dias)').fill('7');
    await page.getByLabel('Uso do link').selectOption('false');
    await page.getByRole('button', { name: 'Criar link de pagamento' }).click();
    await page.getByText('Link de pagamento criado.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Link de pagamento' }).waitFor();
    const url = (await page.getByTestId('payment-link-url').textContent()) ?? '';
    expect(url).toMatch(new RegExp(`^${phone.gateway.baseUrl.replace(/[.]/g, '\\.')}/pay/pl_[0-9a-f]{24}$`));
    const whatsapp = await page.getByRole('link', { name: 'Enviar pelo WhatsApp' }).getAttribute('href');
    expect(whatsapp).toBe(`https://wa.me/?text=${encodeURIComponent(`Camiseta azul, tamanho M — R$ 49,90. Pague com Pix: ${url}`)}`);

    // "Copiar link": the clipboard holds the page's address.
    await page.getByRole('button', { name: 'Copiar link' }).click();
    await page.getByRole('status').filter({ hasText: 'Link copiado.' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);
    await page.getByText('Nenhum pagamento ainda.').waitFor();
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-link-dashboard-phone-link');

    // "Abrir página": the payer's page, in a new tab; paid there by the sandbox's charge-pay.
    const [payerPage] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Abrir página' }).click()]);
    await payerPage.waitForLoadState();
    expect(payerPage.url()).toBe(url);
    await payerPage.getByRole('heading', { level: 1, name: 'R$ 49,90' }).waitFor();
    const transactionId = String(await payerPage.locator('#pagamento').getAttribute('data-charge'));
    expect(transactionId).toMatch(/^tx_[0-9a-f]{24}$/);
    await phone.owner.ok('POST', `/dashboard/api/v1/sandbox/charges/${transactionId}/pay`);
    await payerPage.getByRole('status').filter({ hasText: 'Pago!' }).waitFor({ timeout: 15_000 });
    await payerPage.close();

    // Among the link's payments (the page reads itself again), linked to the transaction's page.
    const row = page.getByTestId('payment-link-payments').getByRole('row', { name: new RegExp(transactionId) });
    await row.waitFor({ timeout: 20_000 });
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('Pago');
    expect(await row.textContent()).toContain('R$ 49,90');
    expect(await page.getByTestId('payment-link-received').textContent()).toBe('R$ 49,90');
    await page.getByText('Usado (pago)').first().waitFor();
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-link-dashboard-phone-pago');
    await row.getByRole('link', { name: transactionId }).click();
    await page.getByRole('heading', { level: 1 }).filter({ hasText: /Cobrança|Transação/ }).first().waitFor();
    expect(page.url()).toContain(`#/transacoes/${transactionId}`);
    await page.goBack();

    // The list, with its filter.
    await page.getByRole('link', { name: '← Links de pagamento' }).click();
    const listed = page.getByTestId('payment-links').getByRole('row', { name: /Camiseta azul, tamanho M/ });
    await listed.waitFor();
    expect(await listed.textContent()).toContain('R$ 49,90');
    expect(await listed.textContent()).toContain('Uso único');
    expect(await listed.textContent()).toContain('Usado (pago)');
    await page.getByLabel('Situação').selectOption('active');
    await page.getByText('Nenhum link de pagamento.').waitFor();
    await page.getByLabel('Situação').selectOption('used');
    await listed.waitFor();
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue36-link-dashboard-phone-lista');

    // Deactivated after asking.
    await listed.getByRole('link', { name: 'Camiseta azul, tamanho M' }).click();
    await page.getByRole('button', { name: 'Desativar link' }).click();
    await page.getByRole('group', { name: /^Desativar o link "Camiseta azul, tamanho M" \(R\$ 49,90\)\?/ }).getByRole('button', { name: 'Confirmar' }).click();
    await page.getByText('Link desativado: a página não abre mais nem gera cobranças.').waitFor();
    await page.getByText('Desativado', { exact: true }).first().waitFor();
    expect((await fetch(url)).status).toBe(410);
    await context.close();
  });
});
