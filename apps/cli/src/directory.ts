import { accountExists, accountName, listAccounts as allAccounts } from '@platform/accounts';
import { applicationById, applicationsByIds, keysOfApplication, toApiKeyView, type ApiKeyView } from '@platform/auth';
import { NotFoundError, UsageError, type CommandContext } from './commands.js';
import { applicationCounts, applicationIdsOf } from './directory-sql.js';
import { keyTable } from './key-table.js';
import { DEFAULT_PER_MINUTE } from './rate-limits.js';
import { renderTable, when } from './table.js';

// The read-only commands an operator finds things with: `account list`, `app list`, `app show`.

const budgetOf = (ctx: CommandContext, own: number | null) => ({
  rate_limit_per_minute: own,
  effective_per_minute: own ?? ctx.rateLimitPerMinute ?? DEFAULT_PER_MINUTE,
});

const isActive = (key: ApiKeyView, now: Date) =>
  !key.revoked_at && !(key.expires_at && Date.parse(key.expires_at) <= now.getTime());

/** `account list`: every account of this deployment (its environment), with its number of applications. */
export async function listAccounts(ctx: CommandContext) {
  const accounts = await allAccounts(ctx.db);
  const counts = await applicationCounts(
    ctx.db,
    accounts.map((a) => a.id),
  );
  return {
    environment: ctx.environment,
    accounts: accounts.map((a) => ({
      id: a.id,
      name: a.name,
      time_zone: a.time_zone,
      created_at: a.created_at.toISOString(),
      applications: counts.get(a.id) ?? 0,
    })),
  };
}

export function accountsText(result: Awaited<ReturnType<typeof listAccounts>>): string {
  const table = renderTable(
    [
      { header: 'ID', value: (a) => a.id },
      { header: 'NAME', value: (a) => a.name },
      { header: 'TIME ZONE', value: (a) => a.time_zone },
      { header: 'APPS', value: (a) => String(a.applications) },
      { header: 'CREATED', value: (a) => when(a.created_at) },
    ],
    result.accounts,
    '(no accounts yet: pnpm cli account create --name <name>)',
  );
  return `Accounts (${result.accounts.length}, environment ${result.environment})\n${table}`;
}

/** `app list --account <id>`: the account's applications, with owner, budget and key counts. */
export async function listApplications(ctx: CommandContext, input: { account?: string }) {
  if (!input.account) throw new UsageError('--account is required, e.g. --account acct_….');
  if (!(await accountExists(ctx.db, input.account))) throw new NotFoundError(`No account ${input.account}.`);
  const now = ctx.now?.() ?? new Date();
  const apps = await applicationsByIds(ctx.db, await applicationIdsOf(ctx.db, input.account));
  apps.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
  const applications = [];
  for (const app of apps) {
    const keys = (await keysOfApplication(ctx.db, app.id)).map((key) => toApiKeyView(key, now));
    applications.push({
      id: app.id,
      name: app.name,
      service: app.service,
      owner_email: app.owner_email,
      ...budgetOf(ctx, app.rate_limit_per_minute),
      keys: keys.length,
      active_keys: keys.filter((key) => isActive(key, now)).length,
      created_at: app.created_at.toISOString(),
    });
  }
  return { account_id: input.account, applications };
}

const budgetText = (b: { rate_limit_per_minute: number | null; effective_per_minute: number }) =>
  `${b.effective_per_minute}/min${b.rate_limit_per_minute === null ? ' (default)' : ''}`;

export function applicationsText(result: Awaited<ReturnType<typeof listApplications>>): string {
  const table = renderTable(
    [
      { header: 'ID', value: (a) => a.id },
      { header: 'NAME', value: (a) => a.name },
      { header: 'SERVICE', value: (a) => a.service },
      { header: 'OWNER', value: (a) => a.owner_email ?? '-' },
      { header: 'BUDGET', value: budgetText },
      { header: 'KEYS (ACTIVE)', value: (a) => `${a.keys} (${a.active_keys})` },
      { header: 'CREATED', value: (a) => when(a.created_at) },
    ],
    result.applications,
    `(no applications yet: pnpm cli app create --account ${result.account_id} …)`,
  );
  return `Applications of ${result.account_id}\n${table}`;
}

/** `app show <appId>`: the application, its budget and owner, and its keys (never a secret). */
export async function showApplication(ctx: CommandContext, appId: string | undefined) {
  if (!appId) throw new UsageError('Name the application: app show <appId>.');
  const app = await applicationById(ctx.db, appId);
  if (!app) throw new NotFoundError(`No application ${appId}.`);
  const now = ctx.now?.() ?? new Date();
  return {
    id: app.id,
    name: app.name,
    service: app.service,
    account_id: app.account_id,
    account_name: (await accountName(ctx.db, app.account_id)) ?? null,
    owner_email: app.owner_email,
    ...budgetOf(ctx, app.rate_limit_per_minute),
    created_at: app.created_at.toISOString(),
    keys: (await keysOfApplication(ctx.db, app.id)).map((key) => toApiKeyView(key, now)),
  };
}

export function applicationText(result: Awaited<ReturnType<typeof showApplication>>, now: Date): string {
  const fields: [string, string][] = [
    ['Application', result.id],
    ['Name', result.name],
    ['Service', result.service],
    ['Account', `${result.account_id}${result.account_name ? ` (${result.account_name})` : ''}`],
    ['Owner', result.owner_email ?? '- (pnpm cli app set-owner)'],
    ['Budget', `${budgetText(result)}${result.rate_limit_per_minute === null ? ', RATE_LIMIT_PER_MINUTE' : ''}`],
    ['Created', when(result.created_at)],
  ];
  const width = Math.max(...fields.map(([label]) => label.length));
  const active = result.keys.filter((key) => isActive(key, now)).length;
  return [
    ...fields.map(([label, value]) => `${label.padEnd(width)}  ${value}`),
    '',
    `Keys (${result.keys.length}, ${active} active)`,
    keyTable(result.keys, now),
  ].join('\n');
}
