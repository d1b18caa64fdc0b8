// The relay's repairs: job id = delivery id keeps a delivery from being enqueued twice, and a
// pending delivery whose job vanished, finished or failed is enqueued again or marked failed,
// never left pending unseen.
import { randomBytes } from 'node:crypto';
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@platform/db';
import { startReceiver, until } from '@platform/testkit';
import { recordEvent } from '../src/outbox.js';
import { DELIVERY_QUEUE, deliveryJobOptions, enqueueDeliveries } from '../src/queue.js';
import { relayOnce, requeueStaleDeliveries } from '../src/relay.js';
import { SecretBox } from '../src/secret-box.js';
import { startPipeline } from './pipeline.js';

let p: Awaited<ReturnType<typeof startPipeline>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  p = await startPipeline();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await p.close();
});

const deps = () => ({ db: p.db.prisma, queue: p.queue, now: () => new Date() });
const received = (path: string) => receiver.received.filter((r) => r.path === path).length;
const settle = (ms = 500) => new Promise((resolve) => setTimeout(resolve, ms));
const row = (id: string) => p.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } });

/** A pending delivery that should have been attempted five minutes ago, with no job (unless the test adds one). */
async function staleDelivery(path: string) {
  const endpoint = await p.addEndpoint(`${receiver.url}${path}`);
  const at = new Date(Date.now() - 5 * 60_000);
  const eventId = newId('evt');
  const payload = JSON.stringify({ id: eventId, type: 'property.created', created_at: at.toISOString(), data: {} });
  await p.db.prisma.outboxEvent.create({
    data: {
      id: eventId,
      account_id: p.tenant.accountId,
      service: 'property',
      type: 'property.created',
      payload,
      created_at: at,
      relayed_at: at,
    },
  });
  return p.db.prisma.webhookDelivery.create({
    data: {
      id: newId('dlv'),
      event_id: eventId,
      endpoint_id: endpoint.id,
      account_id: p.tenant.accountId,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    },
  });
}

describe('job id = delivery id: nothing is enqueued twice', () => {
  it('a pending delivery whose job waits or is delayed is left alone by a second relay run and by the sweep', async () => {
    // No worker yet: the jobs stay waiting (or delayed).
    const endpoint = await p.addEndpoint(`${receiver.url}/dedupe`);
    const eventId = await p.db.prisma.$transaction((tx) =>
      recordEvent(tx, {
        accountId: p.tenant.accountId,
        service: 'property',
        type: 'property.created',
        data: { property_id: 'prop_1' },
        now: new Date(),
      }),
    );
    await relayOnce(deps());
    const delivery = await p.db.prisma.webhookDelivery.findFirstOrThrow({
      where: { event_id: eventId, endpoint_id: endpoint.id },
    });
    const first = (await p.queue.getJob(delivery.id))!;
    expect(await first.getState()).toBe('waiting');

    await p.db.prisma.outboxEvent.update({ where: { id: eventId }, data: { relayed_at: null } }); // the mark was lost
    expect(await relayOnce(deps())).toBe(1);
    await p.db.prisma.webhookDelivery.update({
      where: { id: delivery.id },
      data: { next_attempt_at: new Date(Date.now() - 5 * 60_000) },
    }); // and it is stale
    expect(await requeueStaleDeliveries(deps())).toEqual({ enqueued: 0, failed: 0 });
    const again = (await p.queue.getJob(delivery.id))!;
    expect(again.timestamp).toBe(first.timestamp); // the same job, not a new one
    expect(await p.queue.getWaitingCount()).toBe(1);

    const delayed = await staleDelivery('/delayed');
    await p.queue.add('deliver', { deliveryId: delayed.id }, { ...deliveryJobOptions(delayed.id), delay: 60_000 });
    const delayedJob = (await p.queue.getJob(delayed.id))!;
    expect(await requeueStaleDeliveries(deps())).toEqual({ enqueued: 0, failed: 0 });
    expect(await p.queue.getJobState(delayed.id)).toBe('delayed');
    expect((await p.queue.getJob(delayed.id))!.timestamp).toBe(delayedJob.timestamp);

    const worker = p.startWorker();
    await until(async () => (await row(delivery.id)).status === 'succeeded');
    await settle();
    expect(received('/dedupe')).toBe(1);
    expect(received('/delayed')).toBe(0); // still waiting for its delay
    expect(await p.db.prisma.webhookDelivery.count({ where: { event_id: eventId } })).toBe(1);
    await worker.close();
    await p.queue.remove(delayed.id);
    await p.db.prisma.webhookDelivery.delete({ where: { id: delayed.id } });
  });

  it('a delivery being attempted right now is left alone', async () => {
    let release: () => void = () => {};
    receiver.respond = (req, res) => {
      if (req.path !== '/active') return res.writeHead(200).end();
      release = () => res.writeHead(200).end('late');
    };
    const delivery = await staleDelivery('/active');
    await enqueueDeliveries(p.queue, [delivery.id]);
    const worker = p.startWorker();
    await until(async () => received('/active') === 1);
    expect(await p.queue.getJobState(delivery.id)).toBe('active');
    expect(await requeueStaleDeliveries(deps())).toEqual({ enqueued: 0, failed: 0 });
    release();
    await until(async () => (await row(delivery.id)).status === 'succeeded');
    await settle();
    expect(received('/active')).toBe(1);
    await worker.close();
    receiver.respond = (_r, res) => res.writeHead(200).end('ok');
  });
});

