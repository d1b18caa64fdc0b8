import {
  chmodSync,
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Environment, Service } from '@platform/db';
import type { ApiDeprecation, ResolvedSettings, ServiceDescriptor } from '@platform/service';
import { REDIS_SENTINEL_VARIABLES, redisSentinelConfig, type RedisSentinelConfig } from './redis-sentinel-config.js';
import { resolveServiceSettings, settingDefault } from './service-settings.js';

export type { ApiDeprecation };

/** What the configuration needs to know of a service: its port and its own settings. */
export type ServiceSettingsSpec = Pick<ServiceDescriptor, 'id' | 'port' | 'settings'>;

/** One service's resolved port and settings (whole numbers in `settings`, absolute paths in `directories`). */
export interface ServiceConfig extends ResolvedSettings {
  port: number;
  /** Where integrators reach the service (no trailing slash): URLs in events and documents. */
  publicBaseUrl: string;
  /** Where integrators reach the production and the sandbox deployment (the OpenAPI documents' `servers`), where known. */
  publicBaseUrls: { production?: string; sandbox?: string };
}

export interface Config {
  environment: Environment;
  /** Unset: an embedded PostgreSQL under `dataDir` is used. */
  databaseUrl: string | undefined;
  /** The database itself, past any pooler: migrations (a session lock) connect there. Unset: `databaseUrl`. */
  directDatabaseUrl: string | undefined;
  /** How `databaseUrl` pools connections: `transaction` (PgBouncer's transaction mode) keeps no session state. */
  databasePooling: DatabasePooling;
  /** Named prepared statements on the hot paths (off behind a transaction pooler older than PgBouncer 1.21). */
  preparedStatements: boolean;
  dataDir: string;
  embeddedPostgresPort: number;
  host: string;
  /** Port and settings of each service the configuration was loaded for. */
  services: Partial<Record<Service, ServiceConfig>>;
  apiKeyPepper: string;
  logLevel: string;
  trustProxy: boolean;
  /** Unset: a local redis-server child process on `redisPort` (data under DATA_DIR/redis). */
  redisUrl: string | undefined;
  redisPort: number;
  /** Set: Redis behind Sentinel (the services follow the primary through failovers); `redisUrl` is then unset. */
  redisSentinel: RedisSentinelConfig | undefined;
  /** 32-byte key (64 hex characters) that encrypts webhook signing secrets at rest. */
  webhookSecretKey: string;
  /** Sandbox/tests only: webhooks may target http, loopback and private addresses. */
  webhookAllowPrivateTargets: boolean;
  /** Webhook endpoints an account may register per service. */
  webhookMaxEndpoints: number;
  /** Where uploaded files go (`openStorage`): files under DATA_DIR/blobs, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** Port of the Prometheus metrics (and the worker's liveness); 0: none. */
  metricsPort: number;
  /** Event-loop delay beyond which requests get 503 (`@fastify/under-pressure`). */
  maxEventLoopDelayMs: number;
  /** Requests per minute per application (all its keys together), unless the application has its own budget. */
  rateLimitPerMinute: number;
  /** Active (not revoked) API keys an application may have; creating one more is refused. */
  apiKeysPerApplication: number;
  /** The child processes that decode uploads and render documents (one pool in the services, one in the worker). */
  sandbox: SandboxConfig;
  /** Deprecated API versions: their responses carry Deprecation, Sunset and Link. */
  deprecations: ApiDeprecation[];
  /** How deprecation notices and webhook alerts are sent (`smtp://user:pass@host:port`); unset: none are sent. */
  smtpUrl: string | undefined;
  smtpFrom: string;
}

export type DatabasePooling = 'none' | 'transaction';

/** The API versions a deployment serves; each can be given a sunset (`API_SUNSET_<VERSION>`). */
export const API_VERSIONS = ['v1', 'leads/v1'] as const;

const versionVariable = (version: string) => version.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

