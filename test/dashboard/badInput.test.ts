import { beforeAll, describe, expect, it } from 'vitest';
import { dashboardTexts } from '../../src/messages/fields.ts';
import { messages } from '../../src/messages/merchant.ts';
import { dashboardBrowser, lastMailLink } from '../support/dashboardClient.ts';
import {
  authOf,
  bundledOperations,
  databaseState,
  DASHBOARD_PASSWORD,
  fillPath,
  invitePerson,
  nextTotp,
  rawCall,
  requestBodySchema,
  signUpOwner,
  type DashboardPerson,
  type RawCall,
} from '../support/dashboardAccounts.ts';
import { useGateway, validCustomer } from '../support/gateway.ts';

/**
 * Bad input on every dashboard operation that takes a body or parameters: malformed, non-object, non-JSON,
 * oversized bodies, unknown fields, each required field missing, each field of a wrong type, each text over
 * its maximum (all derived from the bundled document), then the rules the services check (e-mail,
 * password, TOTP, URLs, limits). Each answer is the documented status with a Portuguese message and the
 * field, never a 500, and nothing changes. Every message names the field by its label, as the page does
 * (issue 22, defect 11): the operations that are the merchant API's own (recipients, withdrawals) no
 * longer repeat the API's texts, which name its fields (`legalName é obrigatório…`).
 */

const gateway = useGateway();
const FILE = 'dashboard-openapi.json';
const operations = bundledOperations(FILE);

interface World {
  owner: DashboardPerson;
  colleague: DashboardPerson;
  apiKey: string;
  endpointId: string;
  eventId: string;
  chargeId: string;
}
let world: World;

beforeAll(async () => {
  const owner = await signUpOwner(gateway, { totp: true });
  const colleague = await invitePerson(gateway, owner, 'developer');
  const key = await owner.browser.api.POST('/dashboard/api/v1/api-keys', { body: {} });
  const webhook = await owner.browser.api.POST('/dashboard/api/v1/webhooks', { body: { url: 'http://127.0.0.1:9/ganchos' } });
  const charge = await gateway.as(key.data?.apiKey ?? '').POST('/v1/pix', { body: { amountCents: 100_000, customer: validCustomer } });
  const chargeId = charge.data?.transactionId ?? '';
  await owner.browser.api.POST('/dashboard/api/v1/sandbox/charges/{transactionId}/{action}', { params: { path: { transactionId: chargeId, action: 'pay' } } });
  const detail = await owner.browser.api.GET('/dashboard/api/v1/transactions/{transactionId}', { params: { path: { transactionId: chargeId } } });
  world = {
    owner,
    colleague,
    apiKey: key.data?.apiKey ?? '',
    endpointId: webhook.data?.endpointId ?? '',
    eventId: detail.data?.events[0]?.eventId ?? '',
    chargeId,
  };
  expect(world.eventId).toMatch(/^evt_/);
}, 60_000);

