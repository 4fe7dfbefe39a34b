import type { components } from '../../generated/api-types.ts';
import type { AccountContext } from '../accounts/auth.ts';
import type { RecipientRow } from '../db/schema.ts';
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
  insertRecipientForReview,
  listActiveRecipientRows,
  resubmitRecipientForReview,
} from './recipient.repository.ts';

type CreateRecipientRequest = components['schemas']['CreateRecipientRequest'];
type RecipientRegistration = components['schemas']['RecipientRegistration'];
type RecipientList = components['schemas']['RecipientList'];

const HOUR_MS = 3_600_000;

interface NormalizedRecipient {
  id: string;
  legalName: string;
  document: string;
  documentType: 'cpf' | 'cnpj';
  pixKey: string;
  pixKeyType: RecipientRow['pix_key_type'];
  label: string | null;
}

/** What the schema cannot say: trimmed name, document length and check digits, key against document. */
function normalize(accountId: string, body: CreateRecipientRequest): NormalizedRecipient {
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
    id: recipientIdFor(accountId, documentType, document.document),
    legalName,
    document: document.document,
    documentType,
    pixKey: key.ok ? key.key : body.pixKey,
    pixKeyType,
    label: body.label?.trim() || null,
  };
}

/** A new registration, or the recipient that already existed for this document (answered 200). */
export type RegisterOutcome = { kind: 'created' | 'existing'; body: RecipientRegistration };

function answer(kind: RegisterOutcome['kind'], row: RecipientRow): RegisterOutcome {
  const active = row.status === 'active';
  return { kind, body: { recipientId: row.id, status: active ? 'active' : 'pending_review', note: active ? messages.recipientNoteActive : messages.recipientNotePending } };
}

/**
 * POST /v1/recipients, idempotent by document (the contract's four cases): new → 201 pending_review;
 * pending → 200 unchanged; active → 200 active, approval not downgraded; rejected or deactivated →
 * 200 pending_review with the submitted data (a new review). New registrations and new reviews count
 * against the ceiling (active + pending_review); answers for an existing pending or active recipient
 * count against neither. Only 201 answers keep their slot of the hourly limit (the contract: a 200 for an
 * already registered document does not use one), though a new review needs a free slot to go ahead.
 */
export async function registerRecipient(deps: Deps, auth: AccountContext, body: CreateRecipientRequest): Promise<RegisterOutcome> {
  const recipient = normalize(auth.accountId, body);
  const existing = await findRecipient(deps.db, auth.accountId, recipient.id);
  if (existing && (existing.status === 'pending_review' || existing.status === 'active')) return answer('existing', existing);

  const nowMs = deps.clock.now();
  const slot = await tryConsume(
    deps.db,
    auth.accountId,
    { bucket: 'recipients:hour', windowMs: HOUR_MS, limit: auth.account.recipients_per_hour },
    nowMs,
  );
  if (!slot) throw new RecipientRateLimited();
  const now = new Date(nowMs);
  try {
    const outcome = await deps.db.transaction().execute(async (trx): Promise<RegisterOutcome> => {
      // One registration at a time per account, so the ceiling is exact under concurrency.
      await lockAccount(trx, auth.accountId);
      const current = await findRecipient(trx, auth.accountId, recipient.id);
      if (current && (current.status === 'pending_review' || current.status === 'active')) return answer('existing', current);
      const limit = auth.account.recipient_limit;
      if ((await countCountedRecipients(trx, auth.accountId)) >= limit) throw new RecipientCeilingReached(limit);
      const data = {
        legal_name: recipient.legalName,
        document: recipient.document,
        document_type: recipient.documentType,
        pix_key: recipient.pixKey,
        pix_key_type: recipient.pixKeyType,
        label: recipient.label,
      };
      if (current) return answer('existing', await resubmitRecipientForReview(trx, auth.accountId, recipient.id, data, now));
      return answer('created', await insertRecipientForReview(trx, auth.accountId, recipient.id, data, now));
    });
    if (outcome.kind === 'existing') await release(deps.db, auth.accountId, slot);
    return outcome;
  } catch (error) {
    await release(deps.db, auth.accountId, slot);
    throw error;
  }
}

/** GET /v1/recipients: active recipients only, newest approval first, documents masked. */
export async function listActiveRecipients(deps: Deps, accountId: string): Promise<RecipientList> {
  const rows = await listActiveRecipientRows(deps.db, accountId);
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
