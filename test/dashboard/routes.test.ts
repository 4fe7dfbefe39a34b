import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTotp } from '../../src/identity/totp.ts';
import { messages } from '../../src/messages/merchant.ts';
import { operatorMessages } from '../../src/messages/operator.ts';
import { dispatchOnce } from '../../src/webhooks/delivery.service.ts';
import { dashboardBrowser } from '../support/dashboardClient.ts';
import {
  authOf,
  bundledOperations,
  databaseState,
  DASHBOARD_PASSWORD,
  fillPath,
  invitePerson,
  rawCall,
  signUpOwner,
  type DashboardPerson,
  type RawCall,
} from '../support/dashboardAccounts.ts';
import { useGateway, validCustomer, type Gateway } from '../support/gateway.ts';
import { startReceiver } from '../support/receiver.ts';
import { recurrenceBody } from '../support/recurrences.ts';

/**
 * The route matrix of the dashboard API, driven by the bundled document (generated/dashboard-openapi.json):
 * for every operation, who may call it (no session, a bad or ended session, a session still waiting for
 * its second factor, a missing or wrong CSRF token, a role the operation does not list) and what a user
 * of account A can do to account B's resources. Each operation has a case below; an operation added to
 * the document without one fails the first test.
 */

const gateway = useGateway();
const operations = bundledOperations('dashboard-openapi.json');

/** Everything one account has, for requests that would succeed if nothing refused them. */
interface AccountResources {
  owner: DashboardPerson;
  apiKey: string;
  keyId: string;
  endpointId: string;
  /** A paid charge with a delivered transaction.paid (its event below). */
  paidChargeId: string;
  eventId: string;
  /** A charge still pending (for the sandbox actions). */
  pendingChargeId: string;
  /** A withdrawal still processing at the simulated PSP. */
  withdrawalId: string;
  /** An approved third-party recipient (pixKeyType email). */
  recipientId: string;
  /** An open MED infraction on another paid charge of the account (the sandbox's). */
  infractionId: string;
  recipientDocument: string;
  /** A developer of the account (a user another account's owner could try to change). */
  colleague: DashboardPerson;
  /** An active fixed-amount static QR code of the account. */
  staticQrCodeId: string;
  /** A recurrence waiting for the payer by a QR code (Pix Automático). */
  recurrenceId: string;
  /** The first cycle, sent and open, of another recurrence of the account, approved. */
  recurrenceCycleId: string;
}

interface World {
  a: AccountResources;
  b: AccountResources;
  /** Account A's people by role (the owner is a.owner). */
  roles: Record<'owner' | 'admin' | 'developer' | 'viewer', DashboardPerson>;
  /** A's owner signed in with the password only: the second factor is due. */
  pendingCookie: string;
  /** The cookie of a session that signed out. */
  endedCookie: string;
}

let world: World;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const RECIPIENT_CNPJ = ['11444777000161', '45723174000110'];

async function accountResources(gw: Gateway, label: string, index: number): Promise<AccountResources> {
  const owner = await signUpOwner(gw, { totp: true, legalName: `Loja ${label} Ltda` });
  const api = owner.browser.api;
  const key = await api.POST('/dashboard/api/v1/api-keys', { body: { label: `chave ${label}` } });
  if (!key.data) throw new Error(JSON.stringify(key.error));
  const webhook = await api.POST('/dashboard/api/v1/webhooks', { body: { url: `${receiver.url}/${label}` } });
  if (!webhook.data) throw new Error(JSON.stringify(webhook.error));
  const merchant = gw.as(key.data.apiKey);
  const charge = async () => {
    const created = await merchant.POST('/v1/pix', { body: { amountCents: 50_000, customer: validCustomer } });
    if (!created.data) throw new Error(JSON.stringify(created.error));
    return created.data.transactionId;
  };
  const paidChargeId = await charge();
  const paid = await api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', { params: { path: { transactionId: paidChargeId, action: 'pay' } } });
  if (paid.response.status !== 200) throw new Error(JSON.stringify(paid.error));
  await dispatchOnce(gw.deps);
  const detail = await api.GET('/dashboard/api/v1/transactions/{transactionId}', { params: { path: { transactionId: paidChargeId } } });
  const eventId = detail.data?.events.find((event) => event.event === 'transaction.paid')?.eventId;
  if (!eventId) throw new Error(`no transaction.paid event: ${JSON.stringify(detail.data)}`);
  const pendingChargeId = await charge();
  const withdrawal = await merchant.POST('/v1/withdraw', { body: { amountCents: 1_000, pixKey: owner.responsibleCpf, pixKeyType: 'cpf' } });
  if (!withdrawal.data) throw new Error(JSON.stringify(withdrawal.error));
  const recipientDocument = RECIPIENT_CNPJ[index] ?? '';
  const recipient = await api.POST('/dashboard/api/v1/recipients', {
    body: { legalName: `Fornecedor ${label} Ltda`, document: recipientDocument, documentType: 'cnpj', pixKey: `fornecedor@${label}.com.br`, pixKeyType: 'email' },
  });
  if (!recipient.data) throw new Error(JSON.stringify(recipient.error));
  const approved = await gw.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/approve', {
    params: { path: { accountId: owner.accountId, recipientId: recipient.data.recipientId } },
  });
  if (approved.response.status !== 200) throw new Error(JSON.stringify(approved.error));
  const colleague = await invitePerson(gw, owner, 'developer');
  const contested = await charge();
  await api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', { params: { path: { transactionId: contested, action: 'pay' } } });
  const infraction = await gw.admin.POST('/admin/v1/sandbox/charges/{transactionId}/infractions', { params: { path: { transactionId: contested } }, body: { amountCents: 1_000 } });
  if (!infraction.data) throw new Error(JSON.stringify(infraction.error));
  const staticQrCode = await merchant.POST('/v1/static-qrcodes', { body: { amountCents: 1_500, description: `Caixa ${label}` } });
  if (!staticQrCode.data) throw new Error(JSON.stringify(staticQrCode.error));
  const recurrence = await merchant.POST('/v1/recurrences', { body: recurrenceBody(gw, { consent: { journey: 'qrcode' } }) });
  if (!recurrence.data) throw new Error(JSON.stringify(recurrence.error));
  const charged = await merchant.POST('/v1/recurrences', { body: recurrenceBody(gw) });
  if (!charged.data) throw new Error(JSON.stringify(charged.error));
  const consent = await gw.admin.POST('/admin/v1/sandbox/recurrences/{recurrenceId}/consent', { params: { path: { recurrenceId: charged.data.id } }, body: { outcome: 'approve' } });
  if (!consent.data) throw new Error(JSON.stringify(consent.error));
  await gw.admin.POST('/admin/v1/sandbox/recurrences/run');
  const cycles = await merchant.GET('/v1/recurrences/{id}/cycles', { params: { path: { id: charged.data.id } } });
  const recurrenceCycleId = cycles.data?.cycles[0]?.transactionId;
  if (!recurrenceCycleId) throw new Error(`no cycle sent: ${JSON.stringify(cycles.data ?? cycles.error)}`);
  return {
    recurrenceId: recurrence.data.id,
    recurrenceCycleId,
    staticQrCodeId: staticQrCode.data.staticQrCodeId,
    infractionId: infraction.data.infractionId,
    owner,
    apiKey: key.data.apiKey,
    keyId: key.data.keyId,
    endpointId: webhook.data.endpointId,
    paidChargeId,
    eventId,
    pendingChargeId,
    withdrawalId: withdrawal.data.transactionId,
    recipientId: recipient.data.recipientId,
    recipientDocument,
    colleague,
  };
}