/** A valid request of each operation with a body (the owner's own resources in the path). */
const validRequests: Record<string, () => { params?: Record<string, string>; body: Record<string, unknown> }> = {
  signUp: () => ({ body: { legalName: 'Loja Nova Ltda', responsibleCpf: '52998224725', companyCnpj: '11222333000181', city: 'São Paulo', state: 'SP', name: 'Nova', email: 'nova@exemplo.com.br', password: DASHBOARD_PASSWORD } }),
  signIn: () => ({ body: { email: world.owner.email, password: DASHBOARD_PASSWORD } }),
  completeSecondFactor: () => ({ body: { totpCode: '123456' } }),
  verifyEmail: () => ({ body: { token: 'a'.repeat(43) } }),
  changePassword: () => ({ body: { currentPassword: DASHBOARD_PASSWORD, newPassword: 'outra senha muito segura 456', totpCode: '123456' } }),
  setTeamTwoFactor: () => ({ body: { required: false } }),
  updateDashboardAccount: () => ({ body: { city: 'Campinas', state: 'SP' } }),
  createDashboardCharge: () => ({ body: { amountCents: 1_000, customer: validCustomer } }),
  createDashboardDueCharge: () => ({ body: { amountCents: 1_000, dueDate: '2026-12-10', customer: { name: 'Maria da Silva', document: validCustomer.document } } }),
  createDashboardStaticQrCode: () => ({ body: { amountCents: 1_000, description: 'Caixa 1', externalRef: 'qr-ruim' } }),
  sandboxPayDashboardStaticQrCode: () => ({ params: { staticQrCodeId: 'sqr_000000000000000000000000' }, body: { amountCents: 1_000 } }),
  createDashboardRecurrence: () => ({
    body: {
      payer: { name: 'Maria da Silva', document: { type: 'cpf', number: '52998224725' } },
      contract: 'ASSINATURA-000123',
      periodicity: 'monthly',
      startDate: '2030-01-10',
      amountCents: 9_990,
      consent: { journey: 'qrcode' },
      externalRef: 'recorrencia-ruim',
    },
  }),
  sandboxDashboardRecurrenceCycleAction: () => ({ params: { transactionId: 'tx_000000000000000000000000', action: 'refuse' }, body: { refusalCode: 'AM02' } }),
  createDashboardPaymentLink: () => ({ body: { amountCents: 1_000, description: 'Camiseta azul', reusable: false, expiresInDays: 7, externalRef: 'link-ruim' } }),
  requestPasswordReset: () => ({ body: { email: world.owner.email } }),
  confirmPasswordReset: () => ({ body: { token: 'a'.repeat(43), password: DASHBOARD_PASSWORD } }),
  acceptInvitation: () => ({ body: { token: 'a'.repeat(43), password: DASHBOARD_PASSWORD } }),
  confirmTwoFactor: () => ({ body: { totpCode: '123456' } }),
  disableTwoFactor: () => ({ body: { totpCode: '123456' } }),
  regenerateRecoveryCodes: () => ({ body: { totpCode: '123456' } }),
  inviteUser: () => ({ body: { email: 'convite@exemplo.com.br', name: 'Convidada', role: 'viewer' } }),
  updateUser: () => ({ params: { userId: world.colleague.userId }, body: { role: 'viewer' } }),
  createDashboardApiKey: () => ({ body: { label: 'servidor' } }),
  createDashboardWebhook: () => ({ body: { url: 'https://exemplo.com.br/ganchos', events: ['transaction.paid'] } }),
  updateDashboardWebhook: () => ({ params: { endpointId: world.endpointId }, body: { url: 'https://exemplo.com.br/outro', events: ['withdrawal'], enabled: false } }),
  resendDashboardEvent: () => ({ params: { eventId: world.eventId }, body: { endpointId: world.endpointId } }),
  registerDashboardRecipient: () => ({
    body: { legalName: 'Fornecedor Ltda', document: '11444777000161', documentType: 'cnpj', pixKey: 'pagar@fornecedor.com.br', pixKeyType: 'email', label: 'fornecedor' },
  }),
  createDashboardWithdrawal: () => ({
    body: { amountCents: 1_000, pixKey: world.owner.responsibleCpf, pixKeyType: 'cpf', externalRef: 'saque-ruim', totpCode: '123456' },
  }),
  createDashboardRefund: () => ({
    params: { transactionId: 'tx_000000000000000000000000' },
    body: { amountCents: 100, externalRef: 'devolucao-ruim', description: 'Troca', totpCode: '123456' },
  }),
  defendDashboardInfraction: () => ({
    params: { infractionId: '00000042' },
    body: { analysis: 'rejeitado', text: 'O cliente confirmou a compra.', totpCode: '123456' },
  }),
};

/** Texts of the form validation (src/http/fieldProblems.ts), as patterns over the field's label. */
const FORM_TEXT = {
  required: /^[^:]+: campo obrigatório\.$/,
  /** A wrong type: what to type instead. */
  invalid: /^[^:]+: (valor inválido|informe (um endereço válido|um texto|um número inteiro, sem letras|um número|um valor em reais, por exemplo 150,00|uma lista)|marque ou desmarque a opção|preencha os campos deste grupo|escolha uma das opções da lista)\.$/,
  /** An identifier that is not one (a path parameter). */
  identifier: /^[^:]+: (identificador inválido; escolha um item da lista|escolha uma das opções da lista)\.$/,
  maxLength: (max: number) => new RegExp(`^[^:]+: máximo de ${max} caracteres\\.$`),
};

/** API field names that must never reach a person (the label is shown instead). */
const API_NAMES = /\b(legalName|amountCents|pixKey|pixKeyType|documentType|document|externalRef|recipientId|totpCode|createdFrom|createdTo|cursor|limit|customer|description|label|events|endpointId|transactionId|userId|keyId|eventId)\b/;

function wrongTypeOf(schema: { type?: string }): unknown {
  if (schema.type === 'string') return 12345;
  if (schema.type === 'integer' || schema.type === 'number') return 'cem';
  if (schema.type === 'boolean') return 'sim';
  if (schema.type === 'array') return 'transaction.paid';
  return [];
}

