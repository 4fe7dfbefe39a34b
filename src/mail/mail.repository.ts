/** Owner of `mail_outbox`: every e-mail PixGate sends, kept for the development outbox page and for support. */
import type { Kysely } from 'kysely';
import type { Database, MailRow } from '../db/schema.ts';

export async function insertMail(db: Kysely<Database>, mail: { id: string; recipient: string; subject: string; bodyText: string; at: Date }): Promise<void> {
  await db
    .insertInto('mail_outbox')
    .values({ id: mail.id, recipient: mail.recipient, subject: mail.subject, body_text: mail.bodyText, created_at: mail.at, sent_at: null, error: null })
    .execute();
}

export async function markMailSent(db: Kysely<Database>, id: string, outcome: { at: Date } | { error: string }): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set('error' in outcome ? { error: outcome.error } : { sent_at: outcome.at })
    .where('id', '=', id)
    .execute();
}

/** The newest mails, optionally to one address. */
export function listMail(db: Kysely<Database>, filter: { recipient?: string | undefined; limit: number }): Promise<MailRow[]> {
  let query = db.selectFrom('mail_outbox').selectAll();
  if (filter.recipient !== undefined) query = query.where('recipient', '=', filter.recipient);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}
