import { notAudited, withAudit, type AuditStep } from '../audit/audit.service.ts';
import type { Transaction } from 'kysely';
import type { AccountRow, AccountUpdate, ApiKeyRow, Database, KycStatus } from '../db/schema.ts';
import { openLedgerAccounts } from '../ledger/ledger.repository.ts';
import type { Deps } from '../platform/deps.ts';
import { generateApiKey } from '../primitives/apiKeys.ts';
import { validateDocument } from '../primitives/documents.ts';
import { newId } from '../primitives/ids.ts';
import { AccountNotFound, ApiKeyNotFound, ApiKeysNeedApprovedKyc, InvalidAccountDocument, InvalidAccountListQuery, InvalidChargeRange } from './account.errors.ts';
import { accountLegalNames, countAccounts, findAccount, insertAccount, listAccountsPage, updateAccount } from './account.repository.ts';
import { insertApiKey, listApiKeys, revokeApiKey } from './apiKey.repository.ts';

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
  kycStatus?: KycStatus | undefined;
  /** The merchant's municipality (issue 38), already checked against the IBGE's list; none: not told. */
  city?: { name: string; state: string; ibgeCode: string } | undefined;
}

function requireDocument(type: 'cpf' | 'cnpj', value: string, field: string): string {
  const result = validateDocument(type, value);
  if (!result.ok) throw new InvalidAccountDocument(field, type, result.reason);
  return result.document;
}

/** Onboards a merchant: the account (KYC pending unless said otherwise) and its empty balance. */
export function createAccount(deps: Pick<Deps, 'db'>, input: NewAccountInput, now: Date, audit: AuditStep<AccountRow> = notAudited): Promise<AccountRow> {
  checkDocuments(input);
  return withAudit(deps.db, audit, (trx) => openAccount(trx, input, now));
}

function checkDocuments(input: NewAccountInput): { responsibleCpf: string; companyCnpj: string } {
  return {
    responsibleCpf: requireDocument('cpf', input.responsibleCpf, 'responsibleCpf'),
    companyCnpj: requireDocument('cnpj', input.companyCnpj, 'companyCnpj'),
  };
}

/** `createAccount` inside the caller's database transaction (sign-up creates the account and its owner together). */
export async function openAccount(trx: Transaction<Database>, input: NewAccountInput, now: Date): Promise<AccountRow> {
  const { responsibleCpf, companyCnpj } = checkDocuments(input);
  const account = await insertAccount(trx, {
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
    city: input.city?.name ?? null,
    state: input.city?.state ?? null,
    city_ibge_code: input.city?.ibgeCode ?? null,
    ...ACCOUNT_DEFAULTS,
    created_at: now,
    updated_at: now,
  });
  await openLedgerAccounts(trx, account.id, now);
  return account;
}

export function isEmptyInstallation(deps: Pick<Deps, 'db'>): Promise<boolean> {
  return countAccounts(deps.db).then((count) => count === 0);
}

export async function requireAccount(deps: Pick<Deps, 'db'>, accountId: string): Promise<AccountRow> {
  const account = await findAccount(deps.db, accountId);
  if (!account) throw new AccountNotFound();
  return account;
}

const KYC_FILTERS = new Set(['pending', 'approved', 'rejected', 'all']);

/**
 * The console's accounts list: of one KYC status (or all), one page of `limit` after `cursor` (the last
 * account id of the previous page), or every account without `limit`. Wrong parameters: InvalidAccountListQuery.
 */
