// A newcomer working as root clones into the home directory (0700) and runs `pnpm start`: the
// embedded PostgreSQL, which runs as the OS user postgres, must start all the same.
import { chmodSync, lstatSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanUp, runStart, startEnv, startRedis, tempDir } from './startup-process.js';

const IS_ROOT = process.getuid?.() === 0;
const clusters: string[] = [];
afterAll(async () => {
  for (const cluster of clusters.splice(0)) rmSync(cluster, { recursive: true, force: true });
  await cleanUp();
});

it.skipIf(!IS_ROOT)(
  'pnpm start as root with DATA_DIR under a directory others cannot enter starts and serves',
  async () => {
    const home = tempDir('startup-closed-home-');
    chmodSync(home, 0o700);
    const dataDir = join(home, 'repo', '.data');
    const env = await startEnv({ DATA_DIR: dataDir, REDIS_URL: await startRedis('noeviction'), LOG_LEVEL: 'info' });
    const result = await runStart(env, { until: /agent platform listening/ });
    const link = join(dataDir, 'postgres');
    if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink()) clusters.push(realpathSync(link));
    expect(result.stdout, result.stderr).toMatch(/agent platform listening/);
    expect(result.stdout).toMatch(/embedded PostgreSQL started .*data in [^ ]+, a link to [^ ;]+clusters/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(result.code, result.stderr).toBe(0);
  },
  120_000,
);
