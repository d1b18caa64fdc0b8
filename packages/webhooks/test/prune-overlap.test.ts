// Issue 33, item 1: `prune-webhook-history` run twice at once (a manual run during the nightly one, or
// a stalled job taken over by a second worker) removes every event once, and the two runs' counts add
// up to what was removed; so does the relay's purge of deleted endpoints, which every worker runs. The
// overlap is forced: a transaction holds the rows while the runs start.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import {
  createTenant,
  createTestDatabase,
  TEST_SERVICES,
  untilLockWaiters,
  whileHeld,
  type TestDatabase,
} from '@platform/testkit';
import { purgeDeletedEndpoints } from '../src/endpoint-sql.js';
import { pruneDeliveryHistory } from '../src/history-sql.js';
import { SecretBox } from '../src/secret-box.js';

let db: TestDatabase;
let accountId: string;
let endpointId: string;
const DAY = 86_400_000;
const now = new Date('2026-12-31T03:30:00Z');

beforeAll(async () => {
  db = await createTestDatabase();
  accountId = (await createTenant(db.prisma, { service: TEST_SERVICES[0] })).accountId;
  endpointId = (
    await db.prisma.webhookEndpoint.create({
      data: {
        id: newId('whk'),
        account_id: accountId,
        service: 'property',
        url: 'https://hooks.example.com/x',
        events: ['property.created'],
        secret_encrypted: new SecretBox('0'.repeat(64)).encrypt('s'),
      },
    })
  ).id;
});
afterAll(() => db.drop());
beforeEach(() => db.query('DELETE FROM outbox_events'));

/** Events relayed at `relayedAt`, each with one succeeded delivery and its attempt; inserted in this order. */
async function events(count: number, relayedAt: Date): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const id = newId('evt');
    await db.prisma.outboxEvent.create({
      data: {
        id,
        account_id: accountId,
        service: 'property',
        type: 'property.created',
        payload: '{}',
        created_at: relayedAt,
        relayed_at: relayedAt,
      },
    });
    const delivery = await db.prisma.webhookDelivery.create({
      data: { id: newId('dlv'), event_id: id, endpoint_id: endpointId, account_id: accountId, status: 'succeeded' },
    });
    await db.prisma.deliveryAttempt.create({
      data: { id: newId('att'), delivery_id: delivery.id, attempted_at: relayedAt, duration_ms: 5, status_code: 200 },
    });
    ids.push(id);
  }
  return ids;
}

const holdAll = (tx: Parameters<Parameters<typeof db.prisma.$transaction>[0]>[0]) =>
  tx.$queryRaw`SELECT id FROM outbox_events FOR UPDATE`;

describe('overlapping prune-webhook-history runs', () => {
  it('two runs started together remove each finished event once and report 12 together, not 12 each', async () => {
    const old = await events(12, new Date(now.getTime() - 40 * DAY));
    const young = await events(2, new Date(now.getTime() - 10 * DAY));
    // Both runs pick the same first batch and wait on rows another session holds (as one run waits on
    // the other's); once released, each must skip what the other removed meanwhile.
    const { result, waited } = await whileHeld(
      db,
      holdAll,
      () =>
        Promise.all([
          pruneDeliveryHistory(db.prisma, now, { batchSize: 5 }),
          pruneDeliveryHistory(db.prisma, now, { batchSize: 5 }),
        ]),
      2,
    );
    expect(waited).toBe(2);
    expect(result[0] + result[1]).toBe(old.length);
    const left = (await db.prisma.outboxEvent.findMany({ select: { id: true } })).map((e) => e.id);
    expect(left.sort()).toEqual([...young].sort());
    expect(await db.prisma.webhookDelivery.count()).toBe(young.length);
    expect(await db.prisma.deliveryAttempt.count()).toBe(young.length);
  });

  it('a manual run an hour after the nightly one, while that one holds its batch, still removes what only its own cutoff reaches', async () => {
    const both = await events(4, new Date(now.getTime() - 31 * DAY)); // past both runs' cutoffs
    const laterOnly = await events(2, new Date(now.getTime() - 30 * DAY + 30 * 60_000)); // past the manual run's only
    const manual = new Date(now.getTime() + 60 * 60_000);
    // The nightly run waits first on the held batch, then the manual run on the same rows: the nightly
    // run gets them first and removes them, so the manual run's first batch removes nothing.
    const { result, waited } = await whileHeld(
      db,
      holdAll,
      async () => {
        const nightly = pruneDeliveryHistory(db.prisma, now, { batchSize: 2 });
        await untilLockWaiters(db, 1);
        return Promise.all([nightly, pruneDeliveryHistory(db.prisma, manual, { batchSize: 2 })]);
      },
      2,
    );
    expect(waited).toBe(2);
    // All six were older than the later cutoff: none is left, each counted by one run.
    expect(await db.prisma.outboxEvent.count({ where: { id: { in: [...both, ...laterOnly] } } })).toBe(0);
    expect(result[0] + result[1]).toBe(both.length + laterOnly.length);
  });
});

describe('overlapping purges of deleted endpoints (the relay sweep of every worker)', () => {
  it('two purges started together remove a deleted endpoint’s 12 deliveries in batches, each counted once', async () => {
    const endpoint = await db.prisma.webhookEndpoint.create({
      data: {
        id: newId('whk'),
        account_id: accountId,
        service: 'property',
        url: 'https://hooks.example.com/deleted',
        events: ['property.created'],
        secret_encrypted: new SecretBox('0'.repeat(64)).encrypt('s'),
        deleted_at: now,
      },
    });
    const ids: string[] = [];
    for (const eventId of await events(12, now)) {
      const delivery = await db.prisma.webhookDelivery.create({
        data: {
          id: newId('dlv'),
          event_id: eventId,
          endpoint_id: endpoint.id,
          account_id: accountId,
          status: 'failed',
        },
      });
      ids.push(delivery.id);
    }
    // Both purges pick the same first batch and wait on rows another session holds; once released,
    // each must skip what the other removed meanwhile and go on in batches, not leave the rest to the
    // endpoint's cascade (one unbatched statement, its deliveries not counted).
    const { result, waited } = await whileHeld(
      db,
      (tx) => tx.$queryRaw`SELECT id FROM webhook_deliveries WHERE endpoint_id = ${endpoint.id} FOR UPDATE`,
      () =>
        Promise.all([
          purgeDeletedEndpoints(db.prisma, { batchSize: 5 }),
          purgeDeletedEndpoints(db.prisma, { batchSize: 5 }),
        ]),
      2,
    );
    expect(waited).toBe(2);
    expect(await db.prisma.webhookEndpoint.count({ where: { id: endpoint.id } })).toBe(0);
    expect(await db.prisma.webhookDelivery.count({ where: { id: { in: ids } } })).toBe(0);
    expect(result[0] + result[1]).toBe(ids.length);
  });
});
