import type { MailMessage, Mailer } from './port';

/** What SmtpMailer uses of a nodemailer transport. */
interface Transport {
  sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
  close(): void;
}

/**
 * nodemailer's module name, in a variable: loaded on the first message only (a process that sends
 * none never loads it), and typed by `Transport` above rather than by its own declarations.
 */
const NODEMAILER = 'nodemailer';

/** Through a mail server (SMTP_URL: smtp://user:password@host:587 or smtps://...:465), with nodemailer. */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private transport: Promise<Transport> | undefined;

  constructor(
    private readonly url: string,
    private readonly from: string,
  ) {}

  private transporter(): Promise<Transport> {
    this.transport ??= (import(NODEMAILER) as Promise<{ default: { createTransport(url: string): Transport } }>).then(
      (m) => m.default.createTransport(this.url),
    );
    return this.transport;
  }

  async send(message: MailMessage): Promise<void> {
    const transport = await this.transporter();
    await transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
  }

  async close(): Promise<void> {
    if (this.transport) (await this.transport).close();
  }
}