/**
 * A text one character over `max` that still matches the field's pattern and format, so only the length is
 * wrong; undefined when the pattern itself bounds the length (an enumeration written as a pattern).
 */
function overLength(schema: { maxLength?: number; pattern?: string; format?: string }): string | undefined {
  const max = schema.maxLength ?? 0;
  if (schema.format === 'email') return `${'a'.repeat(max + 1 - '@exemplo.com'.length)}@exemplo.com`;
  const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
  for (const filler of ['a', '1', 'A', 'ab-']) {
    const text = filler.repeat(max + 1).slice(0, max + 1);
    if (!pattern || pattern.test(text)) return text;
  }
  return undefined;
}

type Answer = { status: number; body: unknown };

describe('bad input on every dashboard operation with a body or parameters', () => {
  it('has a valid request for every operation with a body', () => {
    expect(Object.keys(validRequests).sort()).toEqual(operations.filter((operation) => operation.hasBody).map((operation) => operation.operationId).sort());
  });

  for (const operation of operations.filter((candidate) => candidate.hasBody)) {
    const requestOf = (body: unknown, contentType?: string): RawCall => {
      const valid = validRequests[operation.operationId];
      if (!valid) throw new Error(`no valid request for ${operation.operationId}`);
      const { params } = valid();
      return { method: operation.method, path: `${fillPath(operation.path, params)}`, body, ...(contentType ? { contentType } : {}) };
    };
    const validBody = () => validRequests[operation.operationId]?.().body ?? {};
    const send = (call: RawCall) => rawCall(gateway, call, authOf(world.owner));

    it(`${operation.operationId}: refuses malformed JSON, a body that is not an object, another content type, an oversized body and an unknown field, changing nothing`, async () => {
      const before = await databaseState(gateway);
      expect(await send(requestOf('{"email": '))).toEqual({ status: 400, body: { error: messages.malformedJson } });
      expect(await send(requestOf('[1, 2]'))).toEqual({ status: 400, body: { error: messages.bodyNotObject } });
      expect(await send(requestOf('"texto"'))).toEqual({ status: 400, body: { error: messages.bodyNotObject } });
      expect(await send(requestOf('email=x', 'application/x-www-form-urlencoded'))).toEqual({ status: 415, body: { error: messages.unsupportedMediaType } });
      expect(await send(requestOf(JSON.stringify({ ...validBody(), sobra: 'x'.repeat(70_000) })))).toEqual({ status: 413, body: { error: messages.payloadTooLarge } });
      expect(await send(requestOf({ ...validBody(), campoExtra: 1 }))).toEqual({ status: 400, body: { error: messages.unknownField('campoExtra'), field: 'campoExtra' } });
      expect(await databaseState(gateway)).toEqual(before);
    });

    it(`${operation.operationId}: names the field of each missing required field, wrong type and over-long text (400, Portuguese), changing nothing`, async () => {
      const schema = requestBodySchema(FILE, operation.operationId);
      if (!schema) throw new Error('no body schema');
      const before = await databaseState(gateway);
      const expectRefused = async (body: Record<string, unknown>, field: string, formText: RegExp) => {
        const answer = (await send(requestOf(body))) as Answer;
        expect(answer.status, JSON.stringify({ body, answer })).toBe(400);
        const error = answer.body as { error: string; field?: string };
        expect(error.field, JSON.stringify({ body, answer })).toBe(field);
        // The authenticator code of a money action has one text, whatever is wrong with it.
        if (field === 'totpCode' && ['createDashboardWithdrawal', 'createDashboardRefund', 'defendDashboardInfraction'].includes(operation.operationId)) expect(error.error).toBe(messages.invalidTotpCode);
        else expect(error.error, JSON.stringify({ body, answer })).toMatch(formText);
        expect(error.error).not.toMatch(API_NAMES);
      };
      for (const name of schema.required) {
        const body = validBody();
        delete body[name];
        await expectRefused(body, name, FORM_TEXT.required);
      }
      // A body of at most one property (one of several fields) gets the bad field alone.
      const withField = (name: string, value: unknown) => (schema.maxProperties === 1 ? { [name]: value } : { ...validBody(), [name]: value });
      for (const [name, property] of Object.entries(schema.properties)) {
        await expectRefused(withField(name, wrongTypeOf(property)), name, FORM_TEXT.invalid);
        const tooLong = property.maxLength === undefined ? undefined : overLength(property);
        if (tooLong !== undefined) await expectRefused(withField(name, tooLong), name, FORM_TEXT.maxLength(property.maxLength ?? 0));
      }
      expect(await databaseState(gateway)).toEqual(before);
    });
  }

  /** A well-formed value of each path parameter (of nothing that exists). */
  const WELL_FORMED: Record<string, string> = {
    userId: 'usr_000000000000000000000000',
    sessionId: 'ses_000000000000000000000000',
    transactionId: 'tx_000000000000000000000000',
    linkId: 'pl_000000000000000000000000',
    keyId: 'key_000000000000000000000000',
    endpointId: 'wh_000000000000000000000000',
    eventId: 'evt_000000000000000000000000',
    staticQrCodeId: 'sqr_000000000000000000000000',
    recurrenceId: 'rec_000000000000000000000000',
    action: 'pay',
  };
  const withParameters = operations.filter((operation) => /\{/.test(operation.path));
  for (const operation of withParameters) {
    it(`${operation.operationId}: refuses a malformed path parameter with 400 and the parameter's name, changing nothing`, async () => {
      const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
      const before = await databaseState(gateway);
      for (const name of names) {
        const params = Object.fromEntries(names.map((other) => [other, WELL_FORMED[other] ?? '']));
        params[name] = 'não-é-um-id';
        const body = validRequests[operation.operationId]?.().body;
        const answer = await rawCall(gateway, { method: operation.method, path: fillPath(operation.path, params), ...(body ? { body } : {}) }, authOf(world.owner));
        expect(answer.status, JSON.stringify(answer)).toBe(400);
        expect(answer.body).toEqual({ error: expect.stringMatching(FORM_TEXT.identifier), field: name });
      }
      expect(await databaseState(gateway)).toEqual(before);
    });
  }

  const queries: Record<string, { query: Record<string, string>; field: string; error?: string }[]> = {
    listDashboardTransactions: [
      { query: { type: 'estorno' }, field: 'type', error: 'Tipo: escolha uma das opções da lista.' },
      { query: { limit: '0' }, field: 'limit', error: 'Quantidade por página: o mínimo é 1.' },
      { query: { limit: 'muitos' }, field: 'limit', error: 'Quantidade por página: informe um número inteiro, sem letras.' },
    ],
    listDeliveries: [
      { query: { outcome: 'talvez' }, field: 'outcome' },
      { query: { limit: '201' }, field: 'limit' },
      { query: { endpointId: 'wh_x' }, field: 'endpointId' },
      { query: { transactionId: 'tx_1' }, field: 'transactionId' },
      { query: { event: 'e'.repeat(61) }, field: 'event' },
    ],
    listOutbox: [{ query: { limit: '101' }, field: 'limit' }],
    listDashboardStatement: [
      { query: { limit: '0' }, field: 'limit', error: 'Quantidade por página: o mínimo é 1.' },
      { query: { cursor: 'não é cursor' }, field: 'cursor', error: 'Página: a página pedida não existe mais; volte à primeira página.' },
      { query: { cursor: 'abc' }, field: 'cursor', error: dashboardTexts.cursorInvalid },
      { query: { createdFrom: 'ontem' }, field: 'createdFrom', error: 'De: informe um número inteiro, sem letras.' },
      { query: { createdFrom: '10', createdTo: '5' }, field: 'createdTo', error: dashboardTexts.createdRangeEmpty },
    ],
    exportDashboardTransactions: [
      { query: { from: 'ontem', to: '2026-11-30' }, field: 'from', error: messages.exportFromInvalid },
      { query: { from: '2026-11-01', to: '30/11/2026' }, field: 'to', error: messages.exportToInvalid },
      { query: { from: '2026-11-01', to: '2026-11-30', status: 'pago' }, field: 'status', error: 'Situação: escolha uma das opções da lista.' },
      { query: { from: '2026-11-30', to: '2026-11-01' }, field: 'to', error: messages.exportPeriodInvalid },
    ],
    listDashboardPaymentLinks: [
      { query: { status: 'ativo' }, field: 'status', error: 'Situação: escolha uma das opções da lista.' },
      { query: { limit: '0' }, field: 'limit', error: 'Quantidade por página: o mínimo é 1.' },
      { query: { cursor: 'abc', status: 'active' }, field: 'cursor', error: dashboardTexts.cursorInvalid },
    ],
    exportDashboardStatement: [
      { query: { from: '2026-13-01', to: '2026-11-30' }, field: 'from', error: messages.exportFromInvalid },
      { query: { from: '2026-11-01' }, field: 'to', error: messages.exportToInvalid },
    ],
  };
  it('has bad queries for every operation with query parameters', () => {
    const withQuery = operations.filter((operation) =>
      ['listDashboardTransactions', 'listDeliveries', 'listOutbox', 'listDashboardStatement', 'exportDashboardTransactions', 'exportDashboardStatement', 'listDashboardPaymentLinks'].includes(operation.operationId),
    );
    expect(withQuery).toHaveLength(Object.keys(queries).length);
  });
  for (const [operationId, cases] of Object.entries(queries)) {
    it(`${operationId}: refuses bad query parameters with 400 and the parameter's name`, async () => {
      const operation = operations.find((candidate) => candidate.operationId === operationId);
      for (const bad of cases) {
        const answer = await rawCall(gateway, { method: 'GET', path: operation?.path ?? '', query: bad.query }, authOf(world.owner));
        expect(answer).toEqual({
          status: 400,
          body: { error: bad.error ?? expect.stringMatching(/^[^:]+: (escolha uma das opções da lista|o máximo é \d+|identificador inválido; escolha um item da lista|máximo de \d+ caracteres)\.$/), field: bad.field },
        });
      }
      const unknown = await rawCall(gateway, { method: 'GET', path: operation?.path ?? '', query: { desconhecido: '1' } }, authOf(world.owner));
      expect(unknown).toEqual({ status: 400, body: { error: messages.unknownQueryParameter('desconhecido'), field: 'desconhecido' } });
    });
  }
});

describe('the rules the dashboard services check', () => {
  const call = (method: string, path: string, body?: unknown, as: DashboardPerson = world.owner) =>
    rawCall(gateway, { method, path: `/dashboard/api/v1${path}`, ...(body === undefined ? {} : { body }) }, authOf(as));

  async function unchanged(action: () => Promise<void>): Promise<void> {
    const before = await databaseState(gateway);
    await action();
    expect(await databaseState(gateway)).toEqual(before);
  }

  it('sign-up: a weak password, a password equal to the e-mail, an invalid e-mail, CPF or CNPJ create nothing', async () => {
    const body = validRequests.signUp?.().body ?? {};
    await unchanged(async () => {
      expect(await call('POST', '/signup', { ...body, password: 'curta' })).toEqual({ status: 400, body: { error: 'Senha: mínimo de 10 caracteres.', field: 'password' } });
      expect(await call('POST', '/signup', { ...body, email: 'igual@exemplo.com.br', password: 'igual@exemplo.com.br' })).toEqual({ status: 400, body: { error: messages.weakPassword, field: 'password' } });
      expect(await call('POST', '/signup', { ...body, email: 'sem-arroba' })).toEqual({ status: 400, body: { error: 'E-mail: informe um endereço válido.', field: 'email' } });
      expect(await call('POST', '/signup', { ...body, responsibleCpf: '529.982.247-24' })).toEqual({ status: 400, body: { error: messages.invalidResponsibleCpf, field: 'responsibleCpf' } });
      expect(await call('POST', '/signup', { ...body, companyCnpj: '11.222.333/0001-80' })).toEqual({ status: 400, body: { error: messages.invalidCompanyCnpj, field: 'companyCnpj' } });
      expect(await call('POST', '/signup', { ...body, name: '   ' })).toEqual({ status: 400, body: { error: 'Nome: campo obrigatório.', field: 'name' } });
      expect(await call('POST', '/signup', { ...body, legalName: '   ' })).toEqual({ status: 400, body: { error: 'Razão social: campo obrigatório.', field: 'legalName' } });
    });
  });

  it('sign-in: a wrong password is 401 beside the password, an invalid e-mail 400', async () => {
    expect(await call('POST', '/session', { email: world.owner.email, password: 'não é a senha' })).toEqual({ status: 401, body: { error: messages.invalidCredentials, field: 'password' } });
    expect(await call('POST', '/session', { email: 'não é e-mail', password: 'x' })).toEqual({ status: 400, body: { error: 'E-mail: informe um endereço válido.', field: 'email' } });
  });

  it('e-mail links: an unknown token is refused; a weak password does not spend a reset link', async () => {
    await unchanged(async () => {
      const unknownLink = { status: 400, body: { error: messages.invalidEmailLink } };
      expect(await call('POST', '/email-verification', { token: 'b'.repeat(43) })).toEqual(unknownLink);
      expect(await call('POST', '/password-reset/confirm', { token: 'b'.repeat(43), password: DASHBOARD_PASSWORD })).toEqual(unknownLink);
      expect(await call('POST', '/invitations/accept', { token: 'b'.repeat(43), password: DASHBOARD_PASSWORD })).toEqual(unknownLink);
    });
    // (The clock moves so that the reset mail is the newest one to the colleague, after the invitation.)
    gateway.clock.advance(1_000);
    expect((await call('POST', '/password-reset', { email: world.colleague.email })).status).toBe(202);
    const link = await lastMailLink(gateway, world.colleague.email);
    expect(await call('POST', '/password-reset/confirm', { token: link.token, password: world.colleague.email })).toEqual({ status: 400, body: { error: messages.weakPassword, field: 'password' } });
    // The link still works (then the colleague's sessions end: sign them in again).
    expect(await call('POST', '/password-reset/confirm', { token: link.token, password: DASHBOARD_PASSWORD })).toEqual({ status: 200, body: { passwordChanged: true } });
    expect(await call('POST', '/password-reset/confirm', { token: link.token, password: DASHBOARD_PASSWORD })).toEqual({ status: 400, body: { error: messages.invalidEmailLink } });
    world.colleague = { ...world.colleague, ...(await invitePersonSession(world.colleague.email)) };
  });

  it('two-factor: wrong codes are refused beside the field and change nothing; enrolment twice is 409', async () => {
    await unchanged(async () => {
      const wrong = { status: 400, body: { error: messages.invalidTotpCode, field: 'totpCode' } };
      expect(await call('POST', '/two-factor/disable', { totpCode: '000000' })).toEqual(wrong);
      expect(await call('POST', '/two-factor/recovery-codes', { totpCode: '000000' })).toEqual(wrong);
      expect(await call('POST', '/two-factor/setup')).toEqual({ status: 409, body: { error: messages.totpAlreadyEnabled } });
      expect(await call('POST', '/two-factor/confirm', { totpCode: '000000' })).toEqual({ status: 409, body: { error: messages.totpAlreadyEnabled } });
      expect(await call('POST', '/two-factor/disable', { totpCode: '12345' })).toEqual({
        status: 400,
        body: { error: 'Código do aplicativo autenticador: informe os 6 dígitos mostrados no aplicativo.', field: 'totpCode' },
      });
      // The colleague has no two-factor: turning it off or new recovery codes are 409.
      expect(await call('POST', '/two-factor/disable', { totpCode: '000000' }, world.colleague)).toEqual({ status: 409, body: { error: messages.totpNotEnabled } });
      expect(await call('POST', '/two-factor/recovery-codes', { totpCode: '000000' }, world.colleague)).toEqual({ status: 409, body: { error: messages.totpNotEnabled } });
      expect(await call('POST', '/session/second-factor', { totpCode: '123456', recoveryCode: 'abcde-fghij' })).toEqual({ status: 400, body: { error: messages.formOneOfFields } });
      expect(await call('POST', '/session/second-factor', {})).toEqual({ status: 400, body: { error: messages.formNothingToChange } });
    });
    // A code already used is refused: replay.
    const code = nextTotp(gateway, world.owner);
    expect((await call('POST', '/two-factor/recovery-codes', { totpCode: code })).status).toBe(200);
    expect(await call('POST', '/two-factor/recovery-codes', { totpCode: code })).toEqual({ status: 400, body: { error: messages.invalidTotpCode, field: 'totpCode' } });
  });

  it('users: an unknown role, an e-mail already registered, an admin inviting an owner, the last owner demoted', async () => {
    const admin = await invitePerson(gateway, world.owner, 'admin');
    await unchanged(async () => {
      expect(await call('POST', '/users', { email: 'novo@exemplo.com.br', name: 'Novo', role: 'root' })).toEqual({ status: 400, body: { error: 'Papel: escolha uma das opções da lista.', field: 'role' } });
      expect(await call('POST', '/users', { email: world.colleague.email.toUpperCase(), name: 'Outra', role: 'viewer' })).toEqual({ status: 409, body: { error: messages.emailAlreadyRegistered, field: 'email' } });
      expect(await call('POST', '/users', { email: 'dona2@exemplo.com.br', name: 'Dona 2', role: 'owner' }, admin)).toEqual({ status: 403, body: { error: messages.roleNotAllowed } });
      expect(await call('PATCH', `/users/${world.owner.userId}`, { role: 'viewer' }, admin)).toEqual({ status: 403, body: { error: messages.roleNotAllowed } });
      expect(await call('PATCH', `/users/${world.owner.userId}`, { role: 'admin' })).toEqual({ status: 409, body: { error: messages.lastOwner } });
      expect(await call('DELETE', `/users/${world.owner.userId}`)).toEqual({ status: 409, body: { error: messages.lastOwner } });
      expect(await call('PATCH', '/users/usr_000000000000000000000000', { role: 'viewer' })).toEqual({ status: 404, body: { error: messages.userNotFound } });
    });
  });

  it('API keys: only with approved KYC and a verified e-mail', async () => {
    const pending = await signUpOwner(gateway, { approved: false });
    const unverified = await signUpOwner(gateway, { verified: false });
    await unchanged(async () => {
      expect(await call('POST', '/api-keys', {}, pending)).toEqual({ status: 403, body: { error: messages.kycNotApproved } });
      expect(await call('POST', '/api-keys', {}, unverified)).toEqual({ status: 403, body: { error: messages.emailNotVerified } });
      expect(await call('POST', '/api-keys/key_000000000000000000000000/revoke')).toEqual({ status: 404, body: { error: messages.apiKeyNotFound } });
    });
  });

  it('webhooks: an invalid URL or filter is refused beside its field; a seventh URL is 409', async () => {
    await unchanged(async () => {
      for (const url of ['não é url', 'ftp://exemplo.com.br/x', '/relativa', 'https://usuario:senha@exemplo.com.br/']) {
        expect(await call('POST', '/webhooks', { url })).toEqual({ status: 400, body: { error: messages.unsafeWebhookUrl.invalid, field: 'url' } });
      }
      expect(await call('POST', '/webhooks', { url: 'https://exemplo.com.br/', events: ['transaction.nada'] })).toEqual({
        status: 400,
        body: { error: messages.unknownEventFilter('transaction.nada'), field: 'events' },
      });
      expect(await call('PATCH', `/webhooks/${world.endpointId}`, {})).toEqual({ status: 400, body: { error: messages.formNothingToChange } });
      expect(await call('PATCH', `/webhooks/${world.endpointId}`, { url: 'gopher://x' })).toEqual({ status: 400, body: { error: messages.unsafeWebhookUrl.invalid, field: 'url' } });
      expect(await call('PATCH', '/webhooks/wh_000000000000000000000000', { enabled: false })).toEqual({ status: 404, body: { error: messages.webhookUrlNotFound } });
    });
    // Up to 6 URLs per account (one exists).
    for (let index = 2; index <= 6; index += 1) expect((await call('POST', '/webhooks', { url: `http://127.0.0.1:9/gancho-${index}` })).status).toBe(201);
    await unchanged(async () => {
      expect(await call('POST', '/webhooks', { url: 'http://127.0.0.1:9/gancho-7' })).toEqual({ status: 409, body: { error: messages.webhookUrlLimitReached(6) } });
    });
    const listed = await call('GET', '/webhooks');
    expect(listed.body).toMatchObject({ count: 6, maxWebhooks: 6 });
  });

  it('resends: 10 per hour per account, the 11th is 429 and sends nothing', async () => {
    const resend = () => call('POST', `/events/${world.eventId}/resend`, { endpointId: world.endpointId });
    for (let index = 1; index <= 10; index += 1) {
      const sent = await resend();
      expect(sent.status).toBe(202);
      expect((sent.body as { resendQuota: { remaining: number } }).resendQuota.remaining).toBe(10 - index);
    }
    await unchanged(async () => {
      expect(await resend()).toEqual({ status: 429, body: { error: messages.resendQuotaExhausted(10) } });
      expect(await call('POST', '/events/evt_000000000000000000000000/resend', {})).toEqual({ status: 404, body: { error: messages.eventNotFound } });
    });
    const history = await call('GET', '/webhook-deliveries');
    expect((history.body as { resendQuota: { remaining: number } }).resendQuota.remaining).toBe(0);
  });

  it('recipients and withdrawals: labels where the merchant API names its fields, the API unchanged', async () => {
    const recipient = validRequests.registerDashboardRecipient?.().body ?? {};
    const withdrawal = validRequests.createDashboardWithdrawal?.().body ?? {};
    const { totpCode: _code, ...apiWithdrawal } = withdrawal;
    const viaApi = async (path: string, body: unknown) => {
      const response = await fetch(`${gateway.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${world.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as { error: string } };
    };
    await unchanged(async () => {
      const recipientCases: [Record<string, unknown>, string, { error: string; field: string }][] = [
        [{ document: '11444777000160' }, messages.recipientCnpjInvalid, { error: dashboardTexts.cnpjInvalid, field: 'document' }],
        [{ documentType: 'rg' }, messages.recipientDocumentType('rg'), { error: 'Tipo de documento: escolha CPF ou CNPJ.', field: 'documentType' }],
        [{ pixKeyType: 'cnpj', pixKey: '11222333000181' }, messages.recipientKeyNotDocument, { error: messages.recipientKeyNotDocument, field: 'pixKey' }],
        [{ legalName: 'X' }, messages.legalName, { error: 'Razão social: mínimo de 2 caracteres.', field: 'legalName' }],
        [{ legalName: '  ' }, messages.legalName, { error: 'Razão social: informe pelo menos 2 letras ou números, não só espaços.', field: 'legalName' }],
        [{ pixKeyType: 'email', pixKey: 'não é e-mail' }, messages.pixKeyInvalid('email'), { error: dashboardTexts.pixKeyInvalid('email'), field: 'pixKey' }],
      ];
      for (const [bad, apiText, dashboardAnswer] of recipientCases) {
        const api = await viaApi('/v1/recipients', { ...recipient, ...bad });
        const dashboard = await call('POST', '/recipients', { ...recipient, ...bad });
        expect({ bad, status: api.status, error: api.body.error }).toEqual({ bad, status: 400, error: apiText });
        expect({ bad, ...dashboard }).toEqual({ bad, status: 400, body: dashboardAnswer });
      }
    });
    // With a valid code (spent by the refused request: the users' last TOTP step is the only change).
    const { dashboard_users: _users, ...before } = await databaseState(gateway);
    const withdrawalCases: [Record<string, unknown>, string | undefined, { error: string; field?: string }][] = [
      // Amounts in reais, never "amountCents … centavos".
      [{ amountCents: 50 }, messages.withdrawAmount, { error: 'Valor: o mínimo é R$ 1,00.', field: 'amountCents' }],
      [{ amountCents: 10.5 }, messages.withdrawAmount, { error: 'Valor: informe um valor em reais, por exemplo 150,00.', field: 'amountCents' }],
      [{ pixKeyType: 'email', pixKey: 'x@y.com' }, undefined, { error: messages.thirdPartyKeyNeedsRecipient }],
      [{ pixKey: '111.111.111-11' }, undefined, { error: messages.cpfKeyNotHolder }],
      [{ externalRef: 'r'.repeat(101) }, messages.externalRef, { error: 'Referência: máximo de 100 caracteres.', field: 'externalRef' }],
    ];
    for (const [bad, apiText, dashboardAnswer] of withdrawalCases) {
      const api = await viaApi('/v1/withdraw', { ...apiWithdrawal, ...bad });
      const dashboard = await call('POST', '/withdrawals', { ...withdrawal, ...bad, totpCode: nextTotp(gateway, world.owner) });
      expect(api.status, JSON.stringify(api.body)).toBeGreaterThanOrEqual(400);
      if (apiText !== undefined) expect(api.body.error).toBe(apiText);
      expect({ bad, status: dashboard.status, body: dashboard.body }).toMatchObject({ bad, status: api.status, body: dashboardAnswer });
      expect((dashboard.body as { error: string }).error).not.toMatch(API_NAMES);
    }
    const { dashboard_users: _after, ...after } = await databaseState(gateway);
    expect(after).toEqual(before);
  });

  it('sandbox: an unknown action is 400, an action the charge cannot take 409, nothing changes', async () => {
    await unchanged(async () => {
      expect(await call('POST', `/sandbox/charges/${world.chargeId}/estornar`)).toEqual({ status: 400, body: { error: 'Ação: escolha uma das opções da lista.', field: 'action' } });
      expect(await call('POST', `/sandbox/charges/${world.chargeId}/pay`)).toEqual({ status: 409, body: { error: dashboardTexts.chargeNotPayable('paid') } });
      expect(await call('POST', `/sandbox/withdrawals/${world.chargeId}/settle`)).toEqual({ status: 404, body: { error: messages.transactionNotFound } });
    });
  });

  async function invitePersonSession(email: string): Promise<Pick<DashboardPerson, 'browser'>> {
    const browser = dashboardBrowser(gateway);
    const signedIn = await browser.api.POST('/dashboard/api/v1/session', { body: { email, password: DASHBOARD_PASSWORD } });
    expect(signedIn.response.status).toBe(200);
    return { browser };
  }
});