export interface SandboxConfig {
  /** Child processes per pool. */
  processes: number;
  /** Resident memory per child, in MiB. */
  memoryMb: number;
  /** Deadline of decoding one upload. */
  decodeSeconds: number;
  /** Deadline of rendering one document. */
  renderSeconds: number;
}

/** The sandbox's settings when the environment names none. */
export const DEFAULT_SANDBOX: SandboxConfig = { processes: 2, memoryMb: 512, decodeSeconds: 30, renderSeconds: 120 };

export type StorageConfig =
  | { driver: 'filesystem' }
  | {
      driver: 's3';
      endpoint: string;
      region: string;
      bucket: string;
      accessKeyId: string;
      /** Never logged: JSON and util.inspect of this object show it redacted. */
      secretAccessKey: string;
    };

type Env = Record<string, string | undefined>;

interface VariableSpec {
  name: string;
  description: string;
}

/** The variables of the deployment; each service adds its port and settings (`variablesOf`). */
export const VARIABLES: (VariableSpec & { default: string })[] = [
  {
    name: 'APP_ENV',
    default: 'sandbox',
    description: 'sandbox or production; decides the key prefixes (`_test_` / `_live_`).',
  },
  {
    name: 'DATABASE_URL',
    default: '(embedded)',
    description: 'PostgreSQL connection string; unset starts an embedded PostgreSQL under DATA_DIR.',
  },
  {
    name: 'DIRECT_DATABASE_URL',
    default: '(DATABASE_URL)',
    description:
      'The PostgreSQL server itself when DATABASE_URL goes through a connection pooler: migrations connect there (they hold a session lock). Required with DATABASE_POOLING=transaction.',
  },
  {
    name: 'MIGRATION_DATABASE_URL',
    default: '(unset)',
    description:
      'Read by the migrate one-shot only: the owner of the schema (on the server itself, not a pooler). Migrations run as it, and the role of DATABASE_URL is made to exist with that URL\u2019s password and data privileges only (docs/deployment.md, "Database roles").',
  },
  {
    name: 'DATABASE_POOLING',
    default: 'none',
    description:
      'none, or transaction when DATABASE_URL is a pooler in transaction mode (PgBouncer pool_mode=transaction): no session settings are sent, TimeZone must be UTC by the pooler or the role (docs/scaling.md).',
  },
  {
    name: 'DATABASE_PREPARED_STATEMENTS',
    default: '(true; false with DATABASE_POOLING=transaction)',
    description:
      'Named prepared statements on the hot paths. Behind PgBouncer 1.21+ with max_prepared_statements > 0 set it to true; older poolers in transaction mode need false.',
  },
  { name: 'DATA_DIR', default: '.data', description: 'Where the embedded database and sandbox secrets live.' },
  { name: 'EMBEDDED_PG_PORT', default: '54329', description: 'Port of the embedded PostgreSQL.' },
  { name: 'HOST', default: '127.0.0.1', description: 'Interface the services listen on (0.0.0.0 in containers).' },
  {
    name: 'API_KEY_PEPPER',
    default: '(sandbox: generated)',
    description:
      'Secret (≥ 32 characters) mixed into stored key hashes and cursor signatures. Required in production; in sandbox generated once into DATA_DIR.',
  },
  { name: 'LOG_LEVEL', default: 'info', description: 'fatal, error, warn, info, debug or trace.' },
  { name: 'TRUST_PROXY', default: 'false', description: 'true when behind a reverse proxy that sets X-Forwarded-For.' },
  {
    name: 'REDIS_URL',
    default: '(local)',
    description:
      'Redis for the webhook queue (AOF on, maxmemory-policy noeviction); unset starts a local redis-server.',
  },
  { name: 'REDIS_PORT', default: '56379', description: 'Port of the local redis-server when REDIS_URL is unset.' },
  ...REDIS_SENTINEL_VARIABLES,
  {
    name: 'WEBHOOK_SECRET_KEY',
    default: '(sandbox: generated)',
    description: '64 hex characters; encrypts webhook signing secrets at rest. Required in production.',
  },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE_TARGETS',
    default: 'false',
    description: 'true lets webhooks target http, loopback and private addresses (sandbox and tests only).',
  },
  {
    name: 'WEBHOOK_MAX_ENDPOINTS',
    default: '20',
    description: 'Webhook endpoints an account may register per service (1 to 1000); every event fans out to each.',
  },
  {
    name: 'PUBLIC_BASE_URL',
    default: '(http://localhost:<port>)',
    description:
      'Where integrators reach a service (https://api.example.com): URLs in events and documents (pdf_url, record_url). <SERVICE>_PUBLIC_BASE_URL (e.g. PROPERTY_PUBLIC_BASE_URL) overrides it for one service.',
  },
  {
    name: 'PRODUCTION_PUBLIC_BASE_URL',
    default: '(PUBLIC_BASE_URL when APP_ENV=production, else none)',
    description:
      "Where integrators reach the production deployment, listed in the OpenAPI documents' `servers` (also by a sandbox deployment). <SERVICE>_PRODUCTION_PUBLIC_BASE_URL overrides it for one service.",
  },
  {
    name: 'SANDBOX_PUBLIC_BASE_URL',
    default: '(PUBLIC_BASE_URL when APP_ENV=sandbox, else none)',
    description:
      "Where integrators reach the sandbox deployment, listed in the OpenAPI documents' `servers` (also by a production deployment). <SERVICE>_SANDBOX_PUBLIC_BASE_URL overrides it for one service.",
  },
  {
    name: 'STORAGE_DRIVER',
    default: 'filesystem',
    description: 'filesystem (files under DATA_DIR/blobs) or s3 (an S3-compatible bucket: S3_* below).',
  },
  {
    name: 'S3_ENDPOINT',
    default: '(none)',
    description: 'URL of the S3-compatible store (http:// or https://); required when STORAGE_DRIVER=s3.',
  },
  { name: 'S3_REGION', default: 'us-east-1', description: 'Region of the S3 store.' },
  {
    name: 'S3_BUCKET',
    default: '(none)',
    description: 'Bucket of the uploaded files; required when STORAGE_DRIVER=s3.',
  },
  { name: 'S3_ACCESS_KEY_ID', default: '(none)', description: 'Access key id; required when STORAGE_DRIVER=s3.' },
  {
    name: 'S3_SECRET_ACCESS_KEY',
    default: '(none)',
    description: 'Secret access key; required when STORAGE_DRIVER=s3. Never logged.',
  },
  {
    name: 'METRICS_PORT',
    default: '9464',
    description:
      'Port of the Prometheus metrics (`/metrics`, and `/health/live` for the worker), never the public one; 0 turns it off.',
  },
  {
    name: 'MAX_EVENT_LOOP_DELAY_MS',
    default: '1000',
    description: 'Event-loop delay (ms) beyond which requests are answered 503 with Retry-After instead of queueing.',
  },
  {
    name: 'RATE_LIMIT_PER_MINUTE',
    default: '600',
    description:
      'Requests per minute per application, shared by all its keys on every instance (1 to 1,000,000); `pnpm cli app set-rate-limit` gives an application its own.',
  },
  {
    name: 'API_KEYS_PER_APPLICATION',
    default: '20',
    description:
      'Active (not revoked) API keys an application may have (1 to 1000); one more is refused, through the API (409) and the CLI alike.',
  },
  {
    name: 'SANDBOX_PROCESSES',
    default: '2',
    description:
      'Child processes (1 to 64) that decode uploaded images and PDFs, in each service process, and render documents, in the worker; more uploads wait in line (at most 64, then 503).',
  },
  {
    name: 'SANDBOX_MEMORY_MB',
    default: '512',
    description:
      'Resident memory (128 to 16384 MiB) a sandbox process may use; past it, the upload is refused (422) or the document fails.',
  },
  {
    name: 'SANDBOX_DECODE_SECONDS',
    default: '30',
    description: 'Seconds (1 to 600) decoding one upload may take; longer is a 422 that names the limit.',
  },
  {
    name: 'SANDBOX_RENDER_SECONDS',
    default: '120',
    description:
      'Seconds (1 to 300) rendering one document (exposé, catalog record, invoice) may take; longer counts as an abnormal end. At most 300: a run holds its document for 10 minutes.',
  },
  ...API_VERSIONS.flatMap((version) => [
    {
      name: `API_SUNSET_${versionVariable(version)}`,
      default: '(none)',
      description: `Sunset date (YYYY-MM-DD, 00:00 UTC) of the API version ${version}: its responses then carry Deprecation, Sunset and Link headers.`,
    },
    {
      name: `API_SUCCESSOR_${versionVariable(version)}`,
      default: '(none)',
      description: `URL of the successor of ${version} (the Link header); required with API_SUNSET_${versionVariable(version)}.`,
    },
  ]),
  {
    name: 'SMTP_URL',
    default: '(none)',
    description:
      "smtp:// or smtps:// URL for deprecation notices (`pnpm cli deprecation notices`) the worker's webhook alerts (an application's owner hears when its endpoint fails for an hour and when it is paused, at most once a day per endpoint) and the daily notice of API keys turning 90 days old (`notify-old-api-keys`); unset: notices are listed, not sent, and no alert or key notice is sent (the worker says so once at start).",
  },
  { name: 'SMTP_FROM', default: 'api@localhost', description: 'Sender address of the notices and alerts.' },
];

