// Redis behind Sentinel loses its primary (SIGKILL) while the services take a stream of writes
// that each produce a webhook: the replica is promoted, every accepted event is delivered (at
// least once; the repeats are counted), the rate limit counts again within seconds, and an
// idempotent request replayed after the failover gets its stored answer. Then the same with the
// replica cut off first, so that the last writes die with the primary (asynchronous replication).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyDescriptor } from '@platform/property-service';
import { createDeliveryQueue } from '@platform/webhooks';
import {
  createTenant,
  createTestDatabase,
  startReceiver,
  startSentinelRedis,
  startServices,
  until,
  type Receiver,
  type SentinelRedis,
  type StartedServices,
  type Tenant,
  type TestDatabase,
} from '@platform/testkit';
import { deliveriesAt, property, startTraffic } from './failover-traffic.js';

let db: TestDatabase;
let tenant: Tenant;
let receiver: Receiver;
let redis: SentinelRedis;
let services: StartedServices;

const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${services.ports.property}${path}`, {
    method,
    headers: { apikey: tenant.key, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
let killedPort: number | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await createTenant(db.prisma, { service: propertyDescriptor });
  receiver = await startReceiver();
  redis = await startSentinelRedis();
  services = await startServices({
    databaseUrl: db.url,
    // A budget the stream of writes stays under: the probes see the counter, never a 429.
    env: { ...redis.env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_MINUTE: '1000000' },
  });
}, 120_000);

afterAll(async () => {
  await services?.stop();
  await redis?.stop();
  await receiver?.close();
  await db?.drop();
});

describe('a Redis failover under Sentinel while the services take writes', () => {
  it('promotes the replica, delivers every accepted event, and counts rate limits again within seconds', async () => {
    expect(
      (await api('POST', '/v1/webhooks', { url: `${receiver.url}/hook`, events: ['property.created'] })).status,
    ).toBe(201);
    const idempotent = await api('POST', '/v1/properties', property('idempotent'), { 'idempotency-key': 'failover-1' });
    expect(idempotent.status).toBe(201);
    const stored = (await idempotent.json()) as { id: string };
    await receiver.waitFor(1, '/hook', 30_000);

    const traffic = startTraffic(api, { writers: 2, probe: true, label: 'load' });
    await traffic.acceptMore(30);
    const logBefore = services.output().length;
    const killed = await redis.killPrimary();
    killedPort = killed.port;
    const acceptedAtKill = traffic.accepted.length;
    const promoted = await redis.waitForPromotion(killed.port, 30_000);
    // Counted again: two answers after the kill carrying the counter, the later one lower.
    const counting = await until(async () => {
      const after = traffic.probes.filter((p) => p.at > killed.at + 200 && p.remaining !== undefined);
      return after.length >= 2 && after.at(-1)!.remaining! < after.at(-2)!.remaining! ? after[0] : undefined;
    }, 30_000);
    await traffic.acceptMore(30);
    await traffic.stop();
    const { accepted, refused, probes } = traffic;

    const deliveries = deliveriesAt(receiver, '/hook');
    const missing = await deliveries.waitForAll([stored.id, ...accepted], 150_000);
    const replay = await api('POST', '/v1/properties', property('idempotent'), { 'idempotency-key': 'failover-1' });
    const fresh = await api('POST', '/v1/properties', property('after'), { 'idempotency-key': 'failover-2' });
    const log = services.output().slice(logBefore);

    const uncounted = probes.filter((p) => p.at > killed.at && p.remaining === undefined).length;
    console.log(
      [
        `failover: replica promoted ${seconds(promoted.at - killed.at)} after the primary was killed`,
        `rate limit counting again after ${seconds(counting.at - killed.at)} (${uncounted} requests passed uncounted)`,
        `${accepted.length} events accepted (${accepted.length - acceptedAtKill} after the kill), ${refused.length} writes refused`,
        `${missing.length} never delivered, ${deliveries.duplicates()} delivered more than once`,
      ].join('; '),
    );

    expect(missing, 'accepted events never delivered').toEqual([]);
    // At least once allows repeats; a failover caused none in our runs: a few would be worth a look.
    expect(deliveries.duplicates()).toBeLessThanOrEqual(accepted.length / 100);
    expect(promoted.at - killed.at).toBeLessThan(15_000);
    expect(counting.at - killed.at).toBeLessThan(15_000);
    // The APIs never failed for Redis: writes land in the outbox, the limiter lets requests pass.
    expect(refused.filter((status) => status !== 503)).toEqual([]);
    expect(probes.filter((p) => p.status !== 200 && p.status !== 503)).toEqual([]);

    expect(replay.status).toBe(201);
    expect(((await replay.json()) as { id: string }).id).toBe(stored.id);
    expect(fresh.status).toBe(201);

    expect(log.match(/lost the connection to Redis/g)).toHaveLength(1);
    expect(log).toMatch(/Redis is back at the primary \\"platform\\"/);
    // ioredis's "All sentinels are unreachable" (it went through the list while the old primary
    // refused) may come from the queues' connections after the watch saw Redis back: a connection
    // fault, logged in one line without a stack.
    const frames = log.split('\n').filter((line) => /"at":\[/.test(line));
    expect(frames).toEqual([]);
    for (const secret of [redis.env.REDIS_PASSWORD!, redis.env.REDIS_SENTINEL_PASSWORD!])
      expect(services.output()).not.toContain(secret);
  }, 240_000);

  it('delivers the events whose jobs died with a primary its replica had not caught up with (the relay queues them again)', async () => {
    // The old primary comes back; the sentinels make it the replica of the new one.
    await redis.restartKilled(killedPort!);
    const traffic = startTraffic(api, { writers: 1, probe: false, label: 'unreplicated' });
    await traffic.acceptMore(10);
    await redis.cutReplication();
    // Paused on the primary alone: the jobs queued from now on wait there, unattempted, and die with it.
    const queue = createDeliveryQueue(redis.connection);
    await queue.pause();
    await traffic.acceptMore(20);
    const killed = await redis.killPrimary();
    await queue.close();
    const promoted = await redis.waitForPromotion(killed.port, 30_000);
    await traffic.acceptMore(10);
    await traffic.stop();

    const deliveries = deliveriesAt(receiver, '/hook');
    const missing = await deliveries.waitForAll(traffic.accepted, 150_000);
    const late = traffic.accepted.filter((id) => (deliveries.firstSeen.get(id) ?? Infinity) > promoted.at + 20_000);
    const last = Math.max(...traffic.accepted.map((id) => deliveries.firstSeen.get(id) ?? 0));
    console.log(
      `unreplicated writes: ${traffic.accepted.length} events accepted, ${missing.length} never delivered, ${late.length} delivered only by the relay's sweep (the last ${seconds(last - killed.at)} after the kill), ${deliveries.duplicates()} delivered more than once in all`,
    );
    expect(missing).toEqual([]);
    // The jobs queued while the replica was cut off died with the primary: their events came by the sweep.
    expect(late.length).toBeGreaterThan(0);
  }, 240_000);
});
