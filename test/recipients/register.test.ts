import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
const { recipientNoteActive: NOTE_ACTIVE, recipientNotePending: NOTE_PENDING } = messages;
import { createMerchant, makeCpf, TEST_RECIPIENT_ID_SECRET, useGateway, type MerchantFixture } from '../support/gateway.ts';
import {
  adminRecipient,
  companyRecipient,
  makeCnpj,
  personRecipient,
  postRecipient,
  register,
  review,
  type Body,
} from './support.ts';

const gateway = useGateway();
let merchant: MerchantFixture;
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  merchant = await createMerchant(gateway);
});

const post = (body: unknown, who: MerchantFixture = merchant) => postRecipient(gateway, who, body);

/** A fresh account whose recipient ceiling and hourly limit are set as given (defaults: 10 and 60). */
async function freshMerchant(settings: { recipientLimit?: number; recipientsPerHour?: number } = {}) {
  const fresh = await createMerchant(gateway);
  if (Object.keys(settings).length > 0) {
    const patched = await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', {
      params: { path: { accountId: fresh.accountId } },
      body: settings,
    });
    expect(patched.response.status).toBe(200);
  }
  return fresh;
}

async function adminCount(who: MerchantFixture, status?: 'pending_review' | 'active' | 'rejected' | 'deactivated') {
  const listed = await gateway.admin.GET('/admin/v1/accounts/{accountId}/recipients', {
    params: { path: { accountId: who.accountId }, query: status === undefined ? {} : { status } },
  });
  return listed.data?.count ?? -1;
}

let seed = 10_000;
/** A new person recipient (a CPF not used before in this file), key = its CPF. */
function newPerson(overrides: Body = {}): Body {
  const cpf = makeCpf(++seed);
  return personRecipient({ legalName: `Pessoa ${seed}`, document: cpf, pixKey: cpf, ...overrides });
}

