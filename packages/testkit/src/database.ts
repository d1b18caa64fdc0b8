import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPrisma, type PrismaClient } from '@platform/db';
import { TEMPLATE_DATABASE, withDatabase } from './global-setup.js';

export interface TestDatabase {
  url: string;
  prisma: PrismaClient;
  /** Runs SQL as the admin on this database (for assertions that look past the API). */
  query<T extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

export function adminUrl(): string {
  return inject('databaseAdminUrl');
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>, url = adminUrl()): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A database of its own for one test file: migrated (a clone of the template) or empty. */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE ${options.empty ? 'template0' : `"${TEMPLATE_DATABASE}"`}`));
  const url = withDatabase(adminUrl(), name);
  const prisma = createPrisma({ url, maxConnections: 5 });
  return {
    url,
    prisma,
    query: (sql, params) => admin(async (c) => (await c.query(sql, params)).rows, url),
    drop: async () => {
      await prisma.$disconnect();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
