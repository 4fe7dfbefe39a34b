import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { authOf, invitePerson, nextTotp, rawCall, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { useGateway, validCustomer } from '../support/gateway.ts';

/**
 * Issue 20 in the dashboard: "Devolver" (POST .../transactions/{id}/refunds with the authenticator's code),
 * the charge's refunds on its page, the statement, and the CSV exports of transactions and of the statement
 * (BOM, `;`, `1234,56`, São Paulo dates, escaping), with a 4xx and a Portuguese message for each bad input.
 */
const gateway = useGateway();
let owner: DashboardPerson;
let apiKey: string;

beforeAll(async () => {
  owner = await signUpOwner(gateway, { totp: true });
  const key = await owner.browser.api.POST('/dashboard/api/v1/api-keys', { body: { label: 'loja' } });
  apiKey = key.data?.apiKey ?? '';
});

async function paidCharge(amountCents: number, externalRef?: string): Promise<string> {
  const created = await gateway.as(apiKey).POST('/v1/pix', { body: { amountCents, customer: validCustomer, ...(externalRef ? { externalRef } : {}) } });
  const id = created.data?.transactionId ?? '';
  const paid = await owner.browser.api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', { params: { path: { transactionId: id, action: 'pay' } } });
  expect(paid.response.status).toBe(200);
  return id;
}

const refundPath = (id: string) => `/dashboard/api/v1/transactions/${id}/refunds`;

describe('Devolver', () => {
  it('refunds with the authenticator code; the charge shows its refunds; a wrong code or role changes nothing', async () => {
    const chargeId = await paidCharge(10_000);
    const wrong = await rawCall(gateway, { method: 'POST', path: refundPath(chargeId), body: { amountCents: 1_000, totpCode: '000000' } }, authOf(owner));
    expect(wrong).toEqual({ status: 400, body: { error: messages.invalidTotpCode, field: 'totpCode' } });
    const missing = await rawCall(gateway, { method: 'POST', path: refundPath(chargeId), body: { amountCents: 1_000 } }, authOf(owner));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ field: 'totpCode' });
    const badAmount = await rawCall(gateway, { method: 'POST', path: refundPath(chargeId), body: { amountCents: 0, totpCode: nextTotp(gateway, owner) } }, authOf(owner));
    // Issue 22, defect 11: the label and the amount in reais, not the API's "amountCents … (valor em centavos)".
    expect(badAmount).toEqual({ status: 400, body: { error: 'Valor: o mínimo é R$ 0,01.', field: 'amountCents' } });

    const viewer = await invitePerson(gateway, owner, 'viewer');
    const refused = await rawCall(gateway, { method: 'POST', path: refundPath(chargeId), body: { amountCents: 1_000, totpCode: '123456' } }, authOf(viewer));
    expect(refused.status).toBe(403);

    const created = await rawCall(
      gateway,
      { method: 'POST', path: refundPath(chargeId), body: { amountCents: 1_000, description: 'Troca', externalRef: 'painel-1', totpCode: nextTotp(gateway, owner) } },
      authOf(owner),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ transactionId: chargeId, amountCents: 1_000, status: 'processing', description: 'Troca' });
    const above = await rawCall(gateway, { method: 'POST', path: refundPath(chargeId), body: { amountCents: 9_001, totpCode: nextTotp(gateway, owner) } }, authOf(owner));
    expect(above).toEqual({ status: 422, body: { error: 'Valor: acima do disponível para devolução desta cobrança; restam R$ 90,00.', field: 'amountCents' } });

    const detail = await owner.browser.api.GET('/dashboard/api/v1/transactions/{transactionId}', { params: { path: { transactionId: chargeId } } });
    expect(detail.data?.refunds).toEqual([expect.objectContaining({ refundId: (created.body as { refundId: string }).refundId, status: 'processing', amountCents: 1_000 })]);
  });

  it('needs two-factor turned on', async () => {
    const plain = await signUpOwner(gateway);
    const answer = await rawCall(gateway, { method: 'POST', path: refundPath('tx_0123456789abcdef01234567'), body: { totpCode: '123456' } }, authOf(plain));
    expect(answer.status).toBe(409);
  });
});