/** Every variable: the deployment's and those of the given services. */
export function variablesOf(services: readonly ServiceSettingsSpec[]): (VariableSpec & { default: string })[] {
  return [
    ...VARIABLES,
    ...services.flatMap((service) => [
      { name: service.port.variable, default: String(service.port.default), description: service.port.description },
      ...service.settings.map((setting) => ({
        name: setting.variable,
        default: settingDefault(setting),
        description: setting.description,
      })),
    ]),
  ];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** `STORAGE_DRIVER` and, for s3, its settings; values of secrets and URLs never go into a message. */
function storageConfig(env: Env, problems: string[]): StorageConfig {
  const driver = env.STORAGE_DRIVER || 'filesystem';
  if (driver !== 'filesystem' && driver !== 's3') {
    problems.push(`STORAGE_DRIVER must be filesystem or s3 (got "${driver}").`);
    return { driver: 'filesystem' };
  }
  if (driver === 'filesystem') return { driver };
  const required = (name: string) => {
    const value = env[name] ?? '';
    if (!value) problems.push(`${name} is required when STORAGE_DRIVER=s3.`);
    return value;
  };
  const endpoint = required('S3_ENDPOINT');
  if (endpoint) {
    let url: URL | undefined;
    try {
      url = new URL(endpoint);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      problems.push('S3_ENDPOINT must be an http:// or https:// URL.');
    else if (url.username || url.password)
      problems.push('S3_ENDPOINT must not contain credentials (use S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY).');
  }
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region))
    problems.push(`S3_REGION must be a region name such as us-east-1 (got "${region}").`);
  const bucket = required('S3_BUCKET');
  if (bucket && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    problems.push(
      `S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens (got "${bucket}").`,
    );
  const accessKeyId = required('S3_ACCESS_KEY_ID');
  const secretAccessKey = required('S3_SECRET_ACCESS_KEY');
  const storage: StorageConfig = { driver, endpoint, region, bucket, accessKeyId, secretAccessKey };
  const redacted = () => ({ ...storage, secretAccessKey: '[redacted]' });
  Object.defineProperty(storage, 'toJSON', { value: redacted, enumerable: false });
  Object.defineProperty(storage, Symbol.for('nodejs.util.inspect.custom'), { value: redacted, enumerable: false });
  return storage;
}

function smtpUrl(env: Env, problems: string[]): string | undefined {
  const value = env.SMTP_URL || undefined;
  // The URL may hold a password: never quote it.
  if (value && !/^smtps?:\/\/[^\s]+$/.test(value)) problems.push('SMTP_URL must be an smtp:// or smtps:// URL.');
  return value;
}

/** `<SERVICE>_PUBLIC_BASE_URL`, else `PUBLIC_BASE_URL`, else the local address of the service's port. */
function publicBaseUrl(env: Env, service: ServiceSettingsSpec, problems: string[]): string {
  return (
    baseUrl(env, service, 'PUBLIC_BASE_URL', problems) ??
    `http://localhost:${env[service.port.variable] || service.port.default}`
  );
}

/** The production and sandbox base URLs (`[<SERVICE>_]PRODUCTION_PUBLIC_BASE_URL`, `…SANDBOX…`); this environment's defaults to `own`. */
function publicBaseUrls(
  env: Env,
  service: ServiceSettingsSpec,
  environment: Environment,
  own: string,
  problems: string[],
): ServiceConfig['publicBaseUrls'] {
  const urls: ServiceConfig['publicBaseUrls'] = {};
  for (const which of ['production', 'sandbox'] as const) {
    const url = baseUrl(env, service, `${which.toUpperCase()}_PUBLIC_BASE_URL`, problems);
    if (url) urls[which] = url;
  }
  urls[environment] ??= own;
  return urls;
}

/** `<SERVICE>_<variable>`, else `<variable>`, validated as an http(s) base URL without a trailing slash; undefined when unset. */
function baseUrl(env: Env, service: ServiceSettingsSpec, variable: string, problems: string[]): string | undefined {
  const own = `${service.id.toUpperCase()}_${variable}`;
  const name = env[own] ? own : variable;
  const value = env[name];
  if (!value) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
    problems.push(
      `${name} must be an http(s) URL without query or fragment, e.g. https://api.example.com (got "${value}").`,
    );
    return value;
  }
  return value.replace(/\/+$/, '');
}