describe('pending deliveries whose job is gone or finished', () => {
  it('a pending delivery without a job (lost between commit and enqueue, or by Redis) is enqueued and sent once', async () => {
    const delivery = await staleDelivery('/vanished');
    expect(await p.queue.getJobState(delivery.id)).toBe('unknown');
    expect(await requeueStaleDeliveries(deps())).toEqual({ enqueued: 1, failed: 0 });
    expect(await requeueStaleDeliveries(deps())).toEqual({ enqueued: 0, failed: 0 }); // now it has its job
    const worker = p.startWorker();
    await until(async () => (await row(delivery.id)).status === 'succeeded');
    await settle();
    expect(received('/vanished')).toBe(1);
    await worker.close();
  });

  it('a pending delivery whose job completed without it (the row was changed back) gets a new job', async () => {
    const delivery = await staleDelivery('/completed');
    await p.db.prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { status: 'held' } });
    await enqueueDeliveries(p.queue, [delivery.id]);
    const worker = p.startWorker();
    await until(async () => (await p.queue.getJobState(delivery.id)) === 'completed'); // skipped: it was held
    await p.db.prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { status: 'pending' } });
    expect(await requeueStaleDeliveries(deps())).toEqual({ enqueued: 1, failed: 0 });
    await until(async () => (await row(delivery.id)).status === 'succeeded');
    expect(received('/completed')).toBe(1);
    await worker.close();
  });
});

describe('jobs that BullMQ failed on errors that are not delivery failures', () => {
  it('the worker marks the delivery failed with the reason when the last run throws (here: the secret cannot be decrypted)', async () => {
    const delivery = await staleDelivery('/bookkeeping');
    await enqueueDeliveries(p.queue, [delivery.id], [20, 20]); // three runs
    // A worker whose own step fails: the wrong key for the signing secret.
    const worker = p.startWorker(
      {},
      { secrets: new SecretBox(randomBytes(32).toString('hex')), retryDelaysMs: [20, 20] },
    );
    await until(async () => (await p.queue.getJobState(delivery.id)) === 'failed');
    const failed = await until(async () => {
      const d = await row(delivery.id);
      return d.status === 'failed' ? d : undefined;
    });
    expect(failed).toMatchObject({
      attempt_count: 0,
      next_attempt_at: null,
      failure_reason: expect.stringMatching(/^The worker could not complete the delivery: .+/),
    });
    expect((await p.queue.getJob(delivery.id))!.attemptsMade).toBe(3);
    expect(received('/bookkeeping')).toBe(0);
    await worker.close();
  });

  it('when the worker could not mark it either, the sweep marks the delivery failed with the job’s reason', async () => {
    const delivery = await staleDelivery('/db-down');
    // A processor that dies before any bookkeeping, on its only run (the database is down).
    await p.queue.add('deliver', { deliveryId: delivery.id }, { jobId: delivery.id, attempts: 1 });
    const broken = new Worker(
      DELIVERY_QUEUE,
      async () => {
        throw new Error('database is down');
      },
      { connection: p.redis.connection, prefix: p.redis.prefix },
    );
    await until(async () => (await p.queue.getJobState(delivery.id)) === 'failed');
    await broken.close();
    expect((await row(delivery.id)).status).toBe('pending'); // what used to stay for seven days

    expect(await requeueStaleDeliveries(deps())).toEqual({ enqueued: 0, failed: 1 });
    expect(await row(delivery.id)).toMatchObject({
      status: 'failed',
      next_attempt_at: null,
      failure_reason: 'The worker could not complete the delivery: database is down.',
    });
    expect(await requeueStaleDeliveries(deps())).toEqual({ enqueued: 0, failed: 0 });
  });
});
