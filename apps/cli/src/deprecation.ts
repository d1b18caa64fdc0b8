import { sendNotices as sendMail, smtpTarget } from '@platform/mail';
import { API_VERSIONS, type ApiDeprecation } from '@platform/runtime';
import { CheckFailed, NotFoundError, UsageError, checkEmail, type CommandContext } from './commands.js';
import { accountNames } from '@platform/accounts';
import { applicationsByIds, updateApplication } from '@platform/auth';
import { callersOfVersion } from '@platform/service';
import { SERVICES } from './services.js';

const DEFAULT_SINCE_DAYS = 30;
const MAX_SINCE_DAYS = 3650;

/** `app set-owner --app <id> --email <address>`: who hears of deprecations of the versions the app calls. */
export async function setOwner(ctx: CommandContext, input: { app?: string; email?: string }): Promise<object> {
  if (!input.app) throw new UsageError('--app is required.');
  const email = checkEmail(input.email ?? '', '--email');
  const app = await updateApplication(ctx.db, input.app, { owner_email: email });
  if (!app) throw new NotFoundError(`No application ${input.app}.`);
  return { id: app.id, name: app.name, service: app.service, account_id: app.account_id, owner_email: app.owner_email };
}

/** `--since 30d`: whole days, 1 to 3650. */
function sinceDays(value: string | undefined): number {
  if (value === undefined) return DEFAULT_SINCE_DAYS;
  const days = /^(\d{1,4})d$/.exec(value.trim());
  const n = days ? Number(days[1]) : NaN;
  if (!(n >= 1 && n <= MAX_SINCE_DAYS))
    throw new UsageError(`--since must be a number of days such as 30d (1d to ${MAX_SINCE_DAYS}d; got "${value}").`);
  return n;
}

function checkVersion(value: string | undefined): string {
  const version = value?.trim();
  if (!version || !(API_VERSIONS as readonly string[]).includes(version)) {
    throw new UsageError(`--version must be one of ${API_VERSIONS.join(', ')} (got "${value ?? ''}").`);
  }
  return version;
}

/**
 * `deprecation notices --version <v> [--since 30d] [--dry-run]`: the applications that called the
 * version within the period, with their owners; with SMTP_URL (and not --dry-run) each owner gets
 * one notice naming their applications. Exit code 1 when a notice could not be sent.
 */
export async function deprecationNotices(
  ctx: CommandContext,
  input: { version?: string; since?: string; 'dry-run'?: boolean },
): Promise<object> {
  const version = checkVersion(input.version);
  const days = sinceDays(input.since);
  const now = (ctx.now ?? (() => new Date()))();
  const deprecation: ApiDeprecation | undefined = ctx.deprecations?.find((d) => d.version === version);
  const calls = await callersOfVersion(ctx.db, version, new Date(now.getTime() - days * 86_400_000));
  const appsById = new Map(
    (
      await applicationsByIds(
        ctx.db,
        calls.map((call) => call.application_id),
      )
    ).map((app) => [app.id, app]),
  );
  const names = await accountNames(ctx.db, [...new Set([...appsById.values()].map((app) => app.account_id))]);
  const recipients: NoticeRecipient[] = calls.flatMap(({ application_id, last_called_at }) => {
    const application = appsById.get(application_id);
    if (!application) return [];
    return [
      {
        id: application.id,
        name: application.name,
        service: application.service,
        account_id: application.account_id,
        account_name: names.get(application.account_id) ?? '',
        owner_email: application.owner_email,
        last_called_at,
      },
    ];
  });
  const smtpUrl = ctx.smtp?.url;
  const outcomes: Map<string, NoticeOutcome> =
    smtpUrl && !input['dry-run']
      ? await sendNotices(
          { url: smtpUrl, from: ctx.smtp?.from ?? 'api@localhost' },
          { version, days, deprecation },
          recipients,
        )
      : new Map(recipients.map((r) => [r.id, r.owner_email ? 'not_sent' : 'no_owner']));
  const applications = recipients.map((r) => ({
    ...r,
    last_called_at: r.last_called_at.toISOString(),
    notice: outcomes.get(r.id) ?? 'not_sent',
  }));
  const report = {
    version,
    since: `${days}d`,
    sunset: deprecation ? deprecation.sunset.toISOString() : null,
    successor: deprecation?.successor ?? null,
    delivery: input['dry-run'] ? 'dry_run' : smtpUrl ? `smtp ${smtpTarget(smtpUrl)}` : 'none (SMTP_URL is not set)',
    applications,
    sent: applications.filter((a) => a.notice === 'sent').length,
    failed: applications.filter((a) => a.notice.startsWith('failed')).length,
  };
  if (report.failed > 0) throw new CheckFailed(report);
  return report;
}