/** The configured sunsets; a sunset without a successor, or a malformed date or URL, is a problem. */
function deprecations(env: Env, problems: string[]): ApiDeprecation[] {
  return API_VERSIONS.flatMap((version) => {
    const sunsetName = `API_SUNSET_${versionVariable(version)}`;
    const successorName = `API_SUCCESSOR_${versionVariable(version)}`;
    const sunsetRaw = env[sunsetName];
    const successor = env[successorName] ?? '';
    if (!sunsetRaw) {
      if (successor) problems.push(`${successorName} is set but ${sunsetName} is not.`);
      return [];
    }
    const sunset = new Date(`${sunsetRaw}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(sunsetRaw) || Number.isNaN(sunset.getTime())) {
      problems.push(`${sunsetName} must be a date YYYY-MM-DD (got "${sunsetRaw}").`);
      return [];
    }
    if (!successor)
      problems.push(`${successorName} is required when ${sunsetName} is set (the URL of what replaces ${version}).`);
    else if (!/^https?:\/\/[^\s]+$/.test(successor))
      problems.push(`${successorName} must be an http(s) URL (got "${successor}").`);
    return [{ version, sunset, successor }];
  });
}

function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    problems.push(`${name} must be a whole number, ${min} to ${max} (got "${raw}").`);
  return value;
}

function port(env: Env, name: string, fallback: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    problems.push(`${name} must be a port number 1-65535 (got "${raw}").`);
  return value;
}

/**
 * Reads and validates the configuration once, with the ports and settings of the given services;
 * every problem is reported, not just the first.
 */
export function loadConfig(
  env: Env = process.env,
  cwd: string = process.cwd(),
  services: readonly ServiceSettingsSpec[] = [],
): Config {
  const problems: string[] = [];
  const appEnv = env.APP_ENV ?? 'sandbox';
  if (appEnv !== 'sandbox' && appEnv !== 'production')
    problems.push(`APP_ENV must be sandbox or production (got "${appEnv}").`);
  const environment = appEnv as Environment;
  const dataDir = resolve(cwd, env.DATA_DIR ?? '.data');
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    problems.push('DATABASE_URL must start with postgresql://.');
  const directDatabaseUrl = env.DIRECT_DATABASE_URL || undefined;
  if (directDatabaseUrl && !/^postgres(ql)?:\/\//.test(directDatabaseUrl))
    problems.push('DIRECT_DATABASE_URL must start with postgresql://.');
  const databasePooling = env.DATABASE_POOLING || 'none';
  if (databasePooling !== 'none' && databasePooling !== 'transaction')
    problems.push(`DATABASE_POOLING must be none or transaction (got "${databasePooling}").`);
  if (databasePooling === 'transaction' && !databaseUrl)
    problems.push('DATABASE_POOLING=transaction needs DATABASE_URL (the pooler); the embedded database is not pooled.');
  if (databasePooling === 'transaction' && !directDatabaseUrl)
    problems.push(
      'DATABASE_POOLING=transaction needs DIRECT_DATABASE_URL (the PostgreSQL server itself): migrations hold a session lock, which a transaction pooler does not keep.',
    );
  const prepared = env.DATABASE_PREPARED_STATEMENTS || (databasePooling === 'transaction' ? 'false' : 'true');
  if (prepared !== 'true' && prepared !== 'false')
    problems.push(`DATABASE_PREPARED_STATEMENTS must be true or false (got "${prepared}").`);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}").`);
  }
  const trustProxy = env.TRUST_PROXY ?? 'false';
  if (trustProxy !== 'true' && trustProxy !== 'false')
    problems.push(`TRUST_PROXY must be true or false (got "${trustProxy}").`);
  const allowPrivate = env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? 'false';
  if (allowPrivate !== 'true' && allowPrivate !== 'false')
    problems.push(`WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false (got "${allowPrivate}").`);
  if (allowPrivate === 'true' && environment === 'production')
    problems.push('WEBHOOK_ALLOW_PRIVATE_TARGETS=true is refused in production (SSRF guard).');
  const maxEndpoints = Number(env.WEBHOOK_MAX_ENDPOINTS ?? '20');
  if (!Number.isInteger(maxEndpoints) || maxEndpoints < 1 || maxEndpoints > 1000) {
    problems.push(`WEBHOOK_MAX_ENDPOINTS must be a whole number, 1 to 1000 (got "${env.WEBHOOK_MAX_ENDPOINTS}").`);
  }
  const webhookSecretKey = env.WEBHOOK_SECRET_KEY ?? '';
  if (webhookSecretKey && !/^[0-9a-fA-F]{64}$/.test(webhookSecretKey))
    problems.push('WEBHOOK_SECRET_KEY must be 64 hex characters (32 bytes).');
  if (!webhookSecretKey && environment === 'production')
    problems.push('WEBHOOK_SECRET_KEY is required in production (64 hex characters).');
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://.');
  const apiKeyPepper = env.API_KEY_PEPPER ?? '';
  if (apiKeyPepper && apiKeyPepper.length < 32) problems.push('API_KEY_PEPPER must be at least 32 characters long.');
  if (!apiKeyPepper && environment === 'production')
    problems.push('API_KEY_PEPPER is required in production (at least 32 random characters).');
  const config: Config = {
    environment,
    databaseUrl,
    directDatabaseUrl,
    databasePooling: databasePooling as DatabasePooling,
    preparedStatements: prepared === 'true',
    dataDir,
    embeddedPostgresPort: port(env, 'EMBEDDED_PG_PORT', 54329, problems),
    host: env.HOST ?? '127.0.0.1',
    services: Object.fromEntries(
      services.map((service) => [
        service.id,
        {
          port: port(env, service.port.variable, service.port.default, problems),
          publicBaseUrl: publicBaseUrl(env, service, problems),
          publicBaseUrls: publicBaseUrls(env, service, environment, publicBaseUrl(env, service, []), problems),
          ...resolveServiceSettings(env, { cwd, dataDir }, service.settings, problems),
        },
      ]),
    ),
    apiKeyPepper,
    logLevel,
    trustProxy: trustProxy === 'true',
    redisUrl,
    redisPort: port(env, 'REDIS_PORT', 56379, problems),
    redisSentinel: redisSentinelConfig(env, problems),
    webhookSecretKey,
    webhookAllowPrivateTargets: allowPrivate === 'true',
    webhookMaxEndpoints: maxEndpoints,
    storage: storageConfig(env, problems),
    metricsPort: wholeNumber(env, 'METRICS_PORT', 9464, 0, 65535, problems),
    maxEventLoopDelayMs: wholeNumber(env, 'MAX_EVENT_LOOP_DELAY_MS', 1000, 10, 60_000, problems),
    rateLimitPerMinute: wholeNumber(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000, problems),
    apiKeysPerApplication: wholeNumber(env, 'API_KEYS_PER_APPLICATION', 20, 1, 1000, problems),
    sandbox: {
      processes: wholeNumber(env, 'SANDBOX_PROCESSES', DEFAULT_SANDBOX.processes, 1, 64, problems),
      memoryMb: wholeNumber(env, 'SANDBOX_MEMORY_MB', DEFAULT_SANDBOX.memoryMb, 128, 16_384, problems),
      decodeSeconds: wholeNumber(env, 'SANDBOX_DECODE_SECONDS', DEFAULT_SANDBOX.decodeSeconds, 1, 600, problems),
      renderSeconds: wholeNumber(env, 'SANDBOX_RENDER_SECONDS', DEFAULT_SANDBOX.renderSeconds, 1, 300, problems),
    },
    deprecations: deprecations(env, problems),
    smtpUrl: smtpUrl(env, problems),
    smtpFrom: env.SMTP_FROM || 'api@localhost',
  };
  if (problems.length > 0) throw new ConfigError(problems);
  if (!apiKeyPepper) config.apiKeyPepper = sandboxSecret(dataDir, 'api_key_pepper');
  if (!webhookSecretKey) config.webhookSecretKey = sandboxSecret(dataDir, 'webhook_secret_key', 'hex');
  return config;
}

/** The sandbox secrets of a data dir: generated values, readable by this OS user only (0600). */
export const SANDBOX_SECRETS_FILE = 'sandbox-secrets.json';

/**
 * Sandbox convenience: a secret generated once and kept in `DATA_DIR/sandbox-secrets.json` (0600),
 * so keys survive restarts and the embedded database and Redis keep their passwords. Processes
 * that start at the same time (`pnpm start`, `pnpm cli`) get the same value: the file is written
 * under a lock, atomically. Deleting an entry rotates it at the next start (see README).
 */
export function sandboxSecret(dataDir: string, name: string, encoding: 'base64url' | 'hex' = 'base64url'): string {
  const file = join(dataDir, SANDBOX_SECRETS_FILE);
  const read = () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {});
  if (existsSync(file) && statSync(file).mode & 0o077) chmodSync(file, 0o600);
  const known = read()[name];
  if (known) return known;
  // As root the embedded PostgreSQL runs as its own OS user, which must pass through DATA_DIR.
  mkdirSync(dataDir, { recursive: true, mode: process.getuid?.() === 0 ? 0o711 : 0o700 });
  return withLock(`${file}.lock`, () => {
    const secrets = read();
    if (!secrets[name]) {
      secrets[name] = randomBytes(32).toString(encoding);
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(secrets, null, 2), { mode: 0o600 });
      chmodSync(temporary, 0o600);
      renameSync(temporary, file);
    }
    return secrets[name];
  });
}

/** A sandbox secret if it was generated already (nothing is written): undefined before the first start. */
export function existingSandboxSecret(dataDir: string, name: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dataDir, SANDBOX_SECRETS_FILE), 'utf8')) as Record<string, string>)[name];
  } catch {
    return undefined;
  }
}

/** Runs `fn` while holding `lockFile` (created exclusively; a lock older than 10 s is stale). */
function withLock<T>(lockFile: string, fn: () => T): T {
  const started = Date.now();
  for (;;) {
    try {
      closeSync(openSync(lockFile, 'wx', 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lockFile).mtimeMs > 10_000) rmSync(lockFile, { force: true });
      } catch {
        // released meanwhile
      }
      if (Date.now() - started > 15_000)
        throw new Error(`Could not lock ${lockFile}; remove it if no other process is starting.`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockFile, { force: true });
  }
}
