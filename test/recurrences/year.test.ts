import { beforeAll, describe, expect, it } from 'vitest';
import { dayStart, saoPauloDay } from '../../src/primitives/saoPaulo.ts';
import { addCalendarDays } from '../../src/primitives/businessDays.ts';
import { followRecurrences, scheduleCycles } from '../../src/recurrences/recurrence.sync.ts';
import { booksDisagreeWithProvider } from '../support/books.ts';
import { availableOf, createMerchant, relaxLimits, useGateway, type MerchantFixture } from '../support/gateway.ts';
import { approve, createRecurrence } from '../support/recurrences.ts';

/**
 * Issue 37, "done when": a year of monthly recurrences under the manual clock, day by day, the jobs run
 * each day as the scheduler would. Recurrence A (consent by a request to the payer's bank): twelve cycles,
 * the third refused once and paid on its retry, the sixth refused for good, the eighth refunded. Recurrence B
 * (consent by QR code): paid four times, then cancelled by the payer while its fifth cycle waits. Every event
 * once; the ledger and the reconciliation with the provider green.
 */
const gateway = useGateway();
let merchant: MerchantFixture;
type Body = Record<string, unknown>;

const noon = (day: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return dayStart(year, month, date) + 12 * 3_600_000;
};

async function read(path: string) {
  const response = await fetch(`${gateway.baseUrl}${path}`, { headers: { Authorization: `Bearer ${merchant.apiKey}` } });
  return (await response.json()) as Body;
}

async function cyclesOf(recurrenceId: string): Promise<Body[]> {
  const page = await read(`/v1/recurrences/${recurrenceId}/cycles?limit=100`);
  return (page.cycles as Body[]).toSorted((a, b) => Number(a.sequence) - Number(b.sequence));
}

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
});

