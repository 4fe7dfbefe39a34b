import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCnpj, makeCpf, validCustomer } from '../support/gateway.ts';
import {
  Authenticator,
  fieldError,
  HttpSession,
  outboxVerificationToken,
  signInOperator,
  screen,
  startAll,
  stopAll,
  type Json,
  type RunningGateway,
  type WebhookReceiver,
} from './support.ts';

/**
 * Issue 22, the merchant dashboard's page behaviour in Chromium (the journey is test/e2e/journey.e2e.ts):
 * amounts typed the Brazilian way and confirmed in words (defect 1), labels and amounts by status
 * (defect 2), a withdrawal the balance does not cover warned before it is sent (defect 3), action buttons
 * that send once on a double click (defect 10), the smaller defects of 12 (the verification link posted
 * once, a signed-in #/entrar, an unknown transaction, pending deliveries), "Nova cobrança" with the QR
 * code, the skip link and the focus after navigation, the header on one line. The account is prepared
 * over HTTP (sign-up, verification, TOTP, KYC approved by the seeded operator); the pages are driven in
 * the browser.
 */
const PASSWORD = 'uma senha bem longa 2026';
const OPERATOR_PASSWORD = 'cavalo correto bateria grampo 2026';

let gateway: RunningGateway;
let receiver: WebhookReceiver;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const authenticator = new Authenticator();
let merchant: HttpSession;
let operator: HttpSession;
let owner: { email: string; cpf: string; accountId: string; totpSecret: string };
const pageErrors: string[] = [];

const secretOf = (otpauthUri: string) => new URL(otpauthUri).searchParams.get('secret') ?? '';
const dashboard = (route: string) => `${gateway.baseUrl}/dashboard/#${route}`;

/** The verification link's token of the last e-mail to `email`. */
const verificationToken = (email: string) => outboxVerificationToken(gateway, email);

async function signUp(email: string, cpf: string): Promise<HttpSession> {
  const session = new HttpSession(gateway.baseUrl);
  const body = { legalName: 'Loja Painel Teste Ltda', companyCnpj: makeCnpj(Number(cpf.slice(0, 6))), responsibleCpf: cpf, city: 'São José dos Campos', state: 'SP', name: 'Bia Lima', email, password: PASSWORD };
  expect((await session.call('POST', '/dashboard/api/v1/signup', body)).status).toBe(202);
  await session.ok('POST', '/dashboard/api/v1/session', { email, password: PASSWORD });
  return session;
}

/** The seeded operator signs in (TOTP enrolled, the temporary password changed when asked) and approves the account's KYC. */
async function approveKyc(accountId: string): Promise<void> {
  operator = await signInOperator(gateway, authenticator, OPERATOR_PASSWORD);
  // The file's withdrawals follow each other within a second or a minute; the contract's per-second and
  // per-minute limits (tested in test/withdrawals) would refuse the second by timing alone.
  await operator.ok('PATCH', `/admin/v1/accounts/${accountId}`, { kycStatus: 'approved', withdrawalsPerSecond: 100, withdrawalsPerMinute: 100 });
}

/** A browser context signed in as the session's user (its cookie, as the sign-in form would have set it). */
async function signedInContext(session: HttpSession, viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  const signedIn = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport });
  await signedIn.addCookies([
    { name: 'pixgate_session', value: session.cookies.get('pixgate_session') ?? '', domain: '127.0.0.1', path: '/dashboard', httpOnly: true, sameSite: 'Strict' },
  ]);
  return signedIn;
}

async function open(target: Page, route: string, heading: string | RegExp): Promise<void> {
  await target.goto(dashboard(route));
  await target.getByRole('heading', { level: 1, name: heading }).waitFor();
}

async function createCharge(amountCents: number): Promise<string> {
  const created = await merchant.ok('POST', '/dashboard/api/v1/charges', { amountCents, customer: validCustomer });
  return String(created.transactionId);
}

