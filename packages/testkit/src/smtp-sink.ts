import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The user it logged in as, if it did. */
  user: string | undefined;
  /** The raw message (headers and body), quoted-printable decoded. */
  text: string;
}

export interface SmtpSink {
  messages: ReceivedMail[];
  port: number;
  /** `smtp://…` for SMTP_URL, with the sink's password when it has one. */
  url: (user?: string) => string;
  close: () => Promise<void>;
}

/** A local SMTP server that keeps every message: accepts no login, or a login with `password` when given. */
export async function startSmtpSink(options: { password?: string } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, done) =>
      options.password !== undefined && auth.password === options.password
        ? done(null, { user: auth.username })
        : done(new Error('Invalid username or password')),
    onData: (stream, session, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          text: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    messages,
    port,
    url: (user) =>
      user && options.password !== undefined
        ? `smtp://${encodeURIComponent(user)}:${encodeURIComponent(options.password)}@127.0.0.1:${port}`
        : `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
