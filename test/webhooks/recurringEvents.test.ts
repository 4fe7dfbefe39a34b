/**
 * The `recurrence.*` events (Pix Automático, category `recurring`, since 2026-11-30) through the outbox and
 * the delivery worker: an event about no transaction (`transactionId` null in the outbox) is fanned out by
 * category and by name like the others, delivered signed with a body valid against its AsyncAPI message,
 * listed and resent by the back office; URL filters accept the new category and names.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RecurrenceRow } from '../../src/recurrences/recurrence.repository.ts';
import { enqueueRecurrenceEvent } from '../../src/recurrences/recurrence.events.ts';
import { attemptsOf, dispatchOnce } from '../../src/webhooks/delivery.service.ts';
import { eventPayloadChecker } from '../support/asyncapi.ts';
import { createMerchant, useGateway, validCustomer, type MerchantFixture } from '../support/gateway.ts';
import { startReceiver } from '../support/receiver.ts';

const gateway = useGateway();
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
});

async function endpointFor(merchant: MerchantFixture, path: string, events?: string[]) {
  const created = await gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks', {
    params: { path: { accountId: merchant.accountId } },
    body: { url: `${receiver.url}${path}`, ...(events ? { events } : {}) },
  });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return created.data;
}

/** A recurrence as its table holds it, approved by the payer (nothing else of it needs to exist for its event). */
function approvedRecurrence(accountId: string, at: Date): RecurrenceRow {
  const createdAt = new Date(at.getTime() - 2 * 3_600_000);
  return {
    id: 'rec_4c1e8a2f9b3d5e7a0c6b8d2e',
    account_id: accountId,
    provider_ref: 'RR1234567820261120abcdefghijk',
    status: 'approved',
    payer: { name: 'Maria da Silva', document: '52998224725', documentType: 'cpf' },
    contract: 'ASSINATURA-000123',
    object: 'Plano Fibra 500 MB',
    periodicity: 'monthly',
    start_date: '2027-01-10',
    end_date: null,
    amount_cents: 9990,
    minimum_amount_cents: null,
    payer_maximum_cents: null,
    retry_policy: 'three_in_seven_days',
    consent_journey: 'request',
    consent_status: 'accepted',
    consent_ref: 'SC1234567820261120abcdefghijk',
    consent_expires_at: new Date(at.getTime() + 7 * 86_400_000),
    payer_account: { ispb: '90400888', branch: '0001', account: '12345678' },
    pix_payload: null,
    first_payment_id: null,
    activation_journey: 'request',
    activated_at: at,
    ended: null,
    history: [
      { status: 'created', atMs: createdAt.getTime() },
      { status: 'approved', atMs: at.getTime() },
    ],
    next_sequence: 1,
    next_cycle_date: '2027-01-10',
    external_ref: 'assinatura-000123',
    created_at: createdAt,
    updated_at: at,
  };
}

async function enqueueApproved(merchant: MerchantFixture): Promise<string> {
  const at = new Date(gateway.clock.now());
  return gateway.deps.db.transaction().execute((trx) => enqueueRecurrenceEvent(trx, 'recurrence.approved', approvedRecurrence(merchant.accountId, at), at));
}

