// The relay and delivery worker in a process of their own, as apps/worker runs them in production.
import { createPrisma } from '@platform/db';
import { agentPlatformDescriptor } from '@platform/agent-platform';
import { propertyDescriptor } from '@platform/property-service';
import { headersOf } from '@platform/runtime';
import {
  SecretBox,
  createDeliveryQueue,
  deliveryDispatcher,
  startDeliveryWorker,
  startRelay,
} from '@platform/webhooks';

const env = process.env as Record<string, string>;
const db = createPrisma({ url: env.BENCH_DATABASE_URL, maxConnections: 20 });
const connection = { host: '127.0.0.1', port: Number(env.BENCH_REDIS_PORT), maxRetriesPerRequest: null };
const queue = createDeliveryQueue(connection);
const now = () => new Date();
await db.$queryRaw`SELECT 1`; // connected before the clock starts
process.stdout.write('ready\n');
// Start on the first line of stdin, so that the measured time is delivery only, not process start-up.
await new Promise((resolve) => process.stdin.once('data', resolve));
const relay = startRelay({ db, queue, now }, { intervalMs: 10 });
const worker = startDeliveryWorker(
  {
    db,
    secrets: new SecretBox(env.BENCH_SECRET_KEY),
    headersFor: headersOf([propertyDescriptor, agentPlatformDescriptor]),
    now,
    dispatcher: deliveryDispatcher({ allowPrivateTargets: true }),
  },
  { connection, concurrency: Number(env.BENCH_CONCURRENCY ?? 100) },
);
process.on('SIGTERM', async () => {
  await relay.stop();
  await worker.close();
  await queue.close();
  process.exit(0);
});
