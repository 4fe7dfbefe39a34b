import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { authOf, dashboardCaller, databaseState, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { useGateway, validCustomer } from '../support/gateway.ts';

/**
 * Issue 22, what merchants expect: "Nova cobrança" from the dashboard (POST /dashboard/api/v1/charges, exactly
 * POST /v1/pix's service and idempotency by externalRef) and the charge's QR code image for the signed-in
 * session (GET /dashboard/api/v1/transactions/{id}/qrcode, the QR service of GET /v1/transactions/{id}/qrcode).
 */
const gateway = useGateway();
let owner: DashboardPerson;
let pending: DashboardPerson;

const call = dashboardCaller(gateway);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

beforeAll(async () => {
  owner = await signUpOwner(gateway);
  pending = await signUpOwner(gateway, { approved: false });
}, 60_000);

describe('POST /dashboard/api/v1/charges', () => {
  it('creates a pending charge (201) with its copy-and-paste code, and a retry with the same externalRef answers the original (200, idempotent)', async () => {
    const body = { amountCents: 123_400, externalRef: 'cobranca-painel-1', customer: validCustomer };
    const created = await call('POST', '/charges', owner, body);
    expect(created.status).toBe(201);
    const charge = created.body as { transactionId: string; status: string; pixPayload: string; amountCents: number };
    expect(charge).toMatchObject({ status: 'pending', amountCents: 123_400 });
    expect(charge.pixPayload).toMatch(/^000201/);
    const before = await databaseState(gateway);
    const again = await call('POST', '/charges', owner, body);
    expect(again).toEqual({ status: 200, body: { ...charge, idempotent: true } });
    expect(await databaseState(gateway)).toEqual(before);
    // The same charge in the account's transactions.
    expect((await call('GET', `/transactions/${charge.transactionId}`, owner)).status).toBe(200);
  });

  it('refuses a bad amount or customer with 400, the field and a Portuguese message, creating nothing', async () => {
    const before = await databaseState(gateway);
    const low = await call('POST', '/charges', owner, { amountCents: 50, customer: validCustomer });
    expect(low.status).toBe(400);
    expect(low.body).toMatchObject({ field: 'amountCents' });
    // Portuguese, never the validator's English (the labels of issue 22's defect 11 are the message catalogue's).
    expect((low.body as { error: string }).error).toMatch(/inválido|mínimo/);
    expect((low.body as { error: string }).error).not.toMatch(/must|Invalid request/);
    const badCpf = await call('POST', '/charges', owner, { amountCents: 1_000, customer: { ...validCustomer, document: { number: '123.456.789-00', type: 'cpf' } } });
    expect(badCpf.status).toBe(400);
    expect((badCpf.body as { error: string }).error).toMatch(/CPF/);
    const unknown = await call('POST', '/charges', owner, { amountCents: 1_000, customer: validCustomer, surprise: true });
    expect(unknown.status).toBe(400);
    expect(await databaseState(gateway)).toEqual(before);
  });

  it('refuses an account whose KYC is not approved (403), as POST /v1/pix does', async () => {
    expect(await call('POST', '/charges', pending, { amountCents: 1_000, customer: validCustomer })).toEqual({ status: 403, body: { error: messages.accountNotApproved } });
  });
});

describe('GET /dashboard/api/v1/transactions/{transactionId}/qrcode', () => {
  it("serves the charge's QR code as a PNG, privately cached", async () => {
    const created = await call('POST', '/charges', owner, { amountCents: 2_500, customer: validCustomer });
    const { transactionId } = created.body as { transactionId: string };
    const cookie = authOf(owner).cookie ?? '';
    const answer = await fetch(`${gateway.baseUrl}/dashboard/api/v1/transactions/${transactionId}/qrcode?size=256`, { headers: { cookie: `pixgate_session=${cookie}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect(answer.headers.get('cache-control')).toMatch(/^private/);
    expect([...new Uint8Array(await answer.arrayBuffer()).subarray(0, 4)]).toEqual(PNG_SIGNATURE);
  });

  it('answers 404 in Portuguese for an unknown transaction and for a withdrawal, 400 for a malformed id or size', async () => {
    expect(await call('GET', '/transactions/tx_000000000000000000000000/qrcode', owner)).toEqual({ status: 404, body: { error: messages.transactionNotFound } });
    const malformed = await call('GET', '/transactions/nao-e-um-id/qrcode', owner);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ field: 'transactionId' });
    const created = await call('POST', '/charges', owner, { amountCents: 2_500, customer: validCustomer });
    const { transactionId } = created.body as { transactionId: string };
    const tooBig = await call('GET', `/transactions/${transactionId}/qrcode`, owner, undefined, { size: '5000' });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body).toEqual({ error: 'Tamanho: o máximo é 1.024.', field: 'size' });
    expect((tooBig.body as { error: string }).error).not.toMatch(/query\.|must/);
  });
});
