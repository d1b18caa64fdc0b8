import type { Db } from '@platform/db';
import {
  sendNotices as sendByMail,
  smtpTarget,
  type Notice,
  type SendOutcome,
  type SmtpSettings,
} from '@platform/mail';
import { activeKeys } from './keys-service.js';

/** The age at which a key should be rolled, and its owner is told so once. */
export const KEY_ROTATION_DAYS = 90;

/** Keys handled per run; the rest follow in the next run. */
const BATCH = 500;

export interface KeyAgeNoticeReport {
  /** Active keys of at least 90 days, not yet rolled, whose owner has not been told. */
  due: number;
  sent: number;
  failed: number;
  /** Due keys whose application has no owner e-mail (`pnpm cli app set-owner`): nobody to tell. */
  without_owner: number;
  delivery: string;
}

/**
 * Tells each application's owner, once per key, that an active key has reached 90 days and should
 * be rolled. A key is claimed (its `age_notice_sent_at` set) before its mail is sent and released
 * when the mail fails, so that two runs never both send it and a failure is retried next run.
 * Without SMTP settings nothing is sent or recorded: the notices go out once SMTP_URL is set.
 * Keys already rolled (`rolled_into_id`) are on their way out and are not announced.
 */
export async function sendKeyAgeNotices(
  db: Pick<Db, 'apiKey'>,
  options: {
    now: Date;
    smtp?: SmtpSettings;
    /** The sender (tests may hand in another); default SMTP through @platform/mail. */
    send?: (smtp: SmtpSettings, notices: readonly Notice[]) => Promise<SendOutcome[]>;
  },
): Promise<KeyAgeNoticeReport> {
  const { now, smtp } = options;
  const cutoff = new Date(now.getTime() - KEY_ROTATION_DAYS * 86_400_000);
  const keys = await db.apiKey.findMany({
    where: { ...activeKeys(now), created_at: { lte: cutoff }, age_notice_sent_at: null, rolled_into_id: null },
    include: { application: { select: { id: true, name: true, service: true, owner_email: true } } },
    orderBy: { created_at: 'asc' },
    take: BATCH,
  });
  const owned = keys.filter((key) => key.application.owner_email);
  const report = { due: keys.length, sent: 0, failed: 0, without_owner: keys.length - owned.length };
  if (!smtp) return { ...report, delivery: 'none (SMTP_URL is not set)' };
  const claimed: typeof owned = [];
  for (const key of owned) {
    const claim = await db.apiKey.updateMany({
      where: { id: key.id, age_notice_sent_at: null },
      data: { age_notice_sent_at: now },
    });
    if (claim.count === 1) claimed.push(key);
  }
  const outcomes = await (options.send ?? sendByMail)(smtp, claimed.map(noticeOf));
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome === 'sent') {
      report.sent += 1;
      continue;
    }
    report.failed += 1;
    await db.apiKey.updateMany({ where: { id: claimed[i].id }, data: { age_notice_sent_at: null } });
  }
  return { ...report, delivery: `smtp ${smtpTarget(smtp.url)}` };
}

type DueKey = {
  id: string;
  display_prefix: string;
  environment: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  application: { id: string; name: string; service: string; owner_email: string | null };
};

function noticeOf(key: DueKey): Notice {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  return {
    to: key.application.owner_email!,
    subject: `API key ${key.display_prefix}… of ${key.application.name} is ${KEY_ROTATION_DAYS} days old: please roll it`,
    text: [
      `The ${key.environment} API key ${key.id} (${key.display_prefix}…) of your application ${key.application.name} (${key.application.id}, ${key.application.service} service) was created on ${day(key.created_at)} and is now ${KEY_ROTATION_DAYS} days old.`,
      `Last used: ${key.last_used_at ? day(key.last_used_at) : 'never'}. Scopes: ${key.scopes.join(', ')}.`,
      '',
      `We advise rotating API keys every ${KEY_ROTATION_DAYS} days, and at once whenever a key may have leaked. Roll this key:`,
      '',
      `  POST /v1/api-keys/${key.id}/roll  {"expires_in_hours": 24}`,
      '',
      'The response holds the new key (shown only once) with the same scopes; the old key keeps working',
      'for the hours you choose (0 to 168), so you can deploy the new key first. After a leak, roll with',
      '"expires_in_hours": 0 so that the old key stops at once.',
      '',
      'This is the only notice for this key.',
    ].join('\n'),
  };
}
