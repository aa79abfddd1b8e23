import { createServer, type Server, type Socket } from 'node:net';

/** A message as the sink received it: the envelope's recipients and the decoded text body. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** The body of a single-part message, decoded from its Content-Transfer-Encoding. */
function decodeBody(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  // 7bit / 8bit: the bytes as sent (read as latin1 off the socket), UTF-8 text
  let text = Buffer.from(body, 'latin1').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = Buffer.from(
      body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    );
    text = bytes.toString('utf8');
  } else if (encoding === 'base64') {
    text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  const subjectRaw = header('Subject');
  // =?UTF-8?Q?...?= or =?UTF-8?B?...?= words
  const subject = subjectRaw.replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_m, kind: string, word: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(word, 'base64').toString('utf8')
      : Buffer.from(
          word.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
  return { subject, text: text.replace(/\r\n/g, '\n').replace(/\n$/, '') };
}

/**
 * A mail server for tests that accepts every message (plain SMTP, no authentication) and keeps
 * it: what EVO's SmtpMailer sends through nodemailer arrives here as a real client would send it.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  async start(): Promise<string> {
    this.server = createServer((socket) => this.session(socket));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    return `smtp://127.0.0.1:${port}`;
  }

  private session(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const raw = Buffer.from(data.join('\r\n'), 'latin1').toString('latin1');
            this.received.push({ to, ...decodeBody(raw) });
            data = [];
            to = [];
            reply('250 OK: queued');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          reply('250-sink');
          reply('250 8BITMIME');
        } else if (verb === 'HELO') reply('250 sink');
        else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('250 OK');
      }
    });
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
