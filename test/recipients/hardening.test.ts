import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/messages/merchant.ts';
import { createMerchant, fund, relaxLimits, startGateway, TEST_RECIPIENT_ID_SECRET, type Gateway } from '../support/gateway.ts';
import { adminRecipient, companyRecipient, makeCnpj, personRecipient, postRecipient, register, registerActive, review } from './support.ts';

/**
 * Issue 12, points 4, 5 and 7: GET /v1/recipients never counts more than 10; recipientIds are an HMAC
 * under a server secret (not reversible to the CPF), while ids stored before keep working; re-registering a
 * recipient under review updates the data under review and says so.
 */
let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  expect(gateway.loggedErrors).toEqual([]);
  await gateway.close();
});

describe('GET /v1/recipients count is capped at 10 (the contract)', () => {
  it('an account whose ceiling was raised to 15 sees its 10 most recently approved, count 10', async () => {
    const merchant = await createMerchant(gateway);
    await relaxLimits(gateway, merchant.accountId, { recipientLimit: 15 });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      gateway.clock.advance(1_000);
      ids.push(await registerActive(gateway, merchant, companyRecipient({ legalName: `Fornecedor ${i} Ltda`, document: makeCnpj(900 + i) })));
    }
    const { data } = await merchant.client.GET('/v1/recipients');
    expect(data?.count).toBe(10);
    expect(data?.recipients).toHaveLength(10);
    expect(data?.recipients.map((r) => r.recipientId).sort()).toEqual(ids.slice(2).sort());
  });
});

describe('recipientId is an HMAC under RECIPIENT_ID_SECRET', () => {
  it('is not the unkeyed SHA-256 of account and document, which an attacker could reverse', async () => {
    const merchant = await createMerchant(gateway);
    const id = await register(gateway, merchant, personRecipient());
    const unkeyed = createHash('sha256').update(`${merchant.accountId}:cpf:11144477735`).digest('hex').slice(0, 24);
    expect(id).not.toBe(unkeyed);
    expect(id).toBe(createHmac('sha256', TEST_RECIPIENT_ID_SECRET).update(`${merchant.accountId}:cpf:11144477735`).digest('hex').slice(0, 24));
  });

  it('a recipient stored with an id of the old derivation keeps it: registration, listing, review and withdrawals', async () => {
    const merchant = await createMerchant(gateway);
    await relaxLimits(gateway, merchant.accountId);
    await fund(gateway, merchant, 100_000);
    const document = makeCnpj(4242);
    const legacyId = createHash('sha256').update(`${merchant.accountId}:cnpj:${document}`).digest('hex').slice(0, 24);
    const now = new Date(gateway.clock.now());
    await gateway.deps.db
      .insertInto('recipients')
      .values({
        account_id: merchant.accountId,
        id: legacyId,
        legal_name: 'Fornecedora Antiga Ltda',
        document,
        document_type: 'cnpj',
        pix_key: 'antiga@fornecedor.com.br',
        pix_key_type: 'email',
        label: null,
        status: 'pending_review',
        review_note: null,
        created_at: now,
        updated_at: now,
        approved_at: null,
        reviewed_at: null,
      })
      .execute();

    const again = await postRecipient(gateway, merchant, companyRecipient({ legalName: 'Fornecedora Antiga Ltda', document, pixKey: 'antiga@fornecedor.com.br', label: undefined }));
    expect(again).toEqual({ status: 200, body: { recipientId: legacyId, status: 'pending_review', note: messages.recipientNotePending } });
    await review(gateway, merchant, legacyId, 'approve');
    const listed = await merchant.client.GET('/v1/recipients');
    expect(listed.data?.recipients.map((r) => r.recipientId)).toEqual([legacyId]);
    const withdrawal = await fetch(`${gateway.baseUrl}/v1/withdraw`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${merchant.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amountCents: 1000, pixKey: 'antiga@fornecedor.com.br', pixKeyType: 'email', recipientId: legacyId }),
    });
    expect(withdrawal.status).toBe(201);
    // Registered again once active: still the stored id, never a second recipient for the document.
    const active = await postRecipient(gateway, merchant, companyRecipient({ document }));
    expect(active).toEqual({ status: 200, body: { recipientId: legacyId, status: 'active', note: messages.recipientNoteActive } });
  });
});

describe('re-registering a recipient still under review', () => {
  it('updates the data under review and says so in the note; the same data changes nothing', async () => {
    const merchant = await createMerchant(gateway);
    const id = await register(gateway, merchant, companyRecipient());
    const same = await postRecipient(gateway, merchant, companyRecipient());
    expect(same).toEqual({ status: 200, body: { recipientId: id, status: 'pending_review', note: messages.recipientNotePending } });

    gateway.clock.advance(5_000);
    const changed = await postRecipient(gateway, merchant, companyRecipient({ legalName: 'Fornecedora Alfa Comércio Ltda', pixKey: 'pix@alfa.com.br', label: 'Alfa' }));
    expect(changed).toEqual({ status: 200, body: { recipientId: id, status: 'pending_review', note: messages.recipientNoteUpdated } });
    expect(messages.recipientNoteUpdated).toMatch(/não habilita saques/);
    expect(await adminRecipient(gateway, merchant, id)).toMatchObject({
      legalName: 'Fornecedora Alfa Comércio Ltda',
      pixKey: 'pix@alfa.com.br',
      label: 'Alfa',
      status: 'pending_review',
    });
  });
});
