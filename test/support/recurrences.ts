/** Pix Automático in tests: a recurrence created, its consent answered, its cycles sent, through the APIs. */
import { saoPauloDay } from '../../src/primitives/saoPaulo.ts';
import { addCalendarDays } from '../../src/primitives/businessDays.ts';
import type { components } from '../../generated/api-types.ts';
import type { Gateway, MerchantFixture } from './gateway.ts';

type CreateRecurrenceRequest = components['schemas']['CreateRecurrenceRequest'];
export type RecurrenceJson = components['schemas']['Recurrence'];

export const PAYER = { name: 'Maria da Silva', document: { type: 'cpf', number: '52998224725' } } as const;

/** A monthly R$ 99,90 recurrence starting in three days, consent by a request to the payer's bank (overridable). */
export function recurrenceBody(gateway: Gateway, overrides: Partial<CreateRecurrenceRequest> = {}): CreateRecurrenceRequest {
  return {
    payer: { name: PAYER.name, document: { ...PAYER.document } },
    contract: 'ASSINATURA-000123',
    object: 'Plano Fibra 500 MB',
    periodicity: 'monthly',
    startDate: addCalendarDays(saoPauloDay(gateway.clock.now()), 3),
    amountCents: 9990,
    retryPolicy: 'three_in_seven_days',
    consent: { journey: 'request', payerAccount: { ispb: '12345678', branch: '0001', account: '123456-7' } },
    ...overrides,
  };
}

export async function createRecurrence(gateway: Gateway, merchant: MerchantFixture, overrides: Partial<CreateRecurrenceRequest> = {}): Promise<RecurrenceJson> {
  const created = await merchant.client.POST('/v1/recurrences', { body: recurrenceBody(gateway, overrides) });
  if (!created.data) throw new Error(`recurrence not created: ${JSON.stringify(created.error)}`);
  return created.data;
}

/** The payer approves it in their bank (the sandbox), as PixGate then reads it. */
export async function approve(gateway: Gateway, recurrenceId: string, extra: { payerMaximumCents?: number } = {}): Promise<RecurrenceJson> {
  const answered = await gateway.admin.POST('/admin/v1/sandbox/recurrences/{recurrenceId}/consent', {
    params: { path: { recurrenceId } },
    body: { outcome: 'approve', ...extra },
  });
  if (!answered.data) throw new Error(`consent not answered: ${JSON.stringify(answered.error)}`);
  return answered.data;
}

/** Runs the Pix Automático jobs now (cycles sent, open ones read). */
export async function runRecurrences(gateway: Gateway): Promise<{ scheduled: number; read: number }> {
  const run = await gateway.admin.POST('/admin/v1/sandbox/recurrences/run');
  if (!run.data) throw new Error(`run failed: ${JSON.stringify(run.error)}`);
  return run.data;
}

/** An approved recurrence with its first cycle sent: the cycle's transaction id. */
export async function recurrenceWithCycle(gateway: Gateway, merchant: MerchantFixture): Promise<{ recurrenceId: string; cycleId: string }> {
  const recurrence = await createRecurrence(gateway, merchant);
  await approve(gateway, recurrence.id);
  await runRecurrences(gateway);
  const cycles = await merchant.client.GET('/v1/recurrences/{id}/cycles', { params: { path: { id: recurrence.id } } });
  const cycleId = cycles.data?.cycles[0]?.transactionId;
  if (!cycleId) throw new Error(`no cycle sent: ${JSON.stringify(cycles.data ?? cycles.error)}`);
  return { recurrenceId: recurrence.id, cycleId };
}
