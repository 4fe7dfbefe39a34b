import { beforeAll, describe, expect, it } from 'vitest';
import { addCalendarDays } from '../../src/primitives/businessDays.ts';
import { saoPauloDay } from '../../src/primitives/saoPaulo.ts';
import { authOf, dashboardCaller, databaseState, invitePerson, signUpOwner, type DashboardPerson } from '../support/dashboardAccounts.ts';
import { relaxLimits, useGateway } from '../support/gateway.ts';

/**
 * Issue 37, item 5: the dashboard's "Recorrências" (Pix Automático): POST/GET /dashboard/api/v1/recurrences,
 * GET /{id} with its history and cycles, POST /{id}/cancel, GET /{id}/cycles, GET /{id}/qrcode, and the
 * sandbox's payer and payer's bank (consent approved, rejected AP13, expired; cancelled by the payer; the
 * jobs run now; a cycle debited, refused and retried, refused for good, cancelled by the payer), exactly the
 * /v1/recurrences service for the signed-in user's account. Refusals name the form's label with `field`;
 * another account's recurrence is 404; no input is a 500.
 */
const gateway = useGateway();
let owner: DashboardPerson;
let viewer: DashboardPerson;
let other: DashboardPerson;
let pending: DashboardPerson;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are read field by field
type Body = Record<string, any>;
const caller = dashboardCaller(gateway);
const call = async (...args: Parameters<typeof caller>): Promise<{ status: number; body: Body }> => (await caller(...args)) as { status: number; body: Body };
const today = () => saoPauloDay(gateway.clock.now());

function body(overrides: Body = {}): Body {
  return {
    payer: { name: 'Maria da Silva', document: { type: 'cpf', number: '529.982.247-25' } },
    contract: 'ASSINATURA-000123',
    object: 'Plano Fibra 500 MB',
    periodicity: 'monthly',
    startDate: addCalendarDays(today(), 3),
    amountCents: 9_990,
    retryPolicy: 'three_in_seven_days',
    consent: { journey: 'qrcode' },
    ...overrides,
  };
}

async function created(as: DashboardPerson = owner, overrides: Body = {}): Promise<Body> {
  const answer = await call('POST', '/recurrences', as, body(overrides));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Body;
}

const sandbox = (id: string, action: string, as: DashboardPerson = owner) => call('POST', `/sandbox/recurrences/${id}/${action}`, as);
const cycleAction = (id: string, action: string, extra?: Body, as: DashboardPerson = owner) => call('POST', `/sandbox/recurrence-cycles/${id}/${action}`, as, extra);
const runJobs = () => call('POST', '/sandbox/recurrences/run', owner);

/** An approved recurrence with its first cycle sent: the cycle's transaction id. */
async function withCycle(overrides: Body = {}): Promise<{ id: string; cycleId: string }> {
  const recurrence = await created(owner, overrides);
  expect((await sandbox(recurrence.id, 'approve')).body).toMatchObject({ status: 'approved' });
  expect((await runJobs()).status).toBe(200);
  const cycles = await call('GET', `/recurrences/${recurrence.id}/cycles`, owner);
  const cycleId = cycles.body.cycles[0]?.transactionId as string;
  expect(cycleId).toMatch(/^tx_/);
  return { id: recurrence.id, cycleId };
}

beforeAll(async () => {
  owner = await signUpOwner(gateway);
  await relaxLimits(gateway, owner.accountId, { chargeMinCents: 500, chargeMaxCents: 1_000_000 });
  viewer = await invitePerson(gateway, owner, 'viewer');
  other = await signUpOwner(gateway, { legalName: 'Outra Loja Ltda' });
  pending = await signUpOwner(gateway, { approved: false });
}, 60_000);

