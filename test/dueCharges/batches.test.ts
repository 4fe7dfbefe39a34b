import { beforeAll, describe, expect, it } from 'vitest';
import { BATCHES_PER_HOUR, processDueChargeBatches } from '../../src/charges/dueChargeBatch.service.ts';
import { messages } from '../../src/messages/merchant.ts';
import { createMerchant, postAsMerchant, useGateway, type MerchantFixture } from '../support/gateway.ts';

/**
 * Issue 36: batches of charges with a due date (API Pix `lotecobv`) over HTTP: a billing run asked at once,
 * an item refused alone with POST /v1/due-charges's message, a repeated externalRef, the provider's batch read
 * until every charge is stored, and the refusals of a malformed batch.
 */
const gateway = useGateway();
let merchant: MerchantFixture;
type Body = Record<string, unknown>;

const item = (overrides: Body = {}): Body => ({
  amountCents: 25_000,
  dueDate: '2026-12-10',
  customer: { name: 'Maria da Silva', document: { number: '529.982.247-25', type: 'cpf' } },
  fine: { mode: 'percent', basisPoints: 200 },
  ...overrides,
});

const batch = (dueCharges: Body[], description = 'Mensalidades de dezembro') => postAsMerchant(gateway, merchant, '/v1/due-charge-batches', { description, dueCharges });

async function read(path: string) {
  const response = await fetch(`${gateway.baseUrl}${path}`, { headers: { Authorization: `Bearer ${merchant.apiKey}` } });
  return { status: response.status, body: (await response.json()) as Body };
}

/** The job until the batch is done (the fake provider creates a batch's charges after its 202). */
async function untilDone(batchId: string): Promise<Body> {
  for (let round = 0; round < 50; round += 1) {
    await processDueChargeBatches(gateway.deps);
    const answer = await read(`/v1/due-charge-batches/${batchId}`);
    if (answer.body.status === 'done') return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`batch ${batchId} still processing`);
}

beforeAll(async () => {
  merchant = await createMerchant(gateway);
});

describe('POST /v1/due-charge-batches', () => {
  it('asks for a billing run: valid items processing, a broken one refused alone, then every charge stored', async () => {
    const answer = await batch([item({ externalRef: 'lote-1-a' }), item({ externalRef: 'lote-1-b', dueDate: '2026-11-01' }), item({ externalRef: 'lote-1-c', amountCents: 9_000 })]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body).toMatchObject({ description: 'Mensalidades de dezembro', status: 'processing', count: 3 });
    const items = answer.body.items as Body[];
    expect(items.map((entry) => entry.status)).toEqual(['processing', 'refused', 'processing']);
    expect(items[1]).toEqual({ index: 1, status: 'refused', externalRef: 'lote-1-b', error: messages.dueDateInPast('2026-11-21') });
    const done = await untilDone(answer.body.batchId as string);
    const created = (done.items as Body[]).filter((entry) => entry.status === 'created');
    expect(created.map((entry) => entry.externalRef)).toEqual(['lote-1-a', 'lote-1-c']);
    for (const entry of created) {
      const charge = await read(`/v1/due-charges/${entry.transactionId as string}`);
      expect(charge.body).toMatchObject({ status: 'pending', externalRef: entry.externalRef, dueDate: '2026-12-10' });
      expect(charge.body.pixPayload).toMatch(/^000201/);
    }
    // The same externalRef again: that charge, not a new one; two items with one externalRef: the second refused.
    const again = await batch([item({ externalRef: 'lote-1-a' }), item({ externalRef: 'lote-2-x' }), item({ externalRef: 'lote-2-x' })]);
    expect(again.status).toBe(202);
    const againItems = again.body.items as Body[];
    expect(againItems[0]).toMatchObject({ status: 'created', transactionId: created[0]!.transactionId });
    expect(againItems[2]).toEqual({ index: 2, status: 'refused', externalRef: 'lote-2-x', error: 'externalRef repetido no lote (item 1).' });
    await untilDone(again.body.batchId as string);
  });

  it.each([
    ['a malformed item, named by its index', [item(), item({ amountCents: 99 })], undefined, messages.batchItem(1, messages.chargeAmount)],
    ['an item with an unknown field', [item({ dia: 1 })], undefined, messages.batchItem(0, messages.unknownField('dia'))],
    ['no item', [], undefined, messages.batchSize],
    ['an empty description', [item()], ' ', messages.batchDescription],
  ])('refuses %s with 400, creating nothing', async (_case, items, description, message) => {
    const answer = await batch(items, description);
    expect(answer).toEqual({ status: 400, body: { error: message } });
  });

  it('refuses an item whose fine does not fit its mode alone, as POST /v1/due-charges does', async () => {
    const answer = await batch([item({ dueDate: '2026-01-01' }), item({ fine: { mode: 'fixed' }, dueDate: '2026-01-01' })]);
    expect(answer.status).toBe(202);
    expect((answer.body.items as Body[])[1]).toEqual({ index: 1, status: 'refused', error: messages.dueFine });
  });

  it('refuses more than 500 items with 400', async () => {
    const answer = await batch(Array.from({ length: 501 }, () => item()));
    expect(answer).toEqual({ status: 400, body: { error: messages.batchSize } });
  });

  it(`allows ${BATCHES_PER_HOUR} batches an hour, then answers 429`, async () => {
    const shop = await createMerchant(gateway);
    for (let index = 0; index < BATCHES_PER_HOUR; index += 1) {
      const answer = await postAsMerchant(gateway, shop, '/v1/due-charge-batches', { description: 'x', dueCharges: [item({ dueDate: '2026-01-01' })] });
      expect(answer.status).toBe(202);
    }
    const over = await postAsMerchant(gateway, shop, '/v1/due-charge-batches', { description: 'x', dueCharges: [item()] });
    expect(over).toEqual({ status: 429, body: { error: messages.batchRateLimited } });
  });
});

describe('GET /v1/due-charge-batches/{batchId}', () => {
  it('answers 404 for an unknown or another merchant’s batch, 400 for a malformed id', async () => {
    expect(await read('/v1/due-charge-batches/dcb_000000000000000000000000')).toEqual({ status: 404, body: { error: messages.batchNotFound } });
    const other = await createMerchant(gateway);
    const theirs = await postAsMerchant(gateway, other, '/v1/due-charge-batches', { description: 'deles', dueCharges: [item({ dueDate: '2026-01-01' })] });
    expect(await read(`/v1/due-charge-batches/${theirs.body.batchId as string}`)).toEqual({ status: 404, body: { error: messages.batchNotFound } });
    expect(await read('/v1/due-charge-batches/lote-1')).toEqual({ status: 400, body: { error: messages.batchIdInvalid } });
  });
});