beforeAll(async () => {
  receiver = await startReceiver();
  const a = await accountResources(gateway, 'alfa', 0);
  const b = await accountResources(gateway, 'beta', 1);
  const roles = {
    owner: a.owner,
    admin: await invitePerson(gateway, a.owner, 'admin'),
    developer: a.colleague,
    viewer: await invitePerson(gateway, a.owner, 'viewer'),
  };
  const pending = dashboardBrowser(gateway);
  const signIn = await pending.api.POST('/dashboard/api/v1/session', { body: { email: a.owner.email, password: DASHBOARD_PASSWORD } });
  expect(signIn.data?.stage).toBe('password');
  const ended = await invitePerson(gateway, a.owner, 'viewer');
  const endedCookie = ended.browser.cookie() ?? '';
  expect((await ended.browser.api.DELETE('/dashboard/api/v1/session')).response.status).toBe(200);
  world = { a, b, roles, pendingCookie: pending.cookie() ?? '', endedCookie };
}, 120_000);

afterAll(async () => {
  await receiver.close();
});

type CrossAccountCheck = (context: { a: AccountResources; b: AccountResources }) => Promise<void>;

interface OperationCase {
  /** A request of A's owner on A's own resources, that would do its work if nothing refused it. */
  request: (a: AccountResources) => RawCall;
  /** What A can do to B's resources through this operation, or why the operation names none. */
  crossAccount: CrossAccountCheck | { none: string };
}

const path = (template: string, params?: Record<string, string>) => `/dashboard/api/v1${fillPath(template, params)}`;

/** Calls as A's owner (session and CSRF token) and expects a refusal that changes nothing. */
async function refusedWithoutChange(
  call: RawCall,
  as: DashboardPerson,
  expected: { status: number; body: unknown },
  options: { codeSpent?: boolean } = {},
): Promise<void> {
  // A TOTP code given with a refused request is spent all the same (codes are single use): the users'
  // last accepted step is then the only change allowed.
  const state = async () => {
    const { dashboard_users: users, ...rest } = await databaseState(gateway);
    return options.codeSpent ? rest : { ...rest, users };
  };
  const before = await state();
  expect(await rawCall(gateway, call, authOf(as))).toEqual(expected);
  expect(await state()).toEqual(before);
}

async function idsListed(as: DashboardPerson, call: RawCall): Promise<string> {
  const answer = await rawCall(gateway, call, authOf(as));
  expect(answer.status).toBe(200);
  return JSON.stringify(answer.body);
}

const listDoesNotShow =
  (call: RawCall, idsOfB: (b: AccountResources) => string[], idsOfA: (a: AccountResources) => string[]): CrossAccountCheck =>
  async ({ a, b }) => {
    const listed = await idsListed(a.owner, call);
    for (const id of idsOfA(a)) expect(listed).toContain(id);
    for (const id of idsOfB(b)) expect(listed).not.toContain(id);
  };

const notFound = (error: string) => ({ status: 404, body: { error } });
const session = { none: 'acts on the signed-in user only: no id of another account can be named' };
const publicOperation = { none: 'public (no session): it names no account resource' };

