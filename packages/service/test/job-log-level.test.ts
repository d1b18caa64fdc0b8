// A sweeper that found nothing to do is no news: the worker tells such a run at debug, a run that
// did something at info (with `pnpm start` idle, four sweepers wrote an info line a minute each).
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedis, until } from '@platform/testkit';
import { createJobQueue, defineJob, startJobWorker, type JobContext } from '../src/index.js';
import { didNothing } from '../src/jobs.js';

/** Each job returns what its payload says it did. */
const echo = defineJob({
  name: 'echo',
  description: 'Returns its payload as its result.',
  payload: Type.Object({ result: Type.Record(Type.String(), Type.Unknown()) }),
  retry: { attempts: 1, backoffMs: 0 },
  run: async (_context, { result }: { result: Record<string, unknown> }) => result,
});

describe('didNothing', () => {
  it('is true when every count is 0 and every list empty, nested too', () => {
    expect(didNothing({})).toBe(true);
    expect(didNothing({ resumed: 0, retried: 0, failed: 0 })).toBe(true);
    expect(didNothing({ settled: [], refused: [] })).toBe(true);
    expect(didNothing({ report: { due: 0, sent: 0 }, note: null })).toBe(true);
  });

  it('is false for a count above 0, a non-empty list, an id or an outcome', () => {
    expect(didNothing({ resumed: 0, retried: 1, failed: 0 })).toBe(false);
    expect(didNothing({ settled: [{ account_id: 'acct_1' }], refused: [] })).toBe(false);
    expect(didNothing({ listing_id: 'lst_1', outcome: 'generated' })).toBe(false);
    expect(didNothing({ report: { due: 0, sent: 2 } })).toBe(false);
  });
});

describe('the job worker', () => {
  const redis = testRedis();
  const queue = createJobQueue(redis.connection, redis.prefix);
  /** The worker's log as pino's logger takes it: a method per level. */
  const lines: { level: string; line: string }[] = [];
  const log = {
    info: (line: string) => void lines.push({ level: 'info', line }),
    debug: (line: string) => void lines.push({ level: 'debug', line }),
  };
  const plain: string[] = [];
  const context = () => ({ now: new Date() }) as unknown as JobContext;
  const workers = [
    startJobWorker([echo], context, {
      connection: redis.connection,
      prefix: redis.prefix,
      log,
    }),
  ];
  beforeAll(async () => {
    for (const worker of workers) await worker.waitUntilReady();
  });
  afterAll(async () => {
    for (const worker of workers) await worker.close();
    await queue.queue.obliterate({ force: true });
    await queue.close();
  });

  /** The lines written for one run of `echo` with this result. */
  const run = async (id: string, result: Record<string, unknown>) => {
    const before = lines.length;
    await queue.enqueue(echo, { result }, id);
    await until(async () => (await queue.state(id)) === 'completed');
    return lines.slice(before);
  };

  it('tells a run that did nothing at debug, and one that did something at info', async () => {
    expect(await run('idle', { resumed: 0, retried: 0, failed: 0 })).toEqual([
      { level: 'debug', line: 'job echo done: {"resumed":0,"retried":0,"failed":0}' },
    ]);
    expect(await run('busy', { resumed: 0, retried: 2, failed: 0 })).toEqual([
      { level: 'info', line: 'job echo done: {"resumed":0,"retried":2,"failed":0}' },
    ]);
  });

  it('with a plain function for its log, tells only the runs that did something', async () => {
    const worker = startJobWorker([echo], context, {
      connection: redis.connection,
      prefix: `${redis.prefix}-plain`,
      log: (line) => void plain.push(line),
    });
    workers.push(worker);
    const own = createJobQueue(redis.connection, `${redis.prefix}-plain`);
    try {
      await own.enqueue(echo, { result: { made: 0 } }, 'quiet');
      await own.enqueue(echo, { result: { made: 3 } }, 'loud');
      await until(async () => (await own.state('loud')) === 'completed' && (await own.state('quiet')) === 'completed');
      expect(plain).toEqual(['job echo done: {"made":3}']);
    } finally {
      await own.queue.obliterate({ force: true });
      await own.close();
    }
  });
});
