import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database, MailRow } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { newId } from '../primitives/ids.ts';
import { insertMail, listMail, markMailSent } from './mail.repository.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** The outbox (newest first): the development page and the tests read sign-up and reset links here. */
  recent(filter: { to?: string | undefined; limit: number }): Promise<MailRow[]>;
}

/**
 * Every e-mail is written to the outbox table first, then sent through SMTP (nodemailer) when `SMTP_URL` is
 * configured. Without SMTP (allowed outside production only) the outbox is the delivery: the log says where
 * to read it, without the body (which carries sign-in links).
 */
export function createMailer(options: {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  smtpUrl: string | undefined;
  from: string;
  outboxUrl: string | undefined;
}): Mailer {
  const transport: Transporter | undefined = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
  return {
    async send(mail) {
      const id = newId('mail');
      const at = new Date(options.clock.now());
      await insertMail(options.db, { id, recipient: mail.to, subject: mail.subject, bodyText: mail.text, at });
      if (!transport) {
        options.logger.info('e-mail written to the outbox (no SMTP configured)', { mailId: id, to: mail.to, subject: mail.subject, outbox: options.outboxUrl });
        return;
      }
      try {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
        await markMailSent(options.db, id, { at: new Date(options.clock.now()) });
      } catch (error) {
        // The user can ask again (resend verification, reset password); the failure is kept for support.
        const reason = error instanceof Error ? error.message : String(error);
        await markMailSent(options.db, id, { error: reason.slice(0, 500) });
        options.logger.error('e-mail could not be sent', { mailId: id, to: mail.to, error: reason });
      }
    },
    recent: (filter) => listMail(options.db, { recipient: filter.to, limit: filter.limit }),
  };
}
