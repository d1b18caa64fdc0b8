import { createTransport } from 'nodemailer';

/** Where and as whom notices are sent: `SMTP_URL` (`smtp://user:pass@host:port`, `smtps://…`) and `SMTP_FROM`. */
export interface SmtpSettings {
  url: string;
  from: string;
}

export interface Notice {
  to: string;
  subject: string;
  text: string;
}

/** What became of one notice: `failed: …` carries one line of the error, without the URL's credentials. */
export type SendOutcome = 'sent' | `failed: ${string}`;

/**
 * Sends the notices over one SMTP connection, in order; a notice that fails does not stop the
 * others. Returns one outcome per notice, in the same order.
 */
export async function sendNotices(smtp: SmtpSettings, notices: readonly Notice[]): Promise<SendOutcome[]> {
  if (notices.length === 0) return [];
  let transport: ReturnType<typeof createTransport> | undefined;
  try {
    transport = createTransport({
      url: smtp.url,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    });
    const outcomes: SendOutcome[] = [];
    for (const notice of notices) {
      try {
        await transport.sendMail({ from: smtp.from, to: notice.to, subject: notice.subject, text: notice.text });
        outcomes.push('sent');
      } catch (error) {
        outcomes.push(`failed: ${reasonOf(error, smtp.url)}`);
      }
    }
    return outcomes;
  } catch (error) {
    return notices.map(() => `failed: ${reasonOf(error, smtp.url)}` as const);
  } finally {
    transport?.close();
  }
}

/** Where notices go, without credentials (`smtp://host:port`). */
export function smtpTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return '(SMTP_URL)';
  }
}

/** One line of the error, with SMTP_URL and its password taken out. */
export function reasonOf(error: unknown, url: string): string {
  let text = (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 300);
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    // an unparsable URL is still removed as a whole below
  }
  const secrets = [url, password, safeDecode(password)].filter((secret) => secret.length > 0);
  for (const secret of secrets) text = text.split(secret).join('***');
  return text || 'unknown error';
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