export async function accountsPage(
  deps: Pick<Deps, 'db'>,
  query: { kycStatus?: string | undefined; limit?: string | undefined; cursor?: string | undefined; emailVerified?: string | undefined },
): Promise<{ accounts: AccountRow[]; nextCursor: string | null }> {
  const kyc = query.kycStatus ?? 'all';
  if (!KYC_FILTERS.has(kyc)) throw new InvalidAccountListQuery('kycStatus');
  if (query.emailVerified !== undefined && query.emailVerified !== 'true' && query.emailVerified !== 'false') throw new InvalidAccountListQuery('emailVerified');
  let limit: number | undefined;
  if (query.limit !== undefined) {
    if (!/^\d{1,3}$/.test(query.limit) || Number(query.limit) < 1 || Number(query.limit) > 100) throw new InvalidAccountListQuery('limit');
    limit = Number(query.limit);
  }
  let after: { createdAt: Date; id: string } | undefined;
  if (query.cursor !== undefined) {
    const last = /^acc_[0-9a-f]{24}$/.test(query.cursor) ? await findAccount(deps.db, query.cursor) : undefined;
    if (!last) throw new InvalidAccountListQuery('cursor');
    after = { createdAt: last.created_at, id: last.id };
  }
  // One more than asked tells whether a next page exists.
  const rows = await listAccountsPage(deps.db, {
    kycStatus: kyc === 'all' ? undefined : (kyc as AccountRow['kyc_status']),
    emailVerified: query.emailVerified === undefined ? undefined : query.emailVerified === 'true',
    after,
    limit: limit === undefined ? undefined : limit + 1,
  });
  if (limit === undefined || rows.length <= limit) return { accounts: rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { accounts: page, nextCursor: page[page.length - 1]?.id ?? null };
}

/**
 * Changes an account's settings (KYC, blocking, allowlist, ranges, fees, limits). The charge range must not
 * end below its start. The merchant API's authentication cache of this process forgets the account at
 * once; other processes see the change within their cache time (at most 30 s, as the contract allows).
 */
export async function changeAccountSettings(deps: Deps, accountId: string, changes: AccountUpdate, audit: AuditStep<AccountRow> = notAudited): Promise<AccountRow> {
  const updated = await withAudit(deps.db, audit, async (trx) => {
    const current = await requireAccount({ db: trx }, accountId);
    const min = changes.charge_min_cents !== undefined ? changes.charge_min_cents : current.charge_min_cents;
    const max = changes.charge_max_cents !== undefined ? changes.charge_max_cents : current.charge_max_cents;
    if (min !== null && max !== null && max < min) throw new InvalidChargeRange();
    const row = await updateAccount(trx, current.id, { ...changes, updated_at: new Date(deps.clock.now()) });
    if (!row) throw new AccountNotFound();
    return row;
  });
  deps.authenticator.invalidateAccount(updated.id);
  return updated;
}

export interface IssuedApiKey {
  row: ApiKeyRow;
  /** The full secret: returned once, never stored. */
  secret: string;
}

/** A new API key of an account; the contract: keys are generated only for accounts with approved KYC. */
export async function issueApiKey(
  deps: Pick<Deps, 'db'>,
  account: AccountRow,
  label: string | null,
  now: Date,
  createdBy: string | null = null,
  audit: AuditStep<ApiKeyRow> = notAudited,
): Promise<IssuedApiKey> {
  if (account.kyc_status !== 'approved') throw new ApiKeysNeedApprovedKyc();
  const key = generateApiKey();
  const row = await withAudit(deps.db, audit, (trx) => insertApiKey(trx, {
    id: newId('key'),
    account_id: account.id,
    public_prefix: key.publicPrefix,
    key_hash: key.hash,
    label,
    created_at: now,
    revoked_at: null,
    created_by: createdBy,
  }));
  return { row, secret: key.secret };
}

export async function apiKeysOf(deps: Pick<Deps, 'db'>, accountId: string): Promise<ApiKeyRow[]> {
  await requireAccount(deps, accountId);
  return listApiKeys(deps.db, accountId);
}

/** Revokes a key: this process stops accepting it at once, others within their cache time. */
export async function revokeKey(deps: Deps, accountId: string, keyId: string, audit: AuditStep<ApiKeyRow> = notAudited): Promise<ApiKeyRow> {
  const key = await withAudit(deps.db, audit, async (trx) => {
    const revoked = await revokeApiKey(trx, accountId, keyId, new Date(deps.clock.now()));
    if (!revoked) throw new ApiKeyNotFound();
    return revoked;
  });
  deps.authenticator.invalidateAccount(key.account_id);
  return key;
}

/** The legal names of these accounts, by id (issue 38: the approval queue names the company, not only its id). */
export function legalNamesOf(deps: Pick<Deps, 'db'>, accountIds: readonly string[]): Promise<Map<string, string>> {
  return accountLegalNames(deps.db, accountIds);
}
