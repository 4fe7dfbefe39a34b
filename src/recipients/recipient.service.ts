import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import type { AccountRow, RecipientRow } from '../db/schema.ts';
import type { Deps } from '../platform/deps.ts';
import { lockAccount } from '../accounts/account.repository.ts';
import { messages } from '../messages/merchant.ts';
import { maskDocument, normalizeDocumentType, validateDocument } from '../primitives/documents.ts';
import { recipientIdFor } from '../primitives/ids.ts';
import { normalizePixKey, normalizePixKeyType } from '../primitives/keys.ts';
import { release, tryConsume } from '../ratelimit/rateLimit.repository.ts';
import {
  InvalidLegalName,
  InvalidPixKey,
  InvalidPixKeyType,
  InvalidRecipientDocument,
  InvalidRecipientDocumentType,
  RecipientCeilingReached,
  RecipientKeyNotDocument,
  RecipientRateLimited,
} from './recipient.errors.ts';
import {
  countCountedRecipients,
  findRecipient,
  findRecipientByDocument,
  insertRecipientForReview,
  listActiveRecipientRows,
  resubmitRecipientForReview,
  updateRecipientUnderReview,
  type RecipientSubmission,
} from './recipient.repository.ts';

type CreateRecipientRequest = components['schemas']['CreateRecipientRequest'];
type RecipientRegistration = components['schemas']['RecipientRegistration'];
type RecipientList = components['schemas']['RecipientList'];

const HOUR_MS = 3_600_000;
/** The contract: "GET count also capped at 10". */
export const RECIPIENT_LIST_CAP = 10;

/** What the schema cannot say: trimmed name, document length and check digits, key against document. */
function normalize(body: CreateRecipientRequest): RecipientSubmission {
  const legalName = body.legalName.trim();
  if (legalName.length < 2) throw new InvalidLegalName();
  const documentType = normalizeDocumentType(body.documentType);
  if (!documentType) throw new InvalidRecipientDocumentType(body.documentType);
  const document = validateDocument(documentType, body.document);
  if (!document.ok) throw new InvalidRecipientDocument(documentType, document.reason, document.length);
  const pixKeyType = normalizePixKeyType(body.pixKeyType);
  if (!pixKeyType) throw new InvalidPixKeyType(body.pixKeyType);
  const key = normalizePixKey(pixKeyType, body.pixKey);
  if (pixKeyType === 'cpf' || pixKeyType === 'cnpj') {
    // The contract: a CPF/CNPJ key must be the recipient's own document, same digits and same type.
    if (pixKeyType !== documentType || !key.ok || key.key !== document.document) {
      throw new RecipientKeyNotDocument();
    }
  } else if (!key.ok) {
    throw new InvalidPixKey(pixKeyType);
  }
  return {
    legal_name: legalName,
    document: document.document,
    document_type: documentType,
    pix_key: key.ok ? key.key : body.pixKey,
    pix_key_type: pixKeyType,
    label: body.label?.trim() || null,
  };
}

/** The submitted data that a recipient under review would change (the document is the recipient itself). */
function changesUnderReview(row: RecipientRow, data: RecipientSubmission): boolean {
  return row.legal_name !== data.legal_name || row.pix_key !== data.pix_key || row.pix_key_type !== data.pix_key_type || row.label !== data.label;
}

/** A new registration, or the recipient that already existed for this document (answered 200). */
export type RegisterOutcome = { kind: 'created' | 'existing'; body: RecipientRegistration };

function answer(kind: RegisterOutcome['kind'], row: RecipientRow, note?: string): RegisterOutcome {
  const active = row.status === 'active';
  return {
    kind,
    body: {
      recipientId: row.id,
      status: active ? 'active' : 'pending_review',
      note: note ?? (active ? messages.recipientNoteActive : messages.recipientNotePending),
    },
  };
}

/**
 * A document already `pending_review` registered again: its review goes on with the data just sent (the
 * document, and so the recipientId, is the same), and the note says the data under review was updated.
 * Sent unchanged, nothing is written. A review that decided it meanwhile is answered as it now stands.
 */
