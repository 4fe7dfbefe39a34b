import { expect } from 'vitest';
import type { Gateway, MerchantFixture } from '../support/gateway.ts';

/**
 * Helpers of the recipient suites (and of the Mode 2 withdrawal suite): raw POST /v1/recipients, the back
 * office's review actions, and valid documents that differ per call.
 */

export type Body = Record<string, unknown>;
export type Answer = { status: number; body: Body };

/** A valid person recipient whose key is its own CPF. */
export const personRecipient = (overrides: Body = {}): Body => ({
  legalName: 'João Pereira Santos',
  document: '111.444.777-35',
  documentType: 'cpf',
  pixKey: '11144477735',
  pixKeyType: 'cpf',
  ...overrides,
});

/** A valid company recipient with an e-mail key. */
export const companyRecipient = (overrides: Body = {}): Body => ({
  legalName: 'Fornecedora Alfa Ltda',
  document: '13.723.705/0001-89',
  documentType: 'cnpj',
  pixKey: 'financeiro@fornecedor.com.br',
  pixKeyType: 'email',
  label: 'Fornecedor de embalagens',
  ...overrides,
});

export async function postRecipient(gateway: Gateway, merchant: MerchantFixture, body: unknown): Promise<Answer> {
  const response = await fetch(`${gateway.baseUrl}/v1/recipients`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${merchant.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

type Review = 'approve' | 'reject' | 'deactivate';

/** A back-office review action; fails the test unless it answers 200. */
export async function review(gateway: Gateway, merchant: MerchantFixture, recipientId: string, action: Review): Promise<void> {
  const params = { path: { accountId: merchant.accountId, recipientId } };
  const result =
    action === 'approve'
      ? await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/approve', { params })
      : action === 'reject'
        ? await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/reject', { params, body: {} })
        : await gateway.admin.POST('/admin/v1/accounts/{accountId}/recipients/{recipientId}/deactivate', { params, body: {} });
  expect(result.response.status, `${action} ${recipientId}: ${JSON.stringify(result.error)}`).toBe(200);
}

/** Registers a recipient (expecting 201) and returns its id. */
export async function register(gateway: Gateway, merchant: MerchantFixture, body: Body): Promise<string> {
  const created = await postRecipient(gateway, merchant, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return String(created.body.recipientId);
}

/** Registers and approves a recipient; returns its id. */
export async function registerActive(gateway: Gateway, merchant: MerchantFixture, body: Body): Promise<string> {
  const id = await register(gateway, merchant, body);
  await review(gateway, merchant, id, 'approve');
  return id;
}

/** The back office's record of one recipient (every status, document unmasked). */
export async function adminRecipient(gateway: Gateway, merchant: MerchantFixture, recipientId: string) {
  const listed = await gateway.admin.GET('/admin/v1/accounts/{accountId}/recipients', {
    params: { path: { accountId: merchant.accountId } },
  });
  return listed.data?.recipients.find((r) => r.recipientId === recipientId);
}

function checkDigit(values: number[], weights: number[]): number {
  const rest = values.reduce((sum, value, i) => sum + value * (weights[i] ?? 0), 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A valid numeric CNPJ that differs per seed (base 8 digits from the seed, branch 0001). */
export function makeCnpj(seed: number): string {
  const base = String(10_000_000 + ((seed * 7_919) % 89_999_999)).split('').map(Number);
  const twelve = [...base, 0, 0, 0, 1];
  const d1 = checkDigit(twelve, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = checkDigit([...twelve, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...twelve, d1, d2].join('');
}
