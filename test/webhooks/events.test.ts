import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueCharges } from '../../src/jobs/expireCharges.ts';
import { CONTRACT_EVENT_NAMES } from '../../src/events/catalog.ts';
import { dispatchOnce } from '../../src/webhooks/delivery.service.ts';
import { eventPayloadChecker } from '../support/asyncapi.ts';
import {
  createMerchant,
  fund,
  relaxLimits,
  useGateway,
  validCustomer,
  type MerchantFixture,
} from '../support/gateway.ts';
import { startReceiver } from '../support/receiver.ts';

const gateway = useGateway();
let merchant: MerchantFixture;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId, { withdrawalApprovalThresholdCents: 50_000 });
  await gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks', {
    params: { path: { accountId: merchant.accountId } },
    body: { url: receiver.url },
  });
});
afterAll(async () => {
  await receiver.close();
});

async function charge(amountCents = 10_000): Promise<string> {
  const { data } = await merchant.client.POST('/v1/pix', { body: { amountCents, customer: validCustomer } });
  return data?.transactionId ?? '';
}

async function pay(transactionId: string) {
  const paid = await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId } } });
  expect(paid.response.status).toBe(200);
}

async function withdraw(amountCents = 1000): Promise<string> {
  const { data, error } = await merchant.client.POST('/v1/withdraw', {
    body: { amountCents, pixKey: '52998224725', pixKeyType: 'cpf' },
  });
  if (!data) throw new Error(JSON.stringify(error));
  return data.transactionId;
}

const tx = (transactionId: string) => ({ params: { path: { transactionId } } });

describe('the 21 canonical events', () => {
  it('are each produced by a real state change, delivered, and valid against their AsyncAPI schema', async () => {
    // Money in.
    const refunded = await charge();
    await pay(refunded);
    await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/refund', { ...tx(refunded), body: { amountCents: 4000 } });
    await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/refund', { ...tx(refunded), body: { amountCents: 6000 } });
    await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/fail', tx(await charge()));
    await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/cancel', tx(await charge()));
    const expiring = await charge();
    const disputed = await charge(50_000);
    await pay(disputed);
    for (const reason of ['med', 'dispute', 'protest', 'administrative'] as const) {
      const hold = await gateway.admin.POST('/admin/v1/accounts/{accountId}/holds', {
        params: { path: { accountId: merchant.accountId } },
        body: { amountCents: 5_000, reason, transactionId: disputed },
      });
      expect(hold.response.status).toBe(201);
      if (reason === 'med') {
        await gateway.admin.POST('/admin/v1/accounts/{accountId}/holds/{holdId}/chargeback', {
          params: { path: { accountId: merchant.accountId, holdId: hold.data?.holdId ?? '' } },
          body: { amountCents: 3_000 },
        });
      }
    }
    gateway.clock.advance(2 * 86_400_000 + 1000);
    expect(await expireDueCharges(gateway.deps)).toBeGreaterThanOrEqual(1);
    expect((await merchant.client.GET('/v1/transactions/{id}', { params: { path: { id: expiring } } })).data?.status).toBe('expired');

    // Money out.
    await fund(gateway, merchant, 200_000);
    const returned = await withdraw(5000);
    await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', tx(returned));
    await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/return', { ...tx(returned), body: { amountCents: 1000 } });
    await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/return', { ...tx(returned), body: { amountCents: 4000 } });
    const approved = await withdraw(60_000);
    await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', tx(approved));
    await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/reject', { ...tx(await withdraw(60_000)), body: {} });
    await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/cancel', { ...tx(await withdraw(60_000)), body: {} });
    const refused = await withdraw();
    await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/reject', {
      ...tx(refused),
      body: { refusedCode: 'BENEFICIARY_ACCOUNT_CLOSED', refusedReason: 'Conta do recebedor encerrada.' },
    });

    while ((await dispatchOnce(gateway.deps)) > 0);
    const check = eventPayloadChecker();
    const delivered = new Set<string>();
    for (const request of receiver.received) {
      const payload = JSON.parse(request.body) as { event: string; eventId: string };
      expect(request.headers['x-service-event']).toBe(payload.event);
      expect(request.headers['x-service-event-id']).toBe(payload.eventId);
      expect(check(payload.event, payload), `${payload.event}: ${request.body}`).toBe('');
      delivered.add(payload.event);
    }
    expect([...delivered].sort()).toEqual([...CONTRACT_EVENT_NAMES].sort());
    const outbox = await gateway.deps.db.selectFrom('outbox_events').select(['id', 'event']).where('account_id', '=', merchant.accountId).execute();
    expect(new Set(receiver.received.map((r) => r.headers['x-service-event-id']))).toEqual(new Set(outbox.map((e) => e.id)));
  });
});