describe('POST /dashboard/api/v1/recurrences', () => {
  it('creates one with each journey (201); the QR journeys give the copy-and-paste code and its image; the same externalRef answers it (200)', async () => {
    const qr = await created(owner, { externalRef: 'assinatura-painel-1' });
    expect(qr).toMatchObject({ status: 'created', consent: { journey: 'qrcode', status: 'pending' }, amountCents: 9_990, nextCycleDate: addCalendarDays(today(), 3) });
    expect(qr.consent.pixPayload).toMatch(/^000201/);
    const before = await databaseState(gateway);
    expect(await call('POST', '/recurrences', owner, body({ externalRef: 'assinatura-painel-1', amountCents: 1_000 }))).toMatchObject({ status: 200, body: { id: qr.id, idempotent: true } });
    expect(await databaseState(gateway)).toEqual(before);

    const image = await fetch(`${gateway.baseUrl}/dashboard/api/v1/recurrences/${qr.id}/qrcode?size=256`, { headers: { cookie: `pixgate_session=${authOf(owner).cookie ?? ''}` } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');

    const withPayment = await created(owner, { consent: { journey: 'qrcode_with_payment', firstPaymentCents: 9_990 } });
    expect(withPayment.consent).toMatchObject({ journey: 'qrcode_with_payment', status: 'pending', firstPaymentTransactionId: expect.stringMatching(/^tx_/) });
    const request = await created(owner, { consent: { journey: 'request', payerAccount: { ispb: '12345678', branch: '0001', account: '123456-7' } } });
    expect(request.consent).toMatchObject({ journey: 'request', status: 'pending' });
    expect(request.consent).not.toHaveProperty('pixPayload');
    const noQr = await call('GET', `/recurrences/${request.id}/qrcode`, owner);
    expect(noQr.status).toBe(404);
    expect(noQr.body.error).toMatch(/não tem QR code/);
  });

  const refusals: [string, Body, string, string][] = [
    ['no payer name', { payer: { name: '  ', document: { type: 'cpf', number: '52998224725' } } }, 'Nome do pagador: informe o nome, não só espaços.', 'payer.name'],
    ['a CPF with a wrong check digit', { payer: { name: 'Maria', document: { type: 'cpf', number: '52998224724' } } }, 'CPF ou CNPJ do pagador: CPF inválido (dígito verificador incorreto).', 'payer.document.number'],
    ['a CPF of 10 digits', { payer: { name: 'Maria', document: { type: 'cpf', number: '5299822472' } } }, 'CPF ou CNPJ do pagador: um CPF tem 11 dígitos; foram informados 10.', 'payer.document.number'],
    ['an unknown document type', { payer: { name: 'Maria', document: { type: 'rg', number: '52998224725' } } }, 'Tipo de documento do pagador: escolha CPF ou CNPJ.', 'payer.document.type'],
    ['no contract', { contract: undefined }, 'Contrato: campo obrigatório.', 'contract'],
    ['a contract too long', { contract: 'x'.repeat(36) }, 'Contrato: máximo de 35 caracteres.', 'contract'],
    ['an unknown periodicity', { periodicity: 'daily' }, 'Periodicidade: escolha uma das opções da lista.', 'periodicity'],
    ['a start date tomorrow', { startDate: 'TOMORROW' }, 'Data de início: deve ser a partir de START (a cobrança precisa chegar ao banco do pagador 2 dias antes).', 'startDate'],
    ['a start date more than a year ahead', { startDate: 'FAR' }, 'Data de início: deve ser até LAST (no máximo 1 ano à frente).', 'startDate'],
    ['a start date that no calendar has', { startDate: '2027-02-30' }, 'Data de início: esta data não existe no calendário; confira o dia e o mês.', 'startDate'],
    ['a start date that is not a date', { startDate: '10/01/2027' }, 'Data de início: informe uma data no formato AAAA-MM-DD.', 'startDate'],
    ['an end date before the start', { endDate: 'BEFORE' }, 'Data de término: deve ser igual ou posterior à data de início.', 'endDate'],
    ['an amount below the account minimum', { amountCents: 200 }, 'Valor: o mínimo é R$ 5,00.', 'amountCents'],
    ['an amount above the account maximum', { amountCents: 2_000_000 }, 'Valor: o máximo é R$ 10.000,00.', 'amountCents'],
    ['an amount in reais', { amountCents: '99,90' }, 'Valor: informe um valor em reais, por exemplo 150,00.', 'amountCents'],
    ['an unknown retry policy', { retryPolicy: 'sempre' }, 'Novas tentativas: escolha uma das opções da lista.', 'retryPolicy'],
    ['an unknown journey', { consent: { journey: 'email' } }, 'Forma de autorização: escolha uma das opções da lista.', 'consent.journey'],
    ['a request without the payer account', { consent: { journey: 'request' } }, 'Conta do pagador: obrigatório quando a autorização é pedida ao banco do pagador.', 'consent.payerAccount'],
    ['a request with a bad ISPB', { consent: { journey: 'request', payerAccount: { ispb: '123', account: '1' } } }, 'ISPB do banco do pagador: informe os 8 dígitos do ISPB.', 'consent.payerAccount.ispb'],
    ['a QR code with a first payment', { consent: { journey: 'qrcode', firstPaymentCents: 1_000 } }, 'Primeiro pagamento: não se aplica quando a autorização é por QR code; deixe em branco.', 'consent.firstPaymentCents'],
    ['a first payment missing', { consent: { journey: 'qrcode_with_payment' } }, 'Primeiro pagamento: obrigatório quando a autorização é por QR code com primeiro pagamento.', 'consent.firstPaymentCents'],
    ['a first payment above the maximum', { consent: { journey: 'qrcode_with_payment', firstPaymentCents: 2_000_000 } }, 'Primeiro pagamento: o máximo é R$ 10.000,00.', 'consent.firstPaymentCents'],
    ['both amounts', { minimumAmountCents: 1_000 }, 'Valor: informe um valor fixo ou um valor mínimo, não os dois.', 'amountCents'],
  ];

  it.each(refusals)('refuses %s with 400, the label and the field, creating nothing', async (_what, overrides, error, field) => {
    const day = today();
    const start = addCalendarDays(day, 2);
    const dates: Record<string, string> = { TOMORROW: addCalendarDays(day, 1), FAR: addCalendarDays(day, 400), BEFORE: addCalendarDays(day, 2) };
    const filled = Object.fromEntries(Object.entries(overrides).map(([key, value]) => [key, typeof value === 'string' && dates[value] ? dates[value] : value]));
    const sent = body(filled);
    for (const [key, value] of Object.entries(sent)) if (value === undefined) delete sent[key];
    const fmt = (date: string) => date.split('-').reverse().join('/');
    const expected = error.replace('START', fmt(start)).replace('LAST', fmt(addCalendarDays(day, 366)));
    const before = await databaseState(gateway);
    const answer = await call('POST', '/recurrences', owner, sent);
    expect(answer).toEqual({ status: 400, body: { error: expected, field } });
    expect(await databaseState(gateway)).toEqual(before);
  });

  it('refuses an account whose KYC is not approved and a viewer (403)', async () => {
    expect((await call('POST', '/recurrences', pending, body())).status).toBe(403);
    expect((await call('POST', '/recurrences', viewer, body())).status).toBe(403);
  });
});

describe('GET /dashboard/api/v1/recurrences and /{id}', () => {
  it('lists the account\'s own, newest first, by status with cursors; reads one with its history; another account\'s is 404', async () => {
    const mine = await created();
    const theirs = await created(other);
    const all = await call('GET', '/recurrences?limit=100', owner);
    expect(all.status).toBe(200);
    const ids = all.body.recurrences.map((item: Body) => item.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    const waiting = await call('GET', '/recurrences?status=created&limit=1', viewer);
    expect(waiting.body).toMatchObject({ count: 1, recurrences: [{ status: 'created' }] });
    expect(waiting.body.nextCursor).toEqual(expect.any(String));
    const next = await call('GET', `/recurrences?status=created&limit=1&cursor=${waiting.body.nextCursor}`, viewer);
    expect(next.body.recurrences[0].id).not.toBe(waiting.body.recurrences[0].id);
    expect((await call('GET', '/recurrences?status=approved&limit=100', owner)).body.recurrences.every((item: Body) => item.status === 'approved')).toBe(true);

    const one = await call('GET', `/recurrences/${mine.id}`, viewer);
    expect(one).toMatchObject({ status: 200, body: { id: mine.id, history: [{ status: 'created' }], recentCycles: [] } });
    expect(await call('GET', `/recurrences/${theirs.id}`, owner)).toEqual({ status: 404, body: { error: 'Recorrência não encontrada.' } });
    expect(await call('GET', `/recurrences/${theirs.id}/cycles`, owner)).toEqual({ status: 404, body: { error: 'Recorrência não encontrada.' } });
    expect(await call('GET', '/recurrences?status=ativa', owner)).toEqual({ status: 400, body: { error: 'Situação: escolha uma das opções da lista.', field: 'status' } });
    expect(await call('GET', '/recurrences?cursor=abc', owner)).toMatchObject({ status: 400, body: { field: 'cursor' } });
    expect(await call('GET', '/recurrences/rec_x', owner)).toEqual({ status: 400, body: { error: 'Recorrência: identificador inválido; escolha um item da lista.', field: 'recurrenceId' } });
  });
});

describe('the consent in the sandbox, and the cancellation', () => {
  it('approves it (active, its next cycle counted on the overview), rejects it with AP13, expires it, and the payer cancels an active one', async () => {
    const a = await created();
    const approved = await sandbox(a.id, 'approve');
    expect(approved).toMatchObject({ status: 200, body: { status: 'approved', consent: { status: 'accepted' }, history: [{ status: 'created' }, { status: 'approved' }] } });
    expect(approved.body.consent).not.toHaveProperty('pixPayload');
    const overview = await call('GET', '/overview', owner);
    expect(overview.body.recurrences.activeCount).toBeGreaterThanOrEqual(1);
    expect(overview.body.recurrences.dueNext7Days.count).toBeGreaterThanOrEqual(1);
    expect(overview.body.recurrences.dueNext7Days.amountCents).toBeGreaterThanOrEqual(9_990);
    expect((await sandbox(a.id, 'approve')).body).toEqual({ error: 'O banco do pagador (sandbox) não aceita esta ação agora: a recorrência está ativa.' });

    const b = await created();
    expect((await sandbox(b.id, 'reject')).body).toMatchObject({ status: 'rejected', ended: { reason: 'rejected', code: 'AP13' } });
    expect(await call('POST', `/recurrences/${b.id}/cancel`, owner)).toEqual({ status: 409, body: { error: 'A recorrência não pode ser cancelada: ela está rejeitada.' } });
    const c = await created();
    expect((await sandbox(c.id, 'expire')).body).toMatchObject({ status: 'expired', ended: { reason: 'expired' } });

    expect((await sandbox(a.id, 'payer-cancel')).body).toMatchObject({ status: 'cancelled', ended: { reason: 'cancelled', by: 'payer' } });
  });

  it('cancels a recurrence (the merchant), again is 200; a viewer cannot (403), another account\'s is 404', async () => {
    const mine = await created();
    expect((await call('POST', `/recurrences/${mine.id}/cancel`, viewer)).status).toBe(403);
    const cancelled = await call('POST', `/recurrences/${mine.id}/cancel`, owner);
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled', ended: { reason: 'cancelled', by: 'merchant' } } });
    expect(await call('POST', `/recurrences/${mine.id}/cancel`, owner)).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    const theirs = await created(other);
    expect(await call('POST', `/recurrences/${theirs.id}/cancel`, owner)).toEqual({ status: 404, body: { error: 'Recorrência não encontrada.' } });
    expect(await sandbox(theirs.id, 'approve')).toEqual({ status: 404, body: { error: 'Recorrência não encontrada.' } });
    expect((await sandbox(theirs.id, 'approve', viewer)).status).toBe(403);
  });
});

describe('cycles in the sandbox', () => {
  it('runs the jobs: the first cycle is sent (scheduled); the payer\'s bank debits it (paid)', async () => {
    const { id, cycleId } = await withCycle();
    const cycles = await call('GET', `/recurrences/${id}/cycles`, viewer);
    expect(cycles.body).toMatchObject({ count: 1, cycles: [{ transactionId: cycleId, sequence: 1, status: 'scheduled', amountCents: 9_990, dueDate: addCalendarDays(today(), 3) }] });
    const paid = await cycleAction(cycleId, 'pay');
    expect(paid).toMatchObject({ status: 200, body: { status: 'paid', attempts: [{ status: 'paid' }] } });
    expect(await cycleAction(cycleId, 'pay')).toEqual({ status: 409, body: { error: 'O banco do pagador (sandbox) não aceita esta ação agora: o ciclo não tem débito em aberto (já foi pago, recusado ou cancelado).' } });
    expect((await call('GET', `/recurrences/${id}`, owner)).body).toMatchObject({ cycles: { paid: 1 }, recentCycles: [{ status: 'paid' }] });
  });

  it('a refusal (AM02) is retried (retrying, its code on the attempt); a final one (AC05) fails it; the payer cancels one (cancelled)', async () => {
    const first = await withCycle();
    const retried = await cycleAction(first.cycleId, 'refuse', { refusalCode: 'AM02' });
    expect(retried).toMatchObject({ status: 200, body: { status: 'retrying', attempts: [{ status: 'refused', refusalCode: 'AM02' }, { kind: 'retry', status: 'scheduled' }] } });
    const failed = await cycleAction(first.cycleId, 'refuse', { refusalCode: 'AC05' });
    expect(failed).toMatchObject({ status: 200, body: { status: 'failed', refusalCode: 'AC05' } });

    const second = await withCycle({ retryPolicy: 'none' });
    expect((await cycleAction(second.cycleId, 'refuse')).body).toMatchObject({ status: 'failed', refusalCode: 'AM02' });

    const third = await withCycle();
    expect((await cycleAction(third.cycleId, 'payer-cancel')).body).toMatchObject({ status: 'cancelled', cancelledBy: 'payer' });
  });

  it('refuses a malformed code (400 with its label), another account\'s cycle (404), a viewer (403); the jobs need a session able to act', async () => {
    const { cycleId } = await withCycle();
    expect(await cycleAction(cycleId, 'refuse', { refusalCode: 'am2' })).toEqual({ status: 400, body: { error: 'Código da recusa: informe os 4 caracteres do código (ex.: AM02).', field: 'refusalCode' } });
    expect(await cycleAction(cycleId, 'pay', undefined, other)).toEqual({ status: 404, body: { error: 'Ciclo de recorrência não encontrado.' } });
    expect((await cycleAction(cycleId, 'pay', undefined, viewer)).status).toBe(403);
    expect((await call('POST', '/sandbox/recurrences/run', viewer)).status).toBe(403);
    expect(await cycleAction(cycleId, 'debit')).toMatchObject({ status: 400, body: { field: 'action' } });
  });
});