beforeAll(async () => {
  const started = await startAll();
  ({ gateway, receiver, browser } = started as Required<typeof started>);
  if ('failure' in started) throw started.failure;

  const email = 'bia.lima@lojapainel.com.br';
  const cpf = makeCpf(7373);
  merchant = await signUp(email, cpf);
  await merchant.ok('POST', '/dashboard/api/v1/email-verification', { token: await verificationToken(email) });
  const setup = await merchant.ok('POST', '/dashboard/api/v1/two-factor/setup');
  const totpSecret = secretOf(String(setup.otpauthUri));
  await merchant.ok('POST', '/dashboard/api/v1/two-factor/confirm', { totpCode: await authenticator.code(totpSecret) });
  const session = await merchant.ok('GET', '/dashboard/api/v1/session');
  const accountId = String((session.account as Json).accountId);
  owner = { email, cpf, accountId, totpSecret };
  await approveKyc(accountId);
  await merchant.ok('POST', '/dashboard/api/v1/webhooks', { url: receiver.url });
  // Money to withdraw: a paid charge of R$ 3.000,00.
  const funding = await createCharge(300_000);
  await merchant.ok('POST', `/dashboard/api/v1/sandbox/charges/${funding}/pay`);

  context = await signedInContext(merchant);
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
}, 180_000);

afterAll(() => stopAll({ gateway, receiver, browser }, pageErrors));