async function resubmitUnderReview(deps: Deps, account: AccountRow, current: RecipientRow, data: RecipientSubmission): Promise<RegisterOutcome> {
  if (!changesUnderReview(current, data)) return answer('existing', current);
  const updated = await updateRecipientUnderReview(deps.db, account.id, current.id, data, new Date(deps.clock.now()));
  if (updated) return answer('existing', updated, messages.recipientNoteUpdated);
  const now = await findRecipient(deps.db, account.id, current.id);
  if (now?.status === 'active') return answer('existing', now);
  // Rejected in between: a new review with the new data, through the ceiling and rate limit.
  return register(deps, account, data);
}

/**
 * POST /v1/recipients, idempotent by document (the contract's four cases): new → 201 pending_review;
 * pending → 200 pending_review, the data under review updated with what was sent (said in the note);
 * active → 200 active, approval not downgraded, data not replaced; rejected or deactivated → 200
 * pending_review with the submitted data (a new review). A recipient is found by account and document, so
 * one registered before RECIPIENT_ID_SECRET keeps its id; a new one gets `recipientIdFor` (HMAC).
 * New registrations and new reviews count against the ceiling (active + pending_review); answers for an
 * existing pending or active recipient count against neither. Only 201 answers keep their slot of the
 * hourly limit (the contract: a 200 for an already registered document does not use one), though a new
 * review needs a free slot to go ahead.
 */
export async function registerRecipient(deps: Deps, auth: AccountContext, body: CreateRecipientRequest): Promise<RegisterOutcome> {
  return register(deps, auth.account, normalize(body));
}

async function register(deps: Deps, account: AccountRow, data: RecipientSubmission): Promise<RegisterOutcome> {
  const accountId = account.id;
  const existing = await findRecipientByDocument(deps.db, accountId, data.document_type, data.document);
  if (existing?.status === 'active') return answer('existing', existing);
  if (existing?.status === 'pending_review') return resubmitUnderReview(deps, account, existing, data);

  const nowMs = deps.clock.now();
  const slot = await tryConsume(deps.db, accountId, { bucket: 'recipients:hour', windowMs: HOUR_MS, limit: account.recipients_per_hour }, nowMs);
  if (!slot) throw new RecipientRateLimited();
  const now = new Date(nowMs);
  try {
    const outcome = await deps.db.transaction().execute(async (trx): Promise<RegisterOutcome | RecipientRow> => {
      // One registration at a time per account, so the ceiling is exact under concurrency.
      await lockAccount(trx, accountId);
      const current = await findRecipientByDocument(trx, accountId, data.document_type, data.document);
      if (current?.status === 'active') return answer('existing', current);
      // Registered concurrently and still under review: handled below, outside this transaction.
      if (current?.status === 'pending_review') return current;
      const limit = account.recipient_limit;
      if ((await countCountedRecipients(trx, accountId)) >= limit) throw new RecipientCeilingReached(limit);
      if (current) return answer('existing', await resubmitRecipientForReview(trx, accountId, current.id, data, now));
      const id = recipientIdFor(recipientIdSecret(deps), accountId, data.document_type, data.document);
      return answer('created', await insertRecipientForReview(trx, accountId, id, data, now));
    });
    if (!('kind' in outcome)) {
      await release(deps.db, accountId, slot);
      return resubmitUnderReview(deps, account, outcome, data);
    }
    if (outcome.kind === 'existing') await release(deps.db, accountId, slot);
    return outcome;
  } catch (error) {
    await release(deps.db, accountId, slot);
    throw error;
  }
}

function recipientIdSecret(deps: Deps): string {
  const secret = deps.config.recipientIdSecret;
  // loadConfig requires it in production and src/main.ts generates one elsewhere: never derive without it.
  if (!secret) throw new Error('RECIPIENT_ID_SECRET is not configured');
  return secret;
}

/**
 * GET /v1/recipients: active recipients, newest approval first, documents masked; at most 10 (the
 * contract caps the count at 10). An account whose ceiling was raised above 10 sees its 10 most recently
 * approved; the others stay usable in withdrawals (POST /v1/recipients answers their recipientId).
 */
export async function listActiveRecipients(deps: Deps, accountId: string): Promise<RecipientList> {
  const rows = await listActiveRecipientRows(deps.db, accountId, RECIPIENT_LIST_CAP);
  return {
    recipients: rows.map((row) => ({
      recipientId: row.id,
      legalName: row.legal_name,
      documentType: row.document_type,
      documentMasked: maskDocument(row.document, row.document_type),
      label: row.label,
      approvedAt: (row.approved_at ?? row.updated_at).getTime(),
    })),
    count: rows.length,
  };
}