describe('POST /v1/recipients validation (400, nothing recorded)', () => {
  const cases: [string, Body, string][] = [
    ['legalName missing', personRecipient({ legalName: undefined }), messages.legalName],
    ['legalName of 1 character', personRecipient({ legalName: 'A' }), messages.legalName],
    ['legalName only whitespace', personRecipient({ legalName: '     ' }), messages.legalName],
    ['legalName of 1 character after trimming', personRecipient({ legalName: '  A  ' }), messages.legalName],
    ['legalName not a string', personRecipient({ legalName: 42 }), messages.legalName],
    ['legalName over 120 characters', personRecipient({ legalName: 'A'.repeat(121) }), messages.legalNameTooLong],
    ['document missing', personRecipient({ document: undefined }), messages.recipientDocumentRequired],
    ['document empty', personRecipient({ document: '' }), messages.recipientDocumentRequired],
    ['documentType missing', personRecipient({ documentType: undefined }), messages.recipientDocumentType('')],
    ['documentType invalid', personRecipient({ documentType: 'rg' }), messages.recipientDocumentType('rg')],
    ['documentType padded but invalid', personRecipient({ documentType: ' passaporte ' }), messages.recipientDocumentType(' passaporte ')],
    ['cpf with 10 digits', personRecipient({ document: '111.444.777-3' }), messages.recipientCpfLength(10)],
    ['cpf with 14 digits', personRecipient({ document: '11.222.333/0001-81' }), messages.recipientCpfLength(14)],
    ['cnpj with 11 digits', companyRecipient({ document: '111.444.777-35' }), messages.recipientCnpjLength(11)],
    ['cnpj with 15 digits', companyRecipient({ document: '137237050001890' }), messages.recipientCnpjLength(15)],
    ['cpf with a wrong check digit', personRecipient({ document: '111.444.777-36', pixKey: '11144477736' }), messages.recipientCpfInvalid],
    ['cpf of repeated digits', personRecipient({ document: '111.111.111-11', pixKey: '11111111111' }), messages.recipientCpfInvalid],
    ['cnpj with a wrong check digit', companyRecipient({ document: '13.723.705/0001-88' }), messages.recipientCnpjInvalid],
    ['cpf with a letter', personRecipient({ document: '1114447773A' }), messages.recipientDocumentCharacters],
    ['a document with a forbidden character', personRecipient({ document: '111*444*777-35' }), messages.recipientDocumentCharacters],
    ['a document over 32 characters', personRecipient({ document: '1'.repeat(33) }), messages.recipientCpfLength(33)],
    ['pixKey missing', personRecipient({ pixKey: undefined }), messages.pixKeyRequired],
    ['pixKey empty', personRecipient({ pixKey: '' }), messages.pixKeyRequired],
    ['pixKey over 150 characters', companyRecipient({ pixKey: `${'a'.repeat(140)}@empresa.com` }), messages.pixKeyTooLong],
    ['pixKeyType missing', personRecipient({ pixKeyType: undefined }), messages.pixKeyType('')],
    ['pixKeyType invalid', personRecipient({ pixKeyType: 'iban' }), messages.pixKeyType('iban')],
    ['a CPF key that is another CPF', personRecipient({ pixKey: '52998224725' }), messages.recipientKeyNotDocument],
    ['a CPF key that is not a CPF', personRecipient({ pixKey: '123' }), messages.recipientKeyNotDocument],
    ['a cnpj key type with a cpf document', personRecipient({ pixKey: '11222333000181', pixKeyType: 'cnpj' }), messages.recipientKeyNotDocument],
    ['a cpf key type with a cnpj document', companyRecipient({ pixKey: '11144477735', pixKeyType: 'cpf' }), messages.recipientKeyNotDocument],
    ['a CNPJ key of another company', companyRecipient({ pixKey: '11222333000181', pixKeyType: 'cnpj' }), messages.recipientKeyNotDocument],
    ['an invalid e-mail key', companyRecipient({ pixKey: 'financeiro@', pixKeyType: 'email' }), messages.pixKeyInvalid('email')],
    ['an invalid phone key', companyRecipient({ pixKey: '+1 555 0100', pixKeyType: 'phone' }), messages.pixKeyInvalid('phone')],
    ['an invalid random key', companyRecipient({ pixKey: 'not-a-uuid', pixKeyType: 'evp' }), messages.pixKeyInvalid('evp')],
    ['label over 80 characters', companyRecipient({ label: 'x'.repeat(81) }), messages.label],
    ['an unknown field', personRecipient({ externalRef: 'r-1' }), messages.unknownField('externalRef')],
  ];
  for (const [name, body, error] of cases) {
    it(`refuses ${name}`, async () => {
      const before = await adminCount(merchant);
      expect(await post(body)).toEqual({ status: 400, body: { error } });
      expect(await adminCount(merchant)).toBe(before);
    });
  }

  it('uses the contract texts verbatim, the received value and digit count included', async () => {
    expect((await post(personRecipient({ legalName: 'A' }))).body.error).toBe('legalName é obrigatório (mínimo 2 caracteres).');
    expect((await post(personRecipient({ document: '1114447' }))).body.error).toBe(
      'document deve ter 11 dígitos para cpf. Recebido: 7.',
    );
    expect((await post(companyRecipient({ document: '13.723.705/0001' }))).body.error).toBe(
      'document deve ter 14 dígitos para cnpj. Recebido: 12.',
    );
    expect((await post(personRecipient({ documentType: 'RG' }))).body.error).toBe(
      "documentType deve ser 'cpf' ou 'cnpj'. Recebido: 'RG'.",
    );
    expect((await post(personRecipient({ pixKey: '52998224725' }))).body.error).toBe(
      'Chave PIX (CPF/CNPJ) não corresponde ao documento informado.',
    );
    expect((await post(personRecipient({ pixKeyType: 'Conta' }))).body.error).toBe(
      "pixKeyType deve ser 'cpf', 'cnpj', 'email', 'phone' ou 'evp'. Recebido: 'Conta'.",
    );
  });

  it('names the first field to fix when several are wrong (contract order)', async () => {
    expect(await post({ document: '1', documentType: 'rg', pixKeyType: 'x' })).toEqual({
      status: 400,
      body: { error: messages.legalName },
    });
    expect(await post(personRecipient({ document: undefined, documentType: undefined }))).toEqual({
      status: 400,
      body: { error: messages.recipientDocumentRequired },
    });
  });

  it('accepts the bounds (legalName of 2 and of 120 characters, label of 80); an e-mail key over 77 characters is invalid', async () => {
    expect((await post(newPerson({ legalName: 'Jo' }))).status).toBe(201);
    expect((await post(newPerson({ legalName: 'J'.repeat(120) }))).status).toBe(201);
    const cnpj = makeCnpj(++seed);
    const longKey = `${'a'.repeat(64)}@${'b'.repeat(12)}.com`; // 81 characters: DICT refuses e-mails over 77
    expect((await post(companyRecipient({ document: cnpj, pixKey: longKey }))).body).toEqual({
      error: messages.pixKeyInvalid('email'),
    });
    expect((await post(companyRecipient({ document: cnpj, label: 'x'.repeat(80) }))).status).toBe(201);
  });
});

