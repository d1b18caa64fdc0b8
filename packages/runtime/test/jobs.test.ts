import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { testRedis } from '@platform/testkit';
import { Type } from '@sinclair/typebox';
import { defineJob } from '@platform/service';
import { registerSchedules } from '../src/jobs.js';

describe('scheduled jobs', () => {
  it('register a BullMQ job scheduler per job, idempotently, with pattern and time zone', async () => {
    const redis = testRedis();
    const queue = new Queue('scheduled-jobs', { connection: redis.connection, prefix: redis.prefix });
    const jobs = [
      defineJob({
        name: 'anonymise',
        description: 'test',
        payload: Type.Object({}),
        schedule: { pattern: '0 3 * * *', tz: 'Europe/Berlin' },
        retry: { attempts: 1, backoffMs: 0 },
        run: async () => ({}),
      }),
    ];
    try {
      await registerSchedules(queue, jobs);
      await registerSchedules(queue, jobs);
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers).toHaveLength(1);
      expect(schedulers[0]).toMatchObject({ key: 'anonymise', pattern: '0 3 * * *', tz: 'Europe/Berlin' });
      const next = new Date(schedulers[0].next!);
      const berlinHour = Number(
        new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hour12: false, timeZone: 'Europe/Berlin' }).format(next),
      );
      expect(berlinHour).toBe(3);
      // Each run leaves a job in Redis: only the latest few are kept, so nothing grows night by night.
      expect(schedulers[0].template?.opts).toMatchObject({
        removeOnComplete: { count: 50 },
        removeOnFail: { count: 200 },
      });
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
