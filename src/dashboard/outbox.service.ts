import { createHmac } from 'node:crypto';
import type { MailRow } from '../db/schema.ts';
import { sameToken } from '../identity/tokens.ts';
import type { Deps } from '../platform/deps.ts';
import { SandboxUnavailable, SecondFactorRequired, SessionRequired } from './dashboard.errors.ts';
import { outboxAvailable } from './sandbox.service.ts';
import { resolveSession } from './session.service.ts';
import { dashboardBaseUrl } from './user.service.ts';

/**
 * The development mail outbox (outside production, without SMTP): the e-mails stand in for mailboxes, and
 * they carry sign-in material (verification, password-reset and invitation links), so reading them is
 * reading everyone's mailbox. Who reads what (docs/dashboard.md, "Mail"):
 * - the person running the server, with the outbox key `npm start` prints (in the link to the page, whose
 *   script keeps it in the cookie `pixgate_outbox`, sent to this one path): every e-mail;
 * - a signed-in user (complete session): the e-mails sent to their own address;
 * - anyone else, from loopback too: nothing.
 */
export type OutboxAccess = 'all' | 'own' | 'none';

/**
 * The cookie that carries the outbox key. A cookie rather than a header: the access log redacts the Cookie
 * header (a custom header would be logged), and the page sets it for the outbox's path only, where the
 * dashboard's own scripts cannot read it back.
 */
export const OUTBOX_COOKIE = 'pixgate_outbox';

/**
 * The outbox key: an HMAC of a fixed label under the server's secrets key, so it needs no storage, is the
 * same in every process of one installation and after a restart, and changes with the secrets key.
 */
export function outboxKey(deps: Pick<Deps, 'secretsKey'>): string {
  return createHmac('sha256', deps.secretsKey).update('dev-outbox:v1').digest('base64url');
}

/** The page of the outbox with its key, as `npm start` prints it (the key is in the fragment: never sent, never logged). */
export function outboxLink(deps: Pick<Deps, 'config' | 'secretsKey'>): string {
  return `${dashboardBaseUrl(deps)}#/caixa-de-saida?chave=${outboxKey(deps)}`;
}

async function signedInEmail(deps: Deps, sessionToken: string | undefined): Promise<string | undefined> {
  try {
    return (await resolveSession(deps, sessionToken)).user.email;
  } catch (error) {
    if (error instanceof SessionRequired || error instanceof SecondFactorRequired) return undefined;
    throw error;
  }
}

export async function readOutbox(
  deps: Deps,
  input: { key: string | undefined; sessionToken: string | undefined; limit: number },
): Promise<{ access: OutboxAccess; mails: MailRow[] }> {
  if (!outboxAvailable(deps)) throw new SandboxUnavailable();
  if (input.key !== undefined && sameToken(input.key, outboxKey(deps))) {
    return { access: 'all', mails: await deps.mailer.recent({ limit: input.limit }) };
  }
  const email = await signedInEmail(deps, input.sessionToken);
  if (email === undefined) return { access: 'none', mails: [] };
  return { access: 'own', mails: await deps.mailer.recent({ to: email, limit: input.limit }) };
}
