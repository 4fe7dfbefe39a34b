import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { expectNoSidewaysScroll, fieldError, screen, usePhoneDashboard } from './support.ts';

/**
 * Issue 36, item 5 (static QR codes), in Chromium on a 375×812 touch screen: "Novo QR code estático"
 * through the form (a refusal beside its field in Portuguese first), the created code with its QR image,
 * its copy-and-paste code and the PNG and SVG downloads, "Simular pagamento" (sandbox) and the payment in
 * "Pagamentos", the code in the list, and its deactivation asked first. No page scrolls sideways.
 * Screens go to reports/screens/issue36-*.png.
 */
const PASSWORD = 'uma senha bem longa 2026';

const phone = usePhoneDashboard({ legalName: 'Padaria Exemplo Ltda', documentSeed: 3637, name: 'Bia', email: 'bia.padaria@padariaexemplo.com.br', password: PASSWORD });

describe('static QR codes on a phone (issue 36)', () => {
  it('creates one through the form, shows and downloads its QR code, simulates a payment that appears, lists it and deactivates it after asking', async () => {
    const { context, page } = await phone.open({ clipboard: true, acceptDownloads: true });

    // From Transações; the header keeps Transações as the section.
    await page.goto(phone.dashboard('/visao-geral'));
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
