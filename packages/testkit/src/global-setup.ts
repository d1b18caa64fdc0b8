import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { runMigrations, startEmbeddedPostgres } from '@platform/db';

export const TEMPLATE_DATABASE = 'platform_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
  }
}

/**
 * One PostgreSQL per test run (embedded, or the server of `DATABASE_URL`), with a migrated
 * template database; every test file clones it into a database of its own.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  let stop = async () => {};
  if (!adminUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'platform-pg-'));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const server = await startEmbeddedPostgres({ dataDir: dir, port, persistent: false, durable: false });
    adminUrl = server.adminUrl;
    stop = async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DATABASE}"`);
  await client.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  await client.end();
  await runMigrations(withDatabase(adminUrl, TEMPLATE_DATABASE));
  project.provide('databaseAdminUrl', adminUrl);
  return stop;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