const cases: Record<string, OperationCase> = {
  signUp: {
    request: () => ({ method: 'POST', path: path('/signup'), body: { legalName: 'X Ltda', responsibleCpf: '52998224725', companyCnpj: '11222333000181', city: 'São Paulo', state: 'SP', name: 'X', email: 'x@exemplo.com.br', password: DASHBOARD_PASSWORD } }),
    crossAccount: publicOperation,
  },
  signIn: { request: (a) => ({ method: 'POST', path: path('/session'), body: { email: a.owner.email, password: 'não é esta senha' } }), crossAccount: publicOperation },
  getSession: { request: () => ({ method: 'GET', path: path('/session') }), crossAccount: session },
  signOut: { request: () => ({ method: 'DELETE', path: path('/session') }), crossAccount: session },
  completeSecondFactor: { request: () => ({ method: 'POST', path: path('/session/second-factor'), body: { totpCode: '123456' } }), crossAccount: session },
  verifyEmail: { request: () => ({ method: 'POST', path: path('/email-verification'), body: { token: 'x'.repeat(43) } }), crossAccount: publicOperation },
  resendVerification: { request: () => ({ method: 'POST', path: path('/email-verification/resend') }), crossAccount: session },
  requestPasswordReset: { request: (a) => ({ method: 'POST', path: path('/password-reset'), body: { email: a.owner.email } }), crossAccount: publicOperation },
  confirmPasswordReset: {
    request: () => ({ method: 'POST', path: path('/password-reset/confirm'), body: { token: 'x'.repeat(43), password: DASHBOARD_PASSWORD } }),
    crossAccount: publicOperation,
  },
  acceptInvitation: {
    request: () => ({ method: 'POST', path: path('/invitations/accept'), body: { token: 'x'.repeat(43), password: DASHBOARD_PASSWORD } }),
    crossAccount: publicOperation,
  },
  startTwoFactor: { request: () => ({ method: 'POST', path: path('/two-factor/setup') }), crossAccount: session },
  confirmTwoFactor: { request: () => ({ method: 'POST', path: path('/two-factor/confirm'), body: { totpCode: '123456' } }), crossAccount: session },
  disableTwoFactor: { request: () => ({ method: 'POST', path: path('/two-factor/disable'), body: { totpCode: '123456' } }), crossAccount: session },
  regenerateRecoveryCodes: { request: () => ({ method: 'POST', path: path('/two-factor/recovery-codes'), body: { totpCode: '123456' } }), crossAccount: session },
  changePassword: {
    request: () => ({ method: 'POST', path: path('/password'), body: { currentPassword: 'não é esta senha', newPassword: 'cavalo correto bateria grampo' } }),
    crossAccount: session,
  },
  listSessions: {
    request: () => ({ method: 'GET', path: path('/sessions') }),
    crossAccount: async ({ a, b }) => {
      const listed = await idsListed(b.colleague, { method: 'GET', path: path('/sessions') });
      expect(await idsListed(a.owner, { method: 'GET', path: path('/sessions') })).not.toContain(/ses_[0-9a-f]{24}/.exec(listed)?.[0] ?? 'none');
    },
  },
  endOtherSessions: { request: () => ({ method: 'POST', path: path('/sessions/end-others') }), crossAccount: session },
  endSession: {
    request: () => ({ method: 'DELETE', path: path('/sessions/{sessionId}', { sessionId: 'ses_000000000000000000000000' }) }),
    crossAccount: async ({ a, b }) => {
      const listed = await idsListed(b.colleague, { method: 'GET', path: path('/sessions') });
      const sessionId = /ses_[0-9a-f]{24}/.exec(listed)?.[0] ?? '';
      await refusedWithoutChange({ method: 'DELETE', path: path('/sessions/{sessionId}', { sessionId }) }, a.owner, notFound(messages.sessionNotFound));
      expect((await rawCall(gateway, { method: 'GET', path: path('/session') }, authOf(b.colleague))).status).toBe(200);
    },
  },
  setTeamTwoFactor: { request: () => ({ method: 'PUT', path: path('/team-two-factor'), body: { required: false } }), crossAccount: session },
  getOverview: {
    request: () => ({ method: 'GET', path: path('/overview') }),
    crossAccount: async ({ a, b }) => {
      const answer = await rawCall(gateway, { method: 'GET', path: path('/overview') }, authOf(a.owner));
      const body = answer.body as { account: { accountId: string }; latestTransactions: { transactionId: string }[] };
      expect(body.account.accountId).toBe(a.owner.accountId);
      const ids = body.latestTransactions.map((transaction) => transaction.transactionId);
      expect(ids).toContain(a.paidChargeId);
      for (const id of [b.paidChargeId, b.pendingChargeId, b.withdrawalId]) expect(ids).not.toContain(id);
    },
  },
  updateDashboardAccount: {
    request: () => ({ method: 'PATCH', path: path('/account'), body: { city: 'Campinas', state: 'SP' } }),
    crossAccount: { none: 'changes the signed-in user\'s own account only: no account id can be named' },
  },
  listUsers: {
    request: () => ({ method: 'GET', path: path('/users') }),
    crossAccount: listDoesNotShow({ method: 'GET', path: path('/users') }, (b) => [b.owner.userId, b.colleague.userId, b.owner.email], (a) => [a.owner.userId, a.colleague.userId]),
  },
  inviteUser: {
    request: () => ({ method: 'POST', path: path('/users'), body: { email: 'convidado@exemplo.com.br', name: 'Convidado', role: 'viewer' } }),
    crossAccount: async ({ a, b }) => {
      // Another account's user cannot be pulled in. The answer is a fresh invitation's (it must not tell
      // that the e-mail is registered, test/dashboard/invitations.test.ts); no user or link is made, only
      // the notice to that person (an e-mail), the audit entry and A's pending invitation (a placeholder,
      // with its own userId), and they stay B's.
      const { mail_outbox: _mailsBefore, audit_log: _auditBefore, ...before } = await databaseState(gateway);
      const answer = await rawCall(gateway, { method: 'POST', path: path('/users'), body: { email: b.colleague.email, name: 'Intrusa', role: 'admin' } }, authOf(a.owner));
      expect(answer).toMatchObject({ status: 201, body: { email: b.colleague.email, role: 'admin', invitationPending: true } });
      const { mail_outbox: _mailsAfter, audit_log: _auditAfter, ...after } = await databaseState(gateway);
      expect(after).toEqual(before);
      expect(await idsListed(b.owner, { method: 'GET', path: path('/users') })).toContain(b.colleague.userId);
      expect(await idsListed(a.owner, { method: 'GET', path: path('/users') })).not.toContain(b.colleague.userId);
    },
  },
  updateUser: {
    request: (a) => ({ method: 'PATCH', path: path('/users/{userId}', { userId: a.colleague.userId }), body: { role: 'viewer' } }),
    crossAccount: async ({ a, b }) => {
      await refusedWithoutChange({ method: 'PATCH', path: path('/users/{userId}', { userId: b.colleague.userId }), body: { role: 'viewer' } }, a.owner, notFound(messages.userNotFound));
      await refusedWithoutChange({ method: 'PATCH', path: path('/users/{userId}', { userId: b.owner.userId }), body: { role: 'viewer' } }, a.owner, notFound(messages.userNotFound));
    },
  },
  removeUser: {
    request: (a) => ({ method: 'DELETE', path: path('/users/{userId}', { userId: a.colleague.userId }) }),
    crossAccount: async ({ a, b }) => {
      await refusedWithoutChange({ method: 'DELETE', path: path('/users/{userId}', { userId: b.colleague.userId }) }, a.owner, notFound(messages.userNotFound));
      // B's colleague is still signed in.
      expect((await rawCall(gateway, { method: 'GET', path: path('/session') }, authOf(b.colleague))).status).toBe(200);
    },
  },
  listDashboardTransactions: {
    request: () => ({ method: 'GET', path: path('/transactions') }),
    crossAccount: listDoesNotShow(
      { method: 'GET', path: path('/transactions'), query: { limit: '100' } },
      (b) => [b.paidChargeId, b.pendingChargeId, b.withdrawalId],
      (a) => [a.paidChargeId, a.pendingChargeId, a.withdrawalId],
    ),
  },
  getDashboardTransaction: {
    request: (a) => ({ method: 'GET', path: path('/transactions/{transactionId}', { transactionId: a.paidChargeId }) }),
    crossAccount: async ({ a, b }) => {
      for (const transactionId of [b.paidChargeId, b.withdrawalId]) {
        expect(await rawCall(gateway, { method: 'GET', path: path('/transactions/{transactionId}', { transactionId }) }, authOf(a.owner))).toEqual(notFound(messages.transactionNotFound));
      }
    },
  },
  exportDashboardTransactions: {
    request: () => ({ method: 'GET', path: path('/transactions.csv'), query: { from: '2026-01-01', to: '2026-12-31' } }),
    crossAccount: async ({ a, b }) => {
      const answer = await rawCall(gateway, { method: 'GET', path: path('/transactions.csv'), query: { from: '2026-01-01', to: '2026-12-31' } }, authOf(a.owner));
      expect(answer.status).toBe(200);
      for (const id of [a.paidChargeId, a.pendingChargeId, a.withdrawalId]) expect(String(answer.body)).toContain(id);
      for (const id of [b.paidChargeId, b.pendingChargeId, b.withdrawalId]) expect(String(answer.body)).not.toContain(id);
    },
  },
  listDashboardStatement: {
    request: () => ({ method: 'GET', path: path('/statement') }),
    crossAccount: listDoesNotShow({ method: 'GET', path: path('/statement'), query: { limit: '100' } }, (b) => [b.paidChargeId, b.withdrawalId], (a) => [a.paidChargeId, a.withdrawalId]),
  },
  exportDashboardStatement: {
    request: () => ({ method: 'GET', path: path('/statement.csv'), query: { from: '2026-01-01', to: '2026-12-31' } }),
    crossAccount: async ({ a, b }) => {
      const answer = await rawCall(gateway, { method: 'GET', path: path('/statement.csv'), query: { from: '2026-01-01', to: '2026-12-31' } }, authOf(a.owner));
      expect(answer.status).toBe(200);
      expect(String(answer.body)).toContain(a.paidChargeId);
      for (const id of [b.paidChargeId, b.withdrawalId]) expect(String(answer.body)).not.toContain(id);
    },
  },
  getDashboardTransactionQrCode: {
    request: (a) => ({ method: 'GET', path: path('/transactions/{transactionId}/qrcode', { transactionId: a.pendingChargeId }) }),
    crossAccount: async ({ a, b }) => {
      for (const transactionId of [b.pendingChargeId, b.paidChargeId]) {
        expect(await rawCall(gateway, { method: 'GET', path: path('/transactions/{transactionId}/qrcode', { transactionId }) }, authOf(a.owner))).toEqual(notFound(messages.transactionNotFound));
      }
    },
  },
  createDashboardCharge: {
    request: () => ({ method: 'POST', path: path('/charges'), body: { amountCents: 1_000, customer: validCustomer } }),
    crossAccount: async ({ a, b }) => {
      // B's externalRef is B's: A's charge with the same reference is a new charge of A, never B's answered back.
      const externalRef = 'pedido-cruzado-1';
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/charges'), body: { amountCents: 1_000, externalRef, customer: validCustomer } }, authOf(b.owner));
      expect(ofB.status).toBe(201);
      const ofA = await rawCall(gateway, { method: 'POST', path: path('/charges'), body: { amountCents: 1_000, externalRef, customer: validCustomer } }, authOf(a.owner));
      expect(ofA.status).toBe(201);
      expect((ofA.body as { transactionId: string }).transactionId).not.toBe((ofB.body as { transactionId: string }).transactionId);
    },
  },
  createDashboardDueCharge: {
    request: () => ({ method: 'POST', path: path('/due-charges'), body: { amountCents: 1_000, dueDate: '2026-12-10', customer: { name: 'Maria da Silva', document: validCustomer.document } } }),
    crossAccount: async ({ a, b }) => {
      // B's externalRef is B's: A's charge with the same reference is a new charge of A, never B's answered back.
      const body = { amountCents: 1_000, dueDate: '2026-12-10', externalRef: 'vencimento-cruzado-1', customer: { name: 'Maria da Silva', document: validCustomer.document } };
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/due-charges'), body }, authOf(b.owner));
      expect(ofB.status).toBe(201);
      const ofA = await rawCall(gateway, { method: 'POST', path: path('/due-charges'), body }, authOf(a.owner));
      expect(ofA.status).toBe(201);
      expect((ofA.body as { transactionId: string }).transactionId).not.toBe((ofB.body as { transactionId: string }).transactionId);
    },
  },
  listDashboardDueCharges: {
    request: () => ({ method: 'GET', path: path('/due-charges') }),
    crossAccount: async ({ a, b }) => {
      const body = { amountCents: 1_000, dueDate: '2026-12-10', customer: { name: 'Maria da Silva', document: validCustomer.document } };
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/due-charges'), body }, authOf(b.owner));
      const listed = await idsListed(a.owner, { method: 'GET', path: path('/due-charges'), query: { limit: '100' } });
      expect(listed).not.toContain((ofB.body as { transactionId: string }).transactionId);
    },
  },
  getDashboardDueCharge: {
    request: () => ({ method: 'GET', path: path('/due-charges/{transactionId}', { transactionId: 'tx_000000000000000000000000' }) }),
    crossAccount: async ({ a, b }) => {
      const body = { amountCents: 1_000, dueDate: '2026-12-10', customer: { name: 'Maria da Silva', document: validCustomer.document } };
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/due-charges'), body }, authOf(b.owner));
      const transactionId = (ofB.body as { transactionId: string }).transactionId;
      expect(await rawCall(gateway, { method: 'GET', path: path('/due-charges/{transactionId}', { transactionId }) }, authOf(a.owner))).toEqual(notFound(messages.dueChargeNotFound));
    },
  },
  cancelDashboardDueCharge: {
    request: () => ({ method: 'POST', path: path('/due-charges/{transactionId}/cancel', { transactionId: 'tx_000000000000000000000000' }) }),
    crossAccount: async ({ a, b }) => {
      const body = { amountCents: 1_000, dueDate: '2026-12-10', customer: { name: 'Maria da Silva', document: validCustomer.document } };
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/due-charges'), body }, authOf(b.owner));
      const transactionId = (ofB.body as { transactionId: string }).transactionId;
      await refusedWithoutChange({ method: 'POST', path: path('/due-charges/{transactionId}/cancel', { transactionId }) }, a.owner, notFound(messages.dueChargeNotFound));
    },
  },
  createDashboardPaymentLink: {
    request: () => ({ method: 'POST', path: path('/payment-links'), body: { amountCents: 1_000, description: 'Camiseta azul' } }),
    crossAccount: async ({ a, b }) => {
      // B's externalRef is B's: A's link with the same reference is a new link of A, never B's answered back.
      const body = { amountCents: 1_000, description: 'Camiseta azul', externalRef: 'link-cruzado-1' };
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/payment-links'), body }, authOf(b.owner));
      expect(ofB.status).toBe(201);
      const ofA = await rawCall(gateway, { method: 'POST', path: path('/payment-links'), body }, authOf(a.owner));
      expect(ofA.status).toBe(201);
      expect((ofA.body as { linkId: string }).linkId).not.toBe((ofB.body as { linkId: string }).linkId);
    },
  },
  listDashboardPaymentLinks: {
    request: () => ({ method: 'GET', path: path('/payment-links') }),
    crossAccount: async ({ a, b }) => {
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/payment-links'), body: { amountCents: 1_000, description: 'Link de B' } }, authOf(b.owner));
      const linkId = (ofB.body as { linkId: string }).linkId;
      for (const query of [{ limit: '100' }, { limit: '100', status: 'active' }] as Record<string, string>[]) expect(await idsListed(a.owner, { method: 'GET', path: path('/payment-links'), query })).not.toContain(linkId);
    },
  },
  getDashboardPaymentLink: {
    request: () => ({ method: 'GET', path: path('/payment-links/{linkId}', { linkId: 'pl_000000000000000000000000' }) }),
    crossAccount: async ({ a, b }) => {
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/payment-links'), body: { amountCents: 1_000, description: 'Link de B' } }, authOf(b.owner));
      const linkId = (ofB.body as { linkId: string }).linkId;
      expect(await rawCall(gateway, { method: 'GET', path: path('/payment-links/{linkId}', { linkId }) }, authOf(a.owner))).toEqual(notFound(messages.paymentLinkNotFound));
    },
  },
  deactivateDashboardPaymentLink: {
    request: () => ({ method: 'POST', path: path('/payment-links/{linkId}/deactivate', { linkId: 'pl_000000000000000000000000' }) }),
    crossAccount: async ({ a, b }) => {
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/payment-links'), body: { amountCents: 1_000, description: 'Link de B' } }, authOf(b.owner));
      const linkId = (ofB.body as { linkId: string }).linkId;
      await refusedWithoutChange({ method: 'POST', path: path('/payment-links/{linkId}/deactivate', { linkId }) }, a.owner, notFound(messages.paymentLinkNotFound));
      expect(await rawCall(gateway, { method: 'GET', path: path('/payment-links/{linkId}', { linkId }) }, authOf(b.owner))).toMatchObject({ status: 200, body: { link: { status: 'active' } } });
    },
  },
  createDashboardStaticQrCode: {
    request: () => ({ method: 'POST', path: path('/static-qrcodes'), body: { amountCents: 1_000, description: 'Caixa' } }),
    crossAccount: async ({ a, b }) => {
      // B's externalRef is B's: A's code with the same reference is a new code of A, never B's answered back.
      const body = { externalRef: 'qr-cruzado-1' };
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/static-qrcodes'), body }, authOf(b.owner));
      expect(ofB.status).toBe(201);
      const ofA = await rawCall(gateway, { method: 'POST', path: path('/static-qrcodes'), body }, authOf(a.owner));
      expect(ofA.status).toBe(201);
      expect((ofA.body as { staticQrCodeId: string }).staticQrCodeId).not.toBe((ofB.body as { staticQrCodeId: string }).staticQrCodeId);
    },
  },
  listDashboardStaticQrCodes: {
    request: () => ({ method: 'GET', path: path('/static-qrcodes') }),
    crossAccount: listDoesNotShow({ method: 'GET', path: path('/static-qrcodes'), query: { limit: '100' } }, (b) => [b.staticQrCodeId], (a) => [a.staticQrCodeId]),
  },
  getDashboardStaticQrCode: {
    request: (a) => ({ method: 'GET', path: path('/static-qrcodes/{staticQrCodeId}', { staticQrCodeId: a.staticQrCodeId }) }),
    crossAccount: async ({ a, b }) => {
      const call = { method: 'GET', path: path('/static-qrcodes/{staticQrCodeId}', { staticQrCodeId: b.staticQrCodeId }) };
      expect(await rawCall(gateway, call, authOf(a.owner))).toEqual(notFound(messages.staticQrCodeNotFound));
    },
  },
  getDashboardStaticQrCodeImage: {
    request: (a) => ({ method: 'GET', path: path('/static-qrcodes/{staticQrCodeId}/qrcode', { staticQrCodeId: a.staticQrCodeId }) }),
    crossAccount: async ({ a, b }) => {
      for (const format of ['png', 'svg']) {
        const call = { method: 'GET', path: path('/static-qrcodes/{staticQrCodeId}/qrcode', { staticQrCodeId: b.staticQrCodeId }), query: { format } };
        expect(await rawCall(gateway, call, authOf(a.owner))).toEqual(notFound(messages.staticQrCodeNotFound));
      }
    },
  },
  deactivateDashboardStaticQrCode: {
    request: (a) => ({ method: 'POST', path: path('/static-qrcodes/{staticQrCodeId}/deactivate', { staticQrCodeId: a.staticQrCodeId }) }),
    crossAccount: async ({ a, b }) => {
      await refusedWithoutChange({ method: 'POST', path: path('/static-qrcodes/{staticQrCodeId}/deactivate', { staticQrCodeId: b.staticQrCodeId }) }, a.owner, notFound(messages.staticQrCodeNotFound));
    },
  },
  createDashboardRecurrence: {
    request: () => ({ method: 'POST', path: path('/recurrences'), body: recurrenceBody(gateway, { consent: { journey: 'qrcode' } }) }),
    crossAccount: async ({ a, b }) => {
      // B's externalRef is B's: A's recurrence with the same reference is a new one of A, never B's answered back.
      const body = recurrenceBody(gateway, { consent: { journey: 'qrcode' }, externalRef: 'recorrencia-cruzada-1' });
      const ofB = await rawCall(gateway, { method: 'POST', path: path('/recurrences'), body }, authOf(b.owner));
      expect(ofB.status).toBe(201);
      const ofA = await rawCall(gateway, { method: 'POST', path: path('/recurrences'), body }, authOf(a.owner));
      expect(ofA.status).toBe(201);
      expect((ofA.body as { id: string }).id).not.toBe((ofB.body as { id: string }).id);
    },
  },
  listDashboardRecurrences: {
    request: () => ({ method: 'GET', path: path('/recurrences') }),
    crossAccount: listDoesNotShow({ method: 'GET', path: path('/recurrences'), query: { limit: '100' } }, (b) => [b.recurrenceId], (a) => [a.recurrenceId]),
  },
  getDashboardRecurrence: {
    request: (a) => ({ method: 'GET', path: path('/recurrences/{recurrenceId}', { recurrenceId: a.recurrenceId }) }),
    crossAccount: async ({ a, b }) => {
      expect(await rawCall(gateway, { method: 'GET', path: path('/recurrences/{recurrenceId}', { recurrenceId: b.recurrenceId }) }, authOf(a.owner))).toEqual(notFound(messages.recurrenceNotFound));
    },
  },
  listDashboardRecurrenceCycles: {
    request: (a) => ({ method: 'GET', path: path('/recurrences/{recurrenceId}/cycles', { recurrenceId: a.recurrenceId }) }),
    crossAccount: async ({ a, b }) => {
      expect(await rawCall(gateway, { method: 'GET', path: path('/recurrences/{recurrenceId}/cycles', { recurrenceId: b.recurrenceId }) }, authOf(a.owner))).toEqual(notFound(messages.recurrenceNotFound));
    },
  },
  getDashboardRecurrenceQrCode: {
    request: (a) => ({ method: 'GET', path: path('/recurrences/{recurrenceId}/qrcode', { recurrenceId: a.recurrenceId }) }),
    crossAccount: async ({ a, b }) => {
      expect(await rawCall(gateway, { method: 'GET', path: path('/recurrences/{recurrenceId}/qrcode', { recurrenceId: b.recurrenceId }) }, authOf(a.owner))).toEqual(notFound(messages.recurrenceNotFound));
    },
  },
  cancelDashboardRecurrence: {
    request: (a) => ({ method: 'POST', path: path('/recurrences/{recurrenceId}/cancel', { recurrenceId: a.recurrenceId }) }),
    crossAccount: async ({ a, b }) => {
      await refusedWithoutChange({ method: 'POST', path: path('/recurrences/{recurrenceId}/cancel', { recurrenceId: b.recurrenceId }) }, a.owner, notFound(messages.recurrenceNotFound));
    },
  },
  createDashboardRefund: {
    request: (a) => ({ method: 'POST', path: path('/transactions/{transactionId}/refunds', { transactionId: a.paidChargeId }), body: { amountCents: 100, totpCode: '123456' } }),
    crossAccount: async ({ a, b }) => {
      // B's paid charge, refunded by A with a valid code: not found, as POST /v1/transactions/{id}/refunds answers.
      await refusedWithoutChange(
        { method: 'POST', path: path('/transactions/{transactionId}/refunds', { transactionId: b.paidChargeId }), body: { amountCents: 100, totpCode: nextCode(a.owner) } },
        a.owner,
        notFound(messages.transactionNotFound),
        { codeSpent: true },
      );
    },
  },
  listDashboardApiKeys: {
    request: () => ({ method: 'GET', path: path('/api-keys') }),
    crossAccount: listDoesNotShow({ method: 'GET', path: path('/api-keys') }, (b) => [b.keyId], (a) => [a.keyId]),
  },
  createDashboardApiKey: {
    request: () => ({ method: 'POST', path: path('/api-keys'), body: { label: 'nova' } }),
    crossAccount: { none: 'creates a key of the signed-in account; the body names no account' },
  },
  revokeDashboardApiKey: {
    request: (a) => ({ method: 'POST', path: path('/api-keys/{keyId}/revoke', { keyId: a.keyId }) }),
    crossAccount: async ({ a, b }) => {
      await refusedWithoutChange({ method: 'POST', path: path('/api-keys/{keyId}/revoke', { keyId: b.keyId }) }, a.owner, notFound(messages.apiKeyNotFound));
      expect((await gateway.as(b.apiKey).GET('/v1/balance')).response.status).toBe(200);
    },
  },
  listDashboardWebhooks: {
    request: () => ({ method: 'GET', path: path('/webhooks') }),
    crossAccount: listDoesNotShow({ method: 'GET', path: path('/webhooks') }, (b) => [b.endpointId, '/beta'], (a) => [a.endpointId]),
  },
  createDashboardWebhook: {
    request: () => ({ method: 'POST', path: path('/webhooks'), body: { url: 'https://exemplo.com.br/webhooks' } }),
    crossAccount: { none: 'creates a URL of the signed-in account; the body names no account' },
  },
  updateDashboardWebhook: {
    request: (a) => ({ method: 'PATCH', path: path('/webhooks/{endpointId}', { endpointId: a.endpointId }), body: { enabled: false } }),
    crossAccount: async ({ a, b }) => {
      await refusedWithoutChange(
        { method: 'PATCH', path: path('/webhooks/{endpointId}', { endpointId: b.endpointId }), body: { url: 'https://atacante.exemplo.com/' } },
        a.owner,
        notFound(messages.webhookUrlNotFound),
      );
    },
  },
  deleteDashboardWebhook: {
    request: (a) => ({ method: 'DELETE', path: path('/webhooks/{endpointId}', { endpointId: a.endpointId }) }),
    crossAccount: async ({ a, b }) => {
      await refusedWithoutChange({ method: 'DELETE', path: path('/webhooks/{endpointId}', { endpointId: b.endpointId }) }, a.owner, notFound(messages.webhookUrlNotFound));
    },
  },
  rotateDashboardWebhookSecret: {
    request: (a) => ({ method: 'POST', path: path('/webhooks/{endpointId}/rotate-secret', { endpointId: a.endpointId }) }),
    crossAccount: async ({ a, b }) => {
      await refusedWithoutChange({ method: 'POST', path: path('/webhooks/{endpointId}/rotate-secret', { endpointId: b.endpointId }) }, a.owner, notFound(messages.webhookUrlNotFound));
    },
  },
  testDashboardWebhook: {
    request: (a) => ({ method: 'POST', path: path('/webhooks/{endpointId}/test', { endpointId: a.endpointId }) }),
    crossAccount: async ({ a, b }) => {
      const received = receiver.received.length;
      await refusedWithoutChange({ method: 'POST', path: path('/webhooks/{endpointId}/test', { endpointId: b.endpointId }) }, a.owner, notFound(messages.webhookUrlNotFound));
      expect(receiver.received).toHaveLength(received);
    },
  },
  listDeliveries: {
    request: () => ({ method: 'GET', path: path('/webhook-deliveries') }),
    crossAccount: async ({ a, b }) => {
      await listDoesNotShow({ method: 'GET', path: path('/webhook-deliveries'), query: { limit: '200' } }, (other) => [other.eventId, other.endpointId], (own) => [own.eventId])({ a, b });
      for (const query of [{ endpointId: b.endpointId }, { transactionId: b.paidChargeId }] as Record<string, string>[]) {
        const answer = await rawCall(gateway, { method: 'GET', path: path('/webhook-deliveries'), query }, authOf(a.owner));
        expect(answer.status).toBe(200);
        expect((answer.body as { count: number }).count).toBe(0);
      }
    },
  },
  resendDashboardEvent: {
    request: (a) => ({ method: 'POST', path: path('/events/{eventId}/resend', { eventId: a.eventId }), body: {} }),
    crossAccount: async ({ a, b }) => {
      await refusedWithoutChange({ method: 'POST', path: path('/events/{eventId}/resend', { eventId: b.eventId }), body: {} }, a.owner, notFound(messages.eventNotFound));
      // A's own event, sent to B's URL: refused too.
      await refusedWithoutChange(
        { method: 'POST', path: path('/events/{eventId}/resend', { eventId: a.eventId }), body: { endpointId: b.endpointId } },
        a.owner,
        notFound(messages.webhookUrlNotFound),
      );
      const quota = await rawCall(gateway, { method: 'GET', path: path('/webhook-deliveries') }, authOf(a.owner));
      expect((quota.body as { resendQuota: { remaining: number } }).resendQuota.remaining).toBe(10);
    },
  },
  listDashboardInfractions: {
    request: () => ({ method: 'GET', path: path('/infractions') }),
    crossAccount: listDoesNotShow({ method: 'GET', path: path('/infractions') }, (b) => [b.infractionId], (a) => [a.infractionId]),
  },
  defendDashboardInfraction: {
    request: (a) => ({ method: 'POST', path: path('/infractions/{infractionId}/defence', { infractionId: a.infractionId }), body: { analysis: 'rejeitado', text: 'Entrega comprovada.', totpCode: '123456' } }),
    crossAccount: async ({ a, b }) => {
      // B's open infraction, defended by A with a valid code: not found; B's stays open, nothing sent to the provider.
      await refusedWithoutChange(
        { method: 'POST', path: path('/infractions/{infractionId}/defence', { infractionId: b.infractionId }), body: { analysis: 'aceito', text: 'Concordo.', totpCode: nextCode(a.owner) } },
        a.owner,
        notFound(messages.infractionNotFound),
        { codeSpent: true },
      );
    },
  },
  listDashboardRecipients: {
    request: () => ({ method: 'GET', path: path('/recipients') }),
    crossAccount: listDoesNotShow({ method: 'GET', path: path('/recipients') }, (b) => [b.recipientId], (a) => [a.recipientId]),
  },
  registerDashboardRecipient: {
    request: () => ({
      method: 'POST',
      path: path('/recipients'),
      body: { legalName: 'Outro Fornecedor Ltda', document: '11222333000181', documentType: 'cnpj', pixKey: 'outro@fornecedor.com.br', pixKeyType: 'email' },
    }),
    crossAccount: async ({ a, b }) => {
      // B's approved recipient, registered by A: A gets its own registration, waiting for review; B's stays approved.
      const answer = await rawCall(
        gateway,
        { method: 'POST', path: path('/recipients'), body: { legalName: 'Fornecedor beta Ltda', document: b.recipientDocument, documentType: 'cnpj', pixKey: 'fornecedor@beta.com.br', pixKeyType: 'email' } },
        authOf(a.owner),
      );
      expect(answer.status).toBe(201);
      const registered = answer.body as { recipientId: string; status: string };
      expect(registered.status).toBe('pending_review');
      expect(registered.recipientId).not.toBe(b.recipientId);
      const ofB = await rawCall(gateway, { method: 'GET', path: path('/recipients') }, authOf(b.owner));
      const recipients = (ofB.body as { recipients: { recipientId: string; status: string }[] }).recipients;
      expect(recipients).toEqual([expect.objectContaining({ recipientId: b.recipientId, status: 'active' })]);
    },
  },
  createDashboardWithdrawal: {
    request: (a) => ({ method: 'POST', path: path('/withdrawals'), body: { amountCents: 1_000, pixKey: a.owner.responsibleCpf, pixKeyType: 'cpf', totpCode: '123456' } }),
    crossAccount: async ({ a, b }) => {
      // B's approved recipient, named by A with a valid code: not found, as POST /v1/withdraw answers.
      await refusedWithoutChange(
        { method: 'POST', path: path('/withdrawals'), body: { amountCents: 1_000, pixKey: 'fornecedor@beta.com.br', pixKeyType: 'email', recipientId: b.recipientId, totpCode: nextCode(a.owner) } },
        a.owner,
        notFound(messages.recipientNotFound),
        { codeSpent: true },
      );
    },
  },
  sandboxChargeAction: {
    request: (a) => ({ method: 'POST', path: path('/sandbox/charges/{transactionId}/{action}', { transactionId: a.pendingChargeId, action: 'pay' }) }),
    crossAccount: async ({ a, b }) => {
      for (const action of ['pay', 'expire', 'cancel', 'fail']) {
        await refusedWithoutChange(
          { method: 'POST', path: path('/sandbox/charges/{transactionId}/{action}', { transactionId: b.pendingChargeId, action }) },
          a.owner,
          notFound(messages.transactionNotFound),
        );
      }
    },
  },
  sandboxPayDashboardStaticQrCode: {
    request: (a) => ({ method: 'POST', path: path('/sandbox/static-qrcodes/{staticQrCodeId}/pay', { staticQrCodeId: a.staticQrCodeId }), body: {} }),
    crossAccount: async ({ a, b }) => {
      // B's code, "paid" by A: not found, nothing sent to the provider nor credited.
      await refusedWithoutChange({ method: 'POST', path: path('/sandbox/static-qrcodes/{staticQrCodeId}/pay', { staticQrCodeId: b.staticQrCodeId }), body: {} }, a.owner, notFound(messages.staticQrCodeNotFound));
    },
  },
  sandboxRunDashboardRecurrences: {
    request: () => ({ method: 'POST', path: path('/sandbox/recurrences/run') }),
    crossAccount: { none: 'runs the sandbox\'s jobs now: it names no account resource' },
  },
  sandboxDashboardRecurrenceAction: {
    request: (a) => ({ method: 'POST', path: path('/sandbox/recurrences/{recurrenceId}/{action}', { recurrenceId: a.recurrenceId, action: 'approve' }) }),
    crossAccount: async ({ a, b }) => {
      for (const action of ['approve', 'reject', 'expire', 'payer-cancel']) {
        await refusedWithoutChange({ method: 'POST', path: path('/sandbox/recurrences/{recurrenceId}/{action}', { recurrenceId: b.recurrenceId, action }) }, a.owner, notFound(messages.recurrenceNotFound));
      }
    },
  },
  sandboxDashboardRecurrenceCycleAction: {
    request: (a) => ({ method: 'POST', path: path('/sandbox/recurrence-cycles/{transactionId}/{action}', { transactionId: a.recurrenceCycleId, action: 'pay' }) }),
    crossAccount: async ({ a, b }) => {
      for (const action of ['pay', 'refuse', 'payer-cancel']) {
        await refusedWithoutChange(
          { method: 'POST', path: path('/sandbox/recurrence-cycles/{transactionId}/{action}', { transactionId: b.recurrenceCycleId, action }) },
          a.owner,
          notFound(operatorMessages.recurrenceCycleNotFound),
        );
      }
    },
  },
  sandboxWithdrawalAction: {
    request: (a) => ({ method: 'POST', path: path('/sandbox/withdrawals/{transactionId}/{action}', { transactionId: a.withdrawalId, action: 'settle' }) }),
    crossAccount: async ({ a, b }) => {
      for (const action of ['settle', 'reject']) {
        await refusedWithoutChange(
          { method: 'POST', path: path('/sandbox/withdrawals/{transactionId}/{action}', { transactionId: b.withdrawalId, action }) },
          a.owner,
          notFound(messages.transactionNotFound),
        );
      }
    },
  },
  listOutbox: {
    request: () => ({ method: 'GET', path: path('/dev/outbox') }),
    crossAccount: { none: "development only (404 in production); a session reads its own user's e-mails only, anyone else none (test/dashboard/outbox.test.ts)" },
  },
};

