import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCpf, validCustomer } from '../support/gateway.ts';
import {
  Authenticator,
  eventually,
  screen,
  startAll,
  fieldError,
  type RunningGateway,
  type WebhookReceiver,
} from './support.ts';

/**
 * The journey, in a real Chromium against the gateway as `npm start` runs it: a merchant signs up,
 * verifies the e-mail from the outbox and enrols TOTP; an operator approves KYC in the console; the merchant
 * generates a key (shown once), registers a webhook URL, creates a charge through the REST API with the key,
 * pays it with a sandbox action, sees it in Transactions, sees the delivery and resends it, revokes the key
 * (the API answers 401); a recipient and a withdrawal are approved by the operator, and the audit log names
 * the operator for both; a dashboard withdrawal without a valid code is refused. Every page is captured in
 * reports/screens/.
 */
const EMAIL = 'ana.souza@lojaexemplo.com.br';
const PASSWORD = 'uma senha bem longa 2026';
const LEGAL_NAME = 'Loja Exemplo Comércio Ltda';
const RECIPIENT = { legalName: 'Fornecedor Alfa Ltda', cnpj: '11.444.777/0001-61', pixKey: 'financeiro@alfa.com.br' };

let gateway: RunningGateway;
let receiver: WebhookReceiver;
let browser: Browser;
let merchantContext: BrowserContext;
let consoleContext: BrowserContext;
let merchant: Page;
let operator: Page;
const authenticator = new Authenticator();
let merchantTotpSecret = '';
let apiKey = '';
let chargeId = '';
/** Uncaught errors of the pages' scripts: none is expected. */
const pageErrors: string[] = [];

const dashboard = (route: string) => `${gateway.baseUrl}/dashboard/#${route}`;
const consolePage = (route: string) => `${gateway.consoleUrl}/console/#${route}`;

async function open(page: Page, url: string, heading: string | RegExp): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

const PHONE_WIDTH = 375;

/** The page fits the phone's width: it never scrolls sideways (tables scroll inside their own box). */
async function noSidewaysScroll(page: Page, what: string): Promise<void> {
  const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
  expect(width, `${what} is ${width} px wide on a ${PHONE_WIDTH} px screen`).toBeLessThanOrEqual(PHONE_WIDTH);
}


beforeAll(async () => {
  const started = await startAll();
  ({ gateway, receiver, browser } = started as Required<typeof started>);
  if ('failure' in started) throw started.failure;
  merchantContext = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 1280, height: 900 } });
  consoleContext = await browser.newContext({ locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 1280, height: 900 } });
  merchant = await merchantContext.newPage();
  operator = await consoleContext.newPage();
  for (const page of [merchant, operator]) page.on('pageerror', (error) => pageErrors.push(error.message));
}, 120_000);

afterAll(async () => {
  expect(pageErrors).toEqual([]);
  await browser?.close();
  await receiver?.close();
  const output = gateway?.output() ?? '';
  await gateway?.stop();
  // No request of the journey made the server fail.
  expect(output).not.toMatch(/"level":"error"|Internal server error|Erro interno/);
  // Secrets never reach the log: the key and the TOTP seed shown in the pages.
  if (apiKey) expect(output).not.toContain(apiKey);
  if (merchantTotpSecret) expect(output).not.toContain(merchantTotpSecret);
  // The outbox key only where the start printed it.
  const outboxKey = new URL(gateway.outboxUrl.replace('#/caixa-de-saida?', '?')).searchParams.get('chave') ?? '';
  if (outboxKey) expect(output.split(outboxKey)).toHaveLength(2);
});