describe('recurrence.* events (category recurring)', () => {
  it('delivers recurrence.approved, about no transaction, to the URLs filtered by recurring, by its name or by nothing, not by cashin', async () => {
    const merchant = await createMerchant(gateway);
    const recurring = await endpointFor(merchant, '/recurring', ['recurring']);
    await endpointFor(merchant, '/cashin', ['cashin']);
    await endpointFor(merchant, '/by-name', ['recurrence.approved', 'transfer.paid']);
    await endpointFor(merchant, '/other-recurrence-events', ['recurrence.cancelled', 'recurrence.cycle_refused']);
    await endpointFor(merchant, '/everything');

    const eventId = await enqueueApproved(merchant);
    const stored = await gateway.deps.db.selectFrom('outbox_events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
    expect(stored.transaction_id).toBeNull();
    expect(stored.event).toBe('recurrence.approved');

    while ((await dispatchOnce(gateway.deps)) > 0);
    expect(receiver.received.map((request) => request.path).sort()).toEqual(['/by-name', '/everything', '/recurring']);

    const check = eventPayloadChecker();
    for (const request of receiver.received) {
      expect(request.headers['x-service-event']).toBe('recurrence.approved');
      expect(request.headers['x-service-event-id']).toBe(eventId);
      const payload = JSON.parse(request.body) as Record<string, unknown>;
      expect(check('recurrence.approved', payload), request.body).toBe('');
      expect(payload).toMatchObject({
        eventId,
        event: 'recurrence.approved',
        category: 'recurring',
        occurredAt: gateway.clock.now(),
        recurrenceId: 'rec_4c1e8a2f9b3d5e7a0c6b8d2e',
        recurrence: { id: 'rec_4c1e8a2f9b3d5e7a0c6b8d2e', status: 'approved', cycles: { total: 0, paid: 0, open: 0, failed: 0 } },
      });
      expect(payload).not.toHaveProperty('transactionId');
      expect(payload.recurrence).not.toHaveProperty('recentCycles');
    }
    const toRecurring = receiver.received.find((request) => request.path === '/recurring');
    if (!toRecurring) throw new Error('nothing delivered to the URL filtered by recurring');
    expect(() => new Webhook(recurring.secret).verify(toRecurring.body, toRecurring.headers as Record<string, string>)).not.toThrow();
  });

  it('lists the event with a null transactionId, keeps its deliveries out of a transaction\'s history, and resends it', async () => {
    const merchant = await createMerchant(gateway);
    const endpoint = await endpointFor(merchant, '/recurring', ['recurring']);
    // A charge's event too, so that the transaction filter has something to keep.
    const charge = await merchant.client.POST('/v1/pix', { body: { amountCents: 1000, customer: validCustomer } });
    const transactionId = charge.data?.transactionId ?? '';
    await gateway.admin.POST('/admin/v1/sandbox/charges/{transactionId}/pay', { params: { path: { transactionId } } });
    const eventId = await enqueueApproved(merchant);
    while ((await dispatchOnce(gateway.deps)) > 0);
    expect(receiver.received).toHaveLength(1);

    const events = await gateway.admin.GET('/admin/v1/accounts/{accountId}/events', { params: { path: { accountId: merchant.accountId } } });
    expect(events.response.status).toBe(200);
    const listed = events.data?.events.find((event) => event.eventId === eventId);
    expect(listed).toMatchObject({ event: 'recurrence.approved', transactionId: null });
    expect(events.data?.events.find((event) => event.event === 'transaction.paid')?.transactionId).toBe(transactionId);

    const attempts = await gateway.admin.GET('/admin/v1/accounts/{accountId}/webhook-attempts', {
      params: { path: { accountId: merchant.accountId }, query: { eventId } },
    });
    expect(attempts.response.status).toBe(200);
    expect(attempts.data?.attempts).toHaveLength(1);
    expect(attempts.data?.attempts[0]).toMatchObject({ event: 'recurrence.approved', httpStatus: 200, endpointId: endpoint.endpointId });
    // The dashboard's history filtered by a transaction: the charge's attempts only (none here: no URL takes cashin).
    expect(await attemptsOf(gateway.deps, merchant.accountId, { transactionId, limit: 50 })).toEqual([]);
    expect((await attemptsOf(gateway.deps, merchant.accountId, { limit: 50 })).map((attempt) => attempt.event_id)).toEqual([eventId]);

    const resent = await gateway.admin.POST('/admin/v1/accounts/{accountId}/events/{eventId}/resend', {
      params: { path: { accountId: merchant.accountId, eventId } },
      body: {},
    });
    expect(resent.response.status).toBe(202);
    expect(resent.data?.deliveries.map((delivery) => delivery.endpointId)).toEqual([endpoint.endpointId]);
    while ((await dispatchOnce(gateway.deps)) > 0);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.body).toBe(receiver.received[0]?.body);
    expect(receiver.received[1]?.headers['x-service-event-id']).toBe(eventId);
  });

  it('takes the category recurring and the seven names in a URL filter, and refuses look-alikes', async () => {
    const merchant = await createMerchant(gateway);
    const names = ['recurring', 'recurrence.created', 'recurrence.approved', 'recurrence.rejected', 'recurrence.expired',
      'recurrence.cancelled', 'recurrence.cycle_scheduled', 'recurrence.cycle_refused'];
    const created = await endpointFor(merchant, '/all-recurring', names);
    expect(created.events).toEqual(names);
    for (const wrong of ['recurrence.*', 'recurrences', 'RECURRING', 'recurrence.paid', 'recurrence.cycle_paid']) {
      const refused = await gateway.admin.POST('/admin/v1/accounts/{accountId}/webhooks', {
        params: { path: { accountId: merchant.accountId } },
        body: { url: `${receiver.url}/wrong`, events: [wrong] },
      });
      expect(refused.response.status, wrong).toBe(400);
    }
    const updated = await gateway.admin.PATCH('/admin/v1/accounts/{accountId}/webhooks/{endpointId}', {
      params: { path: { accountId: merchant.accountId, endpointId: created.endpointId } },
      body: { events: ['cashin', 'recurring'] },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.events).toEqual(['cashin', 'recurring']);
  });
});
