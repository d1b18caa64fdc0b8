// `pnpm cli ...`: works on the same database as `pnpm start` (DATABASE_URL or the embedded one).
import { createPrisma, type PrismaClient } from '@platform/db';
import {
  checkSharedSecrets,
  configOrExit,
  DatabaseUnavailableError,
  openDatabase,
  openRedis,
  openSandbox,
  openStorage,
  SecretMismatchError,
  sharedSecretsOf,
  type ResolvedDatabase,
  type ResolvedRedis,
} from '@platform/runtime';
import { erasureJournalDirOf } from '@platform/property-service';
import type { Sandbox } from '@platform/sandbox';
import { createJobQueue } from '@platform/service';
import { answerWithoutConfiguration, runCli, type CliResult } from './run.js';
import { isSecretsCommand } from './secrets.js';
import { SERVICES } from './services.js';

const argv = process.argv.slice(2);
// Help and usage errors need no configuration: `pnpm cli --help` works before production's secrets are set.
const early = answerWithoutConfiguration(argv);
if (early) {
  (early.exitCode === 0 ? process.stdout : process.stderr).write(`${early.output}\n`);
  process.exit(early.exitCode);
}

let database: ResolvedDatabase | undefined;
let db: PrismaClient | undefined;
let redis: ResolvedRedis | undefined;
let queue: ReturnType<typeof createJobQueue> | undefined;
let sandbox: Sandbox | undefined;
const config = configOrExit(SERVICES);

let result: CliResult;
try {
  result = await runCli(argv, async () => {
    database = await openDatabase(config);
    db = createPrisma({ url: database.url, maxConnections: 2, ...database.pool });
    // Keys made with another pepper would never verify (the CLI encrypts nothing with WEBHOOK_SECRET_KEY).
    const pepper = sharedSecretsOf(config).filter((secret) => secret.name === 'API_KEY_PEPPER');
    if (!isSecretsCommand(argv)) await checkSharedSecrets(db, pepper);
    return {
      db,
      environment: config.environment,
      pepper: config.apiKeyPepper,
      storage: () => openStorage(config),
      sandbox: () => (sandbox ??= openSandbox(config)),
      jobQueue: async () => {
        redis ??= await openRedis(config);
        return (queue ??= createJobQueue(redis.connection));
      },
      smtp: { url: config.smtpUrl, from: config.smtpFrom },
      rateLimitPerMinute: config.rateLimitPerMinute,
      apiKeysPerApplication: config.apiKeysPerApplication,
      deprecations: config.deprecations,
      erasureJournalDir: erasureJournalDirOf(config.services.property!.directories),
    };
  });
} catch (error) {
  // The database cannot be opened (e.g. DATA_DIR's embedded one runs with other settings): one line, with what to do.
  if (!(error instanceof DatabaseUnavailableError || error instanceof SecretMismatchError)) throw error;
  result = { exitCode: 1, output: `Error: ${error.message}` };
}
await sandbox?.close();
await queue?.close();
await redis?.close();
await db?.$disconnect();
await database?.close();
(result.exitCode === 0 ? process.stdout : process.stderr).write(`${result.output}\n`);
process.exit(result.exitCode);