describe('the statement and the exports', () => {
  it('lists the statement and exports both as CSV for a spreadsheet', async () => {
    const shop = await signUpOwner(gateway, { totp: true });
    const key = await shop.browser.api.POST('/dashboard/api/v1/api-keys', { body: { label: 'loja' } });
    const merchant = gateway.as(key.data?.apiKey ?? '');
    const created = await merchant.POST('/v1/pix', { body: { amountCents: 123_456, customer: validCustomer, externalRef: '=HYPERLINK("x");1' } });
    const chargeId = created.data?.transactionId ?? '';
    await shop.browser.api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', { params: { path: { transactionId: chargeId, action: 'pay' } } });

    const statement = await shop.browser.api.GET('/dashboard/api/v1/statement', { params: { query: { limit: 10 } } });
    expect(statement.data?.entries.map((entry) => entry.type)).toEqual(['charge_paid']);

    // The gateway's clock is 2026-11-21 12:00 UTC plus what the tests advanced: the whole month covers it.
    const csv = await fetch(`${gateway.baseUrl}/dashboard/api/v1/transactions.csv?from=2026-11-01&to=2026-12-31`, { headers: { cookie: `pixgate_session=${shop.browser.cookie()}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="pixgate-transacoes-2026-11-01-a-2026-12-31.csv"');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split('\r\n');
    expect(lines[0]).toBe(
      'Transação;Tipo;Situação;Valor (R$);Tarifa (R$);Líquido (R$);Devolvido (R$);Referência;Criada em;Paga em;Identificador fim a fim;' +
        'Modalidade;QR Code estático;Link de pagamento;Pagador;Documento do pagador',
    );
    const cells = lines[1]?.split(';') ?? [];
    // Situação in the page's words (issue 38, defect 9: it was `paid`).
    expect(cells.slice(0, 7)).toEqual([chargeId, 'Cobrança', 'Pago', '1234,56', '0,00', '1234,56', '0,00']);
    // A formula is defused and a separator inside a cell is quoted.
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"");1"`);
    expect(lines[1]).toMatch(/;\d{2}\/\d{2}\/2026 \d{2}:\d{2}:\d{2};/);
    // An immediate charge (POST /v1/pix), of no static QR code or link (issue 36).
    expect(lines[1]).toMatch(/;Imediata;;;[^;]*;[^;]*$/);
    expect(lines[2]).toBe('');

    const entries = await fetch(`${gateway.baseUrl}/dashboard/api/v1/statement.csv?from=2026-11-01&to=2026-12-31`, { headers: { cookie: `pixgate_session=${shop.browser.cookie()}` } });
    const text = (await entries.text()).replace(/^\uFEFF/, '');
    expect(text.split('\r\n')[0]).toBe('Lançamento;Tipo;Valor (R$);Saldo após (R$);Transação;Devolução;Data');
    expect(text.split('\r\n')[1]).toMatch(new RegExp(`^be_1;Cobrança recebida;1234,56;1234,56;${chargeId};;\\d{2}/\\d{2}/2026 `));

    // Another period: only the header.
    const empty = await fetch(`${gateway.baseUrl}/dashboard/api/v1/statement.csv?from=2025-01-01&to=2025-01-31`, { headers: { cookie: `pixgate_session=${shop.browser.cookie()}` } });
    expect((await empty.text()).replace(/^\uFEFF/, '').split('\r\n').filter(Boolean)).toHaveLength(1);
  });

  it('answers a bad period with 400 and the field, never a 500', async () => {
    const call = (query: Record<string, string>) => rawCall(gateway, { method: 'GET', path: '/dashboard/api/v1/transactions.csv', query }, authOf(owner));
    expect(await call({ from: '01/11/2026', to: '2026-11-30' })).toEqual({ status: 400, body: { error: messages.exportFromInvalid, field: 'from' } });
    expect(await call({ from: '2026-02-30', to: '2026-03-01' })).toEqual({ status: 400, body: { error: messages.exportFromInvalid, field: 'from' } });
    expect(await call({ from: '2026-11-01', to: '2026-13-01' })).toEqual({ status: 400, body: { error: messages.exportToInvalid, field: 'to' } });
    expect(await call({ from: '2026-11-02', to: '2026-11-01' })).toEqual({ status: 400, body: { error: messages.exportPeriodInvalid, field: 'to' } });
    expect(await call({ from: '2025-01-01', to: '2026-11-01' })).toEqual({ status: 400, body: { error: messages.exportPeriodInvalid, field: 'to' } });
    expect((await call({ to: '2026-11-01' })).status).toBe(400);
    expect((await call({ from: '2026-11-01', to: '2026-11-30', status: 'pago' })).status).toBe(400);
    const statement = await rawCall(gateway, { method: 'GET', path: '/dashboard/api/v1/statement', query: { cursor: 'abc' } }, authOf(owner));
    expect(statement).toEqual({ status: 400, body: { error: 'A página pedida não existe mais: volte à primeira página.', field: 'cursor' } });
    expect(gateway.loggedErrors).toEqual([]);
  });
});
