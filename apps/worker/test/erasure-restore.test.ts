// A restore does not bring erased people back (issue 37): dump → erase → restore → the services
// refuse to start → `pnpm cli erasures reapply` → nothing personal of the erased prospect is left,
// and the services start. The database is restored from its dump as in the restore drill (pg_dump
// and pg_restore of the machine's PostgreSQL); the erasure journal (ERASURE_JOURNAL_DIR, outside
// DATA_DIR here) is the live one. The worker alone refuses to start too.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrisma } from '@platform/db';
import { propertyDescriptor } from '@platform/property-service';
import {
  createTenant,
  freePort,
  runScript,
  startServices,
  startSystemPostgres,
  TEST_PEPPER,
  type StartedServices,
  type SystemPostgres,
  type Tenant,
} from '@platform/testkit';

const run = promisify(execFile);
const ROLE = 'platform';
const ROLE_PASSWORD = randomBytes(24).toString('base64url');
const root = mkdtempSync(join(tmpdir(), 'erasure-restore-'));
const dump = join(root, 'platform.dump');
const dataDir = join(root, 'data');

let postgres: SystemPostgres;
let services: StartedServices | undefined;
let tenant: Tenant;

const appUrl = (database: string) =>
  postgres.url(database, ROLE).replace(`${ROLE}@`, `${ROLE}:${encodeURIComponent(ROLE_PASSWORD)}@`);
const sql = async <T extends pg.QueryResultRow>(database: string, text: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: postgres.adminUrl(database) });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
};
const env = {
  DATA_DIR: dataDir,
  ERASURE_JOURNAL_DIR: join(root, 'erasure-journal'),
  API_KEY_PEPPER: TEST_PEPPER,
  // The worker started alone below must encrypt with the services' key (the start refuses another).
  WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
  STORAGE_DRIVER: 'filesystem',
  SANDBOX_PROCESSES: '1',
};
const tool = (name: string, args: string[], password = ROLE_PASSWORD) =>
  run(postgres.program(name), args, { env: { PATH: process.env.PATH, PGPASSWORD: password } });
const call = (method: string, path: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${services!.ports.property}${path}`, {
    method,
    headers: { apikey: tenant.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Every text-like value of every table of the database. */
async function everyTextValue(database: string): Promise<string> {
  const columns = await sql<{ table_name: string; column_name: string }>(
    database,
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'ARRAY', 'jsonb')`,
  );
  let all = '';
  for (const { table_name, column_name } of columns) {
    const rows = await sql<{ v: string | null }>(database, `SELECT "${column_name}"::text AS v FROM "${table_name}"`);
    all += rows.map((r) => r.v ?? '').join('\n');
  }
  return all;
}

const person = (n: number) => ({
  vorname: `Restorevorname${n}`,
  nachname: `Restorenachname${n}`,
  email: `restore${n}@example.de`,
  telefon: `+49 40 888 010${n}`,
  einwilligung: { zweck: 'Kontakt', erteilt_am: '2026-01-01T10:00:00Z' },
});
const personal = (n: number) => Object.values(person(n)).filter((v): v is string => typeof v === 'string');

beforeAll(async () => {
  postgres = await startSystemPostgres();
  await sql('postgres', `CREATE ROLE ${ROLE} LOGIN CREATEDB PASSWORD '${ROLE_PASSWORD}'`);
  await sql('postgres', `CREATE DATABASE platform OWNER ${ROLE}`);
  services = await startServices({ databaseUrl: appUrl('platform'), env });
  const prisma = createPrisma({ url: appUrl('platform') }); // the services migrated it
  tenant = await createTenant(prisma, { service: propertyDescriptor });
  await prisma.$disconnect();
}, 120_000);

afterAll(async () => {
  await services?.stop();
  await postgres?.stop();
  rmSync(root, { recursive: true, force: true });
});

it('re-applies the erasures made after the backup before the services may start again', async () => {
  const created = async (n: number) => {
    const response = await call('POST', '/leads/v1/interessenten', person(n));
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const erased = await created(1);
  const kept = await created(2);
  await tool('pg_dump', ['--format=custom', `--file=${dump}`, `--dbname=${postgres.url('platform', ROLE)}`]);
  expect((await call('POST', `/leads/v1/interessenten/${erased}/loeschung`, {})).status).toBe(200);
  await services!.stop();
  services = undefined;

  // The database is restored from the dump: the erased prospect is back.
  await tool(
    'psql',
    [`--dbname=${postgres.url('postgres')}`, '-c', `CREATE DATABASE platform_restored OWNER ${ROLE}`],
    postgres.adminPassword,
  );
  await tool('pg_restore', [
    '--exit-on-error',
    '--no-owner',
    `--dbname=${postgres.url('platform_restored', ROLE)}`,
    dump,
  ]);
  expect(await everyTextValue('platform_restored')).toContain(person(1).email);

  // The services refuse to start, naming the command.
  const refused = await startServices({ databaseUrl: appUrl('platform_restored'), env }).then(
    () => 'started',
    (error: Error) => error.message,
  );
  expect(refused).toContain('recorded erasure(s) are missing from the database');
  expect(refused).toContain('pnpm cli erasures reapply');

  const cliEnv = { ...process.env, DATABASE_URL: appUrl('platform_restored'), ...env };
  // A worker alone (the containers' layout) runs the same check before it works.
  const worker = await runScript('apps/worker/src/main.ts', [], {
    ...cliEnv,
    REDIS_PORT: String(await freePort()),
    METRICS_PORT: '0',
  });
  expect(worker.code).toBe(1);
  expect(worker.stderr).toContain('recorded erasure(s) are missing from the database');

  const reapply = await runScript('apps/cli/src/main.ts', ['erasures', 'reapply', '--json'], cliEnv);
  expect(reapply.stderr).toBe('');
  expect(reapply.code).toBe(0);
  expect(JSON.parse(reapply.stdout)).toEqual({ recorded: 1, reapplied: 1, anonymised: 0 });
  const again = await runScript('apps/cli/src/main.ts', ['erasures', 'reapply', '--json'], cliEnv);
  expect(JSON.parse(again.stdout)).toEqual({ recorded: 1, reapplied: 0, anonymised: 0 });

  // Nothing personal of the erased prospect is left; the other one is untouched.
  const text = await everyTextValue('platform_restored');
  for (const value of personal(1)) expect(text).not.toContain(value);
  for (const value of personal(2)) expect(text).toContain(value);

  // Now the services start, and the log shows the erasure at its first time, re-applied.
  services = await startServices({ databaseUrl: appUrl('platform_restored'), env });
  const log = (await (await call('GET', '/leads/v1/loeschprotokoll')).json()) as { daten: Record<string, unknown>[] };
  expect(log.daten).toEqual([
    expect.objectContaining({
      interessent_id: erased,
      art: 'loeschung',
      veranlasst_durch: { art: 'api_key', anwendung_id: tenant.applicationId, key_id: tenant.keyId },
      erneut_angewendet_am: expect.any(String),
    }),
  ]);
  expect(((await (await call('GET', `/leads/v1/interessenten/${kept}`)).json()) as { email: string }).email).toBe(
    person(2).email,
  );
}, 180_000);
