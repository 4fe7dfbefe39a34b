import type { Kysely } from 'kysely';
import type { AccountRow, AccountUpdate, ApiKeyRow, Database, KycStatus } from '../db/schema.ts';
import { generateApiKey } from '../pix/apiKeys.ts';
import { validateDocument } from '../pix/documents.ts';
import { newId } from '../pix/ids.ts';
import { ApiError } from '../http/errors.ts';
import { insertAccount, insertApiKey, updateAccount } from './account.repository.ts';

/** Defaults of a new account (docs/decisions.md): fees, charge rate limit. */
export const ACCOUNT_DEFAULTS = {
  charge_fee_fixed_cents: 0,
  charge_fee_bps: 99,
  withdrawal_fee_fixed_cents: 100,
  withdrawal_fee_bps: 0,
  charge_rate_per_hour: 200,
} as const;

export interface NewAccountInput {
  legalName: string;
  responsibleCpf: string;
  companyCnpj: string;
  email: string;
  kycStatus?: KycStatus;
}

function requireDocument(type: 'cpf' | 'cnpj', value: string, field: string): string {
  const result = validateDocument(type, value);
  if (!result.ok) {
    const why = { characters: 'invalid characters', length: 'wrong length', checkDigits: 'wrong check digits' }[result.reason];
    throw new ApiError(400, `${field} is not a valid ${type.toUpperCase()} (${why}).`);
  }
  return result.document;
}

export async function createAccount(db: Kysely<Database>, input: NewAccountInput, now: Date): Promise<AccountRow> {
  const responsibleCpf = requireDocument('cpf', input.responsibleCpf, 'responsibleCpf');
  const companyCnpj = requireDocument('cnpj', input.companyCnpj, 'companyCnpj');
  return db.transaction().execute((trx) =>
    insertAccount(trx, {
      id: newId('acc'),
      legal_name: input.legalName.trim(),
      responsible_cpf: responsibleCpf,
      company_cnpj: companyCnpj,
      email: input.email.trim().toLowerCase(),
      kyc_status: input.kycStatus ?? 'pending',
      blocked: false,
      ip_allowlist: JSON.stringify([]),
      charge_min_cents: null,
      charge_max_cents: null,
      ...ACCOUNT_DEFAULTS,
      created_at: now,
      updated_at: now,
    }),
  );
}

export async function changeAccount(
  db: Kysely<Database>,
  accountId: string,
  changes: AccountUpdate,
  now: Date,
): Promise<AccountRow | undefined> {
  return updateAccount(db, accountId, { ...changes, updated_at: now });
}

export interface IssuedApiKey {
  row: ApiKeyRow;
  /** The full secret: returned once, never stored. */
  secret: string;
}

export async function issueApiKey(
  db: Kysely<Database>,
  account: AccountRow,
  label: string | null,
  now: Date,
): Promise<IssuedApiKey> {
  // The contract: keys are generated only for accounts with approved KYC.
  if (account.kyc_status !== 'approved') throw new ApiError(409, 'API keys require approved KYC.');
  const key = generateApiKey();
  const row = await insertApiKey(db, {
    id: newId('key'),
    account_id: account.id,
    public_prefix: key.publicPrefix,
    key_hash: key.hash,
    label,
    created_at: now,
    revoked_at: null,
  });
  return { row, secret: key.secret };
}
