import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { companyRecipient, personRecipient, register, registerActive, review } from '../recipients/support.ts';
import {
  availableOf,
  createMerchant,
  fund,
  relaxLimits,
  useGateway,
  type MerchantFixture,
} from '../support/gateway.ts';

const gateway = useGateway();
let merchant: MerchantFixture;
/** Approved: a person whose key is its CPF, and a company with an e-mail key. */
let person: string;
let company: string;
const PERSON_CPF = '11144477735';
const COMPANY_CNPJ = '13723705000189';
const FEE = 100;
const EVP = '7d9f0335-8dcc-4054-9bf9-0dbd61a2b1c4';

beforeAll(async () => {
  merchant = await createMerchant(gateway);
  await relaxLimits(gateway, merchant.accountId);
  await fund(gateway, merchant, 1_000_000);
  person = await registerActive(gateway, merchant, personRecipient());
  company = await registerActive(gateway, merchant, companyRecipient());
});

type Body = Record<string, unknown>;

async function post(body: Body, who: MerchantFixture = merchant) {
  const response = await fetch(`${gateway.baseUrl}/v1/withdraw`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${who.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function alertsOf(who: MerchantFixture) {
  const { data } = await gateway.admin.GET('/admin/v1/withdrawal-alerts', {
    params: { query: { accountId: who.accountId, limit: 100 } },
  });
  if (!data) throw new Error('no alerts body');
  return data;
}

async function read(who: MerchantFixture, id: string) {
  const { data } = await who.client.GET('/v1/transactions/{id}', { params: { path: { id } } });
  if (!data) throw new Error(`no transaction ${id}`);
  return data;
}

describe('POST /v1/withdraw, Mode 2 (approved recipient)', () => {
  const keys: [string, () => Body, string][] = [
    ['its CPF as a cpf key (formatted)', () => ({ recipientId: person, pixKey: '111.444.777-35', pixKeyType: 'cpf' }), 'cpf'],
    ['its CNPJ as a cnpj key', () => ({ recipientId: company, pixKey: COMPANY_CNPJ, pixKeyType: ' CNPJ ' }), 'cnpj'],
    ['an e-mail key', () => ({ recipientId: company, pixKey: 'Financeiro@Fornecedor.com.br', pixKeyType: 'EMAIL' }), 'email'],
    ['a phone key', () => ({ recipientId: person, pixKey: '+55 11 98765-4321', pixKeyType: 'phone' }), 'phone'],
    ['a random (evp) key', () => ({ recipientId: person, pixKey: EVP.toUpperCase(), pixKeyType: 'evp' }), 'evp'],
  ];
  for (const [name, destination, keyType] of keys) {
    it(`pays ${name}: 201 processing, debited amount + fee, one alert`, async () => {
      const before = await availableOf(merchant);
      const alertsBefore = (await alertsOf(merchant)).count;
      gateway.clock.advance(1_000);
      const result = await post({ amountCents: 1_234, ...destination() });
      expect(result).toEqual({
        status: 201,
        body: { transactionId: expect.stringMatching(/^tx_[0-9a-f]{24}$/), status: 'processing', amountCents: 1_234, feeCents: FEE, totalDeducted: 1_334 },
      });
      expect(await availableOf(merchant)).toBe(before - 1_334);
      const alerts = await alertsOf(merchant);
      expect(alerts.count).toBe(alertsBefore + 1);
      expect(alerts.alerts[0]).toEqual({
        alertId: expect.any(Number),
        accountId: merchant.accountId,
        transactionId: result.body.transactionId,
        recipientId: String(destination().recipientId),
        amountCents: 1_234,
        pixKeyType: keyType,
        createdAt: gateway.clock.now(),
      });
    });
  }

  it('stores the normalised key and the recipient on the withdrawal (back office view)', async () => {
    gateway.clock.advance(1_000); // listed newest first: no tie with the earlier withdrawals
    const result = await post({ amountCents: 500, recipientId: company, pixKey: ' Financeiro@Fornecedor.com.br ', pixKeyType: 'email' });
    const { data } = await gateway.admin.GET('/admin/v1/withdrawals', {
      params: { query: { accountId: merchant.accountId, limit: 1 } },
    });
    expect(data?.withdrawals[0]).toMatchObject({
      transactionId: result.body.transactionId,
      pixKey: 'financeiro@fornecedor.com.br',
      pixKeyType: 'email',
      recipientId: company,
    });
  });

  it('Mode 1 withdrawals raise no alert', async () => {
    const before = (await alertsOf(merchant)).count;
    expect((await post({ amountCents: 500, pixKey: '52998224725', pixKeyType: 'cpf' })).status).toBe(201);
    expect((await alertsOf(merchant)).count).toBe(before);
  });

  it('accepts an upper-case recipientId (normalised to lower case)', async () => {
    const before = await availableOf(merchant);
    const result = await post({ amountCents: 700, recipientId: person.toUpperCase(), pixKey: PERSON_CPF, pixKeyType: 'cpf' });
    expect(result.status).toBe(201);
    expect(await availableOf(merchant)).toBe(before - 800);
    expect((await alertsOf(merchant)).alerts[0]).toMatchObject({ transactionId: result.body.transactionId, recipientId: person });
  });

  it('a 502 rolled back at the PSP leaves no alert behind; its retry raises exactly one', async () => {
    const before = await availableOf(merchant);
    const alerts = (await alertsOf(merchant)).count;
    const body = { amountCents: 1_500, recipientId: person, pixKey: EVP, pixKeyType: 'evp', externalRef: 'm2-502' };
    gateway.provider.queueOutcome('sendWithdrawal', 'fail');
    expect(await post(body)).toEqual({ status: 502, body: { error: messages.withdrawProviderError } });
    expect(await availableOf(merchant)).toBe(before);
    expect((await alertsOf(merchant)).count).toBe(alerts);
    const retry = await post(body);
    expect(retry).toMatchObject({ status: 201, body: { status: 'processing' } });
    const after = await alertsOf(merchant);
    expect(after.count).toBe(alerts + 1);
    expect(after.alerts[0]).toMatchObject({ transactionId: retry.body.transactionId, recipientId: person, pixKeyType: 'evp' });
  });

  it('a 202 (provider outcome unknown) keeps its alert: the withdrawal exists and was debited', async () => {
    const alerts = (await alertsOf(merchant)).count;
    gateway.provider.queueOutcome('sendWithdrawal', 'timeout');
    const unknown = await post({ amountCents: 1_500, recipientId: person, pixKey: EVP, pixKeyType: 'evp' });
    expect(unknown).toMatchObject({ status: 202, body: { status: 'failed_unknown' } });
    expect((await alertsOf(merchant)).alerts[0]).toMatchObject({ transactionId: unknown.body.transactionId });
    expect((await alertsOf(merchant)).count).toBe(alerts + 1);
  });

  it('a retry with the same externalRef answers 200 without a second debit or a second alert', async () => {
    const body = { amountCents: 900, recipientId: company, pixKey: 'financeiro@fornecedor.com.br', pixKeyType: 'email', externalRef: 'm2-retry' };
    const first = await post(body);
    expect(first.status).toBe(201);
    const before = await availableOf(merchant);
    const alerts = (await alertsOf(merchant)).count;
    expect(await post(body)).toEqual({ status: 200, body: { ...first.body, idempotent: true } });
    expect(await availableOf(merchant)).toBe(before);
    expect((await alertsOf(merchant)).count).toBe(alerts);
  });
});

describe('POST /v1/withdraw, Mode 2 refusals (nothing debited, no alert)', () => {
  let pending: string;
  let rejected: string;
  let deactivated: string;
  beforeAll(async () => {
    pending = await register(gateway, merchant, personRecipient({ legalName: 'Maria Souza', document: '529.982.247-25', pixKey: '52998224725' }));
    rejected = await register(gateway, merchant, companyRecipient({ legalName: 'Recusada SA', document: '11.222.333/0001-81' }));
    await review(gateway, merchant, rejected, 'reject');
    deactivated = await registerActive(gateway, merchant, companyRecipient({ legalName: 'Desativada SA', document: '60.391.947/0001-00' }));
    await review(gateway, merchant, deactivated, 'deactivate');
  });

  const cases: [string, () => Body, number, string][] = [
    ['a recipient still in review', () => ({ recipientId: pending, pixKey: 'a@b.com.br', pixKeyType: 'email' }), 404, messages.recipientNotFound],
    ['a rejected recipient', () => ({ recipientId: rejected, pixKey: 'a@b.com.br', pixKeyType: 'email' }), 404, messages.recipientNotFound],
    ['an unknown recipientId', () => ({ recipientId: 'ab'.repeat(12), pixKey: 'a@b.com.br', pixKeyType: 'email' }), 404, messages.recipientNotFound],
    ['a deactivated recipient', () => ({ recipientId: deactivated, pixKey: 'a@b.com.br', pixKeyType: 'email' }), 422, messages.recipientDeactivated],
    ['a cpf key for a cnpj recipient', () => ({ recipientId: company, pixKey: PERSON_CPF, pixKeyType: 'cpf' }), 400, messages.recipientKeyTypeMismatch],
    ['a cnpj key for a cpf recipient', () => ({ recipientId: person, pixKey: COMPANY_CNPJ, pixKeyType: 'cnpj' }), 400, messages.recipientKeyTypeMismatch],
    ['a cpf key that is not the recipient document', () => ({ recipientId: person, pixKey: '52998224725', pixKeyType: 'cpf' }), 403, messages.recipientKeyMismatch],
    ['a cnpj key that is not the recipient document', () => ({ recipientId: company, pixKey: '11222333000181', pixKeyType: 'cnpj' }), 403, messages.recipientKeyMismatch],
    ['an invalid e-mail key', () => ({ recipientId: company, pixKey: 'financeiro@', pixKeyType: 'email' }), 400, messages.pixKeyInvalid('email')],
    ['a recipientId that is not 24 hex', () => ({ recipientId: `${person.slice(0, 23)}g`, pixKey: PERSON_CPF, pixKeyType: 'cpf' }), 400, messages.recipientIdInvalid],
  ];
  for (const [name, destination, status, error] of cases) {
    it(`refuses ${name} with ${status}`, async () => {
      const before = await availableOf(merchant);
      const alerts = (await alertsOf(merchant)).count;
      expect(await post({ amountCents: 1_000, ...destination() })).toEqual({ status, body: { error } });
      expect(await availableOf(merchant)).toBe(before);
      expect((await alertsOf(merchant)).count).toBe(alerts);
    });
  }

  it('uses the contract texts', () => {
    expect(messages.recipientNotFound).toBe('Destinatário autorizado não encontrado.');
    expect(messages.recipientDeactivated).toBe('Destinatário desativado pelo time PixGate. Saque cancelado.');
    expect(messages.recipientKeyTypeMismatch).toBe('Tipo de chave (CPF/CNPJ) não bate com o tipo do documento do destinatário.');
    expect(messages.recipientKeyMismatch).toBe('Chave PIX (CPF/CNPJ) não corresponde ao documento do destinatário autorizado.');
  });

  it("answers 404 for another merchant's recipient", async () => {
    const other = await createMerchant(gateway);
    await relaxLimits(gateway, other.accountId);
    await fund(gateway, other, 10_000);
    expect(await post({ amountCents: 1_000, recipientId: person, pixKey: PERSON_CPF, pixKeyType: 'cpf' }, other)).toEqual({
      status: 404,
      body: { error: messages.recipientNotFound },
    });
    expect(await availableOf(other)).toBe(10_000);
  });

  it('refuses a key type the account does not allow with 403, even to a recipient', async () => {
    await relaxLimits(gateway, merchant.accountId, { withdrawalKeyTypes: ['cpf', 'cnpj'] });
    try {
      expect(await post({ amountCents: 1_000, recipientId: company, pixKey: 'financeiro@fornecedor.com.br', pixKeyType: 'email' })).toEqual({
        status: 403,
        body: { error: messages.pixKeyTypeNotAllowed('email') },
      });
    } finally {
      await relaxLimits(gateway, merchant.accountId, { withdrawalKeyTypes: ['cpf', 'cnpj', 'email', 'phone', 'evp'] });
    }
  });
});

describe('deactivating a recipient', () => {
  it('cancels its withdrawals waiting for approval (RECIPIENT_DEACTIVATED), debiting nothing; others keep their course', async () => {
    const manual = await createMerchant(gateway);
    await relaxLimits(gateway, manual.accountId, { withdrawalApprovalMode: 'manual' });
    await fund(gateway, manual, 50_000);
    const target = await registerActive(gateway, manual, personRecipient());
    const other = await registerActive(gateway, manual, companyRecipient());
    const toTarget = [
      await post({ amountCents: 1_000, recipientId: target, pixKey: PERSON_CPF, pixKeyType: 'cpf' }, manual),
      await post({ amountCents: 2_000, recipientId: target, pixKey: EVP, pixKeyType: 'evp' }, manual),
    ];
    const toOther = await post({ amountCents: 3_000, recipientId: other, pixKey: 'financeiro@fornecedor.com.br', pixKeyType: 'email' }, manual);
    const toHolder = await post({ amountCents: 4_000, pixKey: '52998224725', pixKeyType: 'cpf' }, manual);
    for (const r of [...toTarget, toOther, toHolder]) expect(r).toMatchObject({ status: 201, body: { status: 'pending_approval' } });
    expect(await availableOf(manual)).toBe(50_000);

    gateway.clock.advance(30_000);
    const deactivated = await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/deactivate', {
      params: { path: { accountId: manual.accountId, recipientId: target } },
      body: { note: 'Alerta de AML.' },
    });
    expect(deactivated.response.status).toBe(200);
    expect(deactivated.data?.recipient).toMatchObject({ recipientId: target, status: 'deactivated', reviewNote: 'Alerta de AML.' });
    const cancelledIds = toTarget.map((r) => String(r.body.transactionId));
    expect([...(deactivated.data?.cancelledWithdrawals ?? [])].sort()).toEqual([...cancelledIds].sort());

    for (const id of cancelledIds) {
      const tx = await read(manual, id);
      expect(tx).toMatchObject({
        status: 'cancelled',
        refusedCode: 'RECIPIENT_DEACTIVATED',
        refusedReason: messages.recipientDeactivated,
        paidAt: gateway.clock.now(),
      });
      expect(tx).not.toHaveProperty('beneficiary');
      const events = await gateway.deps.db.selectFrom('outbox_events').select('event').where('transaction_id', '=', id).orderBy('created_at').execute();
      expect(events.map((e) => e.event)).toEqual(['transfer.created', 'transfer.pending_approval', 'transfer.cancelled']);
    }
    expect((await read(manual, String(toOther.body.transactionId))).status).toBe('pending_approval');
    expect((await read(manual, String(toHolder.body.transactionId))).status).toBe('pending_approval');
    expect(await availableOf(manual)).toBe(50_000);

    // A cancelled withdrawal can no longer be approved; new ones to the recipient get 422.
    const approve = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', {
      params: { path: { transactionId: cancelledIds[0]! } },
    });
    expect(approve.response.status).toBe(409);
    expect(await post({ amountCents: 1_000, recipientId: target, pixKey: PERSON_CPF, pixKeyType: 'cpf' }, manual)).toEqual({
      status: 422,
      body: { error: messages.recipientDeactivated },
    });
    // The other recipient's withdrawal is still approvable and debits then.
    const approved = await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', {
      params: { path: { transactionId: String(toOther.body.transactionId) } },
    });
    expect(approved.data?.status).toBe('processing');
    expect(await availableOf(manual)).toBe(50_000 - 3_100);
  });

  // Needs a second database connection to hold a lock: Postgres only (PGlite has one connection).
  it.skipIf(!process.env.PIXGATE_TEST_DATABASE_URL)(
    'a withdrawal that read the recipient before a concurrent deactivation is refused, never left waiting for approval',
    async () => {
      const manual = await createMerchant(gateway);
      await relaxLimits(gateway, manual.accountId, { withdrawalApprovalMode: 'manual' });
      await fund(gateway, manual, 10_000);
      const target = await registerActive(gateway, manual, personRecipient());
      // Hold the account's balance row: the withdrawal checks the recipient, then waits on this lock.
      let unblock: () => void = () => undefined;
      const unblocked = new Promise<void>((resolve) => (unblock = resolve));
      let locked: () => void = () => undefined;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const blocker = gateway.deps.db.transaction().execute(async (trx) => {
        await trx.selectFrom('ledger_accounts').select('id').where('id', '=', `${manual.accountId}:available`).forUpdate().execute();
        locked();
        await unblocked;
      });
      try {
        await lockTaken;
        const request = post({ amountCents: 1_000, recipientId: target, pixKey: PERSON_CPF, pixKeyType: 'cpf' }, manual);
        for (let i = 0; i < 200; i++) {
          const waiting = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(gateway.deps.db);
          if (Number(waiting.rows[0]?.n) > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const deactivated = await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/deactivate', {
          params: { path: { accountId: manual.accountId, recipientId: target } },
        });
        expect(deactivated.data?.cancelledWithdrawals).toEqual([]);
        unblock();
        await blocker;
        expect(await request).toEqual({ status: 422, body: { error: messages.recipientDeactivated } });
        const waitingForApproval = await gateway.admin.GET('/admin/v1/withdrawals', {
          params: { query: { accountId: manual.accountId, status: 'pending_approval' } },
        });
        expect(waitingForApproval.data?.count).toBe(0);
        expect(await availableOf(manual)).toBe(10_000);
      } finally {
        unblock();
        await blocker;
      }
    },
  );

  it('leaves withdrawals already sent alone: a retry of one answers 200 with the original, not 422', async () => {
    const who = await createMerchant(gateway);
    await relaxLimits(gateway, who.accountId);
    await fund(gateway, who, 10_000);
    const id = await registerActive(gateway, who, companyRecipient());
    const body = { amountCents: 2_000, recipientId: id, pixKey: 'financeiro@fornecedor.com.br', pixKeyType: 'email', externalRef: 'nf-77' };
    const sent = await post(body, who);
    expect(sent).toMatchObject({ status: 201, body: { status: 'processing' } });
    const deactivated = await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/deactivate', {
      params: { path: { accountId: who.accountId, recipientId: id } },
    });
    expect(deactivated.data?.cancelledWithdrawals).toEqual([]);
    // The retry must not tell the merchant "Saque cancelado" about a withdrawal that is on its way.
    expect(await post(body, who)).toEqual({ status: 200, body: { ...sent.body, idempotent: true } });
    expect(await post({ ...body, externalRef: 'nf-78' }, who)).toEqual({ status: 422, body: { error: messages.recipientDeactivated } });
    expect(await availableOf(who)).toBe(10_000 - 2_100);
    expect((await read(who, String(sent.body.transactionId))).status).toBe('processing');
  });

  it('answers 200 with no cancelled withdrawal when there was none', async () => {
    const who = await createMerchant(gateway);
    const id = await registerActive(gateway, who, personRecipient());
    const result = await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/deactivate', {
      params: { path: { accountId: who.accountId, recipientId: id } },
    });
    expect(result.data?.cancelledWithdrawals).toEqual([]);
  });
});

