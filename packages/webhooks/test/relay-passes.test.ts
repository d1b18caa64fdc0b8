// Issue 34: under a steady stream of events the relay took a pass per few events, back to back
// (four round trips each, in the API's process under `pnpm start`). Now only a full batch is
// followed at once; otherwise the next pass waits for the interval and takes what arrived meanwhile.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import { startRelay } from '../src/worker.js';
import { startPipeline } from './pipeline.js';

let p: Awaited<ReturnType<typeof startPipeline>>;
beforeAll(async () => {
  p = await startPipeline();
});
afterAll(() => p.close());

const addEvents = (count: number) =>
  p.db.prisma.outboxEvent.createMany({
    data: Array.from({ length: count }, () => ({
      id: newId('evt'),
      account_id: p.tenant.accountId,
      service: 'property' as const,
      type: 'property.created',
      payload: '{}',
      created_at: new Date(),
    })),
  });

const unrelayed = () => p.db.prisma.outboxEvent.count({ where: { relayed_at: null } });

/** A relay whose passes are counted (each pass reads the clock once). */
function countedRelay(batchSize?: number, intervalMs = 50) {
  let passes = 0;
  const relay = startRelay(
    { db: p.db.prisma, queue: p.queue, now: () => (passes++, new Date()), batchSize },
    { intervalMs, onError: (error) => console.error(error) },
  );
  return { relay, passes: () => passes };
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the relay under a steady stream of events', () => {
  it('takes one pass per interval, not one per few events, and relays every event', async () => {
    const { relay, passes } = countedRelay();
    try {
      const writers = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const client = new pg.Client({ connectionString: p.db.url });
          await client.connect();
          return client;
        }),
      );
      const started = Date.now();
      let events = 0;
      // four connections committing an event each as fast as they can for a second, as requests do
      await Promise.all(
        writers.map(async (client) => {
          while (Date.now() - started < 1_000) {
            await client.query(
              `INSERT INTO outbox_events (id, account_id, service, type, payload, created_at)
               VALUES ($1, $2, 'property', 'property.created', '{}', now())`,
              [newId('evt'), p.tenant.accountId],
            );
            events++;
          }
          await client.end();
        }),
      );
      const intervals = Math.ceil((Date.now() - started) / 50);
      await until(async () => (await unrelayed()) === 0);
      // a pass per interval, and one more per full batch of 200: not a pass per event or two
      expect(events).toBeGreaterThan(intervals + 20); // enough events for the bound below to mean something
      expect(passes()).toBeLessThanOrEqual(intervals + Math.ceil(events / 200) + 10);
    } finally {
      await relay.stop();
    }
  });

  it('follows a full batch at once until the backlog is relayed', async () => {
    await addEvents(45);
    const { relay, passes } = countedRelay(10, 5_000);
    try {
      // five passes back to back (10, 10, 10, 10, 5), none waiting for the 5 s interval
      await until(async () => (await unrelayed()) === 0, 4_000);
      expect(passes()).toBeGreaterThanOrEqual(5);
    } finally {
      await relay.stop();
    }
  });
});
