import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCpf, validCustomer } from '../support/gateway.ts';
import path from 'node:path';
import { Authenticator, launchChromium, screen, SCREENS_DIR, startGatewayProcess, type RunningGateway } from './support.ts';

/**
 * The console as the service team uses it (issue 22), in Chromium against `npm start`'s gateway: money fields
 * typed the Brazilian way (`50.000` is R$ 50.000,00), the withdrawal queue with the account's balance and the
 * real outcome of an approval, buttons that send once on a double click, the recipient's Observação kept, no
 * notice carried from one account to another, accounts filtered by KYC and paged with formatted CNPJs, the
 * audit log in Portuguese, and every page usable at 375 px.
 */
let gateway: RunningGateway;
let browser: Browser;
let context: BrowserContext;
let operator: Page;
const authenticator = new Authenticator();
const pageErrors: string[] = [];
const consolePage = (route: string) => `${gateway.consoleUrl}/console/#${route}`;
const NEW_PASSWORD = 'Operadora do console 2026 — senha nova!';

interface Merchant {
  accountId: string;
  apiKey: string;
}

/** A back-office call made by the signed-in console page itself (its cookie and CSRF token). */
async function adminCall<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
  return operator.evaluate(
    async ({ method, path, body }) => {
      const session = (await (await fetch('/admin/v1/session')).json()) as { csrfToken: string };
      const response = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, data: (await response.json()) as T };
    },
    { method, path, body },
  );
}

async function merchantCall<T>(merchant: Merchant, method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${merchant.apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, data: (await response.json()) as T };
}

let documents = 7000;
/** An account made through the back office (approved unless asked), with an API key. */
async function newMerchant(legalName: string, kycStatus: 'approved' | 'pending' = 'approved'): Promise<Merchant> {
  documents += 1;
  const created = await adminCall<{ accountId: string }>('POST', '/admin/v1/accounts', {
    legalName,
    responsibleCpf: makeCpf(documents),
    companyCnpj: '11222333000181',
    email: `conta${documents}@loja.test`,
    kycStatus,
  });
  expect(created.status).toBe(201);
  if (kycStatus !== 'approved') return { accountId: created.data.accountId, apiKey: '' };
  const key = await adminCall<{ apiKey: string }>('POST', `/admin/v1/accounts/${created.data.accountId}/api-keys`, { label: 'e2e' });
  expect(key.status).toBe(201);
  return { accountId: created.data.accountId, apiKey: key.data.apiKey };
}

async function fund(merchant: Merchant, amountCents: number): Promise<void> {
  const charge = await merchantCall<{ transactionId: string }>(merchant, 'POST', '/v1/pix', { amountCents, customer: validCustomer });
  expect({ status: charge.status, data: charge.data }).toMatchObject({ status: 201 });
  const paid = await adminCall('POST', `/admin/v1/sandbox/charges/${charge.data.transactionId}/pay`);
  expect(paid.status).toBe(200);
}

async function open(page: Page, route: string, heading: string | RegExp): Promise<void> {
  await page.goto(consolePage(route));
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** How many requests the page sends matching `pattern` while `act` runs (a double click must send one). */
async function requestsDuring(pattern: RegExp, act: () => Promise<void>): Promise<number> {
  let sent = 0;
  const count = (request: { method(): string; url(): string }) => {
    if (request.method() === 'POST' && pattern.test(request.url())) sent += 1;
  };
  operator.on('request', count);
  try {
    await act();
    // Anything a second click would have sent has left by now.
    await operator.waitForTimeout(500);
  } finally {
    operator.off('request', count);
  }
  return sent;
}

async function auditCount(action: string, targetId: string): Promise<number> {
  const listed = await adminCall<{ entries: unknown[] }>('GET', `/admin/v1/audit-log?action=${action}&targetId=${targetId}`);
  return listed.data.entries.length;
}

/**
 * Signs the seeded operator in: password, TOTP enrolment, then (the printed password being temporary) a new
 * password, through the console's own call (the page for it is another part of issue 22; this file tests the
 * console's other pages).
 */
async function signIn(page: Page): Promise<void> {
  await page.goto(gateway.consoleUrl);
  await page.getByLabel('E-mail').fill(gateway.operator.email);
  await page.getByLabel('Senha', { exact: true }).fill(gateway.operator.temporaryPassword);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('button', { name: 'Gerar QR code' }).click();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  await page.getByLabel('Código do aplicativo autenticador').fill(await authenticator.code(secret));
  await page.getByRole('button', { name: 'Confirmar' }).click();
  const contas = page.getByRole('heading', { level: 1, name: 'Contas' });
  const choose = page.getByRole('heading', { level: 1, name: 'Escolha a sua senha' });
  await contas.or(choose).first().waitFor();
  if (await choose.isVisible()) {
    await page.getByLabel('Senha atual').fill(gateway.operator.temporaryPassword);
    await page.getByLabel('Nova senha', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repita a nova senha').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Salvar a nova senha' }).click();
  }
  await contas.waitFor();
}

