// recordEvents writes the rows recordEvent writes, only in one statement: deliveries sign the
// stored payload byte for byte, so a batch-written event must be indistinguishable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestDatabase, TEST_SERVICES, type Tenant, type TestDatabase } from '@platform/testkit';
import { recordEvent, recordEvents, type EventInput } from '../src/outbox.js';

let db: TestDatabase;
let first: Tenant;
let second: Tenant;

beforeAll(async () => {
  db = await createTestDatabase();
  first = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
  second = await createTenant(db.prisma, { service: TEST_SERVICES[1] });
});
afterAll(() => db.drop());

function inputs(): EventInput[] {
  return [
    {
      accountId: first.accountId,
      service: TEST_SERVICES[0].id,
      type: 'property.created',
      data: { property_id: 'prop_1', price: 1234.5, tags: ['a', 'b'], nested: { none: null } },
      now: new Date('2026-11-28T10:00:00.123Z'),
    },
    {
      accountId: second.accountId,
      service: TEST_SERVICES[1].id,
      type: 'prospect.matched',
      // Characters JSON escapes, quotes and non-ASCII: the stored text must be the same bytes.
      data: { interessent_id: 'int_1', anlass: 'Straße "Süd"\n\\ \u2028 😀', score: 0.875 },
      now: new Date('2026-11-28T10:00:00.999Z'),
    },
    {
      accountId: first.accountId,
      service: TEST_SERVICES[0].id,
      type: 'property.updated',
      data: {},
      now: new Date('2025-01-01T00:00:00.000Z'),
    },
  ];
}

const columns = { account_id: true, service: true, type: true, payload: true, created_at: true, relayed_at: true };
const rowOf = (id: string) =>
  db.prisma.outboxEvent.findUniqueOrThrow({ where: { id }, select: { id: true, ...columns } });

describe('recordEvents', () => {
  it('writes, for each input, the row recordEvent writes for it (columns and payload bytes), ids in input order', async () => {
    const singleIds: string[] = [];
    for (const input of inputs()) singleIds.push(await recordEvent(db.prisma, input));
    const batchIds = await recordEvents(db.prisma, inputs());

    expect(batchIds).toHaveLength(3);
    expect(new Set([...batchIds, ...singleIds]).size).toBe(6);
    for (const [index, batchId] of batchIds.entries()) {
      const single = await rowOf(singleIds[index]);
      const batch = await rowOf(batchId);
      // Same id scheme: prefix and the time part of the event's instant; only the random tail differs.
      expect(batchId.slice(0, 14)).toBe(singleIds[index].slice(0, 14));
      expect(batchId).toMatch(/^evt_[0-9a-z]{26}$/);
      // The payload names its own id; with that one substitution the bytes are identical.
      expect(batch.payload).toBe(single.payload.replace(singleIds[index], batchId));
      expect(JSON.parse(batch.payload)).toMatchObject({ id: batchId });
      const { id: _single, ...singleColumns } = single;
      const { id: _batch, ...batchColumns } = batch;
      expect(batchColumns).toEqual({ ...singleColumns, payload: batch.payload });
      expect(batch.created_at.toISOString()).toBe(inputs()[index].now.toISOString());
      expect(batch.relayed_at).toBeNull();
    }
  });

  it('writes nothing for no events', async () => {
    const before = await db.prisma.outboxEvent.count();
    expect(await recordEvents(db.prisma, [])).toEqual([]);
    expect(await db.prisma.outboxEvent.count()).toBe(before);
  });

  it('writes all or nothing: one row the database refuses fails the whole batch', async () => {
    const before = await db.prisma.outboxEvent.count();
    const bad = { ...inputs()[0], service: 'no_such_service' as EventInput['service'] };
    await expect(recordEvents(db.prisma, [inputs()[1], bad])).rejects.toThrow();
    expect(await db.prisma.outboxEvent.count()).toBe(before);
  });
});