describe('a year of Pix Automático', () => {
  it('runs twelve monthly cycles with a retry, a failure, a refund and a cancellation by the payer, each event once, the books green', async () => {
    gateway.clock.set(noon('2026-11-21'));
    const a = await createRecurrence(gateway, merchant, { startDate: '2026-12-10', endDate: '2027-11-10', externalRef: 'ano-a' });
    const b = await createRecurrence(gateway, merchant, { startDate: '2026-12-15', contract: 'ASSINATURA-B', consent: { journey: 'qrcode' }, externalRef: 'ano-b' });
    expect(b.consent.pixPayload).toBeDefined();
    await approve(gateway, a.id);
    await approve(gateway, b.id);
    const before = await availableOf(merchant);
    let bCancelled = false;
    let refunded = false;

    for (let day = '2026-11-22'; day <= '2027-11-20'; day = addCalendarDays(day, 1)) {
      gateway.clock.set(noon(day));
      await scheduleCycles(gateway.deps);
      // The payer's bank answers each attempt on its day: A's third cycle refused once, its sixth for good.
      for (const recurrence of [a, b]) {
        for (const cycle of await cyclesOf(recurrence.id)) {
          const attempts = cycle.attempts as Body[];
          const open = attempts.at(-1);
          if (open?.status !== 'scheduled' || open.date !== day) continue;
          const first = attempts.length === 1 && recurrence === a;
          const code = first && cycle.sequence === 3 ? 'AM02' : first && cycle.sequence === 6 ? 'AC05' : undefined;
          const answered = await gateway.admin.POST('/admin/v1/sandbox/recurrence-cycles/{transactionId}/debit', {
            params: { path: { transactionId: String(cycle.transactionId) } },
            body: code ? { outcome: 'refuse', refusalCode: code } : { outcome: 'pay' },
          });
          expect(answered.response.status).toBe(200);
        }
      }
      await followRecurrences(gateway.deps);
      const eighth = (await cyclesOf(a.id))[7];
      if (!refunded && eighth?.status === 'paid') {
        const refund = await merchant.client.POST('/v1/transactions/{id}/refunds', { params: { path: { id: String(eighth.transactionId) } }, body: { amountCents: 9990 } });
        expect(refund.response.status).toBe(201);
        await gateway.admin.POST('/admin/v1/sandbox/refunds/{refundId}/settle', { params: { path: { refundId: String(refund.data?.refundId) } } });
        refunded = true;
      }
      // B: cancelled by the payer once its fifth cycle is with their bank.
      if (!bCancelled && (await cyclesOf(b.id)).length === 5) {
        const cancelled = await gateway.admin.POST('/admin/v1/sandbox/recurrences/{recurrenceId}/payer-cancel', { params: { path: { recurrenceId: b.id } }, body: { cancellationCode: 'SLDB' } });
        expect(cancelled.data).toMatchObject({ status: 'cancelled', ended: { by: 'payer', code: 'SLDB' } });
        bCancelled = true;
      }
    }

    const cyclesA = await cyclesOf(a.id);
    expect(cyclesA.map((cycle) => cycle.dueDate)).toEqual(Array.from({ length: 12 }, (_, n) => `${n === 0 ? '2026' : '2027'}-${String(((11 + n) % 12) + 1).padStart(2, '0')}-10`));
    expect(cyclesA.map((cycle) => cycle.status)).toEqual(['paid', 'paid', 'paid', 'paid', 'paid', 'failed', 'paid', 'paid', 'paid', 'paid', 'paid', 'paid']);
    expect(cyclesA[2]?.attempts).toMatchObject([{ kind: 'scheduled', status: 'refused', refusalCode: 'AM02' }, { kind: 'retry', status: 'paid' }]);
    expect(cyclesA[5]).toMatchObject({ refusalCode: 'AC05', attempts: [{ status: 'refused' }] });
    // Each debit on its settlement day: the due date, or the next business day.
    for (const cycle of cyclesA) expect(saoPauloDay(Number(cycle.paidAt ?? noon(String(cycle.settlementDate))))).toBe(cycle.status === 'paid' ? (cycle.attempts as Body[]).at(-1)?.date : cycle.settlementDate);
    expect(await read(`/v1/recurrences/${a.id}`)).toMatchObject({ status: 'approved', cycles: { total: 12, paid: 11, open: 0, failed: 1 } });
    expect(await read(`/v1/recurrences/${a.id}`)).not.toHaveProperty('nextCycleDate');

    const cyclesB = await cyclesOf(b.id);
    expect(cyclesB.map((cycle) => cycle.status)).toEqual(['paid', 'paid', 'paid', 'paid', 'cancelled']);
    expect(await read(`/v1/recurrences/${b.id}`)).toMatchObject({ status: 'cancelled', cycles: { total: 5, paid: 4, failed: 1 } });

    // The eighth cycle of A refunded in full, like any charge, the day after it was paid.
    const eighth = String(cyclesA[7]?.transactionId);
    expect(await read(`/v1/transactions/${eighth}`)).toMatchObject({ status: 'refunded', recurrenceId: a.id, refundedCents: 9990 });

    // Every paid cycle credited once, less the refund.
    const paid = [...cyclesA, ...cyclesB].filter((cycle) => cycle.status === 'paid' || cycle.transactionId === eighth);
    const net = await Promise.all(paid.map(async (cycle) => Number((await read(`/v1/transactions/${String(cycle.transactionId)}`)).netCents)));
    expect(await availableOf(merchant)).toBe(before + net.reduce((sum, cents) => sum + cents, 0) - 9990);

    // Every event once.
    const events = await gateway.deps.db.selectFrom('outbox_events').select(['event', 'transaction_id', 'payload']).where('account_id', '=', merchant.accountId).execute();
    const count = (name: string) => events.filter((event) => event.event === name).length;
    expect(count('recurrence.created')).toBe(2);
    expect(count('recurrence.approved')).toBe(2);
    expect(count('recurrence.cancelled')).toBe(1);
    expect(count('recurrence.cycle_scheduled')).toBe(17);
    expect(count('recurrence.cycle_refused')).toBe(2);
    expect(count('transaction.paid')).toBe(15);
    expect(count('transaction.failed')).toBe(1);
    expect(count('transaction.cancelled')).toBe(1);
    expect(count('transaction.refunded')).toBe(1);
    const keys = events.filter((event) => event.transaction_id !== null).map((event) => `${event.event} ${event.transaction_id}`);
    expect(new Set(keys).size).toBe(keys.length);

    expect(await booksDisagreeWithProvider(gateway.deps)).toEqual([]);
  }, 240_000);
});
