import type { Logger } from 'pino';
import { childLogger } from '../logger';
import type { MailMessage, Mailer } from './port';

/**
 * Without SMTP_URL (the embedded mode on one's own machine): each message is written to the
 * server log, at info level, so that the operator can hand the link over.
 */
export class LogMailer implements Mailer {
  readonly kind = 'log' as const;
  constructor(private readonly log: Logger = childLogger('mail')) {}

  async send(message: MailMessage): Promise<void> {
    this.log.info(
      { to: message.to, subject: message.subject, text: message.text },
      `email non envoyé (SMTP_URL non défini), à transmettre à ${message.to} :\n${message.text}`,
    );
  }

  async close(): Promise<void> {}
}
