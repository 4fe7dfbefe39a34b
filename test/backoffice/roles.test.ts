import { recordUnmatchedPix } from '../../src/charges/receivedPix.repository.ts';
import { recordBreak } from '../../src/reconciliation/reconciliation.repository.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationRoles, type OperationId } from '../../generated/admin-roles.ts';
import type { components } from '../../generated/admin-types.ts';
import { operatorMessages } from '../../src/messages/operator.ts';
import { bundledOperations, databaseState, fillPath } from '../support/dashboardAccounts.ts';
import { consoleBrowser, totpNow } from '../support/dashboardClient.ts';
import { approve, createRecurrence, recurrenceWithCycle } from '../support/recurrences.ts';
import {
  ADMIN_TOKEN,
  createMerchant,
  fund,
  makeCpf,
  relaxLimits,
  startGateway,
  useGateway,
  validCustomer,
  type Gateway,
  type MerchantFixture,
} from '../support/gateway.ts';
import { signedInOperator, type SignedInOperator } from '../support/operators.ts';

/**
 * The console's use of the back office, per operation of generated/admin-roles.ts (the x-roles of
 * openapi/admin): an operator of a role the operation does not list gets 403 and changes nothing; an
 * operator of a listed role succeeds, and a state-changing operation writes one audit entry naming that
 * operator, the action, the target and the values before and after. Without credentials 401; a console
 * session without the CSRF token 403. The automation token acts with ADMIN_TOKEN_ROLES only. The audit log
 * cannot be changed through the API. An operation added to the document without a case fails the first test.
 */

const gateway = useGateway();
const operations = bundledOperations('admin-openapi.json');
type Role = components['schemas']['OperatorRole'];
const ROLES: Role[] = ['support', 'compliance', 'finance', 'admin'];

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

interface Audited {
  action: string;
  /** The entry keeps the value before the change (false for a creation or an action on no record). */
  before: boolean;
  /** The entry keeps the value after the change (false for a deletion). */
  after: boolean;
}

interface AdminCase {
  /** A call that succeeds for a listed role (fixtures made with the automation token). */
  prepare: () => Promise<Call>;
  /** The documented success status, or the documented answer when a success cannot be reached in a test. */
  expect: number;
  /** The audit entry of a state-changing operation, or why it writes none. */
  audit: Audited | { none: string };
  /** What the world does after the success (the provider's side of it), so the books still agree at the end. */
  afterSuccess?: () => Promise<void>;
}

let operators: Record<Role, SignedInOperator>;
let merchant: MerchantFixture;
/** An account whose withdrawals wait for approval (manual mode). */
let manual: MerchantFixture;

beforeAll(async () => {
  operators = {
    support: await signedInOperator(gateway, 'suporte@pixgate.test', 'Sofia Suporte', ['support']),
    compliance: await signedInOperator(gateway, 'compliance@pixgate.test', 'Carla Compliance', ['compliance']),
    finance: await signedInOperator(gateway, 'financas@pixgate.test', 'Fábio Finanças', ['finance']),
    admin: await signedInOperator(gateway, 'admin@pixgate.test', 'Adriana Admin', ['admin']),
  };
  merchant = await createMerchant(gateway, { legalName: 'Loja Automática Ltda' });
  await relaxLimits(gateway, merchant.accountId, { recipientLimit: 100, recipientsPerHour: 1000 });
  await fund(gateway, merchant, 10_000_000);
  manual = await createMerchant(gateway, { legalName: 'Loja Manual Ltda' });
  await relaxLimits(gateway, manual.accountId, { withdrawalApprovalMode: 'manual' });
  await fund(gateway, manual, 10_000_000);
}, 60_000);

afterAll(() => {
  gateway.provider.clearOutcomes();
});

const admin = (path: string) => `/admin/v1${path}`;
const HOLDER_CPF = '52998224725';