beforeAll(async () => {
  const [started, launched] = await Promise.allSettled([startGatewayProcess(), launchChromium()]);
  if (started.status === 'fulfilled') gateway = started.value;
  if (launched.status === 'fulfilled') browser = launched.value;
  for (const result of [started, launched]) if (result.status === 'rejected') throw result.reason;
  context = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 1280, height: 900 } });
  operator = await context.newPage();
  operator.on('pageerror', (error) => pageErrors.push(error.message));
  await signIn(operator);
}, 120_000);

afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await browser?.close();
  const output = gateway?.output() ?? '';
  await gateway?.stop();
  expect(output).not.toMatch(/"level":"error"|Internal server error|Erro interno/);
});

describe('the console, as the service team uses it', () => {
  it('reads 50.000 in a money field as R$ 50.000,00, saves it and shows it back so (defect 1)', async () => {
    const merchant = await newMerchant('Loja Limites Ltda');
    await open(operator, `/contas/${merchant.accountId}`, 'Loja Limites Ltda');
    const limits = operator.getByRole('region', { name: 'Limites e aprovação de saques' });
    await limits.getByLabel('Limite diário de saques (R$)').fill('50.000');
    await expect.poll(() => limits.getByTestId('withdrawalDailyCapCents-in-words').textContent()).toContain('R$ 50.000,00');
    expect(await limits.getByTestId('withdrawalDailyCapCents-in-words').textContent()).toContain('cinquenta mil reais');
    await limits.getByRole('button', { name: 'Salvar limites' }).click();
    await operator.getByText('Limites salvos.').or(limits.getByRole('alert')).first().waitFor();
    expect(await operator.getByRole('status').filter({ hasText: 'salvos' }).or(limits.getByRole('alert')).first().textContent()).toBe('Limites salvos.');
    await screen(operator, 'console-e2e-01-limite-50-mil');

    const stored = await adminCall<{ withdrawalDailyCapCents: number }>('GET', `/admin/v1/accounts/${merchant.accountId}`);
    expect(stored.data.withdrawalDailyCapCents).toBe(5_000_000);
    await operator.reload();
    const again = operator.getByRole('region', { name: 'Limites e aprovação de saques' });
    await expect.poll(() => again.getByLabel('Limite diário de saques (R$)').inputValue()).toBe('50.000,00');
    expect(await again.getByTestId('withdrawalDailyCapCents-in-words').textContent()).toContain('R$ 50.000,00');

    // A hold in reais, typed the same way.
    const holds = operator.getByRole('region', { name: 'Bloqueios de saldo' });
    await holds.getByLabel('Valor (R$)').fill('1.234');
    await expect.poll(() => holds.getByTestId('amountCents-in-words').textContent()).toContain('R$ 1.234,00');
  });

  it('does not carry the "KYC aprovado." notice from one account to another (defect 12)', async () => {
    const first = await newMerchant('Loja Pendente Um Ltda', 'pending');
    const second = await newMerchant('Loja Pendente Dois Ltda', 'pending');
    await open(operator, `/contas/${first.accountId}`, 'Loja Pendente Um Ltda');
    await operator.getByRole('button', { name: 'Aprovar KYC' }).click();
    await operator.getByRole('button', { name: 'Confirmar' }).click();
    await operator.getByText('KYC aprovado.').waitFor();
    // A hash change, as a link inside the console makes it (no reload).
    await operator.evaluate(`window.location.hash = '#/contas/${second.accountId}'`);
    await operator.getByRole('heading', { level: 1, name: 'Loja Pendente Dois Ltda' }).waitFor();
    await operator.getByRole('button', { name: 'Aprovar KYC' }).waitFor();
    expect(await operator.getByText('KYC aprovado.').count()).toBe(0);
  });

  it('approves a recipient once on a double click, keeping the Observação typed (defects 10 and 12)', async () => {
    const merchant = await newMerchant('Loja Destinos Ltda');
    const recipient = await merchantCall<{ recipientId: string }>(merchant, 'POST', '/v1/recipients', {
      legalName: 'Fornecedor Duplo Ltda',
      document: makeCpf(8101),
      documentType: 'cpf',
      pixKey: 'duplo@fornecedor.test',
      pixKeyType: 'email',
    });
    expect(recipient.status).toBe(201);
    await open(operator, '/destinatarios', 'Fila de destinatários');
    const card = operator.getByRole('article', { name: 'Destinatário Fornecedor Duplo Ltda' });
    await card.getByLabel('Observação sobre Fornecedor Duplo Ltda').fill('Documento conferido na Receita.');
    const sent = await requestsDuring(/\/recipients\/[0-9a-f]{24}\/approve$/, async () => {
      await card.getByRole('button', { name: 'Aprovar Fornecedor Duplo Ltda' }).dblclick();
      await operator.getByText('Destinatário Fornecedor Duplo Ltda aprovado.').waitFor();
    });
    expect(sent).toBe(1);
    await screen(operator, 'console-e2e-02-destinatario-aprovado');
    const listed = await adminCall<{ recipients: { recipientId: string; status: string; reviewNote: string | null }[] }>('GET', `/admin/v1/accounts/${merchant.accountId}/recipients`);
    expect(listed.data.recipients.find((row) => row.recipientId === recipient.data.recipientId)).toMatchObject({ status: 'active', reviewNote: 'Documento conferido na Receita.' });
    expect(await auditCount('recipient.approve', recipient.data.recipientId)).toBe(1);
  });

  it("shows the account's withdrawable balance in the queue, approves once on a double click, and says when an approval failed (defects 3 and 10)", async () => {
    const merchant = await newMerchant('Loja Saques Manuais Ltda');
    await adminCall('PATCH', `/admin/v1/accounts/${merchant.accountId}`, { withdrawalApprovalMode: 'manual', chargeFeeBps: 0, chargeFeeFixedCents: 0, withdrawalFeeFixedCents: 0, withdrawalFeeBps: 0, withdrawalsPerSecond: 10, withdrawalsPerMinute: 60 });
    await fund(merchant, 10_000);
    const ids: string[] = [];
    for (const ref of ['e2e-saque-1', 'e2e-saque-2']) {
      const created = await merchantCall<{ transactionId: string }>(merchant, 'POST', '/v1/withdraw', { amountCents: 6_000, pixKey: '11222333000181', pixKeyType: 'cnpj', externalRef: ref });
      expect({ status: created.status, data: created.data }).toMatchObject({ status: 201 });
      ids.push(created.data.transactionId);
    }
    const [firstId = '', secondId = ''] = ids;
    await open(operator, '/saques', 'Fila de saques');
    const first = operator.getByRole('article', { name: `Saque ${firstId}` });
    const second = operator.getByRole('article', { name: `Saque ${secondId}` });
    await expect.poll(() => first.getByTestId('withdrawal-balance').textContent()).toMatch(/R\$\s100,00 — cobre/);
    await screen(operator, 'console-e2e-03-fila-saques-saldo');

    const sent = await requestsDuring(/\/withdrawals\/tx_[0-9a-f]{24}\/approve$/, async () => {
      // A double click opens the confirmation (issue 38), never confirms it; one "Confirmar" approves once.
      await first.getByRole('button', { name: 'Aprovar saque' }).dblclick();
      await first.getByRole('button', { name: 'Confirmar' }).dblclick();
      await operator.getByText(new RegExp(`Saque ${firstId} de R\\$\\s60,00 \\(.+\\) aprovado\\.`)).waitFor();
    });
    expect(sent).toBe(1);
    expect(await auditCount('withdrawal.approve', firstId)).toBe(1);

    await expect.poll(() => second.getByTestId('withdrawal-balance').textContent()).toMatch(/R\$\s40,00 — não cobre/);
    await second.getByRole('button', { name: 'Aprovar saque' }).click();
    await second.getByRole('button', { name: 'Confirmar' }).click();
    const failed = operator.getByRole('alert').filter({ hasText: `Saque ${secondId}` });
    await failed.waitFor();
    expect(await failed.textContent()).toMatch(/falhou: Saldo insuficiente no momento da aprovação/);
    expect(await operator.getByText(/aprovado\./).count()).toBe(0);
    await screen(operator, 'console-e2e-04-aprovacao-falhou');
  });

  it('filters accounts by KYC status, pages them, and shows the CNPJ formatted', async () => {
    const pending = await newMerchant('Loja Aguardando KYC Ltda', 'pending');
    await open(operator, '/contas', 'Contas');
    await operator.getByLabel('Situação do KYC').selectOption('pending');
    await operator.getByRole('link', { name: 'Loja Aguardando KYC Ltda' }).waitFor();
    expect(await operator.getByRole('link', { name: 'Loja Limites Ltda' }).count()).toBe(0);
    const row = operator.getByRole('row', { name: new RegExp(pending.accountId) });
    expect(await row.textContent()).toContain('11.222.333/0001-81');
    await screen(operator, 'console-e2e-05-contas-kyc-pendente');
    await operator.getByLabel('Situação do KYC').selectOption('approved');
    await operator.getByRole('link', { name: 'Loja Limites Ltda' }).waitFor();
    expect(await operator.getByRole('link', { name: 'Loja Aguardando KYC Ltda' }).count()).toBe(0);
    // More than a page (20) of accounts: the next page holds the rest, none repeated.
    for (let i = 0; i < 20; i += 1) await newMerchant(`Loja Lote ${String(i).padStart(2, '0')} Ltda`);
    await operator.getByLabel('Situação do KYC').selectOption('all');
    await operator.reload();
    await operator.getByRole('heading', { level: 1, name: 'Contas' }).waitFor();
    await operator.getByText('Página 1').waitFor();
    const firstPage = await operator.locator('tbody tr').count();
    expect(firstPage).toBe(20);
    await operator.getByRole('button', { name: 'Próxima página' }).click();
    await operator.getByText('Página 2').waitFor();
    await operator.getByRole('link', { name: 'Loja Lote 19 Ltda' }).waitFor();
    await operator.getByRole('button', { name: 'Página anterior' }).click();
    await operator.getByText('Página 1').waitFor();
  });

  it('shows the audit actions in Portuguese, never a raw name, filtered by action', async () => {
    await open(operator, '/auditoria', 'Registro de auditoria');
    await operator.getByRole('row', { name: /Destinatário aprovado/ }).first().waitFor();
    await operator.getByRole('row', { name: /Saque aprovado/ }).first().waitFor();
    await operator.getByRole('row', { name: /Conta alterada/ }).first().waitFor();
    const actions = await operator.locator('tbody tr td:nth-child(3)').allTextContents();
    expect(actions.length).toBeGreaterThan(0);
    for (const action of actions) expect(action).not.toMatch(/\b[a-zA-Z]+\.[a-zA-Z_]+\b/);
    await screen(operator, 'console-e2e-06-auditoria');
    await operator.getByLabel('Ação').selectOption({ label: 'Saque aprovado' });
    await operator.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(async () => new Set(await operator.locator('tbody tr td:nth-child(3)').allTextContents())).toEqual(new Set(['Saque aprovado']));
  });

  it('is usable at 375 px: no page scrolls sideways, tables scroll inside their box', async () => {
    const phone = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 375, height: 812 }, storageState: await context.storageState() });
    const page = await phone.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const accounts = await adminCall<{ accounts: { accountId: string; legalName: string }[] }>('GET', '/admin/v1/accounts?kycStatus=approved&limit=1');
    const someAccount = accounts.data.accounts[0];
    const pages: [string, string | RegExp, string][] = [
      ['/contas', 'Contas', 'console-e2e-375-01-contas'],
      [`/contas/${someAccount?.accountId ?? ''}`, someAccount?.legalName ?? '', 'console-e2e-375-02-conta'],
      ['/destinatarios', 'Fila de destinatários', 'console-e2e-375-03-fila-destinatarios'],
      ['/saques', 'Fila de saques', 'console-e2e-375-04-fila-saques'],
      ['/auditoria', 'Registro de auditoria', 'console-e2e-375-05-auditoria'],
      ['/operadores', 'Operadores', 'console-e2e-375-06-operadores'],
    ];
    for (const [route, heading, name] of pages) {
      await page.goto(consolePage(route));
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
      expect({ route, width }).toEqual({ route, width: 375 });
      await screen(page, name);
      // The first screen as the phone shows it (the header and what is above the fold).
      await page.screenshot({ path: path.join(SCREENS_DIR, `${name}-topo.png`) });
    }
    await phone.close();
  });

  it('clears what it read when the operator signs out', async () => {
    await open(operator, '/contas', 'Contas');
    await operator.getByRole('button', { name: 'Sair' }).click();
    await operator.getByRole('heading', { name: 'Console da equipe PixGate' }).waitFor();
    expect(await operator.getByText('Loja Limites Ltda').count()).toBe(0);
    await screen(operator, 'console-e2e-07-saiu');
  });
});