describe('the merchant dashboard, page by page (issue 22)', () => {
  it('creates a charge with "Nova cobrança": the amount typed the Brazilian way, in words, then its QR code and copy-and-paste code', async () => {
    await open(page, '/transacoes', 'Transações');
    await page.getByRole('link', { name: 'Nova cobrança' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nova cobrança' }).waitFor();
    await page.getByLabel('Valor (R$)').pressSequentially('1.234');
    await page.getByTestId('amountCents-in-words').getByText('R$ 1.234,00: mil duzentos e trinta e quatro reais').waitFor();
    await page.getByLabel('Nome do pagador').fill('Maria da Silva');
    await page.getByLabel('E-mail do pagador').fill('maria@example.com');
    await page.getByLabel('Telefone do pagador').fill('11987654321');
    await page.getByLabel('CPF ou CNPJ do pagador').fill('529.982.247-25');
    await page.getByRole('button', { name: 'Criar cobrança' }).dblclick();
    await page.getByText('Cobrança criada.').waitFor();
    const qr = page.getByRole('img', { name: 'QR code Pix da cobrança' });
    await qr.waitFor();
    await expect.poll(() => qr.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await page.getByText('000201').first().waitFor();
    await screen(page, 'h1-nova-cobranca-criada');
    // A double click created one charge.
    const list = await merchant.ok('GET', '/dashboard/api/v1/transactions?limit=100');
    expect((list.transactions as { amountCents: number }[]).filter((transaction) => transaction.amountCents === 123_400)).toHaveLength(1);
  });

  it('sends "Simular pagamento" and "Reenviar evento" once on a double click (quota 10 → 9), and never says "Nenhuma entrega" while one is pending', async () => {
    const chargeId = await createCharge(5_000);
    await open(page, `/transacoes/${chargeId}`, `Cobrança ${chargeId}`);
    await page.getByRole('img', { name: 'QR code Pix da cobrança' }).waitFor();
    await page.getByRole('button', { name: 'Simular pagamento' }).dblclick();
    await page.getByText('Simular pagamento: feito.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    const event = page.getByRole('region', { name: 'Evento transaction.paid' });
    await event.waitFor();
    // Delivered or still on its way: never "none".
    expect(await event.getByText('Nenhuma entrega').count()).toBe(0);
    await event.getByText('Entregue').waitFor();
    await screen(page, 'h1-cobranca-paga');
    expect(((await merchant.ok('GET', '/dashboard/api/v1/webhook-deliveries')).resendQuota as { remaining: number }).remaining).toBe(10);
    await event.getByRole('button', { name: 'Reenviar evento' }).dblclick();
    await page.getByText(/Reenvios restantes nesta hora: 9\./).waitFor();
    // A second request, had it gone, would have been answered by now.
    await page.waitForTimeout(1_000);
    expect(((await merchant.ok('GET', '/dashboard/api/v1/webhook-deliveries')).resendQuota as { remaining: number }).remaining).toBe(9);
    // The payer's CPF is masked wherever it is shown.
    const facts = page.getByRole('region', { name: 'Dados da transação' });
    expect(await facts.textContent()).not.toMatch(/\d{3}\.\d{3}\.\d{3}-\d{2}|\b\d{11}\b/);
  });

  it('labels a cancelled charge and a refused withdrawal by what happened, never as paid', async () => {
    const chargeId = await createCharge(2_525);
    await open(page, `/transacoes/${chargeId}`, `Cobrança ${chargeId}`);
    await page.getByRole('button', { name: 'Cancelar', exact: true }).click();
    await page.getByText('Cancelar: feito.').waitFor();
    const facts = page.getByRole('region', { name: 'Dados da transação' });
    await facts.getByText('Cancelada em').waitFor();
    for (const wrong of ['Paga em', 'Líquido creditado']) expect(await facts.getByText(wrong).count()).toBe(0);
    await screen(page, 'h1-cobranca-cancelada');

    const withdrawal = await merchant.ok('POST', '/dashboard/api/v1/withdrawals', {
      amountCents: 1_000,
      pixKey: owner.cpf,
      pixKeyType: 'cpf',
      externalRef: 'saque-recusado-psp',
      totpCode: await authenticator.code(owner.totpSecret),
    });
    const withdrawalId = String(withdrawal.transactionId);
    await open(page, `/transacoes/${withdrawalId}`, `Saque ${withdrawalId}`);
    await facts.getByText('Total debitado').waitFor();
    await page.getByRole('button', { name: 'Simular recusa do PSP' }).click();
    await page.getByText('Simular recusa do PSP: feito.').waitFor();
    await facts.getByText('Falhou em').waitFor();
    for (const wrong of ['Paga em', 'Total debitado']) expect(await facts.getByText(wrong).count()).toBe(0);
    await facts.getByText(/voltaram ao saldo/).waitFor();
    await screen(page, 'h1-saque-falhou');
  });

  it('withdraws R$ 1.234,00 when 1.234 is typed, confirmed formatted and in words (Escape cancels), and warns when the balance does not cover an amount', async () => {
    await open(page, '/saques', 'Saques');
    const amount = page.getByLabel('Valor (R$)');
    await amount.pressSequentially('40.000');
    await page.getByTestId('withdrawal-uncovered').waitFor();
    await screen(page, 'h1-saque-sem-saldo');
    await amount.fill('');
    await amount.pressSequentially('1.234');
    await page.getByTestId('amountCents-in-words').getByText('R$ 1.234,00: mil duzentos e trinta e quatro reais').waitFor();
    expect(await page.getByTestId('withdrawal-uncovered').count()).toBe(0);
    await page.getByLabel('Tipo de chave Pix').selectOption('cpf');
    await page.getByLabel('Chave Pix', { exact: true }).fill(owner.cpf);
    await page.getByRole('button', { name: 'Sacar' }).click();
    await page.getByTestId('withdrawal-confirmation').getByText('R$ 1.234,00 (mil duzentos e trinta e quatro reais)').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Sacar' }).waitFor();
    expect(await page.getByTestId('withdrawal-confirmation').count()).toBe(0);
    await page.getByRole('button', { name: 'Sacar' }).click();
    await page.getByLabel('Código do aplicativo autenticador').fill(await authenticator.code(owner.totpSecret));
    await screen(page, 'h1-saque-confirmacao');
    await page.getByRole('button', { name: 'Confirmar saque de R$ 1.234,00' }).click();
    const outcome = page.getByRole('status').filter({ hasText: 'Saque de R$ 1.234,00 criado' });
    await outcome.waitFor();
    const withdrawalId = (await outcome.getByRole('link').textContent()) ?? '';
    const created = await merchant.ok('GET', `/dashboard/api/v1/transactions/${withdrawalId}`);
    expect((created.transaction as { amountCents: number }).amountCents).toBe(123_400);
    await screen(page, 'h1-saque-criado');
  });

  it('posts the verification link once for a signed-in user and ends on success', async () => {
    const email = 'caio.rocha@outraloja.com.br';
    const newcomer = await signUp(email, makeCpf(7474));
    const token = await verificationToken(email);
    const newcomerContext = await signedInContext(newcomer);
    const newcomerPage = await newcomerContext.newPage();
    newcomerPage.on('pageerror', (error) => pageErrors.push(error.message));
    let posts = 0;
    newcomerPage.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/dashboard/api/v1/email-verification')) posts += 1;
    });
    try {
      await open(newcomerPage, '/visao-geral', 'Visão geral');
      await newcomerPage.goto(dashboard(`/verificar-email?token=${token}`));
      await newcomerPage.getByText('E-mail confirmado.').waitFor();
      // The session is read again after the verification; the page stays on its outcome.
      await newcomerPage.waitForTimeout(1_500);
      expect(await newcomerPage.getByText('E-mail confirmado.').count()).toBe(1);
      expect(await newcomerPage.getByText(/Link inválido|inválido ou expirado/).count()).toBe(0);
      expect(posts).toBe(1);
      await screen(newcomerPage, 'h1-email-confirmado-com-sessao');
    } finally {
      await newcomerContext.close();
    }
  });

  it('sends a signed-in user from #/entrar to the overview, and answers an unknown transaction with a page and a way back', async () => {
    await page.goto(dashboard('/entrar'));
    await page.getByRole('heading', { level: 1, name: 'Visão geral' }).waitFor();
    expect(page.url()).toContain('#/visao-geral');
    await open(page, '/transacoes/tx_000000000000000000000000', 'Transação não encontrada');
    await screen(page, 'h1-transacao-nao-encontrada');
    await page.getByRole('link', { name: '← Voltar para Transações' }).click();
    await page.getByRole('heading', { level: 1, name: 'Transações' }).waitFor();
  });

  it('offers a skip link, moves focus to the heading after navigation, and keeps the header on one line at 1280 px', async () => {
    // A fresh load: the keyboard starts at the top of the page.
    await open(page, '/visao-geral', 'Visão geral');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Visão geral' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Pular para o conteúdo');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement && document.activeElement.tagName')).toBe('H1');
    await page.getByRole('link', { name: 'Extrato' }).click();
    await page.getByRole('heading', { level: 1, name: 'Extrato' }).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Extrato');
    const header = await page.locator('header.top').boundingBox();
    // One row of links: the header is one line high (about 50 px), not two or three.
    expect(header?.height ?? 0).toBeLessThan(70);
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(1280);
    await screen(page, 'h1-extrato-foco');
  });

  it('"Infrações MED" lists an infraction with its deadline; the defence is sent with the code, agreeing asks a confirmation first', async () => {
    const contested = await createCharge(4_200);
    await merchant.ok('POST', `/dashboard/api/v1/sandbox/charges/${contested}/pay`);
    const opened = await operator.ok('POST', `/admin/v1/sandbox/charges/${contested}/infractions`, { reason: 'Pagador não reconhece a compra' });
    const infractionId = String(opened.infractionId);
    await open(page, '/infracoes-med', 'Infrações MED');
    const card = page.getByRole('region', { name: `Infração ${infractionId}` });
    await card.getByText('Aberta: aguardando a sua defesa').waitFor();
    await card.getByText('Pagador não reconhece a compra').waitFor();
    expect(await card.getByRole('link', { name: contested }).getAttribute('href')).toBe(`#/transacoes/${contested}`);

    // Agreeing gives the money back: the button asks to confirm the amount before anything is sent.
    await card.getByLabel('Sua posição').selectOption('aceito');
    await card.getByLabel('Justificativa').fill('O cliente pediu o cancelamento e nós concordamos.');
    await card.getByLabel('Código do aplicativo autenticador').fill('000000');
    await card.getByRole('button', { name: 'Enviar defesa ao provedor' }).click();
    await card.getByRole('button', { name: 'Confirmar: devolver R$ 42,00' }).waitFor();
    await card.getByText('Confirme: R$ 42,00 voltam ao pagador').waitFor();
    // Changed its mind: contest instead, with a wrong code first (the server's message beside the field).
    await card.getByLabel('Sua posição').selectOption('rejeitado');
    await card.getByLabel('Justificativa').fill('A entrega foi feita; segue o comprovante assinado pelo cliente.');
    await card.getByRole('button', { name: 'Enviar defesa ao provedor' }).click();
    expect(await fieldError(page, 'Código do aplicativo autenticador')).not.toBe('');
    await card.getByLabel('Código do aplicativo autenticador').fill(await authenticator.code(owner.totpSecret));
    await card.getByRole('button', { name: 'Enviar defesa ao provedor' }).click();
    await page.getByText(`Defesa da infração ${infractionId} enviada ao provedor.`).waitFor();
    await card.getByText('Em análise pelo provedor').waitFor();
    await card.getByText(/Contestou em .*: A entrega foi feita/).waitFor();
    expect(await card.getByRole('button', { name: 'Enviar defesa ao provedor' }).count()).toBe(0);
    await screen(page, 'h1-infracao-defendida');
  });
});