describe('POST /v1/recipients normalisation', () => {
  it('accepts documentType and pixKeyType in any case with surrounding whitespace, and punctuation in the document', async () => {
    const who = await freshMerchant();
    const created = await post(
      personRecipient({ document: ' 111.444.777-35 ', documentType: '  CPF ', pixKey: '111.444.777-35', pixKeyType: ' Cpf' }),
      who,
    );
    expect(created.status).toBe(201);
    expect(await adminRecipient(gateway, who, String(created.body.recipientId))).toMatchObject({
      document: '11144477735',
      documentType: 'cpf',
      pixKey: '11144477735',
      pixKeyType: 'cpf',
      legalName: 'João Pereira Santos',
      label: null,
      status: 'pending_review',
    });
  });

  it('stores keys in their directory form: e-mail lower-case, phone +55, random key lower-case; name and label trimmed', async () => {
    const who = await freshMerchant();
    const keys: [string, string, string][] = [
      [' EMAIL ', 'Financeiro@Fornecedor.COM.BR', 'financeiro@fornecedor.com.br'],
      ['Phone', '(11) 98765-4321', '+5511987654321'],
      ['EVP', '7D9F0335-8DCC-4054-9BF9-0DBD61A2B1C4', '7d9f0335-8dcc-4054-9bf9-0dbd61a2b1c4'],
    ];
    for (const [i, [pixKeyType, pixKey, stored]] of keys.entries()) {
      const document = makeCnpj(++seed);
      const created = await post(
        companyRecipient({ document, documentType: 'CNPJ', pixKey, pixKeyType, legalName: `  Empresa ${i}  `, label: ' NF ' }),
        who,
      );
      expect(created.status).toBe(201);
      expect(await adminRecipient(gateway, who, String(created.body.recipientId))).toMatchObject({
        document,
        documentType: 'cnpj',
        pixKey: stored,
        pixKeyType: pixKeyType.trim().toLowerCase(),
        legalName: `Empresa ${i}`,
        label: 'NF',
      });
    }
  });

  it('accepts an alphanumeric CNPJ (lower-case letters upper-cased) with its own CNPJ as key', async () => {
    const who = await freshMerchant();
    const created = await post(
      companyRecipient({ document: '12.abc.345/01de-35', pixKey: '12ABC34501DE35', pixKeyType: 'cnpj' }),
      who,
    );
    expect(created.status).toBe(201);
    expect(await adminRecipient(gateway, who, String(created.body.recipientId))).toMatchObject({
      document: '12ABC34501DE35',
      pixKey: '12ABC34501DE35',
    });
  });
});