async function token<T>(method: Call['method'], path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${gateway.adminBaseUrl}${admin(path)}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function freshAccount(): Promise<string> {
  const created = await token<{ accountId: string }>('POST', '/accounts', { legalName: 'Conta Nova Ltda', responsibleCpf: makeCpf(), companyCnpj: '11222333000181', email: 'nova@conta.test' });
  return created.accountId;
}

async function webhookOn(accountId: string): Promise<string> {
  return (await token<{ endpointId: string }>('POST', `/accounts/${accountId}/webhooks`, { url: 'http://127.0.0.1:9/ganchos' })).endpointId;
}

async function charge(of: MerchantFixture, paid: boolean): Promise<string> {
  const created = await of.client.POST('/v1/pix', { body: { amountCents: 10_000, customer: validCustomer } });
  const id = created.data?.transactionId ?? '';
  if (paid) await token('POST', `/sandbox/charges/${id}/pay`, {});
  return id;
}

/** An open-amount static QR code of the account (R$ 10,00 a sandbox payment). */
async function staticQrCode(of: MerchantFixture): Promise<string> {
  const created = await of.client.POST('/v1/static-qrcodes', { body: {} });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return created.data.staticQrCodeId;
}

async function withdrawal(of: MerchantFixture): Promise<string> {
  const created = await of.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return created.data.transactionId;
}

/** A refund the PSP accepted (`processing`) of a paid charge. */
async function refund(of: MerchantFixture): Promise<string> {
  const paid = await charge(of, true);
  const created = await of.client.POST('/v1/transactions/{id}/refunds', { params: { path: { id: paid } }, body: { amountCents: 100 } });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return created.data.refundId;
}

/** A MED infraction the provider reported on a paid charge (its hold placed). */
async function infraction(): Promise<string> {
  const paid = await charge(merchant, true);
  return (await token<{ infractionId: string }>('POST', `/sandbox/charges/${paid}/infractions`, {})).infractionId;
}

let recipients = 0;
async function pendingRecipient(): Promise<string> {
  recipients += 1;
  const created = await merchant.client.POST('/v1/recipients', {
    body: { legalName: `Fornecedor ${recipients} Ltda`, document: makeCpf(), documentType: 'cpf', pixKey: `fornecedor${recipients}@exemplo.com.br`, pixKeyType: 'email' },
  });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  return created.data.recipientId;
}

async function newOperatorId(): Promise<string> {
  recipients += 1;
  const created = await token<{ operator: { operatorId: string } }>('POST', '/operators', { email: `colega${recipients}@pixgate.test`, name: 'Colega', roles: ['support'] });
  return created.operator.operatorId;
}

const account = (path = '') => admin(`/accounts/${merchant.accountId}${path}`);
const noRecord = (what: string) => ({ none: what });
let unmatchedSeq = 0;
/** The end-to-end id of the last unmatched Pix the fake provider received (PSP=efi). */
let lastUnmatched = '';

const cases: Record<OperationId, AdminCase> = {
  createAccount: {
    prepare: async () => ({ method: 'POST', path: admin('/accounts'), body: { legalName: 'Loja Criada Ltda', responsibleCpf: makeCpf(), companyCnpj: '11222333000181', email: 'criada@loja.test' } }),
    expect: 201,
    audit: { action: 'account.create', before: false, after: true },
  },
  listAccounts: { prepare: async () => ({ method: 'GET', path: admin('/accounts?kycStatus=approved&limit=5') }), expect: 200, audit: noRecord('a read') },
  getAccount: { prepare: async () => ({ method: 'GET', path: account() }), expect: 200, audit: noRecord('a read') },
  updateAccount: {
    prepare: async () => ({ method: 'PATCH', path: admin(`/accounts/${await freshAccount()}`), body: { kycStatus: 'approved' } }),
    expect: 200,
    audit: { action: 'account.update', before: true, after: true },
  },
  createApiKey: {
    prepare: async () => ({ method: 'POST', path: account('/api-keys'), body: { label: 'nova' } }),
    expect: 201,
    audit: { action: 'apiKey.create', before: false, after: true },
  },
  listApiKeys: { prepare: async () => ({ method: 'GET', path: account('/api-keys') }), expect: 200, audit: noRecord('a read') },
  revokeApiKey: {
    prepare: async () => {
      const key = await token<{ keyId: string }>('POST', `/accounts/${merchant.accountId}/api-keys`, { label: 'a revogar' });
      return { method: 'POST', path: account(`/api-keys/${key.keyId}/revoke`) };
    },
    expect: 200,
    audit: { action: 'apiKey.revoke', before: true, after: true },
  },
  getAccountBalance: { prepare: async () => ({ method: 'GET', path: account('/balance') }), expect: 200, audit: noRecord('a read') },
  listAccountEvents: { prepare: async () => ({ method: 'GET', path: account('/events') }), expect: 200, audit: noRecord('a read') },
  createWebhookEndpoint: {
    prepare: async () => ({ method: 'POST', path: admin(`/accounts/${await freshAccount()}/webhooks`), body: { url: 'http://127.0.0.1:9/novo' } }),
    expect: 201,
    audit: { action: 'webhook.create', before: false, after: true },
  },
  listWebhookEndpoints: { prepare: async () => ({ method: 'GET', path: account('/webhooks') }), expect: 200, audit: noRecord('a read') },
  updateWebhookEndpoint: {
    prepare: async () => {
      const accountId = await freshAccount();
      return { method: 'PATCH', path: admin(`/accounts/${accountId}/webhooks/${await webhookOn(accountId)}`), body: { enabled: false } };
    },
    expect: 200,
    audit: { action: 'webhook.update', before: true, after: true },
  },
  deleteWebhookEndpoint: {
    prepare: async () => {
      const accountId = await freshAccount();
      return { method: 'DELETE', path: admin(`/accounts/${accountId}/webhooks/${await webhookOn(accountId)}`) };
    },
    expect: 200,
    audit: { action: 'webhook.delete', before: true, after: false },
  },
  rotateWebhookSecret: {
    prepare: async () => {
      const accountId = await freshAccount();
      return { method: 'POST', path: admin(`/accounts/${accountId}/webhooks/${await webhookOn(accountId)}/rotate-secret`) };
    },
    expect: 200,
    audit: { action: 'webhook.rotateSecret', before: true, after: true },
  },
  listWebhookAttempts: { prepare: async () => ({ method: 'GET', path: account('/webhook-attempts') }), expect: 200, audit: noRecord('a read') },
  resendEvent: {
    prepare: async () => {
      const fresh = await createMerchant(gateway);
      await webhookOn(fresh.accountId);
      await charge(fresh, true);
      const events = await token<{ events: { eventId: string }[] }>('GET', `/accounts/${fresh.accountId}/events`);
      return { method: 'POST', path: admin(`/accounts/${fresh.accountId}/events/${events.events[0]?.eventId ?? ''}/resend`), body: {} };
    },
    expect: 202,
    audit: { action: 'event.resend', before: false, after: true },
  },
  dispatchWebhooks: { prepare: async () => ({ method: 'POST', path: admin('/webhooks/dispatch') }), expect: 200, audit: { action: 'webhooks.dispatch', before: false, after: true } },
  listAccountRecipients: { prepare: async () => ({ method: 'GET', path: account('/recipients') }), expect: 200, audit: noRecord('a read') },
  approveRecipient: {
    prepare: async () => ({ method: 'POST', path: account(`/recipients/${await pendingRecipient()}/approve`), body: { note: 'Documento conferido.' } }),
    expect: 200,
    audit: { action: 'recipient.approve', before: true, after: true },
  },
  rejectRecipient: {
    prepare: async () => ({ method: 'POST', path: account(`/recipients/${await pendingRecipient()}/reject`), body: { note: 'Documento divergente.' } }),
    expect: 200,
    audit: { action: 'recipient.reject', before: true, after: true },
  },
  deactivateRecipient: {
    prepare: async () => {
      const id = await pendingRecipient();
      await token('POST', `/accounts/${merchant.accountId}/recipients/${id}/approve`);
      return { method: 'POST', path: account(`/recipients/${id}/deactivate`), body: { note: 'Alerta de AML.' } };
    },
    expect: 200,
    audit: { action: 'recipient.deactivate', before: true, after: true },
  },
  placeHold: {
    prepare: async () => ({ method: 'POST', path: account('/holds'), body: { amountCents: 100, reason: 'administrative' } }),
    expect: 201,
    audit: { action: 'hold.place', before: false, after: true },
  },
  listHolds: { prepare: async () => ({ method: 'GET', path: account('/holds') }), expect: 200, audit: noRecord('a read') },
  releaseHold: {
    prepare: async () => {
      const hold = await token<{ holdId: string }>('POST', `/accounts/${merchant.accountId}/holds`, { amountCents: 100, reason: 'administrative' });
      return { method: 'POST', path: account(`/holds/${hold.holdId}/release`) };
    },
    expect: 200,
    audit: { action: 'hold.release', before: true, after: true },
  },
  chargebackHold: {
    prepare: async () => {
      const paid = await charge(merchant, true);
      const hold = await token<{ holdId: string }>('POST', `/accounts/${merchant.accountId}/holds`, { amountCents: 1_000, reason: 'dispute', transactionId: paid });
      return { method: 'POST', path: account(`/holds/${hold.holdId}/chargeback`), body: {} };
    },
    expect: 200,
    audit: { action: 'hold.chargeback', before: true, after: true },
  },
  listWithdrawals: { prepare: async () => ({ method: 'GET', path: admin('/withdrawals?status=pending_approval') }), expect: 200, audit: noRecord('a read') },
  approveWithdrawal: {
    prepare: async () => ({ method: 'POST', path: admin(`/withdrawals/${await withdrawal(manual)}/approve`) }),
    expect: 200,
    audit: { action: 'withdrawal.approve', before: true, after: true },
  },
  rejectWithdrawal: {
    prepare: async () => ({ method: 'POST', path: admin(`/withdrawals/${await withdrawal(manual)}/reject`), body: { reason: 'Destino suspeito.' } }),
    expect: 200,
    audit: { action: 'withdrawal.reject', before: true, after: true },
  },
  cancelWithdrawal: {
    prepare: async () => ({ method: 'POST', path: admin(`/withdrawals/${await withdrawal(manual)}/cancel`), body: { reason: 'Pedido do cliente.' } }),
    expect: 200,
    audit: { action: 'withdrawal.cancel', before: true, after: true },
  },
  resolveWithdrawal: {
    // A withdrawal can be resolved only 24 h after its outcome became unknown (the reconciliation's time);
    // the listed role reaches that rule, which is the documented 409.
    prepare: async () => {
      gateway.provider.queueOutcome('sendWithdrawal', 'timeout');
      const created = await merchant.client.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: HOLDER_CPF, pixKeyType: 'cpf' } });
      const id = (created.data ?? (created.error as unknown as { transactionId?: string }))?.transactionId ?? '';
      return { method: 'POST', path: admin(`/withdrawals/${id}/resolve`), body: { outcome: 'failed', note: 'Extrato do PSP sem o saque.' } };
    },
    expect: 409,
    audit: noRecord('refused before any change (409: not yet 24 h in failed_unknown)'),
  },
  listWithdrawalAlerts: { prepare: async () => ({ method: 'GET', path: admin('/withdrawal-alerts') }), expect: 200, audit: noRecord('a read') },
  checkLedger: { prepare: async () => ({ method: 'GET', path: admin('/ledger/check') }), expect: 200, audit: noRecord('a read') },
  listUnmatchedPix: { prepare: async () => ({ method: 'GET', path: admin('/provider/unmatched-pix') }), expect: 200, audit: noRecord('a read') },
  resolveUnmatchedPix: {
    // A received Pix no charge of ours can take, as the provider's callback would have recorded it (on real
    // rails the fake provider receives it, so the provider's money and the ledger's still agree).
    prepare: async () => {
      if (gateway.efi) {
        const received = await gateway.efi.fake.receivePix({ valor: '9.90', txid: `naoexiste${String(++unmatchedSeq).padStart(20, '0')}` });
        await gateway.efi.settled();
        lastUnmatched = received.endToEndId;
        return { method: 'POST', path: admin(`/provider/unmatched-pix/${received.endToEndId}/resolve`), body: { note: 'Devolvido ao pagador na Efí.' } };
      }
      const endToEndId = `E09089356202611270130${String(++unmatchedSeq).padStart(11, '0')}`;
      await recordUnmatchedPix(gateway.deps.db, {
        endToEndId,
        chargeRef: 'pgunknown0000000000000000000',
        transactionId: null,
        amountCents: 990,
        receivedAt: new Date(gateway.clock.now()),
        reason: 'unknown_charge',
        payer: null,
        at: new Date(gateway.clock.now()),
      });
      return { method: 'POST', path: admin(`/provider/unmatched-pix/${endToEndId}/resolve`), body: { note: 'Devolvido ao pagador na Efí.' } };
    },
    expect: 200,
    audit: { action: 'provider.unmatched_pix.resolve', before: true, after: true },
    // As the note says: the operator returned it at the provider (whose callback then names a resolved Pix).
    afterSuccess: async () => {
      if (!gateway.efi) return;
      await gateway.efi.fake.devolve(lastUnmatched, { valor: '9.90', natureza: 'ORIGINAL' });
      await gateway.efi.settled();
    },
  },
  listInfractions: { prepare: async () => ({ method: 'GET', path: admin('/infractions') }), expect: 200, audit: noRecord('a read') },
  followInfractions: {
    prepare: async () => ({ method: 'POST', path: admin('/infractions/follow') }),
    expect: 200,
    audit: { action: 'infractions.follow', before: false, after: true },
  },
  defendInfraction: {
    prepare: async () => ({ method: 'POST', path: admin(`/infractions/${await infraction()}/defence`), body: { analysis: 'rejeitado', text: 'O cliente confirmou a compra.' } }),
    expect: 200,
    audit: { action: 'infraction.defend', before: false, after: true },
  },
  runReconciliation: {
    prepare: async () => ({ method: 'POST', path: admin('/reconciliation/runs'), body: {} }),
    expect: 200,
    audit: { action: 'reconciliation.run', before: false, after: true },
  },
  listReconciliationRuns: { prepare: async () => ({ method: 'GET', path: admin('/reconciliation/runs') }), expect: 200, audit: noRecord('a read') },
  listReconciliationBreaks: { prepare: async () => ({ method: 'GET', path: admin('/reconciliation/breaks') }), expect: 200, audit: noRecord('a read') },
  resolveReconciliationBreak: {
    // A difference as a run would have recorded it (one holding no money: a note resolves it).
    prepare: async () => {
      const { row } = await recordBreak(gateway.deps.db, {
        id: `brk_${String(++unmatchedSeq).padStart(24, '0')}`,
        kind: 'refund_differs',
        key: `rf_test_${unmatchedSeq}`,
        detail: 'A refund the provider and the ledger see differently (test).',
        at: new Date(gateway.clock.now()),
      });
      return { method: 'POST', path: admin(`/reconciliation/breaks/${row.id}/resolve`), body: { note: 'Conferido com o extrato do provedor.' } };
    },
    expect: 200,
    audit: { action: 'reconciliation.break.resolve', before: true, after: true },
  },
  sandboxOpenInfraction: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/charges/${await charge(merchant, true)}/infractions`), body: {} }),
    expect: 200,
    audit: { action: 'sandbox.infraction.open', before: false, after: true },
  },
  sandboxBlockInfraction: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/infractions/${await infraction()}/block`) }),
    expect: 200,
    audit: { action: 'sandbox.infraction.block', before: false, after: true },
  },
  sandboxCloseInfraction: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/infractions/${await infraction()}/close`), body: { status: 'REJEITADA' } }),
    expect: 200,
    audit: { action: 'sandbox.infraction.close', before: false, after: true },
  },
  sandboxPayCharge: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/charges/${await charge(merchant, false)}/pay`), body: {} }),
    expect: 200,
    audit: { action: 'sandbox.charge.pay', before: true, after: true },
  },
  sandboxPayStaticQrCode: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/static-qrcodes/${await staticQrCode(merchant)}/pay`), body: {} }),
    expect: 200,
    audit: { action: 'sandbox.staticqrcode.pay', before: false, after: true },
  },
  sandboxAnswerRecurrenceConsent: {
    prepare: async () => ({
      method: 'POST',
      path: admin(`/sandbox/recurrences/${(await createRecurrence(gateway, merchant)).id}/consent`),
      body: { outcome: 'approve' },
    }),
    expect: 200,
    audit: { action: 'sandbox.recurrence.consent', before: false, after: true },
  },
  sandboxCancelRecurrenceAsPayer: {
    prepare: async () => {
      const recurrence = await createRecurrence(gateway, merchant);
      await approve(gateway, recurrence.id);
      return { method: 'POST', path: admin(`/sandbox/recurrences/${recurrence.id}/payer-cancel`), body: {} };
    },
    expect: 200,
    audit: { action: 'sandbox.recurrence.cancel', before: false, after: true },
  },
  sandboxDebitRecurrenceCycle: {
    prepare: async () => ({
      method: 'POST',
      path: admin(`/sandbox/recurrence-cycles/${(await recurrenceWithCycle(gateway, merchant)).cycleId}/debit`),
      body: { outcome: 'pay' },
    }),
    expect: 200,
    audit: { action: 'sandbox.recurrence.debit', before: false, after: true },
  },
  sandboxCancelRecurrenceCycleAsPayer: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/recurrence-cycles/${(await recurrenceWithCycle(gateway, merchant)).cycleId}/payer-cancel`), body: {} }),
    expect: 200,
    audit: { action: 'sandbox.recurrence.cycle.cancel', before: false, after: true },
  },
  sandboxRunRecurrences: { prepare: async () => ({ method: 'POST', path: admin('/sandbox/recurrences/run') }), expect: 200, audit: { action: 'sandbox.recurrences.run', before: false, after: true } },
  sandboxExpireCharge: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/charges/${await charge(merchant, false)}/expire`) }),
    expect: 200,
    audit: { action: 'sandbox.charge.expire', before: true, after: true },
  },
  sandboxCancelCharge: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/charges/${await charge(merchant, false)}/cancel`) }),
    expect: 200,
    audit: { action: 'sandbox.charge.cancel', before: true, after: true },
  },
  sandboxFailCharge: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/charges/${await charge(merchant, false)}/fail`) }),
    expect: 200,
    audit: { action: 'sandbox.charge.fail', before: true, after: true },
  },
  sandboxRefundCharge: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/charges/${await charge(merchant, true)}/refund`), body: { amountCents: 500 } }),
    expect: 200,
    audit: { action: 'sandbox.charge.refund', before: true, after: true },
  },
  queueProviderOutcome: {
    prepare: async () => ({ method: 'POST', path: admin('/sandbox/provider/outcomes'), body: { operation: 'queryWithdrawal', outcome: 'succeed' } }),
    expect: 200,
    audit: { action: 'sandbox.provider.queue', before: false, after: true },
  },
  clearProviderOutcomes: {
    prepare: async () => ({ method: 'DELETE', path: admin('/sandbox/provider/outcomes') }),
    expect: 200,
    audit: { action: 'sandbox.provider.clear', before: false, after: false },
  },
  sandboxSettleWithdrawal: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/withdrawals/${await withdrawal(merchant)}/settle`), body: {} }),
    expect: 200,
    audit: { action: 'sandbox.withdrawal.settle', before: true, after: true },
  },
  sandboxSettleRefund: {
    prepare: async () => ({ method: 'POST', path: admin(`/sandbox/refunds/${await refund(merchant)}/settle`) }),
    expect: 200,
    audit: { action: 'sandbox.refund.settle', before: true, after: true },
  },
  sandboxRejectRefund: {
    prepare: async () => ({
      method: 'POST',
      path: admin(`/sandbox/refunds/${await refund(merchant)}/reject`),
      body: { refusedCode: 'PROVIDER_REJECTED', refusedReason: 'Conta do pagador encerrada.' },
    }),
    expect: 200,
    audit: { action: 'sandbox.refund.reject', before: true, after: true },
  },
  sandboxRejectWithdrawal: {
    prepare: async () => ({
      method: 'POST',
      path: admin(`/sandbox/withdrawals/${await withdrawal(merchant)}/reject`),
      body: { refusedCode: 'PROVIDER_REJECTED', refusedReason: 'Conta de destino encerrada.' },
    }),
    expect: 200,
    audit: { action: 'sandbox.withdrawal.reject', before: true, after: true },
  },
  sandboxReturnWithdrawal: {
    prepare: async () => {
      const id = await withdrawal(merchant);
      await token('POST', `/sandbox/withdrawals/${id}/settle`, {});
      return { method: 'POST', path: admin(`/sandbox/withdrawals/${id}/return`), body: { amountCents: 500 } };
    },
    expect: 200,
    audit: { action: 'sandbox.withdrawal.return', before: true, after: true },
  },
  sandboxReconcile: { prepare: async () => ({ method: 'POST', path: admin('/sandbox/reconcile') }), expect: 200, audit: { action: 'sandbox.reconcile', before: false, after: true } },
  operatorSignIn: { prepare: async () => ({ method: 'POST', path: admin('/session') }), expect: 200, audit: noRecord('session operation (see "console sessions")') },
  getOperatorSession: { prepare: async () => ({ method: 'GET', path: admin('/session') }), expect: 200, audit: noRecord('session operation') },
  operatorSignOut: { prepare: async () => ({ method: 'DELETE', path: admin('/session') }), expect: 200, audit: noRecord('session operation') },
  startOperatorTotp: { prepare: async () => ({ method: 'POST', path: admin('/session/totp/setup') }), expect: 200, audit: noRecord('session operation') },
  operatorTotp: { prepare: async () => ({ method: 'POST', path: admin('/session/totp') }), expect: 200, audit: noRecord('session operation (its enrolment is audited, see "console sessions")') },
  changeOperatorPassword: {
    prepare: async () => ({ method: 'POST', path: admin('/session/password') }),
    expect: 200,
    audit: noRecord('session operation (audited as operator.password_changed, test/identity/operatorPassword.test.ts)'),
  },
  listOperators: { prepare: async () => ({ method: 'GET', path: admin('/operators') }), expect: 200, audit: noRecord('a read') },
  createOperator: {
    prepare: async () => ({ method: 'POST', path: admin('/operators'), body: { email: `nova${(recipients += 1)}@pixgate.test`, name: 'Nova Pessoa', roles: ['finance'] } }),
    expect: 201,
    audit: { action: 'operator.create', before: false, after: true },
  },
  updateOperator: {
    prepare: async () => ({ method: 'PATCH', path: admin(`/operators/${await newOperatorId()}`), body: { roles: ['support', 'finance'] } }),
    expect: 200,
    audit: { action: 'operator.update', before: true, after: true },
  },
  resetOperatorCredentials: {
    prepare: async () => ({ method: 'POST', path: admin(`/operators/${await newOperatorId()}/reset-credentials`) }),
    expect: 200,
    audit: { action: 'operator.resetCredentials', before: true, after: true },
  },
  listAuditLog: { prepare: async () => ({ method: 'GET', path: admin('/audit-log') }), expect: 200, audit: noRecord('a read') },
  listRecipientQueue: { prepare: async () => ({ method: 'GET', path: admin('/recipients') }), expect: 200, audit: noRecord('a read') },
};

/** The console's session operations: tested through the session itself, not per role (every role is listed). */
const SESSION_OPERATIONS: OperationId[] = ['operatorSignIn', 'getOperatorSession', 'operatorSignOut', 'startOperatorTotp', 'operatorTotp', 'changeOperatorPassword'];

async function send(as: ReturnType<typeof consoleBrowser>['api'] | 'none', call: Call): Promise<{ status: number; body: unknown }> {
  if (as === 'none') {
    const response = await fetch(`${gateway.adminBaseUrl}${call.path}`, {
      method: call.method,
      headers: call.body === undefined ? {} : { 'content-type': 'application/json' },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
    return { status: response.status, body: await response.json() };
  }
  // The typed client takes the path template; a filled path is a template without parameters.
  const client = as as unknown as Record<Call['method'], (path: string, init: { body?: unknown }) => Promise<{ response: Response; data?: unknown; error?: unknown }>>;
  const answer = await client[call.method](call.path, call.body === undefined ? {} : { body: call.body });
  return { status: answer.response.status, body: answer.data ?? answer.error };
}

async function auditEntries(): Promise<components['schemas']['AuditEntry'][]> {
  return (await token<{ entries: components['schemas']['AuditEntry'][] }>('GET', '/audit-log?limit=100')).entries;
}

describe('the back office per operation and role (generated/admin-roles.ts)', () => {
  it('has a case for every operation with x-roles in the document and in admin-roles.ts', () => {
    const documented = operations.filter((operation) => operation.roles !== undefined).map((operation) => operation.operationId).sort();
    expect(Object.keys(operationRoles).sort()).toEqual(documented);
    expect(Object.keys(cases).sort()).toEqual(documented);
    // And every back-office operation has x-roles.
    expect(documented).toHaveLength(operations.length);
  });

  for (const operationId of Object.keys(operationRoles) as OperationId[]) {
    if (SESSION_OPERATIONS.includes(operationId)) continue;
    const listed: readonly Role[] = operationRoles[operationId];
    const refused = ROLES.filter((role) => !listed.includes(role));
    const adminCase = cases[operationId];

    if (refused.length > 0) {
      it(`${operationId}: refuses ${refused.join(', ')} with 403 (${listed.join(', ')} only) and changes nothing`, async () => {
        const call = await adminCase.prepare();
        const before = await databaseState(gateway);
        for (const role of refused) {
          expect(await send(operators[role].browser.api, call), role).toEqual({ status: 403, body: { error: operatorMessages.operatorRoleNotAllowed(listed) } });
        }
        expect(await databaseState(gateway)).toEqual(before);
      });
    }

    it(`${operationId}: refuses a call without credentials (401), and a console call without the CSRF token (403) when it changes state; nothing changes`, async () => {
      const call = await adminCase.prepare();
      const before = await databaseState(gateway);
      expect(await send('none', call)).toEqual({ status: 401, body: { error: operatorMessages.operatorTokenInvalid } });
      if (call.method !== 'GET') {
        const role = listed[0] ?? 'admin';
        expect(await send(operators[role].browser.withoutCsrf, call)).toEqual({ status: 403, body: { error: operatorMessages.operatorCsrfTokenInvalid } });
      }
      expect(await databaseState(gateway)).toEqual(before);
    });

    it(`${operationId}: succeeds for ${listed[0]}${'action' in adminCase.audit ? ', audited with who, what, before and after' : ''}`, async () => {
      const role = listed[0] ?? 'admin';
      const operator = operators[role];
      const call = await adminCase.prepare();
      const before = await auditEntries();
      const answer = await send(operator.browser.api, call);
      expect(answer.status, JSON.stringify(answer.body)).toBe(adminCase.expect);
      await adminCase.afterSuccess?.();
      const added = (await auditEntries()).filter((entry) => !before.some((old) => old.entryId === entry.entryId));
      const audit = adminCase.audit;
      if (!('action' in audit)) {
        expect(added).toEqual([]);
        return;
      }
      expect(added).toHaveLength(1);
      const entry = added[0];
      expect(entry).toMatchObject({ actor: { type: 'operator', id: operator.operatorId, name: operator.name }, action: audit.action });
      expect(entry?.at).toBe(gateway.clock.now());
      expect(entry?.before === null ? 'no before' : 'before', 'before').toBe(audit.before ? 'before' : 'no before');
      expect(entry?.after === null ? 'no after' : 'after', 'after').toBe(audit.after ? 'after' : 'no after');
      // The target is named in the path (or by the answer, for a creation).
      if (entry?.targetId) expect(call.path.includes(entry.targetId) || JSON.stringify(answer.body).includes(entry.targetId)).toBe(true);
      // Secrets never: the answer of a key creation or a rotation carries one; the entry does not.
      for (const secret of JSON.stringify(answer.body).match(/(pixg_[0-9a-f]{20,}|whsec_[A-Za-z0-9+/=]{20,})/g) ?? []) {
        expect(JSON.stringify(entry)).not.toContain(secret);
      }
    });
  }
});

describe('console sessions', () => {
  it('every role signs in with password and TOTP; the enrolment is audited; sign-out ends the session', async () => {
    for (const role of ROLES) {
      const operator = operators[role];
      const session = await operator.browser.api.GET('/admin/v1/session');
      expect(session.data).toMatchObject({ stage: 'complete', operator: { operatorId: operator.operatorId, roles: [role] } });
      const enrolled = await token<{ entries: components['schemas']['AuditEntry'][] }>('GET', `/audit-log?action=operator.enrolTotp&actorId=${operator.operatorId}`);
      expect(enrolled.entries).toHaveLength(1);
    }
    const leaving = await signedInOperator(gateway, `saindo@pixgate.test`, 'Saulo Saindo', ['support']);
    expect((await leaving.browser.withoutCsrf.DELETE('/admin/v1/session')).response.status).toBe(403);
    expect((await leaving.browser.api.DELETE('/admin/v1/session')).data).toEqual({ signedOut: true });
    expect((await leaving.browser.api.GET('/admin/v1/accounts')).response.status).toBe(401);
  });

  it('expire after 15 idle minutes', async () => {
    const idle = await signedInOperator(gateway, 'ociosa@pixgate.test', 'Olga Ociosa', ['support']);
    gateway.clock.advance(15 * 60_000 + 1);
    const expired = await idle.browser.api.GET('/admin/v1/accounts');
    expect(expired.response.status).toBe(401);
    expect(expired.error).toEqual({ error: operatorMessages.operatorSessionRequired });
    // The others signed in earlier and idle as long: their sessions too (re-signed in for the next tests).
    for (const role of ROLES) {
      const operator = operators[role];
      const browser = consoleBrowser(gateway);
      await browser.api.POST('/admin/v1/session', { body: { email: operator.email, password: operator.password } });
      gateway.clock.advance(30_000);
      const done = await browser.api.POST('/admin/v1/session/totp', { body: { totpCode: totpNow(gateway, operator.secret) } });
      expect(done.data?.stage).toBe('complete');
      operators[role] = { ...operator, browser };
    }
  });

  it('do not lock out an operator who signs in correctly again and again', async () => {
    const operator = operators.support;
    gateway.clock.set((Math.floor(gateway.clock.now() / 900_000) + 1) * 900_000 + 60_000);
    for (let signIns = 0; signIns < 7; signIns += 1) {
      const browser = consoleBrowser(gateway);
      const signIn = await browser.api.POST('/admin/v1/session', { body: { email: operator.email, password: operator.password } });
      expect(signIn.response.status, `sign-in ${signIns + 1}`).toBe(200);
      gateway.clock.advance(30_000);
      expect((await browser.api.POST('/admin/v1/session/totp', { body: { totpCode: totpNow(gateway, operator.secret) } })).data?.stage).toBe('complete');
      operators.support = { ...operator, browser };
    }
    // Five wrong passwords still lock the e-mail.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await consoleBrowser(gateway).api.POST('/admin/v1/session', { body: { email: operator.email, password: 'não é esta senha' } })).response.status).toBe(401);
    }
    const locked = await consoleBrowser(gateway).api.POST('/admin/v1/session', { body: { email: operator.email, password: operator.password } });
    expect(locked.response.status).toBe(429);
    expect(locked.error).toEqual({ error: operatorMessages.operatorSignInThrottled });
  });
});

describe('the audit log', () => {
  it('cannot be changed through the API: no PUT, PATCH or DELETE, no entry route', async () => {
    const before = await auditEntries();
    expect(before.length).toBeGreaterThan(0);
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      const response = await fetch(`${gateway.adminBaseUrl}/admin/v1/audit-log`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ actor: 'outra pessoa' }),
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET');
      expect(await response.json()).toEqual({ error: operatorMessages.methodNotAllowed('GET') });
    }
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const response = await fetch(`${gateway.adminBaseUrl}/admin/v1/audit-log/${before[0]?.entryId ?? 1}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(response.status, method).toBe(404);
    }
    expect(await auditEntries()).toEqual(before);
  });
});

