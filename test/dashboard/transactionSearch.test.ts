import { beforeAll, describe, expect, it } from 'vitest';
import { parseTransactionSearch } from '../../src/dashboard/transactionSearch.ts';
import { signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { useGateway, validCustomer } from '../support/gateway.ts';

/**
 * Issue 38, defect 5: the transactions' search found only exact ids and references: "cobranca-painel",
 * "5000" or part of an id found nothing. GET /dashboard/api/v1/transactions?q= finds by the reference's
 * prefix, the id's prefix and the amount (in reais), any of them, with the list's filters and pages.
 */
const gateway = useGateway();
let owner: DashboardPerson;
let other: DashboardPerson;
const ids: Record<string, string> = {};

async function charge(person: DashboardPerson, amountCents: number, externalRef?: string): Promise<string> {
  const created = await person.browser.api.POST('/dashboard/api/v1/charges', {
    body: { amountCents, customer: validCustomer, ...(externalRef === undefined ? {} : { externalRef }) },
  });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  gateway.clock.advance(1_000);
  return created.data.transactionId;
}

async function search(q: string, extra: Record<string, string | number> = {}, as = owner): Promise<{ ids: string[]; nextCursor?: string | undefined }> {
  const answer = await as.browser.api.GET('/dashboard/api/v1/transactions', { params: { query: { q, ...extra } } });
  if (!answer.data) throw new Error(JSON.stringify(answer.error));
  return { ids: answer.data.transactions.map((transaction) => transaction.transactionId), nextCursor: answer.data.nextCursor };
}

beforeAll(async () => {
  owner = await signUpOwner(gateway);
  other = await signUpOwner(gateway);
  ids.pedido1 = await charge(owner, 12_345, 'pedido-1001');
  ids.pedido2 = await charge(owner, 500_000, 'pedido-1002');
  ids.painel = await charge(owner, 5_000, 'cobranca-painel-0b7c2d6e-1b4f-4c1e-9d2a-3f5e6a7b8c9d');
  ids.upper = await charge(owner, 777, 'PEDIDO-9');
  ids.plain = await charge(owner, 500_000);
  // Another account's charge with the same reference and amount is never found.
  ids.others = await charge(other, 500_000, 'pedido-1003');
}, 60_000);

describe('GET /dashboard/api/v1/transactions?q= (issue 38, defect 5)', () => {
  it("finds by the reference's prefix, newest first, as typed (references are the merchant's codes: case matters)", async () => {
    expect((await search('pedido-')).ids).toEqual([ids.pedido2, ids.pedido1]);
    expect((await search('pedido-100')).ids).toEqual([ids.pedido2, ids.pedido1]);
    expect((await search('cobranca-painel')).ids).toEqual([ids.painel]);
    expect((await search('PEDIDO')).ids).toEqual([ids.upper]);
    expect((await search('  pedido-1001  ')).ids).toEqual([ids.pedido1]);
  });

  it('finds by the amount typed in reais, as the money fields read it', async () => {
    expect((await search('5000')).ids).toEqual([ids.plain, ids.pedido2]);
    expect((await search('5.000,00')).ids).toEqual([ids.plain, ids.pedido2]);
    expect((await search('R$ 50,00')).ids).toEqual([ids.painel]);
    expect((await search('123,45')).ids).toEqual([ids.pedido1]);
  });

  it("finds by the id's prefix, with or without tx_, from 4 hex digits on", async () => {
    const id = ids.pedido1 ?? '';
    expect((await search(id.slice(0, 9))).ids).toContain(id);
    expect((await search(id.slice(3, 9))).ids).toContain(id);
    expect((await search(id.slice(3, 9).toUpperCase())).ids).toContain(id);
    expect((await search(id)).ids).toEqual([id]);
    // "tx_" alone is no prefix of an id worth searching: nothing but references starting with it.
    expect((await search('tx_')).ids).toEqual([]);
  });

  it("never finds another account's transactions, and keeps the list's filters", async () => {
    const found = await search('pedido-100');
    expect(found.ids).not.toContain(ids.others);
    expect((await search(ids.others ?? '')).ids).toEqual([]);
    expect((await search('5000', { type: 'withdrawal' })).ids).toEqual([]);
    expect((await search('5000', { status: 'pending' })).ids).toEqual([ids.plain, ids.pedido2]);
    expect((await search('nada-com-isto')).ids).toEqual([]);
  });

  it('pages the results with the list’s cursor, without repeating or skipping one', async () => {
    const first = await search('5000', { limit: 1 });
    expect(first.ids).toEqual([ids.plain]);
    expect(first.nextCursor).toBeDefined();
    const second = await search('5000', { limit: 1, cursor: first.nextCursor ?? '' });
    expect(second.ids).toEqual([ids.pedido2]);
    expect(second.nextCursor).toBeUndefined();
  });

  it('refuses an empty search beside the field', async () => {
    const answer = await owner.browser.api.GET('/dashboard/api/v1/transactions', { params: { query: { q: '   ' } } });
    expect(answer.response.status).toBe(400);
    expect(answer.error).toMatchObject({ field: 'q' });
  });
});

describe('the search text (src/dashboard/transactionSearch.ts)', () => {
  it('is a reference prefix always, an id prefix from 4 hex digits, an amount when it reads as one', () => {
    expect(parseTransactionSearch(' 5000 ')).toEqual({ referencePrefix: '5000', idPrefix: 'tx_5000', amountCents: 500_000 });
    expect(parseTransactionSearch('tx_3FA9')).toEqual({ referencePrefix: 'tx_3FA9', idPrefix: 'tx_3fa9' });
    expect(parseTransactionSearch('abc')).toEqual({ referencePrefix: 'abc' });
    expect(parseTransactionSearch('0,00')).toEqual({ referencePrefix: '0,00' });
  });
});
