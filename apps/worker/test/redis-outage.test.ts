// Redis goes away while the services run (its process killed), and comes back on the same port
// and data directory: the APIs keep answering, events wait in the outbox, the log says it once
// each way, and every event of the outage is delivered exactly once afterwards.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyDescriptor } from '@platform/property-service';
import {
  createTenant,
  createTestDatabase,
  freePort,
  startReceiver,
  startServices,
  until,
  type Receiver,
  type StartedServices,
  type Tenant,
  type TestDatabase,
} from '@platform/testkit';

let db: TestDatabase;
let tenant: Tenant;
let receiver: Receiver;
let services: StartedServices;
let redis: ChildProcess | undefined;
let redisPort: number;
const redisDir = mkdtempSync(join(tmpdir(), 'redis-outage-'));
// Both tests' processes sign with the endpoints' secrets: one key, as an operator's restart keeps it.
const WEBHOOK_SECRET_KEY = randomBytes(32).toString('hex');

async function startRedis(): Promise<void> {
  redis = spawn(
    'redis-server',
    [
      '--port',
      String(redisPort),
      '--bind',
      '127.0.0.1',
      '--dir',
      redisDir,
      '--appendonly',
      'yes',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: 'ignore' },
  );
  await until(
    async () => (await fetch(`http://127.0.0.1:${redisPort}`).catch((e: Error) => e)) instanceof Response || undefined,
    10_000,
  ).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 300));
}

async function killRedis(): Promise<void> {
  const exited = new Promise((resolve) => redis!.once('exit', resolve));
  redis!.kill('SIGKILL');
  await exited;
}

const api = (method: string, path: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${services.ports.property}${path}`, {
    method,
    headers: { apikey: tenant.key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

const createProperty = (title: string) =>
  api('POST', '/v1/properties', { type: 'apartment', title, address: { postal_code: '10115', city: 'Berlin' } });

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await createTenant(db.prisma, { service: propertyDescriptor });
  receiver = await startReceiver();
  redisPort = await freePort();
  await startRedis();
  services = await startServices({
    databaseUrl: db.url,
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_SECRET_KEY },
  });
}, 120_000);

afterAll(async () => {
  await services?.stop();
  if (redis && redis.exitCode === null) redis.kill('SIGTERM');
  await receiver?.close();
  await db?.drop();
  rmSync(redisDir, { recursive: true, force: true });
});

describe('a Redis outage while the services run', () => {
  it('keeps the APIs answering and delivers every event of the outage exactly once when Redis is back', async () => {
    expect(
      (await api('POST', '/v1/webhooks', { url: `${receiver.url}/hook`, events: ['property.created'] })).status,
    ).toBe(201);
    expect((await createProperty('before')).status).toBe(201);
    await receiver.waitFor(1, '/hook');

    const logBefore = services.output().length; // before the kill: the line of the loss may come in before the kill's exit event
    await killRedis();
    const during: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await createProperty(`during ${i}`);
      expect(response.status).toBe(201);
      during.push(((await response.json()) as { id: string }).id);
    }
    expect((await api('GET', '/v1/properties?limit=10')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 4_000)); // the worker retries meanwhile
    expect(receiver.received.filter((r) => r.path === '/hook')).toHaveLength(1);

    await startRedis();
    await receiver.waitFor(6, '/hook', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // a duplicate would arrive by now
    const events = receiver.received
      .filter((r) => r.path === '/hook')
      .map((r) => JSON.parse(r.raw.toString()) as { id: string; data: { property_id: string } });
    expect(events).toHaveLength(6);
    expect(new Set(events.map((e) => e.id)).size).toBe(6);
    expect(
      events
        .slice(1)
        .map((e) => e.data.property_id)
        .sort(),
    ).toEqual([...during].sort());

    const log = services.output().slice(logBefore);
    expect(log.match(/lost the connection to Redis/g)).toHaveLength(1);
    expect(log.match(/Redis is back/g)).toHaveLength(1);
    expect(log).not.toMatch(/\n\s+at |"at":\[/);
    expect(log.split('\n').filter((line) => /"component":"process"/.test(line)).length).toBeLessThan(10);
  }, 120_000);
});

describe('the local redis-server of pnpm start killed while the services run', () => {
  it('is started again on the same port, and the events of the gap are delivered', async () => {
    // Not beside the first test's process: two relays on one database but two Redises would take each other's events.
    await services.stop();
    const port = await freePort();
    const local = await startServices({
      databaseUrl: db.url,
      redisUrl: '',
      env: { REDIS_URL: '', REDIS_PORT: String(port), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_SECRET_KEY },
    });
    try {
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`http://127.0.0.1:${local.ports.property}${path}`, {
          method,
          headers: { apikey: tenant.key, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect(
        (await call('POST', '/v1/webhooks', { url: `${receiver.url}/local`, events: ['property.created'] })).status,
      ).toBe(201);
      const ps = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
      const pid = Number(
        ps
          .split('\n')
          .find((line) => line.includes('redis-server') && line.includes(`:${port}`))
          ?.trim()
          .split(/\s+/)[0],
      );
      expect(pid).toBeGreaterThan(0);
      process.kill(pid, 'SIGKILL');
      const created = await call('POST', '/v1/properties', {
        type: 'house',
        title: 'while the local Redis restarts',
        address: { postal_code: '10115', city: 'Berlin' },
      });
      expect(created.status).toBe(201);
      await until(async () => local.output().includes('starting it again'), 10_000);
      const [delivery] = await receiver.waitFor(1, '/local', 60_000).catch(async (error: unknown) => {
        const rows = await db.prisma.webhookDelivery.findMany({
          select: { id: true, status: true, attempt_count: true, created_at: true },
        });
        throw new Error(
          `no delivery; deliveries: ${JSON.stringify(rows)}; the services' log:\n${local
            .output()
            .split('\n')
            .filter((l) => l.includes('"component":"process"'))
            .slice(-15)
            .join('\n')}`,
          { cause: error },
        );
      });
      expect(JSON.parse(delivery!.raw.toString())).toMatchObject({
        type: 'property.created',
        data: { property_id: ((await created.json()) as { id: string }).id },
      });
      expect(local.output()).not.toMatch(/\n\s+at |"at":\[/);
    } finally {
      expect(await local.stop()).toBe(0);
    }
  }, 120_000);
});