/** The code A's authenticator app shows now (the clock moved one step, so it was never used). */
function nextCode(person: DashboardPerson): string {
  gateway.clock.advance(30_000);
  return totpCode(person);
}

function totpCode(person: DashboardPerson): string {
  if (!person.totpSecret) throw new Error('no TOTP');
  return currentCode(person.totpSecret);
}

const currentCode = (secret: string) => currentTotp(secret, gateway.clock.now());

/** The operations a session still waiting for its second factor may call (docs/dashboard.md, Stages). */
const BEFORE_SECOND_FACTOR = ['getSession', 'signOut', 'completeSecondFactor'];
/** The public operations (security: []) as docs/dashboard.md lists them. */
const PUBLIC = ['signUp', 'signIn', 'verifyEmail', 'requestPasswordReset', 'confirmPasswordReset', 'acceptInvitation', 'listOutbox'];

describe('the dashboard route matrix (every operation of generated/dashboard-openapi.json)', () => {
  it('has a case for every operation of the document, and no case for an operation it does not have', () => {
    expect(Object.keys(cases).sort()).toEqual(operations.map((operation) => operation.operationId).sort());
    expect(operations.filter((operation) => operation.security === 'public').map((operation) => operation.operationId).sort()).toEqual([...PUBLIC].sort());
    // Every state-changing operation behind the session asks for the CSRF token.
    for (const operation of operations) {
      if (operation.security !== 'public' && operation.method !== 'GET') expect(operation.security, operation.operationId).toBe('session+csrf');
    }
  });

  for (const operation of operations) {
    const name = `${operation.operationId} (${operation.method} ${operation.path})`;
    const caseOf = () => {
      const found = cases[operation.operationId];
      if (!found) throw new Error(`no case for ${operation.operationId}`);
      return found;
    };

    if (operation.security === 'public') {
      it(`${name}: public, answers without a session and never with the session's refusal`, async () => {
        const answer = await rawCall(gateway, caseOf().request(world.a));
        expect(answer.status).not.toBe(500);
        expect(operation.responses).toContain(String(answer.status));
        expect(answer.body).not.toEqual({ error: messages.sessionRequired });
      });
    } else {
      it(`${name}: refuses a call without a live session (401) and changes nothing`, async () => {
        const call = caseOf().request(world.a);
        const before = await databaseState(gateway);
        const refused = { status: 401, body: { error: messages.sessionRequired } };
        expect(operation.responses).toContain('401');
        expect(await rawCall(gateway, call)).toEqual(refused);
        expect(await rawCall(gateway, call, { cookie: 'não-é-uma-sessão' })).toEqual(refused);
        expect(await rawCall(gateway, call, { cookie: 'A'.repeat(43), csrf: world.a.owner.browser.csrf })).toEqual(refused);
        // A session that signed out is gone for good.
        expect(await rawCall(gateway, call, { cookie: world.endedCookie })).toEqual(refused);
        if (!BEFORE_SECOND_FACTOR.includes(operation.operationId)) {
          expect(await rawCall(gateway, call, { cookie: world.pendingCookie })).toEqual({ status: 401, body: { error: messages.secondFactorRequired } });
        }
        expect(await databaseState(gateway)).toEqual(before);
      });
    }

    if (operation.security === 'session+csrf') {
      it(`${name}: refuses a call without the CSRF token, with a wrong one or another session's (403) and changes nothing`, async () => {
        const call = caseOf().request(world.a);
        const cookie = world.a.owner.browser.cookie();
        const refused = { status: 403, body: { error: messages.csrfTokenInvalid } };
        expect(operation.responses).toContain('403');
        const before = await databaseState(gateway);
        expect(await rawCall(gateway, call, { cookie })).toEqual(refused);
        expect(await rawCall(gateway, call, { cookie, csrf: '' })).toEqual(refused);
        expect(await rawCall(gateway, call, { cookie, csrf: 'x'.repeat(43) })).toEqual(refused);
        expect(await rawCall(gateway, call, { cookie, csrf: world.b.owner.browser.csrf })).toEqual(refused);
        expect(await databaseState(gateway)).toEqual(before);
        // Still signed in: the refusal did not end the session.
        expect((await rawCall(gateway, { method: 'GET', path: path('/session') }, { cookie })).status).toBe(200);
      });
    }

    const roles = operation.roles;
    if (roles) {
      const refusedRoles = (['owner', 'admin', 'developer', 'viewer'] as const).filter((role) => !roles.includes(role));
      if (refusedRoles.length > 0) {
        it(`${name}: refuses the roles it does not list (${refusedRoles.join(', ')}) with 403 and changes nothing`, async () => {
          const call = caseOf().request(world.a);
          for (const role of refusedRoles) {
            await refusedWithoutChange(call, world.roles[role], { status: 403, body: { error: messages.roleNotAllowed } });
          }
        });
      }
    }

    const check = (): OperationCase['crossAccount'] => caseOf().crossAccount;
    const crossAccount = cases[operation.operationId]?.crossAccount;
    if (crossAccount && 'none' in crossAccount) continue;
    it(`${name}: a user of account A cannot read or change account B's resources`, async () => {
      const found = check();
      if ('none' in found) throw new Error('unreachable');
      await found({ a: world.a, b: world.b });
    });
  }
});
