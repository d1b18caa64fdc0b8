import { parseArgs } from 'node:util';
import { jobsOf } from '@platform/runtime';
import { JOBS, SERVICES } from './services.js';
import {
  CheckFailed,
  checkStorage,
  createAccount,
  createApplication,
  createKey,
  listKeys,
  revokeKey,
  runJob,
  UsageError,
  type CommandContext,
} from './commands.js';
import { appointmentsToday, setTimeZone } from './scheduling.js';
import { COMPARABLE_COLUMNS, importComparables } from './comparables.js';
import { setBilling } from './billing.js';
import { setDefaultCountry } from './account-settings.js';
import { setRateLimit } from './rate-limits.js';
import { deprecationNotices, setOwner } from './deprecation.js';
import { forgetSecret } from './secrets.js';
import { rollKey } from './keys.js';

export const USAGE = `Usage: pnpm cli <command> [--json]
  account create --name <name> [--time-zone Europe/Berlin]
  account set-time-zone --account <accountId> --time-zone <IANA zone>
  account set-default-country --account <accountId> --country DE
                           the country of new properties whose address names none (else US)
  account set-billing --account <accountId> --name <issuer> --street <street> --postal-code <code>
                      --city <city> --country DE (--vat-id DE123456789 | --tax-number <no.>)
                      [--iban <IBAN> --bic <BIC> --email <e-mail> --phone <no.> --contact <name>]
                      [--payment-terms-days 14]
                           the issuer of the account's invoices (replaces the whole profile)
  app create --account <accountId> --service ${SERVICES.map((s) => s.id).join('|')} --name <name> [--owner-email <e-mail>]
  app set-owner --app <appId> --email <e-mail>
                           who hears of deprecations of the API versions the app calls
  app set-rate-limit --app <appId> (--per-minute <n> | --default)
                           the application's budget per minute, shared by all its keys across
                           instances, or back to RATE_LIMIT_PER_MINUTE
  key create --app <appId> --scopes <scope,scope,...>
                           at most API_KEYS_PER_APPLICATION active keys (revoked ones do not count)
  key list --app <appId>    each key's created_at, age_days, last_used_at, expires_at, revoked_at
  key roll <keyId> --expires-in <hours>
                           a successor with the same scopes (shown once); the old key stops
                           working in 0 (at once, after a leak) to 168 hours (7 days)
  key revoke <keyId>
  jobs run ${JOBS.map((j) => j.name).join('|')} [--period 2026-11] [--account <accountId>]
                           (--period and --account: for the jobs that take them, e.g. chargebacks)
  storage check            every stored file exists and matches its sha256 (exit code 1 otherwise)
  appointments today --account <accountId>
                           the account's viewings starting today, in its time zone
  deprecation notices --version v1|leads/v1 [--since 30d] [--dry-run]
                           the apps still calling the version, with their owners; sends each
                           owner a notice when SMTP_URL is set (not with --dry-run)
  comparables import --account <accountId> <file.csv>
                           market transactions for valuations; CSV with the header
                           ${COMPARABLE_COLUMNS.join(',')} (year_built may be empty);
                           every bad row is reported and then nothing is imported (exit code 1)
  secrets forget API_KEY_PEPPER|WEBHOOK_SECRET_KEY
                           after a deliberate change of the secret, with every instance stopped:
                           the next start records the new value (see docs/deployment.md)
("accounts" works like "account".)`;

export interface CliResult {
  exitCode: number;
  output: string;
}

/** Parses one command line and runs it; the result is printed by main.ts (tests call this). */
export async function runCli(argv: string[], ctx: () => Promise<CommandContext>): Promise<CliResult> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        name: { type: 'string' },
        account: { type: 'string' },
        service: { type: 'string' },
        app: { type: 'string' },
        scopes: { type: 'string' },
        'time-zone': { type: 'string' },
        period: { type: 'string' },
        street: { type: 'string' },
        'postal-code': { type: 'string' },
        city: { type: 'string' },
        country: { type: 'string' },
        'vat-id': { type: 'string' },
        'tax-number': { type: 'string' },
        email: { type: 'string' },
        phone: { type: 'string' },
        contact: { type: 'string' },
        iban: { type: 'string' },
        bic: { type: 'string' },
        'payment-terms-days': { type: 'string' },
        'owner-email': { type: 'string' },
        'per-minute': { type: 'string' },
        default: { type: 'boolean' },
        version: { type: 'string' },
        since: { type: 'string' },
        'dry-run': { type: 'boolean' },
        'expires-in': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return { exitCode: 2, output: `${(error as Error).message}\n${USAGE}` };
  }
  const { values, positionals } = parsed;
  const [given, action, argument] = positionals;
  const group = given === 'accounts' ? 'account' : given;
  if (values.help || !group) return { exitCode: group ? 0 : 2, output: USAGE };
  const commands: Record<string, (c: CommandContext) => Promise<object>> = {
    'account create': (c) => createAccount(c, values),
    'account set-time-zone': (c) => setTimeZone(c, values),
    'account set-default-country': (c) => setDefaultCountry(c, values),
    'account set-billing': (c) => setBilling(c, values),
    'app create': (c) => createApplication(c, values),
    'app set-owner': (c) => setOwner(c, values),
    'app set-rate-limit': (c) => setRateLimit(c, values),
    'deprecation notices': (c) => deprecationNotices(c, values),
    'key create': (c) => createKey(c, values),
    'key list': (c) => listKeys(c, values),
    'key roll': (c) => rollKey(c, argument, values),
    'key revoke': (c) => revokeKey(c, argument),
    // The jobs with the deployment's SMTP settings, which the key-age notices are sent through.
    'jobs run': (c) =>
      runJob(c, argument, jobsOf(SERVICES, { smtp: c.smtp }), { period: values.period, account_id: values.account }),
    'storage check': (c) => checkStorage(c),
    'appointments today': (c) => appointmentsToday(c, values),
    'comparables import': (c) => importComparables(c, values, argument),
    'secrets forget': (c) => forgetSecret(c, argument),
  };
  const command = commands[`${group} ${action ?? ''}`];
  if (!command) return { exitCode: 2, output: `Unknown command "${positionals.join(' ')}".\n${USAGE}` };
  try {
    const result = await command(await ctx());
    return { exitCode: 0, output: values.json ? JSON.stringify(result) : human(result) };
  } catch (error) {
    if (error instanceof CheckFailed)
      return { exitCode: 1, output: values.json ? JSON.stringify(error.report) : human(error.report) };
    if (error instanceof UsageError)
      return {
        exitCode: 2,
        output: values.json ? JSON.stringify({ error: error.message }) : `Error: ${error.message}`,
      };
    throw error;
  }
}

function human(result: object): string {
  const lines = Object.entries(result).map(
    ([k, v]) =>
      `${k}: ${Array.isArray(v) ? (v.length && typeof v[0] === 'object' ? `\n${v.map((x) => `  - ${JSON.stringify(x)}`).join('\n')}` : v.join(', ')) : v}`,
  );
  if ('key' in result) lines.push('', 'Store the key now: it is shown only once.');
  return lines.join('\n');
}
