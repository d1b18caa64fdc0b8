import { randomBytes } from 'node:crypto';
import type { Worker, Queue } from 'bullmq';
import { newId } from '@platform/db';
import {
  createTenant,
  createTestDatabase,
  testRedis,
  TEST_SERVICES,
  type Tenant,
  type TestDatabase,
} from '@platform/testkit';
import { headerNames } from '../src/catalogue.js';
import { deliveryDispatcher, type DeliveryDeps } from '../src/delivery.js';
import { createDeliveryQueue, type DeliveryJob } from '../src/queue.js';
import { SecretBox, generateSigningSecret } from '../src/secret-box.js';
import { startDeliveryWorker } from '../src/worker.js';

/** Database, queue, secret box and a worker factory: the whole delivery pipeline, real parts only. */
export async function startPipeline() {
  const db: TestDatabase = await createTestDatabase();
  const redis = testRedis();
  const queue: Queue<DeliveryJob> = createDeliveryQueue(redis.connection, redis.prefix);
  const secretKey = randomBytes(32).toString('hex');
  const secrets = new SecretBox(secretKey);
  const tenant: Tenant = await createTenant(db.prisma, { service: TEST_SERVICES[0] });
  const clock = { now: new Date() };
  const deps: DeliveryDeps = {
    db: db.prisma,
    secrets,
    headersFor: (service) => headerNames(service === 'property' ? 'Service' : 'Platform'),
    now: () => clock.now,
    dispatcher: deliveryDispatcher({ allowPrivateTargets: true }),
  };
  const workers: Worker[] = [];
  return {
    db,
    redis,
    queue,
    secrets,
    secretKey,
    tenant,
    clock,
    deps,
    /** A delivery worker; `deps` replace parts of the pipeline's (e.g. short retry delays). */
    startWorker(
      options: { lockDurationMs?: number; stalledIntervalMs?: number } = {},
      overrides: Partial<DeliveryDeps> = {},
    ) {
      const worker = startDeliveryWorker(
        { ...deps, ...overrides },
        { connection: redis.connection, prefix: redis.prefix, ...options },
      );
      workers.push(worker);
      return worker;
    },
    async addEndpoint(url: string, events: string[] = ['property.created'], accountId = tenant.accountId) {
      const secret = generateSigningSecret();
      const endpoint = await db.prisma.webhookEndpoint.create({
        data: {
          id: newId('whk'),
          account_id: accountId,
          service: 'property',
          url,
          events,
          secret_encrypted: secrets.encrypt(secret),
        },
      });
      return { ...endpoint, secret };
    },
    async close() {
      for (const worker of workers) await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      await db.drop();
    },
  };
}
