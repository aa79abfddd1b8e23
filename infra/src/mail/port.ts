/** An email EVO sends (plain text: a link and a few sentences). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends EVO's emails (password reset links). */
export interface Mailer {
  /** how the messages leave: 'smtp' (a mail server) or 'log' (written to the server log) */
  readonly kind: 'smtp' | 'log';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