describe('settled Mode 2 withdrawals', () => {
  it('show the recipient as beneficiary (automatic mode, e-mail key to a company)', async () => {
    const created = await post({ amountCents: 2_500, recipientId: company, pixKey: 'financeiro@fornecedor.com.br', pixKeyType: 'email' });
    const id = String(created.body.transactionId);
    gateway.clock.advance(2_000);
    const settled = await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', {
      params: { path: { transactionId: id } },
    });
    expect(settled.data?.status).toBe('paid');
    const tx = await read(merchant, id);
    expect(tx).toMatchObject({
      status: 'paid',
      paidAt: gateway.clock.now(),
      beneficiary: {
        name: 'Fornecedora Alfa Ltda',
        document: COMPANY_CNPJ,
        documentType: 'cnpj',
        bankAccount: { ispb: '99999004', branch: '0001', account: expect.any(String) },
      },
    });
    expect(tx.endToEndId).toMatch(new RegExp(`^E${gateway.provider.ispb}\\d{12}[a-zA-Z0-9]{11}$`));
  });

  it('show the recipient as beneficiary after a manual approval (phone key to a person)', async () => {
    const manual = await createMerchant(gateway);
    await relaxLimits(gateway, manual.accountId, { withdrawalApprovalMode: 'manual' });
    await fund(gateway, manual, 10_000);
    const id = await registerActive(gateway, manual, personRecipient());
    const created = await post({ amountCents: 1_000, recipientId: id, pixKey: '11987654321', pixKeyType: 'phone' }, manual);
    const txId = String(created.body.transactionId);
    await gateway.admin.POST('/admin/v1/withdrawals/{transactionId}/approve', { params: { path: { transactionId: txId } } });
    await gateway.admin.POST('/admin/v1/sandbox/withdrawals/{transactionId}/settle', { params: { path: { transactionId: txId } } });
    expect(await read(manual, txId)).toMatchObject({
      status: 'paid',
      beneficiary: { name: 'João Pereira Santos', document: PERSON_CPF, documentType: 'cpf' },
    });
    expect(await availableOf(manual)).toBe(10_000 - 1_100);
  });
});
