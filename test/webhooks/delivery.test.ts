import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dispatchOnce } from '../../src/webhooks/delivery.service.ts';
import { purgeDeliveryHistory } from '../../src/webhooks/delivery.service.ts';
import { createMerchant, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';
import { startReceiver, type Received } from '../support/receiver.ts';

const gateway = useGateway({ webhookTimeoutMs: 300 });
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  // Signatures are checked by standardwebhooks against real time: start the clock at real time.
  gateway.clock.set(Date.now());
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.script(() => 200);
});

/** An independent Standard Webhooks verifier (node:crypto), for timestamps far from real time. */
function verifyIndependently(secret: string, request: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`;
  const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
  return String(request.headers['x-service-signature']).split(' ').includes(expected);
}

async function endpointFor(merchant: MerchantFixture, url: string, events?: string[]) {
  const created = await gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks', {
    params: { path: { accountId: merchant.accountId } },
    body: { url, ...(events ? { events } : {}) },
  });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return created.data;
}

async function paidCharge(merchant: MerchantFixture) {
  const { data } = await merchant.client.POST('/v1/pix', { body: { amountCents: 1000, customer: validCustomer } });
  await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', {
    params: { path: { transactionId: data?.transactionId ?? '' } },
  });
  return data?.transactionId ?? '';
}

describe('webhook delivery', () => {
  it('delivers a signed transaction.paid that a third-party verifier accepts, and rejects one changed byte', async () => {
    const merchant = await createMerchant(gateway);
    const endpoint = await endpointFor(merchant, `${receiver.url}/hooks/pixgate?tenant=7`);
    const transactionId = await paidCharge(merchant);
    expect(await dispatchOnce(gateway.deps)).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0]!;
    // Sent to exactly the URL given, nothing appended.
    expect(request.path).toBe('/hooks/pixgate?tenant=7');
    expect(request.headers['x-service-event']).toBe('transaction.paid');
    expect(request.headers['x-service-event-id']).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(request.headers['x-service-timestamp']).toBe(String(Math.floor(gateway.clock.now() / 1000)));
    expect(request.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(request.body) as Record<string, unknown>;
    expect(payload).toMatchObject({ event: 'transaction.paid', status: 'paid', transactionId, category: 'cashin', netCents: 990 });
    expect(payload.eventId).toBe(request.headers['x-service-event-id']);
    expect(payload).toHaveProperty('endToEndId');
    expect(payload).toHaveProperty('payer');

    const webhook = new Webhook(endpoint.secret);
    expect(() => webhook.verify(request.body, request.headers as Record<string, string>)).not.toThrow();
    expect(verifyIndependently(endpoint.secret, request)).toBe(true);
    const tampered = request.body.replace('"paid"', '"pai d"'.replace(' ', ''));
    const oneByte = request.body.slice(0, -2) + (request.body.at(-2) === '0' ? '1' : '0') + request.body.at(-1);
    for (const body of [tampered === request.body ? oneByte : tampered, oneByte]) {
      expect(() => webhook.verify(body, request.headers as Record<string, string>)).toThrow();
      expect(verifyIndependently(endpoint.secret, { ...request, body })).toBe(false);
    }
    expect(await dispatchOnce(gateway.deps)).toBe(0);
  });

  it('retries after 1 min, 5 min, 30 min on 5xx with the same event id, and stops after success', async () => {
    const merchant = await createMerchant(gateway);
    const endpoint = await endpointFor(merchant, receiver.url);
    receiver.script((index) => (index < 3 ? 503 : 200));
    await paidCharge(merchant);
    const start = gateway.clock.now();
    expect(await dispatchOnce(gateway.deps)).toBe(1);
    for (const [delayMs, expected] of [
      [60_000, 2],
      [300_000, 3],
      [1_800_000, 4],
    ] as const) {
      gateway.clock.advance(delayMs - 1);
      expect(await dispatchOnce(gateway.deps)).toBe(0);
      gateway.clock.advance(1);
      expect(await dispatchOnce(gateway.deps)).toBe(1);
      expect(receiver.received).toHaveLength(expected);
    }
    gateway.clock.advance(7_200_000);
    expect(await dispatchOnce(gateway.deps)).toBe(0);
    expect(gateway.clock.now() - start).toBe(60_000 + 300_000 + 1_800_000 + 7_200_000);
    const ids = new Set(receiver.received.map((r) => r.headers['x-service-event-id']));
    expect(ids.size).toBe(1);
    // Timestamp and signature are regenerated per attempt.
    expect(new Set(receiver.received.map((r) => r.headers['x-service-timestamp'])).size).toBe(4);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-signature'])).size).toBe(4);
    for (const request of receiver.received) expect(verifyIndependently(endpoint.secret, request)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
  });

  it('gives up after 6 attempts (1 min, 5 min, 30 min, 2 h, 6 h)', async () => {
    const merchant = await createMerchant(gateway);
    await endpointFor(merchant, receiver.url);
    receiver.script(() => 500);
    await paidCharge(merchant);
    await dispatchOnce(gateway.deps);
    for (const delayMs of [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000]) {
      gateway.clock.advance(delayMs);
      expect(await dispatchOnce(gateway.deps)).toBe(1);
    }
    gateway.clock.advance(86_400_000);
    expect(await dispatchOnce(gateway.deps)).toBe(0);
    expect(receiver.received).toHaveLength(6);
    const attempts = await gateway.admin.GET('/admin/v1/accounts/{accountId}/webhook-attempts', {
      params: { path: { accountId: merchant.accountId } },
    });
    expect(attempts.data?.attempts.map((a) => a.attemptNumber)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(attempts.data?.attempts[0]).toMatchObject({ httpStatus: 500, trigger: 'automatic', responseExcerpt: 'answer 500', error: null });
  });

  for (const status of [408, 429]) {
    it(`retries after ${status}`, async () => {
      const merchant = await createMerchant(gateway);
      await endpointFor(merchant, receiver.url);
      receiver.script((index) => (index === 0 ? status : 200));
      await paidCharge(merchant);
      await dispatchOnce(gateway.deps);
      gateway.clock.advance(60_000);
      expect(await dispatchOnce(gateway.deps)).toBe(1);
      expect(receiver.received).toHaveLength(2);
    });
  }

  for (const status of [400, 401, 403, 404, 410, 422, 302]) {
    it(`does not retry after ${status}${status === 302 ? ' and never follows the redirect' : ''}`, async () => {
      const merchant = await createMerchant(gateway);
      await endpointFor(merchant, receiver.url);
      receiver.script(() => status);
      await paidCharge(merchant);
      await dispatchOnce(gateway.deps);
      gateway.clock.advance(86_400_000);
      expect(await dispatchOnce(gateway.deps)).toBe(0);
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received.some((r) => r.path === '/redirected')).toBe(false);
    });
  }

  it('retries after a timeout and after a network error', async () => {
    const merchant = await createMerchant(gateway);
    await endpointFor(merchant, receiver.url);
    receiver.script((index) => (index === 0 ? 'hang' : 200));
    await paidCharge(merchant);
    await dispatchOnce(gateway.deps);
    const closed = await startReceiver();
    await closed.close();
    const other = await createMerchant(gateway);
    await endpointFor(other, closed.url);
    await paidCharge(other);
    await dispatchOnce(gateway.deps);
    const history = async (m: MerchantFixture) =>
      (await gateway.admin.GET('/admin/v1/accounts/{accountId}/webhook-attempts', { params: { path: { accountId: m.accountId } } })).data
        ?.attempts ?? [];
    expect((await history(merchant))[0]).toMatchObject({ httpStatus: null, error: 'timeout' });
    expect((await history(other))[0]?.error).toMatch(/^network: /);
    gateway.clock.advance(60_000);
    expect(await dispatchOnce(gateway.deps)).toBe(2);
    expect(receiver.received.at(-1)?.headers['x-service-event']).toBe('transaction.paid');
  });

  it('fans out to every matching URL with one event id; filters take names, categories and old names', async () => {
    const merchant = await createMerchant(gateway);
    await endpointFor(merchant, `${receiver.url}/all`);
    await endpointFor(merchant, `${receiver.url}/cashin`, ['cashin']);
    await endpointFor(merchant, `${receiver.url}/transfers`, ['TRANSFER_PAID', 'transfer.failed']);
    await endpointFor(merchant, `${receiver.url}/refunds`, ['refund']);
    await paidCharge(merchant);
    await dispatchOnce(gateway.deps);
    expect(receiver.received.map((r) => r.path).sort()).toEqual(['/all', '/cashin']);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-event-id'])).size).toBe(1);
  });

  it('refuses a 7th URL and unknown filter entries', async () => {
    const merchant = await createMerchant(gateway);
    for (let i = 0; i < 6; i++) await endpointFor(merchant, `${receiver.url}/${i}`);
    const seventh = await gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks', {
      params: { path: { accountId: merchant.accountId } },
      body: { url: `${receiver.url}/7` },
    });
    expect(seventh.response.status).toBe(409);
    const other = await createMerchant(gateway);
    const unknown = await gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks', {
      params: { path: { accountId: other.accountId } },
      body: { url: receiver.url, events: ['transaction.nope'] },
    });
    expect(unknown.error).toEqual({ error: "Evento ou categoria desconhecido: 'transaction.nope'." });
  });

  it('resends manually with the same event id and a new signature, at most 10 per hour', async () => {
    const merchant = await createMerchant(gateway);
    const endpoint = await endpointFor(merchant, receiver.url);
    await paidCharge(merchant);
    await dispatchOnce(gateway.deps);
    const eventId = String(receiver.received[0]?.headers['x-service-event-id']);
    // The quota is per fixed UTC hour and the clock started at real time: when the ten resends (10 s) would
    // straddle two windows (which let an eleventh through when the run fell there), start them just after
    // the top of the hour. A few seconds only: a longer jump would make other deliveries' retries due.
    const toNextHour = 3_600_000 - (gateway.clock.now() % 3_600_000);
    if (toNextHour < 15_000) gateway.clock.advance(toNextHour + 1_000);
    for (let i = 0; i < 10; i++) {
      gateway.clock.advance(1000);
      const resent = await gateway.admin.POST('/admin/v1/accounts/{accountId}/events/{eventId}/resend', {
        params: { path: { accountId: merchant.accountId, eventId } },
        body: { endpointId: endpoint.endpointId },
      });
      expect(resent.response.status).toBe(202);
    }
    const eleventh = await gateway.admin.POST('/admin/v1/accounts/{accountId}/events/{eventId}/resend', {
      params: { path: { accountId: merchant.accountId, eventId } },
      body: {},
    });
    expect(eleventh.response.status).toBe(429);
    expect(await dispatchOnce(gateway.deps)).toBe(10);
    expect(receiver.received).toHaveLength(11);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-event-id']))).toEqual(new Set([eventId]));
    expect(new Set(receiver.received.map((r) => r.headers['x-service-signature'])).size).toBeGreaterThan(1);
    const attempts = await gateway.admin.GET('/admin/v1/accounts/{accountId}/webhook-attempts', {
      params: { path: { accountId: merchant.accountId }, query: { eventId } },
    });
    expect(attempts.data?.attempts.filter((a) => a.trigger === 'manual')).toHaveLength(10);
  });

  it('signs with both secrets for 24 h after a rotation', async () => {
    const merchant = await createMerchant(gateway);
    const endpoint = await endpointFor(merchant, receiver.url);
    const rotated = await gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks/{endpointId}/rotate-secret', {
      params: { path: { accountId: merchant.accountId, endpointId: endpoint.endpointId } },
    });
    await paidCharge(merchant);
    await dispatchOnce(gateway.deps);
    const request = receiver.received[0]!;
    expect(String(request.headers['x-service-signature']).split(' ')).toHaveLength(2);
    expect(verifyIndependently(endpoint.secret, request)).toBe(true);
    expect(verifyIndependently(rotated.data?.secret ?? '', request)).toBe(true);
  });

  it('keeps the delivery history 60 days, then purges it', async () => {
    const merchant = await createMerchant(gateway);
    await endpointFor(merchant, receiver.url);
    await paidCharge(merchant);
    await dispatchOnce(gateway.deps);
    const list = async () =>
      (await gateway.admin.GET('/admin/v1/accounts/{accountId}/webhook-attempts', { params: { path: { accountId: merchant.accountId } } }))
        .data?.count;
    expect(await list()).toBe(1);
    gateway.clock.advance(60 * 86_400_000 - 1000);
    await purgeDeliveryHistory(gateway.deps);
    expect(await list()).toBe(1);
    gateway.clock.advance(2000);
    await purgeDeliveryHistory(gateway.deps);
    expect(await list()).toBe(0);
  });

  it('two workers running at once deliver each attempt exactly once', async () => {
    const merchant = await createMerchant(gateway);
    await endpointFor(merchant, receiver.url);
    for (let i = 0; i < 40; i++) await paidCharge(merchant);
    const second = { ...gateway.deps };
    for (let round = 0; round < 10 && receiver.received.length < 40; round++) {
      await Promise.all([dispatchOnce(gateway.deps, 7), dispatchOnce(second, 7)]);
    }
    const attempts = await gateway.deps.db.selectFrom('webhook_attempts').select('event_id').where('account_id', '=', merchant.accountId).execute();
    expect(attempts).toHaveLength(40);
    expect(receiver.received).toHaveLength(40);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-event-id'])).size).toBe(40);
  });
});