/** An application that called the version, as listed and as named in its owner's notice. */
interface NoticeRecipient {
  id: string;
  name: string;
  service: string;
  account_id: string;
  account_name: string;
  owner_email: string | null;
  last_called_at: Date;
}

type NoticeOutcome = 'sent' | 'no_owner' | 'not_sent' | `failed: ${string}`;

interface NoticeSubject {
  version: string;
  days: number;
  deprecation: ApiDeprecation | undefined;
}

/** One plain-text e-mail per owner address, naming all of that owner's applications; the outcome per application. */
async function sendNotices(
  smtp: { url: string; from: string },
  about: NoticeSubject,
  recipients: NoticeRecipient[],
): Promise<Map<string, NoticeOutcome>> {
  const outcomes = new Map<string, NoticeOutcome>();
  const byOwner = new Map<string, NoticeRecipient[]>();
  for (const recipient of recipients) {
    if (!recipient.owner_email) outcomes.set(recipient.id, 'no_owner');
    else
      byOwner.set(recipient.owner_email.toLowerCase(), [
        ...(byOwner.get(recipient.owner_email.toLowerCase()) ?? []),
        recipient,
      ]);
  }
  const owners = [...byOwner.values()];
  const sent = await sendMail(
    smtp,
    owners.map((applications) => ({
      to: applications[0].owner_email!,
      subject: noticeSubject(about),
      text: noticeText(about, applications),
    })),
  );
  owners.forEach((applications, index) => {
    for (const application of applications) outcomes.set(application.id, sent[index]);
  });
  return outcomes;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

function noticeSubject({ version, deprecation }: NoticeSubject): string {
  return deprecation
    ? `API ${version} is deprecated: sunset on ${day(deprecation.sunset)}`
    : `API ${version} is deprecated`;
}

function noticeText({ version, days, deprecation }: NoticeSubject, applications: NoticeRecipient[]): string {
  const serviceName = (id: string) => SERVICES.find((service) => service.id === id)?.names.en ?? id;
  const lines = [
    'Hello,',
    '',
    `you are the owner contact of ${applications.length === 1 ? 'this application, which' : 'these applications, which'} called version ${version} of our API in the last ${days} days:`,
    '',
    ...applications.map(
      (a) =>
        `  - ${a.name} (${a.id}) of ${a.account_name} (${a.account_id}), ${serviceName(a.service)}; last call ${a.last_called_at.toISOString()}`,
    ),
    '',
    deprecation
      ? `Version ${version} is deprecated and will be retired on ${day(deprecation.sunset)} (${deprecation.sunset.toUTCString()}).`
      : `Version ${version} is deprecated.`,
    ...(deprecation ? [`Its successor: ${deprecation.successor}`] : []),
    '',
    `Please move ${applications.length === 1 ? 'the application' : 'the applications'} to the successor before then. Until the sunset every response of ${version} carries`,
    'the headers Deprecation: true, Sunset (the date) and Link (rel="successor-version").',
    '',
    'If someone else should receive these notices, please answer with their address.',
  ];
  return `${lines.join('\n')}\n`;
}
