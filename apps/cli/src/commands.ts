import type { Environment, PrismaClient } from '@platform/db';
import { Value } from '@sinclair/typebox/value';
import { accountExists, insertAccount } from '@platform/accounts';
import {
  KeyLimitError,
  UnknownScopeError,
  applicationById,
  createApiKey,
  insertApplication,
  keyById,
  keysOfApplication,
  revokeApiKey,
  toApiKeyView,
} from '@platform/auth';
import { runJob as runJobNow, type ApiDeprecation } from '@platform/runtime';
import { isTimeZone } from '@platform/scheduling';
import { JobRefusal, type JobCatalogue, type JobQueue } from '@platform/service';
import type { Sandbox } from '@platform/sandbox';
import { checkBlobs, type BlobStorage } from '@platform/storage';
import { blobRecords } from '@platform/uploads';
import { SERVICES } from './services.js';

/** A mistake of the operator: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** A record the command names does not exist (`No application app_…`): one line, exit code 1. */
export class NotFoundError extends Error {}

/** A check that found problems: its report is printed, exit code 1. */
export class CheckFailed extends Error {
  constructor(readonly report: object) {
    super('The check found problems.');
  }
}

export interface CommandContext {
  db: PrismaClient;
  environment: Environment;
  pepper: string;
  /** Blob storage (STORAGE_DRIVER), opened on first use. */
  storage: () => BlobStorage;
  /** Where jobs render documents and decode files (SANDBOX_*), opened on first use. */
  sandbox: () => Sandbox;
  /** The worker's job queue (REDIS_URL, or the local Redis of DATA_DIR), opened on first use. */
  jobQueue?: () => Promise<JobQueue>;
  /** The clock of commands that depend on the date (`appointments today`); default the real one. */
  now?: () => Date;
  /** Where deprecation notices are sent through (SMTP_URL, SMTP_FROM); no url: none are sent. */
  smtp?: { url: string | undefined; from: string };
  /** The deployment's default budget per application, shared by its keys (RATE_LIMIT_PER_MINUTE). */
  rateLimitPerMinute?: number;
  /** Active API keys an application may have (API_KEYS_PER_APPLICATION); default 20. */
  apiKeysPerApplication?: number;
  /** The API versions with a sunset (API_SUNSET_*, API_SUCCESSOR_*), named in deprecation notices. */
  deprecations?: readonly ApiDeprecation[];
  /** ERASURE_JOURNAL_DIR: the erasures the services keep outside the database. */
  erasureJournalDir?: string;
}

const serviceNamed = (id: string | undefined) => SERVICES.find((service) => service.id === id);

/** The `--time-zone` value, checked: an IANA zone this runtime knows. */
export function checkTimeZone(value: string | undefined): string {
  const zone = value?.trim();
  if (!zone) throw new UsageError('--time-zone is required, e.g. --time-zone Europe/Berlin.');
  if (!isTimeZone(zone))
    throw new UsageError(`--time-zone must be an IANA time zone such as Europe/Berlin (got "${zone}").`);
  return zone;
}

const MAX_EMAIL_LENGTH = 254;
// Pragmatic, not RFC 5322: a dot-atom local part and a domain of at least two labels.
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** An e-mail address given with `flag`, checked (254 characters at most, as the columns hold). */
export function checkEmail(value: string, flag: string): string {
  const email = value.trim();
  if (!email) throw new UsageError(`${flag} is required, e.g. ${flag} ops@example.com.`);
  if (email.length > MAX_EMAIL_LENGTH)
    throw new UsageError(`${flag} may have at most ${MAX_EMAIL_LENGTH} characters (got ${email.length}).`);
  if (!EMAIL.test(email) || email.split('@')[0].split('.').includes(''))
    throw new UsageError(`${flag} must be an e-mail address such as ops@example.com (got "${email}").`);
  return email;
}

/** An account; its time zone (appointments, sessions, .ics) defaults to Europe/Berlin. */
export async function createAccount(ctx: CommandContext, input: { name?: string; 'time-zone'?: string }) {
  if (!input.name?.trim()) throw new UsageError('--name is required.');
  const timeZone = input['time-zone'] === undefined ? undefined : checkTimeZone(input['time-zone']);
  const account = await insertAccount(ctx.db, {
    name: input.name.trim(),
    ...(timeZone ? { time_zone: timeZone } : {}),
  });
  return {
    id: account.id,
    name: account.name,
    time_zone: account.time_zone,
    created_at: account.created_at.toISOString(),
  };
}

export async function createApplication(
  ctx: CommandContext,
  input: { account?: string; service?: string; name?: string; 'owner-email'?: string },
) {
  if (!input.account) throw new UsageError('--account is required.');
  if (!input.name?.trim()) throw new UsageError('--name is required.');
  const service = serviceNamed(input.service)?.id;
  if (!service)
    throw new UsageError(`--service must be ${SERVICES.map((s) => s.id).join(' or ')} (got "${input.service ?? ''}").`);
  const ownerEmail = input['owner-email'] === undefined ? null : checkEmail(input['owner-email'], '--owner-email');
  if (!(await accountExists(ctx.db, input.account))) throw new NotFoundError(`No account ${input.account}.`);
  const app = await insertApplication(ctx.db, {
    account_id: input.account,
    service,
    name: input.name.trim(),
    owner_email: ownerEmail,
  });
  return {
    id: app.id,
    account_id: app.account_id,
    service: app.service,
    name: app.name,
    owner_email: app.owner_email,
    created_at: app.created_at.toISOString(),
  };
}

