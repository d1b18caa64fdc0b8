import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { runMigrations, startEmbeddedPostgres } from '@platform/db';

export const TEMPLATE_DATABASE = 'platform_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
    redisUrl: string;
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
  const redis = await startRedis();
  project.provide('redisUrl', redis.url);
  return async () => {
    await redis.stop();
    await stop();
  };
}

/** The Redis of `REDIS_URL`, or a private `redis-server` child process for this run. */
async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => {} };
  const port = 40_000 + Math.floor(Math.random() * 20_000);
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'], {
    stdio: 'ignore',
  });
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`redis-server could not be started (${error.message}); install it (apt-get install redis-server) or set REDIS_URL.`)));
    const started = Date.now();
    const probe = () => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve();
      });
      socket.once('error', () => (Date.now() - started > 10_000 ? reject(new Error('redis-server did not start')) : setTimeout(probe, 50)));
    };
    probe();
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
    },
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
