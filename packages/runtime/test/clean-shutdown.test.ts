// A clean stop says nothing alarming: `pnpm start` stopped with SIGTERM writes no warning or error
// (it used to warn "lost the connection to Redis" on every stop: the Redis monitor took the close
// of its own disconnect for an outage), while a Redis that really goes away is still told.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '@platform/testkit';
import { watchRedis } from '../src/redis-monitor.js';
import { cleanUp, runStart, startEnv, startRedis } from './startup-process.js';

afterAll(cleanUp);

describe('pnpm start stopped with SIGTERM', () => {
  it('exits 0 and logs no warning or error, and no lost Redis connection', async () => {
    const env = await startEnv({ LOG_LEVEL: 'info' });
    const { code, stdout, stderr } = await runStart(env, { until: /agent platform listening/ });
    const output = stdout + stderr;
    expect(output).toContain('shut down');
    expect({ code, warnings: output.split('\n').filter((line) => /"level":(40|50|60)/.test(line)) }).toEqual({
      code: 0,
      warnings: [],
    });
    expect(output).not.toContain('lost the connection');
  }, 180_000);
});

describe('the Redis monitor', () => {
  const watch = async (url: string) => {
    const warnings: string[] = [];
    const monitor = watchRedis({ host: '127.0.0.1', port: Number(new URL(url).port), maxRetriesPerRequest: null }, {
      info: () => {},
      warn: (line: string) => void warnings.push(line),
    } as never);
    // Ready once its connection is up (a client of its own besides ours).
    const probe = new Redis(url);
    await until(async () => ((await probe.client('LIST')) as string).split('\n').filter(Boolean).length >= 2);
    return { monitor, warnings, probe };
  };

  it('is quiet when it is closed', async () => {
    const { monitor, warnings, probe } = await watch(await startRedis('noeviction'));
    monitor.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await probe.quit();
    expect(warnings).toEqual([]);
  });

  it('warns once when Redis goes away', async () => {
    const { monitor, warnings, probe } = await watch(await startRedis('noeviction'));
    probe.on('error', () => {});
    // No answer comes (the server is gone): not awaited.
    probe.call('SHUTDOWN', 'NOSAVE').catch(() => {});
    await until(async () => warnings.length > 0);
    monitor.close();
    probe.disconnect();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^lost the connection to Redis at 127\.0\.0\.1:\d+/);
  });
});
