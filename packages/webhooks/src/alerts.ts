import type { PrismaClient } from '@platform/db';
import { sendNotices, smtpTarget, type SmtpSettings } from '@platform/mail';
import { alertNotice } from './alert-text.js';
import { alertRecipients, claimDueAlerts, failureSummary, releaseAlert } from './alerts-sql.js';
import { PAUSE_AFTER_MS } from './schedule.js';

/** An endpoint failing this long (no successful delivery) gets its owner's first alert. */
export const FAILING_ALERT_AFTER_MS = 3_600_000;
/** At most one alert per endpoint within this time. */
export const ALERT_INTERVAL_MS = 24 * 3_600_000;

export interface AlertSettings {
  /** `SMTP_URL` and `SMTP_FROM`; unset: no alert is sent (and none is claimed). */
  smtp: SmtpSettings | undefined;
  log: (line: string) => void;
  failingAfterMs?: number;
}

export interface AlertRun {
  sent: number;
  failed: number;
  /** Alerts due for an endpoint whose applications name no owner: nothing sent, not tried again that day. */
  noOwner: number;
}

/**
 * E-mails the owners of endpoints that started failing or were paused (see `claimDueAlerts`), one
 * e-mail per owner and endpoint. An alert that could not be sent is given back and tried again by
 * a later sweep. Never called without SMTP settings (the relay logs that once).
 */
export async function sendEndpointAlerts(
  db: PrismaClient,
  now: () => Date,
  settings: AlertSettings & { smtp: SmtpSettings },
): Promise<AlertRun> {
  const at = now();
  const due = await claimDueAlerts(db, at, {
    failingAfterMs: settings.failingAfterMs ?? FAILING_ALERT_AFTER_MS,
    pauseAfterMs: PAUSE_AFTER_MS,
    intervalMs: ALERT_INTERVAL_MS,
  });
  const run: AlertRun = { sent: 0, failed: 0, noOwner: 0 };
  for (const endpoint of due) {
    const recipients = await alertRecipients(db, endpoint);
    if (recipients.length === 0) {
      run.noOwner++;
      settings.log(
        `webhook alert for ${endpoint.id} (${endpoint.kind}) not sent: no application of account ${endpoint.account_id} names an owner (pnpm cli app set-owner)`,
      );
      continue;
    }
    const facts = { endpoint, ...(await failureSummary(db, endpoint.id)) };
    const outcomes = await sendNotices(
      settings.smtp,
      recipients.map((recipient) => alertNotice(recipient, facts)),
    );
    const failure = outcomes.find((outcome) => outcome !== 'sent');
    if (failure) {
      run.failed++;
      // Given back only when nobody got it: an owner who did must not get it twice.
      if (outcomes.every((outcome) => outcome !== 'sent')) await releaseAlert(db, endpoint, at);
      settings.log(
        `webhook alert for ${endpoint.id} (${endpoint.kind}) via ${smtpTarget(settings.smtp.url)} ${failure}; tried again later`,
      );
    } else {
      run.sent++;
      settings.log(`webhook alert for ${endpoint.id} (${endpoint.kind}) sent to ${recipients.length} owner(s)`);
    }
  }
  return run;
}