async function findApplication(ctx: CommandContext, id: string | undefined) {
  if (!id) throw new UsageError('--app is required.');
  const app = await applicationById(ctx.db, id);
  if (!app) throw new NotFoundError(`No application ${id}.`);
  return app;
}

export async function createKey(ctx: CommandContext, input: { app?: string; scopes?: string }) {
  const app = await findApplication(ctx, input.app);
  const service = serviceNamed(app.service)!;
  const scopes = (input.scopes ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (scopes.length === 0)
    throw new UsageError(`--scopes is required, e.g. --scopes ${service.scopes.slice(0, 2).join(',')}`);
  try {
    const { key, plaintext } = await createApiKey(ctx.db, {
      applicationId: app.id,
      service,
      environment: ctx.environment,
      scopes,
      pepper: ctx.pepper,
      maxKeys: ctx.apiKeysPerApplication,
    });
    return { ...key, environment: ctx.environment, key: plaintext };
  } catch (error) {
    if (error instanceof UnknownScopeError) {
      throw new UsageError(`${error.message} The ${app.service} service knows: ${service.scopes.join(', ')}.`);
    }
    if (error instanceof KeyLimitError) {
      throw new UsageError(
        `Application ${app.id} already has ${error.active} active API keys, the most an application may have (API_KEYS_PER_APPLICATION=${error.limit}); revoke one first (pnpm cli key list --app ${app.id}, then pnpm cli key revoke <keyId>).`,
      );
    }
    throw error;
  }
}

export async function listKeys(ctx: CommandContext, input: { app?: string }) {
  const app = await findApplication(ctx, input.app);
  const keys = await keysOfApplication(ctx.db, app.id);
  const now = ctx.now?.() ?? new Date();
  return { application_id: app.id, keys: keys.map((key) => toApiKeyView(key, now)) };
}

export async function revokeKey(ctx: CommandContext, keyId: string | undefined) {
  if (!keyId) throw new UsageError('Usage: key revoke <keyId>');
  if (!(await revokeApiKey(ctx.db, { id: keyId }))) throw new NotFoundError(`No API key ${keyId}.`);
  const key = await keyById(ctx.db, keyId);
  return { id: key.id, revoked_at: key.revoked_at?.toISOString() ?? null };
}

/** Runs a scheduled job now (the same code the worker runs at its scheduled time). */
export async function runJob(
  ctx: CommandContext,
  name: string | undefined,
  jobs: JobCatalogue,
  flags: Record<string, string | undefined> = {},
) {
  const job = jobs.find((j) => j.name === name);
  if (!job) throw new UsageError(`Unknown job "${name ?? ''}". Jobs: ${jobs.map((j) => j.name).join(', ')}.`);
  // The flags given become the payload (`--period` → `period`); a job that takes none refuses them.
  const payload = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
  if (!Value.Check(job.payload, payload)) {
    const takes = (job.payload as { properties?: Record<string, { description?: string }> }).properties ?? {};
    const flag = (key: string) => `--${key.replace(/_id$/, '')}`;
    const problems = Object.keys(payload).map((key) =>
      key in takes
        ? `${flag(key)} is not valid: ${takes[key].description ?? 'see the job'}`
        : `Job ${job.name} does not take ${flag(key)}.`,
    );
    throw new UsageError(problems.length ? problems.join(' ') : `Job ${job.name} needs options; see its description.`);
  }
  // Work a job hands on (the chargebacks' invoice PDFs, the sweepers' jobs) goes to the worker's queue.
  // Opened only when the job enqueues something; a Redis that cannot be reached fails that enqueue only.
  const openQueue = ctx.jobQueue;
  const jobsQueue: JobQueue = openQueue
    ? { enqueue: async (next, payload, jobId) => (await openQueue()).enqueue(next, payload, jobId) }
    : {
        enqueue: () =>
          Promise.reject(
            new UsageError(`Job ${job.name} hands work to the worker's queue; let the worker run it (pnpm start).`),
          ),
      };
  try {
    return {
      job: job.name,
      ...(await runJobNow(
        job,
        {
          db: ctx.db,
          now: (ctx.now ?? (() => new Date()))(),
          storage: ctx.storage(),
          sandbox: lazySandbox(ctx),
          jobs: jobsQueue,
        },
        payload,
      )),
    };
  } catch (error) {
    if (error instanceof JobRefusal) throw new UsageError(error.message);
    throw error;
  }
}

/** The sandbox, opened when a job first runs a task in it (most jobs never do). */
function lazySandbox(ctx: Pick<CommandContext, 'sandbox'>): Sandbox {
  return { run: (task, input, options) => ctx.sandbox().run(task, input, options), close: async () => {}, size: 0 };
}

/** Every stored record's blob must exist and hash to the recorded sha256 (property media and agent artifacts). */
export async function checkStorage(ctx: CommandContext) {
  const records = await blobRecords(ctx.db);
  const mismatches = await checkBlobs(
    ctx.storage(),
    records.map((r) => ({ key: r.key, sha256: r.key, label: `${r.table} ${r.id}` })),
  );
  const report = {
    checked: records.length,
    mismatches: mismatches.map((m) => ({
      record: m.label,
      sha256: m.sha256,
      problem: m.problem,
      ...(m.actualSha256 ? { actual_sha256: m.actualSha256 } : {}),
    })),
  };
  if (mismatches.length > 0) throw new CheckFailed(report);
  return report;
}
