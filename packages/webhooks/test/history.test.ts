import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import { createTenant, createTestDatabase, TEST_SERVICES, type Tenant, type TestDatabase } from '@platform/testkit';
import { pruneDeliveryHistory } from '../src/history-sql.js';
import { SecretBox } from '../src/secret-box.js';

let db: TestDatabase;
let tenant: Tenant;
const DAY = 86_400_000;
const now = new Date('2026-12-31T03:30:00Z');
const daysAgo = (n: number) => new Date(now.getTime() - n * DAY);

/** An event relayed at `relayedAt` with one delivery per status given (each with one attempt). */
async function event(relayedAt: Date | null, statuses: ('pending' | 'succeeded' | 'failed' | 'held')[]) {
  const id = newId('evt');
  await db.prisma.outboxEvent.create({
    data: {
      id,
      account_id: tenant.accountId,
      service: 'property',
      type: 'property.created',
      payload: '{}',
      created_at: relayedAt ?? now,
      relayed_at: relayedAt,
    },
  });
  for (const status of statuses) {
    const endpoint = await db.prisma.webhookEndpoint.create({
      data: {
        id: newId('whk'),
        account_id: tenant.accountId,
        service: 'property',
        url: 'https://hooks.example.com/x',
        events: ['property.created'],
        secret_encrypted: new SecretBox('0'.repeat(64)).encrypt('s'),
      },
    });
    const delivery = await db.prisma.webhookDelivery.create({
      data: { id: newId('dlv'), event_id: id, endpoint_id: endpoint.id, account_id: tenant.accountId, status },
    });
    await db.prisma.deliveryAttempt.create({
      data: {
        id: newId('att'),
        delivery_id: delivery.id,
        attempted_at: relayedAt ?? now,
        duration_ms: 5,
        status_code: 200,
      },
    });
  }
  return id;
}

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
});
afterAll(() => db.drop());

describe('pruneDeliveryHistory', () => {
  it('removes finished history older than 30 days with its deliveries and attempts, and keeps everything else', async () => {
    const old = [
      await event(daysAgo(31), ['succeeded']),
      await event(daysAgo(45), ['succeeded', 'failed']),
      await event(daysAgo(60), []),
    ];
    const kept = [
      await event(daysAgo(29), ['succeeded']), // too young
      await event(daysAgo(40), ['succeeded', 'pending']), // still being retried
      await event(daysAgo(40), ['held']), // its endpoint is paused
      await event(null, []), // not relayed yet
    ];
    expect(await pruneDeliveryHistory(db.prisma, now, { batchSize: 2 })).toBe(3);
    const left = (await db.prisma.outboxEvent.findMany({ select: { id: true } })).map((e) => e.id);
    expect(left.sort()).toEqual([...kept].sort());
    expect(await db.prisma.webhookDelivery.count({ where: { event_id: { in: old } } })).toBe(0);
    expect(await db.prisma.webhookDelivery.count()).toBe(4);
    expect(await db.prisma.deliveryAttempt.count()).toBe(4);
  });

  it('is idempotent', async () => {
    expect(await pruneDeliveryHistory(db.prisma, now)).toBe(0);
  });
});