describe('POST /v1/recipients recipientId', () => {
  it('is 24 lower-case hex: SHA-256 of account, document type and stripped document', async () => {
    const who = await freshMerchant();
    const created = await post(personRecipient(), who);
    expect(created).toEqual({ status: 201, body: { recipientId: expect.any(String), status: 'pending_review', note: NOTE_PENDING } });
    // HMAC under the server's RECIPIENT_ID_SECRET: deterministic, but not reversible without the secret.
    const expected = createHmac('sha256', TEST_RECIPIENT_ID_SECRET).update(`${who.accountId}:cpf:11144477735`).digest('hex').slice(0, 24);
    expect(created.body.recipientId).toBe(expected);
    expect(created.body.recipientId).toMatch(/^[0-9a-f]{24}$/);
  });

  it('is the same for the same document, formatted or not, and differs in another account', async () => {
    const one = await freshMerchant();
    const two = await freshMerchant();
    const formatted = await post(personRecipient({ document: '111.444.777-35' }), one);
    const plain = await post(personRecipient({ document: '11144477735', documentType: 'CPF' }), one);
    expect(formatted.status).toBe(201);
    expect(plain).toEqual({ status: 200, body: { ...formatted.body } });
    const other = await post(personRecipient({ document: '11144477735' }), two);
    expect(other.status).toBe(201);
    expect(other.body.recipientId).toMatch(/^[0-9a-f]{24}$/);
    expect(other.body.recipientId).not.toBe(formatted.body.recipientId);
    const company = await post(companyRecipient(), one);
    expect(company.body.recipientId).not.toBe(formatted.body.recipientId);
  });
});

describe('POST /v1/recipients idempotency by document (the contract four cases)', () => {
  it('new → 201 pending_review; again while pending → 200, same id, no duplicate, the data under review updated', async () => {
    const who = await freshMerchant();
    const first = await post(companyRecipient(), who);
    expect(first).toEqual({ status: 201, body: { recipientId: expect.stringMatching(/^[0-9a-f]{24}$/), status: 'pending_review', note: NOTE_PENDING } });
    const again = await post(companyRecipient({ legalName: 'Outro Nome SA', pixKey: 'novo@fornecedor.com.br', label: 'Novo' }), who);
    expect(again).toEqual({ status: 200, body: { ...first.body, note: messages.recipientNoteUpdated } });
    expect(await adminCount(who)).toBe(1);
    expect(await adminRecipient(gateway, who, String(first.body.recipientId))).toMatchObject({
      legalName: 'Outro Nome SA',
      pixKey: 'novo@fornecedor.com.br',
      label: 'Novo',
      status: 'pending_review',
    });
  });

  it('active → 200 active: the approval is not downgraded and the data is not changed', async () => {
    const who = await freshMerchant();
    const id = await register(gateway, who, companyRecipient());
    gateway.clock.advance(60_000);
    await review(gateway, who, id, 'approve');
    const approved = await adminRecipient(gateway, who, id);
    gateway.clock.advance(60_000);
    const again = await post(companyRecipient({ legalName: 'Outro Nome SA', pixKey: 'outra@empresa.com', label: 'Outro' }), who);
    expect(again).toEqual({ status: 200, body: { recipientId: id, status: 'active', note: NOTE_ACTIVE } });
    expect(await adminRecipient(gateway, who, id)).toEqual(approved);
    expect(await adminCount(who)).toBe(1);
  });

  for (const ending of ['reject', 'deactivate'] as const) {
    it(`after ${ending} → 200 pending_review with the submitted data, a new review`, async () => {
      const who = await freshMerchant();
      const id = await register(gateway, who, companyRecipient());
      if (ending === 'deactivate') await review(gateway, who, id, 'approve');
      await review(gateway, who, id, ending);
      gateway.clock.advance(120_000);
      const submittedAt = gateway.clock.now();
      const again = await post(
        companyRecipient({ legalName: 'Fornecedora Alfa S.A.', pixKey: '+55 21 99876-5432', pixKeyType: 'phone', label: undefined }),
        who,
      );
      expect(again).toEqual({ status: 200, body: { recipientId: id, status: 'pending_review', note: NOTE_PENDING } });
      expect(await adminRecipient(gateway, who, id)).toMatchObject({
        legalName: 'Fornecedora Alfa S.A.',
        pixKey: '+5521998765432',
        pixKeyType: 'phone',
        label: null,
        status: 'pending_review',
        reviewNote: null,
        approvedAt: null,
        reviewedAt: null,
        updatedAt: submittedAt,
      });
      expect(await adminCount(who)).toBe(1);
      // The new review can approve it again.
      await review(gateway, who, id, 'approve');
      expect((await adminRecipient(gateway, who, id))?.status).toBe('active');
    });
  }
});