describe('the automation token', () => {
  let scoped: Gateway;
  beforeAll(async () => {
    scoped = await startGateway({ config: { adminTokenRoles: ['support'] } });
  });
  afterAll(async () => {
    await scoped.close();
  });

  it('acts with ADMIN_TOKEN_ROLES only (support here): 403 on every operation support is not listed for', async () => {
    const placeholders: Record<string, string> = {
      accountId: 'acc_000000000000000000000000',
      keyId: 'key_000000000000000000000000',
      endpointId: 'wh_000000000000000000000000',
      eventId: 'evt_000000000000000000000000',
      recipientId: '000000000000000000000000',
      holdId: 'hold_000000000000000000000000',
      refundId: 'rf_000000000000000000000000',
      transactionId: 'tx_000000000000000000000000',
      operatorId: 'op_000000000000000000000000',
      endToEndId: 'E09089356202611270130000000000000',
      infractionId: '00000000',
      breakId: 'brk_000000000000000000000000',
      recurrenceId: 'rec_000000000000000000000000',
      staticQrCodeId: 'sqr_000000000000000000000000',
    };
    for (const operation of operations) {
      if (operation.security === 'public' || SESSION_OPERATIONS.includes(operation.operationId as OperationId)) continue;
      const response = await fetch(`${scoped.adminBaseUrl}${fillPath(operation.path, placeholders)}`, {
        method: operation.method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(operation.hasBody ? { 'content-type': 'application/json' } : {}) },
        body: operation.hasBody ? '{}' : undefined,
      });
      const roles = operation.roles ?? [];
      if (roles.includes('support')) expect([401, 403], operation.operationId).not.toContain(response.status);
      else expect({ operation: operation.operationId, status: response.status, body: await response.json() }).toEqual({
        operation: operation.operationId,
        status: 403,
        body: { error: operatorMessages.operatorRoleNotAllowed(roles) },
      });
    }
  });

  it('is recorded in the audit log as the automation token', async () => {
    // Support may manage a merchant's webhook URLs: the entry names the token.
    const created = await startGatewayAccount(scoped);
    const webhook = await scoped.admin.POST('/admin/v1/accounts/{accountId}/webhooks', { params: { path: { accountId: created } }, body: { url: 'http://127.0.0.1:9/x' } });
    expect(webhook.response.status).toBe(201);
    const log = await scoped.admin.GET('/admin/v1/audit-log', { params: { query: { action: 'webhook.create' } } });
    expect(log.data?.entries[0]?.actor).toEqual({ type: 'automation', id: null, name: 'automation token' });
  });

  it('has every role outside production and only support in production by default', async () => {
    const { loadConfig } = await import('../../src/platform/config.ts');
    expect(loadConfig({ NODE_ENV: 'test' }).adminTokenRoles).toEqual(ROLES);
    expect(loadConfig({ NODE_ENV: 'development', ADMIN_TOKEN_ROLES: 'finance,compliance' }).adminTokenRoles).toEqual(['finance', 'compliance']);
  });
});

/** An account on a gateway whose token may not create one (support): written through the service, as a sign-up would. */
async function startGatewayAccount(on: Gateway): Promise<string> {
  const { createAccount } = await import('../../src/accounts/account.service.ts');
  const row = await createAccount(on.deps, { legalName: 'Loja Escopo Ltda', responsibleCpf: HOLDER_CPF, companyCnpj: '11222333000181', email: 'escopo@loja.test' }, new Date(on.clock.now()));
  return row.id;
}
