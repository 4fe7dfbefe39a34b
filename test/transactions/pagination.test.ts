import { beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, relaxLimits, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 20: GET /v1/transactions page by page (cursor, nextCursor) in a stable order, and its filters
 * (createdFrom, createdTo, status, externalRef), with the contract's 400 for each bad value.
 */
const gateway = useGateway();
let merchant: MerchantFixture;

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
});

type Query = Record<string, string | number>;

async function list(of: MerchantFixture, query: Query): Promise<{ status: number; body: Record<string, unknown> }> {
  const search = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]));
  const response = await fetch(`${gateway.baseUrl}/v1/transactions?${search}`, { headers: { Authorization: `Bearer ${of.apiKey}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const idsOf = (body: Record<string, unknown>) => (body.transactions as { transactionId: string }[]).map((tx) => tx.transactionId);

/** Every page of a query, following nextCursor; the ids in the order read. */
async function walk(of: MerchantFixture, query: Query): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await list(of, { ...query, ...(cursor ? { cursor } : {}) });
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(idsOf(page.body).length);
    ids.push(...idsOf(page.body));
    cursor = page.body.nextCursor as string | undefined;
    pages += 1;
  } while (cursor !== undefined);
  return { ids, pages };
}

async function charge(of: MerchantFixture, externalRef?: string): Promise<string> {
  const created = await of.client.POST('/v1/pix', { body: { amountCents: 1_000, customer: validCustomer, ...(externalRef ? { externalRef } : {}) } });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return created.data.transactionId;
}

async function pay(id: string): Promise<void> {
  const paid = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId: id } } });
  expect(paid.response.status).toBe(200);
}

describe('pages', () => {
  it('walks every transaction once, newest first, ties broken by id; the last page has no nextCursor', async () => {
    const shop = await createMerchant(gateway);
    const created: string[] = [];
    for (let i = 0; i < 23; i += 1) {
      // Several transactions share one millisecond: the order falls back on the id.
      if (i % 4 === 0) gateway.clock.advance(1);
      created.push(await charge(shop));
    }
    const all = await list(shop, { limit: 100 });
    expect(all.body).not.toHaveProperty('nextCursor');
    const order = idsOf(all.body);
    expect(new Set(order)).toEqual(new Set(created));
    const { ids, pages } = await walk(shop, { limit: 5 });
    expect(ids).toEqual(order);
    expect(pages).toBe(5);
    // A page exactly at the end has no cursor either.
    expect((await list(shop, { limit: 23 })).body).not.toHaveProperty('nextCursor');
    expect((await list(shop, { limit: 22 })).body).toHaveProperty('nextCursor');
  });

  it('transactions created while paging appear on the first page, never skip or repeat one on the next', async () => {
    const shop = await createMerchant(gateway);
    for (let i = 0; i < 12; i += 1) {
      gateway.clock.advance(10);
      await charge(shop);
    }
    const before = idsOf((await list(shop, { limit: 100 })).body);
    const first = await list(shop, { limit: 5 });
    // New ones arrive, at once.
    gateway.clock.advance(1);
    const added = await Promise.all([charge(shop), charge(shop), charge(shop)]);
    const rest: string[] = [];
    let cursor = first.body.nextCursor as string | undefined;
    while (cursor) {
      const page = await list(shop, { limit: 5, cursor });
      rest.push(...idsOf(page.body));
      cursor = page.body.nextCursor as string | undefined;
    }
    expect([...idsOf(first.body), ...rest]).toEqual(before);
    const fresh = idsOf((await list(shop, { limit: 100 })).body);
    expect(fresh.slice(0, 3).sort()).toEqual([...added].sort());
  });
});

describe('filters', () => {
  it('createdFrom (inclusive), createdTo (exclusive), status, externalRef and type, combined and paged', async () => {
    const shop = await createMerchant(gateway);
    await relaxLimits(gateway, shop.accountId);
    const start = gateway.clock.now();
    const early = await charge(shop, 'pedido-1');
    gateway.clock.advance(1_000);
    const middle = await charge(shop, 'pedido-2');
    await pay(middle);
    gateway.clock.advance(1_000);
    const late = await charge(shop, 'pedido-3');
    await pay(late);
    const end = gateway.clock.now();

    expect(idsOf((await list(shop, { createdFrom: start + 1_000 })).body)).toEqual([late, middle]);
    expect(idsOf((await list(shop, { createdTo: start + 1_000 })).body)).toEqual([early]);
    expect(idsOf((await list(shop, { createdFrom: start, createdTo: end + 1 })).body)).toEqual([late, middle, early]);
    expect(idsOf((await list(shop, { status: 'paid' })).body)).toEqual([late, middle]);
    expect(idsOf((await list(shop, { status: 'pending' })).body)).toEqual([early]);
    expect(idsOf((await list(shop, { status: 'refunded' })).body)).toEqual([]);
    expect(idsOf((await list(shop, { externalRef: 'pedido-2' })).body)).toEqual([middle]);
    expect(idsOf((await list(shop, { externalRef: 'pedido-3', createdTo: start + 2_000 })).body)).toEqual([]);
    expect(idsOf((await list(shop, { externalRef: 'pedido-3', status: 'paid' })).body)).toEqual([late]);
    expect(idsOf((await list(shop, { type: 'withdrawal', status: 'paid' })).body)).toEqual([]);
    const paged = await walk(shop, { status: 'paid', limit: 1 });
    expect(paged.ids).toEqual([late, middle]);
    // Another merchant's transactions never appear, whatever the filter.
    const other = await createMerchant(gateway);
    expect(idsOf((await list(other, { externalRef: 'pedido-2' })).body)).toEqual([]);
  });
});

describe('bad values', () => {
  it('answers each with the message of its parameter, 400, never a 500', async () => {
    const cursorInvalid = { status: 400, body: { error: 'cursor inválido: use o nextCursor da página anterior.' } };
    expect(await list(merchant, { cursor: 'abc' })).toEqual(cursorInvalid);
    expect(await list(merchant, { cursor: 'not a cursor!' })).toEqual(cursorInvalid);
    expect(await list(merchant, { cursor: Buffer.from('123.tx_zz').toString('base64url') })).toEqual(cursorInvalid);
    expect(await list(merchant, { cursor: Buffer.from('99999999999999999999.tx_0123456789abcdef01234567').toString('base64url') })).toEqual(cursorInvalid);
    expect(await list(merchant, { cursor: 'x'.repeat(201) })).toEqual(cursorInvalid);
    // A statement cursor is not a transactions cursor.
    expect(await list(merchant, { cursor: Buffer.from('12.0').toString('base64url') })).toEqual(cursorInvalid);
    expect(await list(merchant, { createdFrom: '2026-11-01' })).toEqual({
      status: 400,
      body: { error: "createdFrom deve ser inteiro (Unix em milissegundos). Recebido: '2026-11-01'." },
    });
    expect(await list(merchant, { createdTo: -1 })).toEqual({ status: 400, body: { error: "createdTo deve ser inteiro (Unix em milissegundos). Recebido: '-1'." } });
    expect(await list(merchant, { createdFrom: 2_000, createdTo: 2_000 })).toEqual({ status: 400, body: { error: 'createdTo deve ser maior que createdFrom.' } });
    expect(await list(merchant, { status: 'pago' })).toEqual({
      status: 400,
      body: {
        error:
          "status inválido. Use um de: pending, processing, pending_approval, paid, failed, failed_unknown, cancelled, expired, refunded, partially_refunded. Recebido: 'pago'.",
      },
    });
    expect(await list(merchant, { externalRef: 'r'.repeat(101) })).toEqual({ status: 400, body: { error: 'externalRef deve ser texto de 1 a 100 caracteres.' } });
    expect(gateway.loggedErrors).toEqual([]);
  });

  it('finds an externalRef with spaces and reserved characters however a client encodes it (a + is a space)', async () => {
    const shop = await createMerchant(gateway);
    const id = await charge(shop, 'pedido 7: caixa,fila@loja');
    // URLSearchParams writes the space as + and percent-encodes the rest, as a form would.
    expect(idsOf((await list(shop, { externalRef: 'pedido 7: caixa,fila@loja' })).body)).toEqual([id]);
    const raw = async (query: string) => {
      const response = await fetch(`${gateway.baseUrl}/v1/transactions?externalRef=${query}`, { headers: { Authorization: `Bearer ${shop.apiKey}` } });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(idsOf((await raw('pedido%207:%20caixa,fila@loja')).body)).toEqual([id]);
    expect(idsOf((await raw('pedido+7:+caixa,fila@loja')).body)).toEqual([id]);
    // Whitespace alone is a value like any other (nothing has it here), not a 400.
    expect(await raw('%0C%0D%0C+')).toEqual({ status: 200, body: { transactions: [], count: 0 } });
  });

  it('a valid cursor from another merchant only positions this merchant’s list', async () => {
    const shop = await createMerchant(gateway);
    await charge(shop);
    await charge(shop);
    const page = await list(shop, { limit: 1 });
    const cursor = String(page.body.nextCursor);
    const theirs = await list(merchant, { cursor });
    expect(theirs.status).toBe(200);
    expect(idsOf(theirs.body).every((id) => !idsOf(page.body).includes(id))).toBe(true);
  });
});
