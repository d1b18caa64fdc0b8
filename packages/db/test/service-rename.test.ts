import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseBefore, type DatabaseBefore, type TestDatabase } from '@platform/testkit';

const RENAME = '20261123120000_service_agent_platform';
let migration: DatabaseBefore;
let db: TestDatabase;

beforeAll(async () => {
  migration = await databaseBefore(RENAME);
  db = migration.db;
});
afterAll(() => migration.drop());

it('keeps the agent platform applications, endpoints and events of a database made before the rename', async () => {
  await migration.migrateToBefore();
  await db.query("INSERT INTO accounts (id, name) VALUES ('acct_1', 'Org')");
  await db.query(
    "INSERT INTO applications (id, account_id, service, name) VALUES ('app_1', 'acct_1', 'agents', 'bot'), ('app_2', 'acct_1', 'property', 'web')",
  );
  await db.query(
    "INSERT INTO outbox_events (id, account_id, service, type, payload) VALUES ('evt_1', 'acct_1', 'agents', 'agent.created', '{}')",
  );
  expect((await migration.migrateRest())[0]).toBe(RENAME);
  expect(await db.query('SELECT id, service::text AS service FROM applications ORDER BY id')).toEqual([
    { id: 'app_1', service: 'agent_platform' },
    { id: 'app_2', service: 'property' },
  ]);
  expect(await db.query('SELECT service::text AS service FROM outbox_events')).toEqual([{ service: 'agent_platform' }]);
});
