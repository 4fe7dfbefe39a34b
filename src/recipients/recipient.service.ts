import type { components } from '../../generated/api-types.ts';
import type { AuthContext } from '../accounts/auth.ts';
import type { RecipientRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { badRequest, tooManyRequests, unprocessable } from '../http/errors.ts';
import { messages } from '../http/messages.ts';
import { maskDocument, normalizeDocumentType, validateDocument } from '../pix/documents.ts';
import { recipientIdFor } from '../pix/ids.ts';
import { normalizePixKey, normalizePixKeyType } from '../pix/keys.ts';
import { release, tryConsume } from '../ratelimit/rateLimiter.ts';
import { findRecipient } from './recipient.repository.ts';

type CreateRecipientRequest = components['schemas']['CreateRecipientRequest'];
type RecipientRegistration = components['schemas']['RecipientRegistration'];
type RecipientList = components['schemas']['RecipientList'];

const HOUR_MS = 3_600_000;
export const NOTE_PENDING =
  'Cadastro recebido para análise de compliance da PixGate. Ele não habilita saques até ser aprovado.';
export const NOTE_ACTIVE = 'Destinatário já aprovado; este cadastro não altera a aprovação.';

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
  if (legalName.length < 2) throw badRequest(messages.legalName);
  const documentType = normalizeDocumentType(body.documentType);
  if (!documentType) throw badRequest(messages.recipientDocumentType(body.documentType));
  const document = validateDocument(documentType, body.document);
  if (!document.ok) {
    if (document.reason === 'characters') throw badRequest(messages.recipientDocumentCharacters);
    if (document.reason === 'length') {
      throw badRequest(
        documentType === 'cpf' ? messages.recipientCpfLength(document.length) : messages.recipientCnpjLength(document.length),
      );
    }
    throw badRequest(documentType === 'cpf' ? messages.recipientCpfInvalid : messages.recipientCnpjInvalid);
  }
  const pixKeyType = normalizePixKeyType(body.pixKeyType);
  if (!pixKeyType) throw badRequest(messages.pixKeyType(body.pixKeyType));
  const key = normalizePixKey(pixKeyType, body.pixKey);
  if (pixKeyType === 'cpf' || pixKeyType === 'cnpj') {
    // The contract: a CPF/CNPJ key must be the recipient's own document, same digits and same type.
    if (pixKeyType !== documentType || !key.ok || key.key !== document.document) {
      throw badRequest(messages.recipientKeyNotDocument);
    }
  } else if (!key.ok) {
    throw badRequest(messages.pixKeyInvalid(pixKeyType));
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

export type RegisterOutcome = { status: 201 | 200; body: RecipientRegistration };

function answer(status: 201 | 200, row: RecipientRow): RegisterOutcome {
  const active = row.status === 'active';
  return { status, body: { recipientId: row.id, status: active ? 'active' : 'pending_review', note: active ? NOTE_ACTIVE : NOTE_PENDING } };
}

/**
 * POST /v1/recipients, idempotent by document (the contract's four cases): new → 201 pending_review;
 * pending → 200 unchanged; active → 200 active, approval not downgraded; rejected or deactivated →
 * 200 pending_review with the submitted data (a new review). New registrations and new reviews count
 * against the ceiling (active + pending_review); answers for an existing pending or active recipient
 * count against neither. Only 201 answers keep their slot of the hourly limit (the contract: a 200 for an
 * already registered document does not use one), though a new review needs a free slot to go ahead.
 */
export async function registerRecipient(deps: Deps, auth: AuthContext, body: CreateRecipientRequest): Promise<RegisterOutcome> {
  const recipient = normalize(auth.accountId, body);
  const existing = await findRecipient(deps.db, auth.accountId, recipient.id);
  if (existing && (existing.status === 'pending_review' || existing.status === 'active')) return answer(200, existing);

  const nowMs = deps.clock.now();
  const slot = await tryConsume(
    deps.db,
    auth.accountId,
    { bucket: 'recipients:hour', windowMs: HOUR_MS, limit: auth.account.recipients_per_hour },
    nowMs,
  );
  if (!slot) throw tooManyRequests(messages.recipientsRateLimited);
  const now = new Date(nowMs);
  try {
    const outcome = await deps.db.transaction().execute(async (trx): Promise<RegisterOutcome> => {
      // One registration at a time per account, so the ceiling is exact under concurrency.
      await trx.selectFrom('accounts').select('id').where('id', '=', auth.accountId).forUpdate().execute();
      const current = await findRecipient(trx, auth.accountId, recipient.id);
      if (current && (current.status === 'pending_review' || current.status === 'active')) return answer(200, current);
      const counted = await trx
        .selectFrom('recipients')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', auth.accountId)
        .where('status', 'in', ['active', 'pending_review'])
        .executeTakeFirstOrThrow();
      const limit = auth.account.recipient_limit;
      if (Number(counted.n) >= limit) throw unprocessable(messages.recipientCeiling(limit));
      const data = {
        legal_name: recipient.legalName,
        document: recipient.document,
        document_type: recipient.documentType,
        pix_key: recipient.pixKey,
        pix_key_type: recipient.pixKeyType,
        label: recipient.label,
        status: 'pending_review' as const,
        review_note: null,
        approved_at: null,
        reviewed_at: null,
        updated_at: now,
      };
      if (current) {
        const renewed = await trx
          .updateTable('recipients')
          .set(data)
          .where('account_id', '=', auth.accountId)
          .where('id', '=', recipient.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return answer(200, renewed);
      }
      const created = await trx
        .insertInto('recipients')
        .values({ ...data, account_id: auth.accountId, id: recipient.id, created_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      return answer(201, created);
    });
    if (outcome.status === 200) await release(deps.db, auth.accountId, slot);
    return outcome;
  } catch (error) {
    await release(deps.db, auth.accountId, slot);
    throw error;
  }
}

/** GET /v1/recipients: active recipients only, newest approval first, documents masked. */
export async function listActiveRecipients(deps: Deps, accountId: string): Promise<RecipientList> {
  const rows = await deps.db
    .selectFrom('recipients')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('status', '=', 'active')
    .orderBy('approved_at', 'desc')
    .orderBy('id')
    .execute();
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
