/** Owner of the `recipients` table (third-party withdrawal destinations and their review state). */
import type { Transaction } from 'kysely';
import type { Database, Db, RecipientRow, RecipientStatus } from '../db/schema.ts';

export function findRecipient(db: Db, accountId: string, recipientId: string): Promise<RecipientRow | undefined> {
  return db
    .selectFrom('recipients')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', recipientId)
    .executeTakeFirst();
}

/**
 * The recipient of a document in an account, whatever its id (ids derived before RECIPIENT_ID_SECRET are
 * kept): unique index recipients_account_document.
 */
export function findRecipientByDocument(
  db: Db,
  accountId: string,
  documentType: 'cpf' | 'cnpj',
  document: string,
): Promise<RecipientRow | undefined> {
  return db
    .selectFrom('recipients')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('document_type', '=', documentType)
    .where('document', '=', document)
    .executeTakeFirst();
}

/**
 * New data for a recipient still under review, in one conditional statement; undefined when it is no
 * longer `pending_review` (a review decided it meanwhile). The document, and so the id, never changes.
 */
export function updateRecipientUnderReview(
  db: Db,
  accountId: string,
  id: string,
  data: RecipientSubmission,
  now: Date,
): Promise<RecipientRow | undefined> {
  return db
    .updateTable('recipients')
    .set({ legal_name: data.legal_name, pix_key: data.pix_key, pix_key_type: data.pix_key_type, label: data.label, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'pending_review')
    .returningAll()
    .executeTakeFirst();
}

/**
 * A recipient's status read under a share lock, inside the caller's database transaction: a concurrent
 * review (deactivation) waits for the caller to commit, or the caller sees the review's outcome.
 */
export async function lockRecipientStatus(
  trx: Transaction<Database>,
  accountId: string,
  recipientId: string,
): Promise<RecipientRow['status'] | undefined> {
  const row = await trx
    .selectFrom('recipients')
    .select('status')
    .where('account_id', '=', accountId)
    .where('id', '=', recipientId)
    .forShare()
    .executeTakeFirst();
  return row?.status;
}

/** Active plus pending_review recipients: what the account's ceiling counts. */
export async function countCountedRecipients(trx: Transaction<Database>, accountId: string): Promise<number> {
  const counted = await trx
    .selectFrom('recipients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('status', 'in', ['active', 'pending_review'])
    .executeTakeFirstOrThrow();
  return Number(counted.n);
}

/** The data a registration submits for review. */
export type RecipientSubmission = Pick<
  RecipientRow,
  'legal_name' | 'document' | 'document_type' | 'pix_key' | 'pix_key_type' | 'label'
>;

/** A new registration, `pending_review`. */
export function insertRecipientForReview(
  trx: Transaction<Database>,
  accountId: string,
  id: string,
  data: RecipientSubmission,
  now: Date,
): Promise<RecipientRow> {
  return trx
    .insertInto('recipients')
    .values({ ...data, ...reviewReset(now), account_id: accountId, id, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A rejected or deactivated recipient submitted again: its new data goes back to review. */
export function resubmitRecipientForReview(
  trx: Transaction<Database>,
  accountId: string,
  id: string,
  data: RecipientSubmission,
  now: Date,
): Promise<RecipientRow> {
  return trx
    .updateTable('recipients')
    .set({ ...data, ...reviewReset(now) })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

function reviewReset(now: Date) {
  return { status: 'pending_review' as const, review_note: null, approved_at: null, reviewed_at: null, updated_at: now };
}

/**
 * Moves a recipient from `from` to `to` in one conditional statement (a review decision); undefined when
 * it is not (or no longer) in `from`.
 */
export function transitionRecipient(
  db: Db,
  key: { accountId: string; recipientId: string },
  change: { from: RecipientStatus; to: RecipientStatus; note: string | null; at: Date },
): Promise<RecipientRow | undefined> {
  return db
    .updateTable('recipients')
    .set({
      status: change.to,
      review_note: change.note,
      reviewed_at: change.at,
      updated_at: change.at,
      ...(change.to === 'active' ? { approved_at: change.at } : {}),
    })
    .where('account_id', '=', key.accountId)
    .where('id', '=', key.recipientId)
    .where('status', '=', change.from)
    .returningAll()
    .executeTakeFirst();
}

/** GET /v1/recipients: at most `limit` active recipients, newest approval first. */
export function listActiveRecipientRows(db: Db, accountId: string, limit: number): Promise<RecipientRow[]> {
  return db
    .selectFrom('recipients')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('status', '=', 'active')
    .orderBy('approved_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The back office's list of an account's recipients, oldest first, optionally of one status. */
export function listRecipientsOfAccount(db: Db, accountId: string, status?: RecipientStatus): Promise<RecipientRow[]> {
  let query = db.selectFrom('recipients').selectAll().where('account_id', '=', accountId);
  if (status !== undefined) query = query.where('status', '=', status);
  return query.orderBy('created_at').orderBy('id').execute();
}

/** Recipients of every account in one status with their account's legal name (read by join), oldest first. */
export function listRecipientsInStatus(db: Db, status: RecipientStatus, limit: number): Promise<(RecipientRow & { account_legal_name: string })[]> {
  return db
    .selectFrom('recipients as r')
    .innerJoin('accounts as a', 'a.id', 'r.account_id')
    .selectAll('r')
    .select('a.legal_name as account_legal_name')
    .where('r.status', '=', status)
    .orderBy('r.created_at')
    .orderBy('r.id')
    .limit(limit)
    .execute();
}
