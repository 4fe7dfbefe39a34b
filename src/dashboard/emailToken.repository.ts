/** Owner of `dashboard_email_tokens`: single-use links sent by e-mail (verification, password reset, invitation). */
import type { Db, EmailTokenPurpose } from '../db/schema.ts';

export async function insertEmailToken(
  db: Db,
  token: { tokenHash: string; userId: string; purpose: EmailTokenPurpose; at: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('dashboard_email_tokens')
    .values({ token_hash: token.tokenHash, user_id: token.userId, purpose: token.purpose, created_at: token.at, expires_at: token.expiresAt, used_at: null })
    .execute();
}

/** Uses a link once: the user it belongs to, or undefined when unknown, expired, used, or for another purpose. */
export async function consumeEmailToken(db: Db, tokenHash: string, purpose: EmailTokenPurpose, now: Date): Promise<string | undefined> {
  const row = await db
    .updateTable('dashboard_email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Earlier links of the same purpose stop working when a new one is sent. */
export async function expireEmailTokens(db: Db, userId: string, purpose: EmailTokenPurpose, now: Date): Promise<void> {
  await db
    .updateTable('dashboard_email_tokens')
    .set({ expires_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

/** The user a still-usable link belongs to, without using it. */
export async function findEmailTokenUser(db: Db, tokenHash: string, now: Date): Promise<string | undefined> {
  const row = await db
    .selectFrom('dashboard_email_tokens')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.user_id;
}