describe('POST /v1/recipients ceiling (active + pending_review)', () => {
  const ceilingMessage = 'Limite de 10 destinatários atingido. Remova um inativo ou fale com o suporte.';

  it('admits 10, answers 422 to the 11th, and counts neither rejected nor deactivated ones', async () => {
    const who = await freshMerchant();
    const bodies = Array.from({ length: 10 }, () => newPerson());
    const ids: string[] = [];
    for (const body of bodies) ids.push(await register(gateway, who, body));
    for (const id of ids.slice(0, 4)) await review(gateway, who, id, 'approve');
    const eleventh = newPerson();
    expect(await post(eleventh, who)).toEqual({ status: 422, body: { error: ceilingMessage } });
    expect(messages.recipientCeiling(10)).toBe(ceilingMessage);
    expect(await adminCount(who)).toBe(10);
    // Documents already pending or active are answered, never blocked by the ceiling.
    expect((await post({ ...bodies[0], legalName: 'Outro Nome' }, who)).status).toBe(200);
    expect((await post(bodies[9], who)).status).toBe(200);

    await review(gateway, who, ids[9]!, 'reject'); // pending → rejected frees a place
    expect((await post(eleventh, who)).status).toBe(201);
    expect(await post(newPerson(), who)).toEqual({ status: 422, body: { error: ceilingMessage } });
    await review(gateway, who, ids[0]!, 'deactivate'); // active → deactivated frees a place
    const twelfth = newPerson();
    expect((await post(twelfth, who)).status).toBe(201);
    expect(await post(newPerson(), who)).toEqual({ status: 422, body: { error: ceilingMessage } });
    // Bringing the rejected one back would make 11 under review or active: it waits for a place too.
    expect(await post(bodies[9], who)).toEqual({ status: 422, body: { error: ceilingMessage } });
    expect((await adminCount(who, 'pending_review')) + (await adminCount(who, 'active'))).toBe(10);
  });

  it('follows the per-account recipientLimit set through the back office', async () => {
    const who = await freshMerchant({ recipientLimit: 3 });
    for (let i = 0; i < 3; i++) await register(gateway, who, newPerson());
    expect(await post(newPerson(), who)).toEqual({
      status: 422,
      body: { error: 'Limite de 3 destinatários atingido. Remova um inativo ou fale com o suporte.' },
    });
    await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', {
      params: { path: { accountId: who.accountId } },
      body: { recipientLimit: 4 },
    });
    expect((await post(newPerson(), who)).status).toBe(201);
    expect(await post(newPerson(), who)).toEqual({ status: 422, body: { error: messages.recipientCeiling(4) } });
  });

  it('is exact under 30 concurrent registrations of different documents: exactly 10 succeed', async () => {
    const who = await freshMerchant();
    const bodies = Array.from({ length: 30 }, () => newPerson());
    const results = await Promise.all(bodies.map((body) => post(body, who)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    for (const refused of results.filter((r) => r.status !== 201)) {
      expect(refused).toEqual({ status: 422, body: { error: ceilingMessage } });
    }
    expect(await adminCount(who)).toBe(10);
    expect(await adminCount(who, 'pending_review')).toBe(10);
  });
});

