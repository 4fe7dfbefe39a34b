import { describe, expect, it } from 'vitest';
import { expectNoSidewaysScroll, fieldError, screen, usePhoneDashboard } from './support.ts';

/**
 * Issue 36, item 5, in Chromium on a 375×812 touch screen: "Nova cobrança com vencimento" through the form
 * (amount in reais, due date, the payer, fine, interest and a discount until a date), a refusal shown beside
 * its field in Portuguese, the created charge with its amount due today and its BR Code, the charge in
 * "Cobranças com vencimento", and its cancellation asked first. No page scrolls sideways.
 * Screens go to reports/screens/issue36-*.png.
 */
const PASSWORD = 'uma senha bem longa 2026';

/** A São Paulo calendar day `days` from today, `AAAA-MM-DD` (the gateway runs on the real clock). */
function saoPauloDay(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + days * 86_400_000));
}
const brazilian = (day: string) => day.split('-').reverse().join('/');

const phone = usePhoneDashboard({ legalName: 'Escola Exemplo Ltda', documentSeed: 3636, name: 'Caio', email: 'caio.vencimento@escolaexemplo.com.br', password: PASSWORD });

describe('charges with a due date on a phone (issue 36)', () => {
  it('creates one through the form, shows what is due today and its code, lists it, and cancels it after asking', async () => {
    const { context, page } = await phone.open();

    // From Transações, next to "Nova cobrança"; the header keeps Transações as the section.
    await page.goto(phone.dashboard('/visao-geral'));
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
