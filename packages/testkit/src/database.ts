import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPrisma, type PrismaClient } from '@platform/db';
import { TEMPLATE_DATABASE, withDatabase } from './global-setup.js';

export interface TestDatabase {
  /** The database as the application role (not a superuser on the embedded server), as the apps connect. */
  url: string;
  prisma: PrismaClient;
  /** Runs SQL as the admin on this database (for assertions that look past the API). */
  query<T extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** The run's server as a superuser (or DATABASE_URL). */
export function adminUrl(): string {
  return inject('databaseAdminUrl');
}

/** The run's server as the application role (or DATABASE_URL). */
export function appUrl(): string {
  return inject('databaseUrl');
}

/** One statement on a connection of its own (a server the test started itself, say). */
export function queryAt(url: string, sql: string): Promise<Record<string, unknown>[]> {
  return connect(url, async (client) => (await client.query(sql)).rows);
}

async function connect<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own for one test file: migrated (a clone of the template) or empty, created
 * by the application role, which therefore owns it (and the template's tables it inherits).
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  await connect(appUrl(), (c) =>
    c.query(`CREATE DATABASE "${name}" TEMPLATE ${options.empty ? 'template0' : `"${TEMPLATE_DATABASE}"`}`),
  );
  const url = withDatabase(appUrl(), name);
  const prisma = createPrisma({ url, maxConnections: 5 });
  return {
    url,
    prisma,
    query: (sql, params) => connect(withDatabase(adminUrl(), name), async (c) => (await c.query(sql, params)).rows),
    drop: async () => {
      await prisma.$disconnect();
      await connect(adminUrl(), (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
