import { jobsOf } from '@platform/runtime';
import { JOBS, SERVICES } from './services.js';
import { checkStorage, createAccount, createApplication, createKey, listKeys, revokeKey, runJob } from './commands.js';
import type { CommandContext } from './commands.js';
import type { Flags } from './flags.js';
import { appointmentsToday, setTimeZone } from './scheduling.js';
import { COMPARABLE_COLUMNS, importComparables } from './comparables.js';
import { setBilling } from './billing.js';
import { setDefaultCountry } from './account-settings.js';
import { setRateLimit } from './rate-limits.js';
import { deprecationNotices, setOwner } from './deprecation.js';
import { forgetSecret } from './secrets.js';
import { rollKey } from './keys.js';
import {
  accountsText,
  applicationText,
  applicationsText,
  listAccounts,
  listApplications,
  showApplication,
} from './directory.js';
import { keyTable } from './key-table.js';
import { eraseProspectCommand, reapplyErasuresCommand } from './erasures.js';

/** What a command is given: its options and the word after its name (`key roll <keyId>`). */
export interface CommandInput {
  flags: Flags;
  argument: string | undefined;
}

/** One command of `pnpm cli`: the usage and its own `--help` are printed from these. */
export interface CliCommand {
  /** The words that name it: `key roll`. */
  name: string;
  /** Its arguments and options, after the name (continuation lines indented as they print). */
  synopsis: string;
  /** Its arguments and options as the synopsis names them (`--expires-in <hours>`), and what each means. */
  options: Readonly<Record<string, string>>;
  /** What it does, a line each. */
  summary: readonly string[];
  /** A command line to start from. */
  example: string;
  run: (ctx: CommandContext, input: CommandInput) => Promise<object>;
  /** The text output (without --json); default a `field: value` line each. */
  text?: (result: object, now: Date) => string;
}

function command<T extends object>(
  spec: Omit<CliCommand, 'run' | 'text'> & {
    run: (ctx: CommandContext, input: CommandInput) => Promise<T>;
    text?: (result: T, now: Date) => string;
  },
): CliCommand {
  const { text } = spec;
  return { ...spec, text: text && ((result, now) => text(result as T, now)) };
}

const SERVICE_IDS = SERVICES.map((s) => s.id).join('|');

