// The restore drill of docs/operations.md ("Backup and restore"): a deployment with data of both
// services takes its backup while writes go on — pg_dump of the database, then a copy of the file
// store — and the machine is lost (the deployment stopped, its Redis gone with the queued jobs).
// The backup restored into an empty database and a new DATA_DIR, started with a new empty Redis,
// passes `pnpm cli storage check` and the read-only contract checks (`pnpm contract`), and what the
// lost Redis held is found and finished by the services: every delivery pending in the backup
// reaches the receiver, signed with the endpoint's secret, and every document still generating is
// completed (the first sweep finds its job unknown to the new queue and enqueues it again).
//
// pg_dump must be of the server's major version (or newer); the embedded PostgreSQL package ships
// no pg_dump, so the drill runs on a server of the machine's own installation, with its tools.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { agentPlatformDescriptor } from '@platform/agent-platform';
import { SIGNATURE_HEADERS, verifyWebhook } from '@platform/client';
import { createPrisma } from '@platform/db';
import { propertyDescriptor } from '@platform/property-service';
import {
  createTenant,
  runScript,
  startReceiver,
  startServices,
  startSystemPostgres,
  TEST_PEPPER,
  until,
  type Receiver,
  type StartedServices,
  type SystemPostgres,
  type Tenant,
} from '@platform/testkit';
import {
  apiOf,
  completed,
  createAgent,
  createProperty,
  createProspect,
  expectJson,
  generateCatalogEntry,
  generateListing,
  reportUsage,
  uploadModelCard,
  uploadPhoto,
  writeLoop,
  type Api,
} from './restore-drill-traffic.js';

const run = promisify(execFile);
const ROLE = 'platform';
const ROLE_PASSWORD = randomBytes(24).toString('base64url');
// Kept with the backup (the `.env`): without it the endpoints' signing secrets cannot be read.
const WEBHOOK_SECRET_KEY = randomBytes(32).toString('hex');
const root = mkdtempSync(join(tmpdir(), 'restore-drill-'));
const backup = join(root, 'backup');
const dataDir = join(root, 'data');
const restoredDataDir = join(root, 'restored-data');

let postgres: SystemPostgres;
let receiver: Receiver;
let original: StartedServices | undefined;
let restored: StartedServices | undefined;
let tenants: { property: Tenant; agents: Tenant };
const secrets: Record<string, string> = {};

const appUrl = (database: string) =>
  postgres.url(database, ROLE).replace(`${ROLE}@`, `${ROLE}:${encodeURIComponent(ROLE_PASSWORD)}@`);
const sql = async <T extends pg.QueryResultRow>(database: string, text: string) => {
  const client = new pg.Client({ connectionString: postgres.adminUrl(database) });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
};
const deploymentEnv = (dir: string) => ({
  DATA_DIR: dir,
  API_KEY_PEPPER: TEST_PEPPER,
  STORAGE_DRIVER: 'filesystem',
  WEBHOOK_SECRET_KEY,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  RATE_LIMIT_PER_MINUTE: '100000',
  SANDBOX_PROCESSES: '1',
});
const apis = (services: StartedServices) => ({
  property: apiOf(`http://127.0.0.1:${services.ports.property}`, tenants.property.key),
  agents: apiOf(`http://127.0.0.1:${services.ports.agents}`, tenants.agents.key),
});

/** The documented commands (docs/operations.md), as the operator runs them; the role's password in PGPASSWORD. */
const tool = (name: string, args: string[], password = ROLE_PASSWORD) =>
  run(postgres.program(name), args, { env: { PATH: process.env.PATH, PGPASSWORD: password } });

beforeAll(async () => {
  postgres = await startSystemPostgres();
  await sql('postgres', `CREATE ROLE ${ROLE} LOGIN CREATEDB PASSWORD '${ROLE_PASSWORD}'`);
  await sql('postgres', `CREATE DATABASE platform OWNER ${ROLE}`);
  receiver = await startReceiver();
  original = await startServices({ databaseUrl: appUrl('platform'), env: deploymentEnv(dataDir) });
  const prisma = createPrisma({ url: appUrl('platform') }); // the services migrated it
  tenants = {
    property: await createTenant(prisma, { service: propertyDescriptor }),
    agents: await createTenant(prisma, { service: agentPlatformDescriptor }),
  };
  await prisma.$disconnect();
}, 120_000);