describe('POST /v1/recipients hourly limit', () => {
  const rateLimited = { status: 429, body: { error: 'Limite de requisições atingido.' } };

  it('admits 60 new registrations per UTC hour, then 429 without Retry-After; 200s for existing ones are not counted; resets at the hour', async () => {
    expect(messages.recipientsRateLimited).toBe(rateLimited.body.error);
    const who = await freshMerchant({ recipientLimit: 1000 });
    const hour = Math.floor(gateway.clock.now() / HOUR_MS + 1) * HOUR_MS;
    gateway.clock.set(hour + 10 * 60_000);
    const first = newPerson();
    expect((await post(first, who)).status).toBe(201);
    for (let i = 0; i < 20; i++) expect((await post(first, who)).status).toBe(200); // not counted
    // A refused request does not count either.
    expect((await post(newPerson({ legalName: 'A' }), who)).status).toBe(400);
    for (let i = 1; i < 60; i++) expect((await post(newPerson(), who)).status).toBe(201);
    gateway.clock.set(hour + HOUR_MS - 1);
    const over = await fetch(`${gateway.baseUrl}/v1/recipients`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${who.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(newPerson()),
    });
    expect({ status: over.status, body: await over.json() }).toEqual(rateLimited);
    expect(over.headers.get('retry-after')).toBeNull();
    // Existing pending and active documents are still answered (200) while the window is full.
    expect(await post(first, who)).toMatchObject({ status: 200, body: { status: 'pending_review' } });
    expect(await adminCount(who)).toBe(60);

    gateway.clock.set(hour + HOUR_MS);
    expect((await post(newPerson(), who)).status).toBe(201);
  });

  it('does not count registrations refused by the ceiling', async () => {
    const who = await freshMerchant({ recipientLimit: 1, recipientsPerHour: 2 });
    const hour = Math.floor(gateway.clock.now() / HOUR_MS + 1) * HOUR_MS;
    gateway.clock.set(hour);
    await register(gateway, who, newPerson());
    for (let i = 0; i < 5; i++) expect((await post(newPerson(), who)).status).toBe(422);
    await gateway.admin.PATCH('/admin/v1/accounts/{accountId}', { params: { path: { accountId: who.accountId } }, body: { recipientLimit: 5 } });
    expect((await post(newPerson(), who)).status).toBe(201);
    expect(await post(newPerson(), who)).toEqual(rateLimited);
  });

  it('follows recipientsPerHour; answers for already registered documents leave the slots free', async () => {
    const who = await freshMerchant({ recipientsPerHour: 3 });
    const hour = Math.floor(gateway.clock.now() / HOUR_MS + 1) * HOUR_MS;
    gateway.clock.set(hour);
    const a = newPerson();
    const aId = await register(gateway, who, a);
    expect((await post(a, who)).status).toBe(200);
    await review(gateway, who, aId, 'approve');
    expect(await post(a, who)).toMatchObject({ status: 200, body: { status: 'active' } });
    const b = newPerson();
    const bId = await register(gateway, who, b);
    await review(gateway, who, bId, 'reject');
    // A new review answers 200: its slot is given back.
    expect(await post(b, who)).toMatchObject({ status: 200, body: { status: 'pending_review' } });
    const c = newPerson();
    const cId = await register(gateway, who, c);
    expect(await post(newPerson(), who)).toEqual(rateLimited);
    expect(await post(a, who)).toMatchObject({ status: 200, body: { status: 'active' } });
    expect(await post(b, who)).toMatchObject({ status: 200, body: { status: 'pending_review' } });
    // With the window full, a new review of a rejected document waits for the next hour like a new one.
    await review(gateway, who, cId, 'reject');
    expect(await post(c, who)).toEqual(rateLimited);
    gateway.clock.set(hour + HOUR_MS + 1);
    expect(await post(c, who)).toMatchObject({ status: 200, body: { recipientId: cId, status: 'pending_review' } });
    expect((await post(newPerson(), who)).status).toBe(201);
  });
});
