import { describe, expect, it } from 'vitest';
import { addCalendarDays } from '../../src/primitives/businessDays.ts';
import { saoPauloDay } from '../../src/primitives/saoPaulo.ts';
import { expectNoSidewaysScroll, fieldError, screen, usePhoneDashboard } from './support.ts';

/**
 * Issue 37, item 5 (Pix Automático), in Chromium on a 375×812 touch screen: "Nova recorrência" through the
 * form with the QR code journey (a refusal beside its field in Portuguese first), the created recurrence with
 * its QR code image and copy-and-paste code, the payer's approval in the sandbox, the jobs run now, the first
 * cycle listed and debited (Pago), the recurrence in the list as Ativa, and the overview's count. No page
 * scrolls sideways. Screens go to reports/screens/issue37-*.png.
 */
const PASSWORD = 'uma senha bem longa 2026';

const phone = usePhoneDashboard({ legalName: 'Provedor Fibra Exemplo Ltda', documentSeed: 3705, name: 'Caio', email: 'caio.fibra@fibraexemplo.com.br', password: PASSWORD });

// Each poll waits up to 20 s for the server: in CI the browser tests share two cores with the failover test,
// and a sandbox debit (provider, ledger, events) passed the default 5 s there.
describe('recurrences on a phone (issue 37)', () => {
  it('creates one with the QR journey, shows its QR code and copy code, approves it, runs the jobs, debits the cycle and sees it paid', async () => {
    const { context, page } = await phone.open({ clipboard: true });
    const today = saoPauloDay(Date.now());
    const start = addCalendarDays(today, 3);

    await page.goto(phone.dashboard('/visao-geral'));
    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Recorrências' }).click();
    await page.getByRole('heading', { level: 1, name: 'Recorrências' }).waitFor();
    await page.getByText('Nenhuma recorrência.').waitFor();
    await page.getByRole('link', { name: 'Nova recorrência' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nova recorrência' }).waitFor();

    await page.getByLabel('Nome do pagador').fill('Maria da Silva');
    await page.getByLabel('CPF ou CNPJ do pagador').fill('52998224725');
    await page.getByLabel('Contrato').fill('ASSINATURA-000123');
    await page.getByLabel('Objeto').fill('Plano Fibra 500 MB');
    await page.getByLabel('Valor (R$)').fill('99,90');
    // Tomorrow: the server's refusal, beside the field, by its label.
    await page.getByLabel('Data de início').fill(addCalendarDays(today, 1));
    await page.getByRole('button', { name: 'Criar recorrência' }).click();
    expect(await fieldError(page, 'Data de início')).toMatch(/^Data de início: deve ser a partir de \d{2}\/\d{2}\/\d{4}/);
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue37-phone-nova-recorrencia');

    await page.getByLabel('Data de início').fill(start);
    await page.getByRole('button', { name: 'Criar recorrência' }).click();
    await page.getByText('Recorrência criada.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Recorrência de Maria da Silva' }).waitFor();
    const image = page.getByRole('img', { name: 'QR code Pix Automático para o pagador autorizar' });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), { timeout: 20_000 }).toBeGreaterThan(0);
    const payload = (await page.getByTestId('recurrence-qr-payload').textContent()) ?? '';
    expect(payload).toMatch(/^000201/);
    await page.getByRole('button', { name: 'Copiar código' }).click();
    await page.getByRole('button', { name: 'Código copiado' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(payload);
    await page.getByText('Aguardando pagador', { exact: true }).first().waitFor();
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue37-phone-recorrencia-qr-code');

    // Sandbox: the payer approves it; the jobs send the first cycle; the payer's bank debits it.
    await page.getByRole('button', { name: 'Pagador aprova' }).click();
    await page.getByText('O pagador autorizou a recorrência.').waitFor();
    await page.getByText('Ativa', { exact: true }).first().waitFor();
    expect(await page.getByTestId('recurrence-qr-image').count()).toBe(0);
    await page.getByRole('button', { name: 'Executar rotinas agora' }).click();
    await page.getByText(/Rotinas executadas: 1 ciclo enviado/).waitFor();
    const cycles = page.getByTestId('recurrence-cycles');
    const row = cycles.getByRole('row', { name: /1º/ });
    await row.waitFor();
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('Agendado');
    expect(await row.textContent()).toContain('R$ 99,90');
    expect(await row.textContent()).toContain(start.split('-').reverse().join('/'));
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue37-phone-recorrencia-ciclo');

    await page.getByRole('button', { name: 'Debitar ciclo 1' }).click();
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('Pago');
    await expect.poll(() => page.getByTestId('recurrence-paid').textContent(), { timeout: 20_000 }).toBe('1');
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue37-phone-recorrencia-paga');

    await page.getByRole('link', { name: '← Recorrências' }).click();
    const listed = page.getByTestId('recurrences').getByRole('row', { name: /Maria da Silva/ });
    await listed.waitFor();
    await expect.poll(() => listed.textContent(), { timeout: 20_000 }).toContain('Ativa');
    expect(await listed.textContent()).toContain('R$ 99,90');
    await expectNoSidewaysScroll(page);
    await screen(page, 'issue37-phone-recorrencias');

    await page.getByRole('navigation', { name: 'Seções do painel' }).getByRole('link', { name: 'Visão geral' }).click();
    await expect.poll(() => page.getByTestId('recurrences-active').textContent(), { timeout: 20_000 }).toBe('1');
    await expectNoSidewaysScroll(page);
    await context.close();
  });
});