export const COMMANDS: readonly CliCommand[] = [
  command({
    name: 'account list',
    synopsis: '',
    options: {},
    summary: ['every account of this deployment with its time zone, number of applications and creation time'],
    example: 'pnpm -s cli account list',
    run: (c) => listAccounts(c),
    text: accountsText,
  }),
  command({
    name: 'account create',
    synopsis: '--name <name> [--time-zone Europe/Berlin]',
    options: {
      '--name <name>': 'what the operator calls the tenant',
      '--time-zone <IANA zone>': 'default Europe/Berlin; appointments, sessions and .ics files use it',
    },
    summary: ['a new account (tenant); its time zone defaults to Europe/Berlin'],
    example: 'pnpm -s cli account create --name "Agency Berlin" --json',
    run: (c, { flags }) => createAccount(c, flags),
  }),
  command({
    name: 'account set-time-zone',
    synopsis: '--account <accountId> --time-zone <IANA zone>',
    options: {
      '--account <accountId>': 'the account (account list shows the ids)',
      '--time-zone <IANA zone>': 'a zone this runtime knows, e.g. Europe/Vienna',
    },
    summary: ['the zone appointments and sessions are shown and exported in'],
    example: 'pnpm -s cli account set-time-zone --account acct_… --time-zone Europe/Vienna',
    run: (c, { flags }) => setTimeZone(c, flags),
  }),
  command({
    name: 'account set-default-country',
    synopsis: '--account <accountId> --country DE',
    options: {
      '--account <accountId>': 'the account (account list shows the ids)',
      '--country <code>': 'ISO 3166-1 alpha-2, e.g. DE',
    },
    summary: ['the country of new properties whose address names none (else US)'],
    example: 'pnpm -s cli account set-default-country --account acct_… --country DE',
    run: (c, { flags }) => setDefaultCountry(c, flags),
  }),
  command({
    name: 'account set-billing',
    synopsis:
      '--account <accountId> --name <issuer> --street <street> --postal-code <code>\n' +
      '                      --city <city> --country DE (--vat-id DE123456789 | --tax-number <no.>)\n' +
      '                      [--iban <IBAN> --bic <BIC> --email <e-mail> --phone <no.> --contact <name>]\n' +
      '                      [--payment-terms-days 14]',
    options: {
      '--account <accountId>': 'the account (account list shows the ids)',
      '--name <issuer>': 'the issuer named on the invoices',
      '--street <street>': "the issuer's address: street and number",
      '--postal-code <code>': 'postal code',
      '--city <city>': 'city',
      '--country <code>': 'ISO 3166-1 alpha-2, e.g. DE',
      '--vat-id <id>': 'VAT identification number (or --tax-number)',
      '--tax-number <no.>': 'tax number (or --vat-id)',
      '--iban <IBAN>': 'account for the payment, checked',
      '--bic <BIC>': "the bank's code",
      '--email <e-mail>': 'contact e-mail (an e-invoice needs it)',
      '--phone <no.>': 'contact phone (an e-invoice needs it)',
      '--contact <name>': 'contact person (an e-invoice needs it)',
      '--payment-terms-days <n>': 'days to pay, default 14',
    },
    summary: ["the issuer of the account's invoices (replaces the whole profile)"],
    example:
      'pnpm -s cli account set-billing --account acct_… --name "Makler GmbH" --street "Marktweg 1" --postal-code 10115 --city Berlin --country DE --vat-id DE123456789',
    run: (c, { flags }) => setBilling(c, flags),
  }),
  command({
    name: 'app list',
    synopsis: '--account <accountId>',
    options: { '--account <accountId>': 'the account (account list shows the ids)' },
    summary: ["the account's applications: owner, budget per minute, keys (active ones)"],
    example: 'pnpm -s cli app list --account acct_…',
    run: (c, { flags }) => listApplications(c, flags),
    text: applicationsText,
  }),
  command({
    name: 'app show',
    synopsis: '<appId>',
    options: { '<appId>': 'the application (app list shows the ids)' },
    summary: ['one application: owner, budget, and its keys (prefix, scopes, use, expiry; never a secret)'],
    example: 'pnpm -s cli app show app_…',
    run: (c, { argument }) => showApplication(c, argument),
    text: applicationText,
  }),
  command({
    name: 'app create',
    synopsis: `--account <accountId> --service ${SERVICE_IDS} --name <name> [--owner-email <e-mail>]`,
    options: {
      '--account <accountId>': 'the account (account list shows the ids)',
      '--service <service>': `${SERVICE_IDS.replace('|', ' or ')}: the API the keys will call`,
      '--name <name>': 'what the account calls the integration',
      '--owner-email <e-mail>': 'who hears of deprecations and failing webhooks (or app set-owner later)',
    },
    summary: ['an integration of the account with one service; it holds the API keys'],
    example: 'pnpm -s cli app create --account acct_… --service property --name website --json',
    run: (c, { flags }) => createApplication(c, flags),
  }),
  command({
    name: 'app set-owner',
    synopsis: '--app <appId> --email <e-mail>',
    options: {
      '--app <appId>': 'the application (app list --account shows the ids)',
      '--email <e-mail>': "the owner's address",
    },
    summary: ['who hears of deprecations of the API versions the app calls'],
    example: 'pnpm -s cli app set-owner --app app_… --email dev@agency.example',
    run: (c, { flags }) => setOwner(c, flags),
  }),
  command({
    name: 'app set-rate-limit',
    synopsis: '--app <appId> (--per-minute <n> | --default)',
    options: {
      '--app <appId>': 'the application (app list --account shows the ids)',
      '--per-minute <n>': 'requests per minute, 1 to 1,000,000',
      '--default': "back to the deployment's RATE_LIMIT_PER_MINUTE",
    },
    summary: [
      "the application's budget per minute, shared by all its keys across",
      'instances, or back to RATE_LIMIT_PER_MINUTE',
    ],
    example: 'pnpm -s cli app set-rate-limit --app app_… --per-minute 1200',
    run: (c, { flags }) => setRateLimit(c, flags),
  }),
  command({
    name: 'key create',
    synopsis: '--app <appId> --scopes <scope,scope,...>',
    options: {
      '--app <appId>': 'the application (app list --account shows the ids)',
      '--scopes <scope,...>': "the scopes of the application's service (an unknown one names those there are)",
    },
    summary: [
      'a key of the application, shown once; at most API_KEYS_PER_APPLICATION',
      'active keys (revoked ones do not count)',
    ],
    example: 'pnpm -s cli key create --app app_… --scopes properties:read,properties:write --json',
    run: (c, { flags }) => createKey(c, flags),
  }),
  command({
    name: 'key list',
    synopsis: '--app <appId>',
    options: { '--app <appId>': 'the application (app list --account shows the ids)' },
    summary: ["the application's keys: prefix, scopes, created, age, last used, expiry, state"],
    example: 'pnpm -s cli key list --app app_…',
    run: (c, { flags }) => listKeys(c, flags),
    text: (result, now) => `Keys of ${result.application_id}\n${keyTable(result.keys, now)}`,
  }),
  command({
    name: 'key roll',
    synopsis: '<keyId> --expires-in <hours>',
    options: {
      '<keyId>': 'the key to replace (key list shows the ids)',
      '--expires-in <hours>': 'how long the old key keeps working: 0 (at once) to 168',
    },
    summary: [
      'a successor with the same scopes (shown once); the old key stops',
      'working in 0 (at once, after a leak) to 168 hours (7 days)',
    ],
    example: 'pnpm -s cli key roll key_… --expires-in 24 --json',
    run: (c, { flags, argument }) => rollKey(c, argument, flags),
  }),
  command({
    name: 'key revoke',
    synopsis: '<keyId>',
    options: { '<keyId>': 'the key (key list shows the ids)' },
    summary: ['the key stops working at once (running instances within 4 s)'],
    example: 'pnpm -s cli key revoke key_…',
    run: (c, { argument }) => revokeKey(c, argument),
  }),
  command({
    name: 'jobs run',
    synopsis: `${JOBS.map((j) => j.name).join('|')} [--period 2026-11] [--account <accountId>]`,
    options: {
      '<job>': "the job's name, one of those above",
      '--period <YYYY-MM>': 'the closed month to settle (chargebacks)',
      '--account <accountId>': 'only this account (the jobs that take it)',
    },
    summary: ['runs a job now (--period and --account: for the jobs that take them, e.g. chargebacks)'],
    example: 'pnpm -s cli jobs run chargebacks --period 2026-11 --account acct_… --json',
    // The jobs with the deployment's SMTP settings, which the key-age notices are sent through.
    run: (c, { flags, argument }) =>
      runJob(c, argument, jobsOf(SERVICES, { smtp: c.smtp }), { period: flags.period, account_id: flags.account }),
  }),
  command({
    name: 'storage check',
    synopsis: '',
    options: {},
    summary: ['every stored file exists and matches its sha256 (exit code 1 otherwise)'],
    example: 'pnpm -s cli storage check --json',
    run: (c) => checkStorage(c),
  }),
  command({
    name: 'appointments today',
    synopsis: '--account <accountId>',
    options: { '--account <accountId>': 'the account (account list shows the ids)' },
    summary: ["the account's viewings starting today, in its time zone"],
    example: 'pnpm -s cli appointments today --account acct_… --json',
    run: (c, { flags }) => appointmentsToday(c, flags),
  }),
  command({
    name: 'deprecation notices',
    synopsis: '--version v1|leads/v1 [--since 30d] [--dry-run]',
    options: {
      '--version <version>': 'the API version with a sunset: v1 or leads/v1',
      '--since <days>d': 'applications that called it in the last days, default 30d',
      '--dry-run': 'list the applications and owners, send nothing',
    },
    summary: [
      'the apps still calling the version, with their owners; sends each',
      'owner a notice when SMTP_URL is set (not with --dry-run)',
    ],
    example: 'pnpm -s cli deprecation notices --version v1 --since 30d --dry-run',
    run: (c, { flags }) => deprecationNotices(c, flags),
  }),
  command({
    name: 'comparables import',
    synopsis: '--account <accountId> <file.csv>',
    options: {
      '--account <accountId>': 'the account (account list shows the ids)',
      '<file.csv>': 'the CSV file, with the header above',
    },
    summary: [
      'market transactions for valuations; CSV with the header',
      `${COMPARABLE_COLUMNS.join(',')} (year_built may be empty);`,
      'every bad row is reported and then nothing is imported (exit code 1)',
    ],
    example: 'pnpm -s cli comparables import --account acct_… market.csv --json',
    run: (c, { flags, argument }) => importComparables(c, flags, argument),
  }),
  command({
    name: 'secrets forget',
    synopsis: 'API_KEY_PEPPER|WEBHOOK_SECRET_KEY',
    options: { '<NAME>': 'API_KEY_PEPPER or WEBHOOK_SECRET_KEY' },
    summary: [
      'after a deliberate change of the secret, with every instance stopped:',
      'the next start records the new value (see docs/deployment.md)',
    ],
    example: 'pnpm -s cli secrets forget API_KEY_PEPPER',
    run: (c, { argument }) => forgetSecret(c, argument),
  }),
  command({
    name: 'prospect erase',
    synopsis: '<prospectId> --account <accountId>',
    options: {
      '<prospectId>': 'the prospect (interessent) to erase',
      '--account <accountId>': 'its account (account list shows the ids)',
    },
    summary: [
      'an erasure the operator was asked for outside the API: the same as the',
      "API's loeschung, logged as requested by cli and journaled (idempotent)",
    ],
    example: 'pnpm -s cli prospect erase int_… --account acct_… --json',
    run: (c, { flags, argument }) => eraseProspectCommand(c, argument, flags.account),
  }),
  command({
    name: 'erasures reapply',
    synopsis: '',
    options: {},
    summary: [
      'after a database restore: erases again every prospect the journal',
      '(ERASURE_JOURNAL_DIR) says was erased (original time and requester), then',
      'anonymises the expired ones; the services refuse to start until it has run',
      '(idempotent)',
    ],
    example: 'pnpm -s cli erasures reapply --json',
    run: (c, { argument }) => reapplyErasuresCommand(c, argument),
  }),
];