describe('the merchant dashboard and the console, in Chromium', () => {
  it('signs up, showing the server message beside a wrong field, and verifies the e-mail from the outbox', async () => {
    // The outbox is the developer's: an anonymous page sees no e-mail until it opens the link `npm start` printed.
    await open(merchant, dashboard('/caixa-de-saida'), 'Caixa de saída (desenvolvimento)');
    await merchant.getByText('não ficam abertos a todos').waitFor();
    await open(merchant, gateway.outboxUrl, 'Caixa de saída (desenvolvimento)');
    await merchant.getByText('Todos os e-mails do servidor').waitFor();
    expect(merchant.url()).not.toContain('chave=');
    await open(merchant, dashboard('/entrar'), 'Entrar no painel');
    await screen(merchant, 'dashboard-01-entrar');
    await merchant.getByRole('link', { name: 'Criar conta' }).click();
    await merchant.getByRole('heading', { name: 'Criar conta' }).waitFor();
    await merchant.getByLabel('Razão social').fill(LEGAL_NAME);
    await merchant.getByLabel('CNPJ da empresa').fill('10.104.729/0001-61'); // not the demo account's: one account per CNPJ
    await merchant.getByLabel('CPF do responsável').fill('123.456.789-00');
    await merchant.getByLabel('Estado (UF)').selectOption('SP');
    await merchant.getByLabel('Cidade').fill('Campinas');
    await merchant.getByLabel('Seu nome').fill('Ana Souza');
    await merchant.getByLabel('E-mail').fill(EMAIL);
    await merchant.getByLabel('Senha').fill(PASSWORD);
    await merchant.getByRole('button', { name: 'Criar conta' }).click();
    expect(await fieldError(merchant, 'CPF do responsável')).toMatch(/CPF/);
    await screen(merchant, 'dashboard-02-cadastro-erro');

    await merchant.getByLabel('CPF do responsável').fill(makeCpf(4242));
    await merchant.getByRole('button', { name: 'Criar conta' }).click();
    await merchant.getByRole('heading', { name: 'Confirme seu e-mail' }).waitFor();
    await screen(merchant, 'dashboard-03-confirme-email');

    await merchant.getByRole('link', { name: 'caixa de saída' }).click();
    const mail = merchant.getByRole('article', { name: `E-mail para ${EMAIL}: Confirme seu e-mail no PixGate` });
    await mail.waitFor();
    await screen(merchant, 'dashboard-04-caixa-de-saida');
    await mail.getByRole('link', { name: /verificar-email/ }).click();
    await merchant.getByText('E-mail confirmado.').waitFor();
    await screen(merchant, 'dashboard-05-email-confirmado');
  });

  it('signs in and enrols TOTP with a QR code and recovery codes shown once', async () => {
    await open(merchant, dashboard('/entrar'), 'Entrar no painel');
    await merchant.getByLabel('E-mail').fill(EMAIL);
    await merchant.getByLabel('Senha').fill(PASSWORD);
    await merchant.getByRole('button', { name: 'Entrar' }).click();
    await merchant.getByRole('heading', { name: 'Visão geral' }).waitFor();
    await merchant.getByText(/Análise da conta \(KYC\): em análise/).waitFor();
    await screen(merchant, 'dashboard-06-visao-geral-kyc-pendente');

    await merchant.getByRole('link', { name: 'Segurança' }).click();
    await merchant.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click();
    await merchant.getByRole('img', { name: 'QR code para o aplicativo autenticador' }).waitFor();
    merchantTotpSecret = ((await merchant.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(merchantTotpSecret).toMatch(/^[A-Z2-7]{32}$/);
    await screen(merchant, 'dashboard-07-seguranca-qr');
    await merchant.getByLabel('Código do aplicativo autenticador').fill(await authenticator.code(merchantTotpSecret));
    await merchant.getByRole('button', { name: 'Confirmar e ativar' }).click();
    const codes = merchant.getByTestId('recovery-codes').getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    await screen(merchant, 'dashboard-08-codigos-de-recuperacao');
    await merchant.getByRole('button', { name: 'Já guardei' }).click();
    await merchant.getByText('Situação: ativa').waitFor();
  });

  it('lets the seeded operator sign in with mandatory TOTP and approve the KYC in the console', async () => {
    await operator.goto(gateway.consoleUrl);
    await operator.getByRole('heading', { name: 'Console da equipe PixGate' }).waitFor();
    expect(operator.url()).toBe(`${gateway.consoleUrl}/console/`);
    await screen(operator, 'console-01-entrar');
    await operator.getByLabel('E-mail').fill(gateway.operator.email);
    await operator.getByLabel('Senha').fill(gateway.operator.temporaryPassword);
    await operator.getByRole('button', { name: 'Entrar' }).click();
    await operator.getByRole('button', { name: 'Gerar QR code' }).click();
    const secret = ((await operator.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
    await screen(operator, 'console-02-totp');
    await operator.getByLabel('Código do aplicativo autenticador').fill(await authenticator.code(secret));
    await operator.getByRole('button', { name: 'Confirmar' }).click();
    // The printed temporary password is replaced before anything else opens (issue 22).
    await operator.getByRole('heading', { name: 'Escolha a sua senha' }).waitFor();
    await operator.getByLabel('Senha atual').fill(gateway.operator.temporaryPassword);
    await operator.getByLabel('Nova senha', { exact: true }).fill('lanterna violeta cruza o rio 42');
    await operator.getByLabel('Repita a nova senha').fill('lanterna violeta cruza o rio 42');
    await operator.getByRole('button', { name: 'Salvar a nova senha' }).click();
    await operator.getByRole('heading', { name: 'Contas' }).waitFor();
    await operator.getByRole('link', { name: LEGAL_NAME }).waitFor();
    await screen(operator, 'console-03-contas');

    await operator.getByRole('link', { name: LEGAL_NAME }).click();
    await operator.getByRole('heading', { level: 1, name: LEGAL_NAME }).waitFor();
    await operator.getByRole('button', { name: 'Aprovar KYC' }).click();
    await operator.getByRole('button', { name: 'Confirmar' }).click();
    await operator.getByText('KYC aprovado.').waitFor();
    await screen(operator, 'console-04-conta');
  });

  it('generates an API key shown once, and registers a webhook URL with its secret shown once', async () => {
    await merchant.reload();
    await open(merchant, dashboard('/chaves-de-api'), 'Dispositivos / Chaves de API');
    await merchant.getByLabel('Nome da chave (opcional)').fill('Servidor da loja');
    await merchant.getByRole('button', { name: 'Gerar chave' }).click();
    apiKey = (await merchant.getByTestId('secret-value').textContent()) ?? '';
    expect(apiKey).toMatch(/^pixg_[0-9a-f]{64}$/);
    await screen(merchant, 'dashboard-09-chave-criada');
    await merchant.getByRole('button', { name: 'Já guardei' }).click();
    await merchant.getByRole('cell', { name: 'Servidor da loja' }).waitFor();
    expect(await merchant.content()).not.toContain(apiKey);
    await merchant.reload();
    await merchant.getByRole('cell', { name: 'Servidor da loja' }).waitFor();
    expect(await merchant.content()).not.toContain(apiKey);
    await screen(merchant, 'dashboard-10-chaves');

    await merchant.getByRole('link', { name: 'Webhooks' }).click();
    await merchant.getByLabel('URL', { exact: true }).fill(receiver.url);
    await merchant.getByRole('button', { name: 'Cadastrar URL' }).click();
    const webhookSecret = (await merchant.getByTestId('secret-value').textContent()) ?? '';
    expect(webhookSecret).toMatch(/^whsec_/);
    await merchant.getByRole('button', { name: 'Já guardei' }).click();
    await merchant.getByRole('region', { name: `Webhook ${receiver.url}` }).waitFor();
    expect(await merchant.content()).not.toContain(webhookSecret);
    await merchant.getByRole('button', { name: 'Enviar evento de teste' }).click();
    await merchant.getByText(/Evento de teste .*: entregue \(HTTP 200\)/).waitFor();
    await screen(merchant, 'dashboard-11-webhooks');
  });

  it('shows a charge made with the key through the REST API, pays it in the sandbox, and shows its webhook', async () => {
    const created = await fetch(`${gateway.baseUrl}/v1/pix`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amountCents: 50_000, externalRef: 'pedido-e2e-1', customer: validCustomer }),
    });
    expect(created.status).toBe(201);
    chargeId = ((await created.json()) as { transactionId: string }).transactionId;

    await open(merchant, dashboard('/transacoes'), 'Transações');
    await merchant.getByRole('link', { name: chargeId }).click();
    await merchant.getByRole('heading', { name: `Cobrança ${chargeId}` }).waitFor();
    await merchant.getByText('000201').first().waitFor();
    await screen(merchant, 'dashboard-12-cobranca-pendente');
    await merchant.getByRole('button', { name: 'Simular pagamento' }).click();
    await merchant.getByText('Simular pagamento: feito.').waitFor();
    await merchant.getByRole('region', { name: 'Dados da transação' }).getByText('Pago').waitFor();
    await eventually('the paid webhook', () => receiver.deliveries.find((delivery) => delivery.event === 'transaction.paid'));
    // The receiver has it; the gateway records the attempt once the answer is in: reload until it shows.
    await eventually('the delivery on the transaction page', async () => {
      await merchant.reload();
      await merchant.getByRole('heading', { level: 1, name: `Cobrança ${chargeId}` }).waitFor();
      await merchant.getByRole('heading', { name: 'Eventos e entregas de webhook' }).waitFor();
      return (await merchant.getByRole('region', { name: 'Evento transaction.paid' }).getByText('Entregue').count()) > 0 ? true : undefined;
    });
    await screen(merchant, 'dashboard-13-cobranca-paga');

    await open(merchant, dashboard('/transacoes'), 'Transações');
    await merchant.getByRole('row', { name: new RegExp(chargeId) }).getByText('Pago').waitFor();
    await merchant.getByText('R$ 500,00').first().waitFor();
    await screen(merchant, 'dashboard-14-transacoes');
    await open(merchant, dashboard('/visao-geral'), 'Visão geral');
    await screen(merchant, 'dashboard-15-visao-geral');
  });

  it('lists the delivery with its payload and resends it within the hourly quota', async () => {
    await open(merchant, dashboard('/entregas'), 'Entregas de webhook');
    await merchant.getByTestId('resend-quota').getByText(/10 de 10 restantes/).waitFor();
    await merchant.getByRole('button', { name: `Reenviar transaction.paid para ${receiver.url}` }).click();
    await merchant.getByText(/Reenvio de transaction\.paid agendado\. Reenvios restantes nesta hora: 9\./).waitFor();
    await eventually('the resent webhook', () => {
      const paid = receiver.deliveries.filter((delivery) => delivery.event === 'transaction.paid');
      return paid.length >= 2 ? paid : undefined;
    });
    const paid = receiver.deliveries.filter((delivery) => delivery.event === 'transaction.paid');
    expect(paid[1]?.id).toBe(paid[0]?.id);
    await merchant.reload();
    await merchant.getByRole('cell', { name: /\(reenvio\)/ }).waitFor();
    await merchant.getByText('Ver conteúdo').first().click();
    await screen(merchant, 'dashboard-16-entregas');
  });

  it('revokes the key after a confirmation, and the API answers 401 to it', async () => {
    await open(merchant, dashboard('/chaves-de-api'), 'Dispositivos / Chaves de API');
    await merchant.getByRole('button', { name: 'Revogar' }).click();
    await merchant.getByRole('button', { name: 'Confirmar' }).click();
    await merchant.getByText(/revogada\. Ela deixa de funcionar em alguns segundos\./).waitFor();
    await screen(merchant, 'dashboard-17-chave-revogada');
    const status = await eventually(
      'the revoked key to be refused',
      async () => {
        const answer = await fetch(`${gateway.baseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${apiKey}` } });
        return answer.status === 401 ? answer.status : undefined;
      },
      10_000,
    );
    expect(status).toBe(401);
  });

  it('registers a recipient that the operator approves from the review queue', async () => {
    await open(merchant, dashboard('/destinatarios'), 'Destinatários');
    await merchant.getByLabel('Nome ou razão social').fill(RECIPIENT.legalName);
    await merchant.getByLabel('Tipo de documento').selectOption('cnpj');
    await merchant.getByLabel('Documento', { exact: true }).fill(RECIPIENT.cnpj);
    await merchant.getByLabel('Tipo de chave Pix').selectOption('email');
    await merchant.getByLabel('Chave Pix', { exact: true }).fill(RECIPIENT.pixKey);
    await merchant.getByRole('button', { name: 'Enviar para análise' }).click();
    await merchant.getByRole('row', { name: new RegExp(RECIPIENT.legalName) }).getByText('Em análise').waitFor();
    await screen(merchant, 'dashboard-18-destinatarios');

    await open(operator, consolePage('/destinatarios'), 'Fila de destinatários');
    await screen(operator, 'console-05-fila-destinatarios');
    await operator.getByRole('button', { name: `Aprovar ${RECIPIENT.legalName}` }).click();
    await operator.getByText(`Destinatário ${RECIPIENT.legalName} aprovado.`).waitFor();
    await merchant.reload();
    await merchant.getByRole('row', { name: new RegExp(RECIPIENT.legalName) }).getByText('Ativo').waitFor();
  });

  it('refuses a dashboard withdrawal without a valid TOTP code, then sends it for approval with one', async () => {
    // The operator puts the account in manual approval.
    await open(operator, consolePage('/contas'), 'Contas');
    await operator.getByRole('link', { name: LEGAL_NAME }).click();
    await operator.getByLabel('Aprovação de saques', { exact: true }).selectOption('manual');
    await operator.getByRole('button', { name: 'Salvar limites' }).click();
    await operator.getByText('Limites salvos.').waitFor();

    await open(merchant, dashboard('/saques'), 'Saques');
    await merchant.getByLabel('Valor (R$)').fill('100,00');
    await merchant.getByLabel('Destinatário').selectOption({ index: 1 });
    await merchant.getByLabel('Tipo de chave Pix').selectOption('email');
    await merchant.getByLabel('Chave Pix', { exact: true }).fill(RECIPIENT.pixKey);
    await merchant.getByLabel('Código do aplicativo autenticador').fill('000000');
    await merchant.getByRole('button', { name: 'Sacar' }).click();
    // The amount is confirmed formatted and in words before it is sent.
    await merchant.getByTestId('withdrawal-confirmation').getByText('R$ 100,00 (cem reais)').waitFor();
    await merchant.getByRole('button', { name: 'Confirmar saque de R$ 100,00' }).click();
    expect(await fieldError(merchant, 'Código do aplicativo autenticador')).not.toBe('');
    await screen(merchant, 'dashboard-19-saque-sem-codigo-valido');
    const refused = await fetch(`${gateway.baseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(refused.status).toBe(401);

    await merchant.getByLabel('Código do aplicativo autenticador').fill(await authenticator.code(merchantTotpSecret));
    await merchant.getByRole('button', { name: 'Sacar' }).click();
    await merchant.getByRole('button', { name: 'Confirmar saque de R$ 100,00' }).click();
    const queued = merchant.getByRole('status').filter({ hasText: 'Aguardando aprovação' });
    await queued.waitFor();
    // Manual approval: nothing was debited or reserved (issue 22, defect 3).
    expect(await queued.textContent()).toMatch(/Nada foi debitado nem reservado/);
    expect(await queued.textContent()).not.toMatch(/total debitado/i);
    await screen(merchant, 'dashboard-20-saque-aguardando-aprovacao');

    await open(operator, consolePage('/saques'), 'Fila de saques');
    await screen(operator, 'console-06-fila-saques');
    await operator.getByRole('button', { name: 'Aprovar saque' }).click();
    await operator.getByRole('button', { name: 'Confirmar' }).click();
    await operator.getByText(/aprovado\./).waitFor();
  });

  it('lists both approvals in the audit log with the operator name', async () => {
    await open(operator, consolePage('/auditoria'), 'Registro de auditoria');
    // The actions in Portuguese (web/console/src/auditLabels.ts).
    for (const action of ['Destinatário aprovado', 'Saque aprovado', 'Conta alterada']) {
      await operator.getByRole('row', { name: new RegExp(`Operador PixGate.*${action}`) }).first().waitFor();
    }
    await screen(operator, 'console-07-auditoria');
    await open(operator, consolePage('/operadores'), 'Operadores');
    await screen(operator, 'console-08-operadores');
  });

  it('refunds part of the paid charge with Devolver, after a confirmation, and shows it in the statement, the filters and the export', async () => {
    await open(merchant, dashboard(`/transacoes/${chargeId}`), `Cobrança ${chargeId}`);
    const refund = merchant.getByRole('region', { name: 'Devolver' });
    await refund.getByLabel('Valor (R$)').fill('100,00');
    await refund.getByLabel('Descrição para o pagador').fill('Troca do pedido e2e');
    await refund.getByLabel('Código do aplicativo autenticador').fill(await authenticator.code(merchantTotpSecret));
    await refund.getByRole('button', { name: 'Devolver' }).click();
    await refund.getByText('Confirme: R$ 100,00 serão devolvidos ao pagador').waitFor();
    await screen(merchant, 'dashboard-30-devolver-confirmacao');
    await refund.getByRole('button', { name: 'Confirmar devolução de R$ 100,00' }).click();
    await refund.getByText(/Devolução de R\$ 100,00 pedida/).waitFor();
    await merchant.getByRole('region', { name: 'Devoluções' }).getByText('Troca do pedido e2e').waitFor();
    // The simulated PSP confirms it a few seconds later; the charge becomes partially refunded.
    await eventually('the refund to be confirmed', async () => {
      await merchant.reload();
      await merchant.getByRole('heading', { level: 1, name: `Cobrança ${chargeId}` }).waitFor();
      return (await merchant.getByRole('region', { name: 'Devoluções' }).getByText('Devolvida').count()) > 0 ? true : undefined;
    }, 40_000);
    await merchant.getByRole('region', { name: 'Dados da transação' }).getByText('Devolvido em parte').waitFor();
    await screen(merchant, 'dashboard-31-devolucao-confirmada');

    await open(merchant, dashboard('/extrato'), 'Extrato');
    await merchant.getByRole('cell', { name: 'Devolução', exact: true }).first().waitFor();
    await merchant.getByRole('cell', { name: '-R$ 100,00' }).first().waitFor();
    await screen(merchant, 'dashboard-32-extrato');
    // A period the export would refuse: the page says why and offers no download (a download cannot show a 400).
    await merchant.getByLabel('De', { exact: true }).fill('2026-12-31');
    await merchant.getByLabel('Até', { exact: true }).fill('2026-01-01');
    await merchant.getByText('Período inválido: a data final deve ser igual ou posterior à inicial, em até 366 dias.').waitFor();
    expect(await merchant.getByRole('button', { name: /Exportar CSV/ }).isDisabled()).toBe(true);
    expect(await merchant.getByRole('link', { name: /Exportar CSV/ }).count()).toBe(0);

    await open(merchant, dashboard('/transacoes'), 'Transações');
    await merchant.getByLabel('Situação').selectOption('partially_refunded');
    // The charge is in the unfiltered list too: wait for the filtered page to replace it.
    await merchant.getByRole('row').nth(2).waitFor({ state: 'detached' });
    await merchant.getByRole('row', { name: new RegExp(chargeId) }).waitFor();
    expect(await merchant.getByRole('row').count()).toBe(2); // the header and the one charge
    await merchant.getByLabel('Buscar por referência, valor ou identificador').fill('pedido-e2e-1');
    await merchant.getByRole('button', { name: 'Buscar', exact: true }).click();
    await merchant.getByText('Transações com referência que começa com “pedido-e2e-1”.').waitFor();
    await merchant.getByRole('row', { name: new RegExp(chargeId) }).waitFor();
    await screen(merchant, 'dashboard-33-transacoes-filtros');

    const link = await merchant.getByRole('link', { name: /Exportar CSV/ }).getAttribute('href');
    const csv = await merchantContext.request.get(`${gateway.baseUrl}${link ?? ''}`);
    expect(csv.status()).toBe(200);
    const body = await csv.body();
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(body.toString('utf8')).toContain(`${chargeId};Cobrança;Devolvido em parte;500,00;`);
  });

  it('is usable on a 375 px phone: every page of both applications without sideways scrolling, captured', async () => {
    const phone = { locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: PHONE_WIDTH, height: 800 }, isMobile: true, hasTouch: true };
    // The same signed-in sessions, on a phone.
    const contexts = [
      await browser.newContext({ ...phone, storageState: await merchantContext.storageState() }),
      await browser.newContext({ ...phone, storageState: await consoleContext.storageState() }),
      await browser.newContext(phone),
    ];
    const [merchantPhone, operatorPhone, anonymousPhone] = await Promise.all(contexts.map((context) => context.newPage()));
    for (const page of [merchantPhone, operatorPhone, anonymousPhone]) page?.on('pageerror', (error) => pageErrors.push(error.message));
    if (!merchantPhone || !operatorPhone || !anonymousPhone) throw new Error('no page');
    try {
      const dashboardPages: [string, string | RegExp, string][] = [
        ['/visao-geral', 'Visão geral', 'visao-geral'],
        ['/transacoes', 'Transações', 'transacoes'],
        [`/transacoes/${chargeId}`, `Cobrança ${chargeId}`, 'cobranca'],
        ['/cobrancas/nova', 'Nova cobrança', 'nova-cobranca'],
        ['/extrato', 'Extrato', 'extrato'],
        ['/chaves-de-api', 'Dispositivos / Chaves de API', 'chaves'],
        ['/webhooks', 'Webhooks', 'webhooks'],
        ['/entregas', 'Entregas de webhook', 'entregas'],
        ['/destinatarios', 'Destinatários', 'destinatarios'],
        ['/saques', 'Saques', 'saques'],
        ['/usuarios', 'Usuários', 'usuarios'],
        ['/seguranca', 'Segurança', 'seguranca'],
      ];
      for (const [route, heading, name] of dashboardPages) {
        await open(merchantPhone, dashboard(route), heading);
        // Tables and the QR code are in; nothing still loading changes the width afterwards.
        await merchantPhone.getByText('Carregando…').first().waitFor({ state: 'detached' });
        await noSidewaysScroll(merchantPhone, `dashboard ${route}`);
        await screen(merchantPhone, `mobile-dashboard-${name}`);
      }
      for (const [route, heading, name] of [
        ['/entrar', 'Entrar no painel', 'entrar'],
        ['/cadastro', 'Criar conta', 'cadastro'],
        ['/esqueci-a-senha', 'Esqueci a senha', 'esqueci-a-senha'],
        ['/caixa-de-saida', 'Caixa de saída (desenvolvimento)', 'caixa-de-saida'],
      ] as const) {
        await open(anonymousPhone, dashboard(route), heading);
        await noSidewaysScroll(anonymousPhone, `dashboard ${route}`);
        await screen(anonymousPhone, `mobile-dashboard-${name}`);
      }
      for (const [route, heading, name] of [
        ['/contas', 'Contas', 'contas'],
        ['/destinatarios', 'Fila de destinatários', 'fila-destinatarios'],
        ['/saques', 'Fila de saques', 'fila-saques'],
        ['/auditoria', 'Registro de auditoria', 'auditoria'],
        ['/operadores', 'Operadores', 'operadores'],
      ] as const) {
        await open(operatorPhone, consolePage(route), heading);
        await noSidewaysScroll(operatorPhone, `console ${route}`);
        await screen(operatorPhone, `mobile-console-${name}`);
      }
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });

  it('captures the remaining pages, and returns to sign-in when the session is gone', async () => {
    for (const [route, heading, name] of [
      ['/usuarios', 'Usuários', 'dashboard-21-usuarios'],
      ['/seguranca', 'Segurança', 'dashboard-22-seguranca'],
      ['/saques', 'Saques', 'dashboard-23-saques'],
    ] as const) {
      await open(merchant, dashboard(route), heading);
      await screen(merchant, name);
    }
    await merchantContext.clearCookies();
    // The next request tells the page the session is gone. A page whose data the tab read in the last
    // 5 s is shown from the query cache without one, so open one it has not read: a transaction's page.
    await merchant.goto(dashboard(`/transacoes/tx_${'0'.repeat(24)}`));
    await merchant.getByText('Sua sessão terminou. Entre novamente.').waitFor();
    await merchant.getByRole('heading', { name: 'Entrar no painel' }).waitFor();
    await screen(merchant, 'dashboard-24-sessao-terminou');
    await open(merchant, dashboard('/esqueci-a-senha'), 'Esqueci a senha');
    await screen(merchant, 'dashboard-25-esqueci-a-senha');
  });
});