afterAll(async () => {
  await original?.stop();
  await restored?.stop();
  await receiver?.close();
  await postgres?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function subscribe(api: Api, path: string, events: string[]) {
  const endpoint = await expectJson<{ id: string; signing_secret: string }>(
    api('POST', '/v1/webhooks', { url: `${receiver.url}${path}`, events }),
    201,
  );
  secrets[path] = endpoint.signing_secret;
}

it('restores a backup taken while writes go on into an empty deployment, losing nothing', async () => {
  const before = apis(original!);
  await subscribe(before.property, '/property', ['property.created', 'property.updated', 'listing.completed']);
  await subscribe(before.agents, '/agents', ['agent.created', 'agent.updated', 'catalog_entry.completed']);

  // Records of both services, with uploads and finished PDFs.
  const house = await createProperty(before.property, 'Before the backup');
  await uploadPhoto(before.property, house.id);
  const listing = await generateListing(before.property, house.id);
  await createProspect(before.property, 0);
  const agent = await createAgent(before.agents, 'Drill agent');
  await uploadModelCard(before.agents, agent.id);
  await reportUsage(before.agents, agent.id, 0);
  const entry = await generateCatalogEntry(before.agents, agent.id);
  await completed(before.property, `/v1/listings/${listing.id}`);
  await completed(before.agents, `/v1/catalog-entries/${entry.id}`);
  await receiver.waitFor(1, '/agents', 30_000);

  // From now on the receiver keeps the deliveries waiting: what the backup holds is not delivered yet.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  receiver.respond = (_request, response) => void released.then(() => response.writeHead(503).end());

  // The backup, while writes go on: the database first, then the files (a row's file is stored
  // before the row is committed, so every file the dump names is in the later copy).
  const traffic = writeLoop(before.property, before.agents, house.id, agent.id);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  // Documents queued right before: their jobs live only in Redis while the dump is taken.
  await Promise.all([
    ...[1, 2, 3].map(() => generateListing(before.property, house.id)),
    ...[1, 2].map(() => generateCatalogEntry(before.agents, agent.id)),
  ]);
  mkdirSync(backup, { mode: 0o700 });
  await tool('pg_dump', [
    '--format=custom',
    `--file=${join(backup, 'platform.dump')}`,
    `--dbname=${postgres.url('platform', ROLE)}`,
  ]);
  await run('cp', ['-a', join(dataDir, 'blobs'), join(backup, 'blobs')]);
  const { writes, problems } = await traffic.stop();
  expect(problems).toEqual([]);
  expect(writes).toBeGreaterThan(5);

  // The machine is lost: the deployment and its Redis with every queued job.
  release();
  await original!.stop();
  original = undefined;
  receiver.received.length = 0;
  receiver.respond = (_request, response) => response.writeHead(200).end('ok');

  // The restore: an empty database of the application's role, the dump into it, the files into a new DATA_DIR.
  await tool(
    'psql',
    [`--dbname=${postgres.url('postgres')}`, '-c', `CREATE DATABASE platform_restored OWNER ${ROLE}`],
    postgres.adminPassword,
  );
  await tool('pg_restore', [
    '--exit-on-error',
    '--no-owner',
    `--dbname=${postgres.url('platform_restored', ROLE)}`,
    join(backup, 'platform.dump'),
  ]);
  mkdirSync(restoredDataDir, { mode: 0o700 });
  await run('cp', ['-a', join(backup, 'blobs'), join(restoredDataDir, 'blobs')]);

  // What the lost Redis held: deliveries not yet made, events not yet relayed, documents not yet rendered.
  const pending = await sql<{ id: string; event_id: string }>(
    'platform_restored',
    "SELECT id, event_id FROM webhook_deliveries WHERE status = 'pending'",
  );
  const unrelayed = await sql<{ id: string }>(
    'platform_restored',
    'SELECT id FROM outbox_events WHERE relayed_at IS NULL',
  );
  const generating = await sql<{ path: string }>(
    'platform_restored',
    `SELECT '/v1/listings/' || id AS path FROM listings WHERE status = 'generating'
     UNION ALL SELECT '/v1/catalog-entries/' || id FROM catalog_entries WHERE status = 'generating'`,
  );
  expect(pending.length + unrelayed.length).toBeGreaterThan(0);
  expect(generating.length).toBeGreaterThan(0);

  const started = Date.now();
  restored = await startServices({ databaseUrl: appUrl('platform_restored'), env: deploymentEnv(restoredDataDir) });
  const after = apis(restored);
  const cliEnv = {
    ...process.env,
    DATABASE_URL: appUrl('platform_restored'),
    ...deploymentEnv(restoredDataDir),
  };

  const storage = await runScript('apps/cli/src/main.ts', ['storage', 'check', '--json'], cliEnv);
  expect(storage.stderr).toBe('');
  expect(storage.code).toBe(0);
  const checked = JSON.parse(storage.stdout) as { checked: number; mismatches: unknown[] };
  expect(checked.mismatches).toEqual([]);
  expect(checked.checked).toBeGreaterThan(5);

  // Every delivery that was pending and every event not yet relayed reaches its receiver, signed.
  const delivered = async () => {
    const ids = new Set<string>();
    for (const request of receiver.received) {
      const header = request.headers[SIGNATURE_HEADERS.property] ?? request.headers[SIGNATURE_HEADERS.agentPlatform];
      const check = await verifyWebhook(request.raw, String(header), secrets[request.path]!);
      if (check.valid) ids.add((JSON.parse(request.raw.toString()) as { id: string }).id);
    }
    return ids;
  };
  const expected = [...pending.map((d) => d.event_id), ...unrelayed.map((e) => e.id)];
  await until(async () => {
    const ids = await delivered();
    return expected.every((id) => ids.has(id));
  }, 150_000).catch(async () => {
    const ids = await delivered();
    throw new Error(
      `not delivered after the restore: ${expected.filter((id) => !ids.has(id)).length} of ${expected.length}`,
    );
  });
  const deliveredAfterMs = Date.now() - started;

  // Every document that was generating is completed: its job was lost with Redis, and the first
  // sweep of the restored worker (every minute) finds it unknown to the queue and enqueues it again.
  await Promise.all(
    generating.map(({ path }) =>
      completed(path.startsWith('/v1/listings') ? after.property : after.agents, path, 120_000),
    ),
  );

  // The read-only part of the contract suite, with the tenants' keys, against the restored deployment.
  const contract = await runScript(
    'contract/cli.ts',
    [
      ...['--base-url', `http://127.0.0.1:${restored.ports.property}`, '--key-env', 'DRILL_PM_KEY'],
      ...['--base-url', `http://127.0.0.1:${restored.ports.agents}`, '--key-env', 'DRILL_AP_KEY'],
      '--json',
    ],
    { ...process.env, DRILL_PM_KEY: tenants.property.key, DRILL_AP_KEY: tenants.agents.key },
  );
  const report = JSON.parse(contract.stdout) as {
    ok: boolean;
    checks: { operation: string; status: string; result: string; problem: string }[];
  };
  expect(report.checks.filter((c) => c.result === 'FAIL')).toEqual([]);
  expect(contract.code).toBe(0);
  // The reads reached the restored records and a restored file.
  const read = new Set(report.checks.filter((c) => c.status === '200').map((c) => c.operation));
  for (const operation of ['getListing', 'getCatalogEntry', 'downloadAgentArtifact'])
    expect(read, operation).toContain(operation);

  console.log(
    `restore drill: ${writes} writes during the backup; ${pending.length} pending deliveries, ${unrelayed.length} unrelayed events and ${generating.length} generating documents in it; delivered ${deliveredAfterMs} ms after the restored start`,
  );
}, 420_000);
